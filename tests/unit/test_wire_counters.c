/* wire/counters: the `counters` reply (docs/PROTOCOL.md) read from a scripted child, a shell
 * that answers the one command with the line each test gives, then `quit`: the values of
 * every kernel in the order asked, `nan`, %-encoded names with commas, each refusal kind, and
 * replies that are malformed. */
#include "kd_test.h"

#include <math.h>
#include <string.h>

#include "wire/counters.h"

enum { TIMEOUT_MS = 10000 };

static const char *const names[] = {"gpu__time_duration.sum", "dram__bytes_read.sum", "lts__t_sector_hit_rate.pct"};

/* Starts a child that answers `reply` to the first command and `ok quit` to the next, sends
 * `counters`, stops the child. */
static kd_wire_counters_status ask(const char *reply, kd_wire_counters_reply *out, kd_strbuf *why)
{
    const char *argv[] = {"/bin/sh", "-c", "read l; printf '%s\\n' \"$0\"; read l; echo ok quit", reply, NULL};
    kd_child c;
    kd_strbuf start = {0};
    assert_int_equal(kd_child_start(&c, "v1", argv, &start), 0);
    kd_sb_free(&start);
    kd_wire_counters_status st = kd_wire_counters(&c, names, 3, TIMEOUT_MS, out, why);
    kd_child_stop(&c);
    return st;
}

static void two_kernels(void **state)
{
    (void)state;
    kd_wire_counters_reply r;
    kd_strbuf why = {0};
    assert_int_equal(ask("ok counters ranges=2 passes=41 replay=user kernels=f%3Cint%2C%20float%3E,- "
                         "r0=1500,4096,nan r1=2.5e3,0,50.25",
                         &r, &why),
                     KD_WIRE_COUNTERS_OK);
    assert_int_equal(r.ranges, 2);
    assert_int_equal(r.passes, 41);
    assert_string_equal(r.replay, "user");
    assert_string_equal(r.kernels[0], "f<int, float>");
    assert_string_equal(r.kernels[1], "");
    assert_true(r.values[0] == 1500 && r.values[1] == 4096 && isnan(r.values[2]));
    assert_true(r.values[3] == 2500 && r.values[4] == 0 && r.values[5] == 50.25);
    kd_wire_counters_free(&r);
    kd_sb_free(&why);
}

static void refusals(void **state)
{
    (void)state;
    kd_wire_counters_reply r;
    kd_strbuf why = {0};
    assert_int_equal(ask("err counters unavailable libcupti lacks cuptiRangeProfilerEnable", &r, &why),
                     KD_WIRE_COUNTERS_UNAVAILABLE);
    assert_string_equal(kd_sb_str(&why), "libcupti lacks cuptiRangeProfilerEnable");
    assert_null(r.values);
    kd_sb_free(&why);
    assert_int_equal(ask("err counters unknown a.sum,b.pct", &r, &why), KD_WIRE_COUNTERS_UNKNOWN);
    assert_string_equal(kd_sb_str(&why), "a.sum,b.pct");
    kd_sb_free(&why);
    /* Any other err is the child's failure, in its words. */
    assert_int_equal(ask("err counters failed cuptiRangeProfilerStart failed", &r, &why), KD_WIRE_COUNTERS_FAILED);
    assert_non_null(strstr(kd_sb_str(&why), "cuptiRangeProfilerStart failed"));
    kd_sb_free(&why);
    assert_int_equal(ask("err cuda running the kernel failed: CUDA_ERROR_ILLEGAL_ADDRESS", &r, &why),
                     KD_WIRE_COUNTERS_FAILED);
    assert_non_null(strstr(kd_sb_str(&why), "CUDA_ERROR_ILLEGAL_ADDRESS"));
    kd_sb_free(&why);
}

static void malformed(void **state)
{
    (void)state;
    static const char *const bad[] = {
        "ok counters passes=1 replay=user kernels=k r0=1,2,3",             /* no ranges= */
        "ok counters ranges=1 passes=1 replay=user kernels=k r0=1,2",      /* a value short */
        "ok counters ranges=1 passes=1 replay=user kernels=k r0=1,2,3,4",  /* a value over */
        "ok counters ranges=1 passes=1 replay=user kernels=k r0=1,x,3",    /* not a number */
        "ok counters ranges=1 passes=1 replay=user kernels=k r0=1,inf,3",  /* not finite */
        "ok counters ranges=2 passes=1 replay=user kernels=k r0=1,2,3",    /* a kernel short */
        "ok counters ranges=0 passes=1 replay=user kernels=- r0=1,2,3",    /* no kernel */
        "ok once",                                                          /* another command's */
    };
    for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
        kd_wire_counters_reply r;
        kd_strbuf why = {0};
        if (ask(bad[i], &r, &why) != KD_WIRE_COUNTERS_FAILED)
            fail_msg("accepted: %s", bad[i]);
        assert_null(r.values);
        assert_null(r.kernels);
        assert_true(why.len > 0);
        kd_sb_free(&why);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(two_kernels),
        cmocka_unit_test(refusals),
        cmocka_unit_test(malformed),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
