/* wire/counters: the `counters` reply's optional phase times (setup_ms, passes_ms,
 * evaluate_ms: where the harness's time went, bench/full_diff.sh) are read when present and
 * -1 when a harness does not send them (the simulated one, an older one). */
#include "kd_test.h"

#include <string.h>

#include "wire/counters.h"

enum { TIMEOUT_MS = 10000 };

static const char *const names[] = {"gpu__time_duration.sum"};

/* A scripted child that answers `reply` to `counters`, then `ok quit`. */
static kd_wire_counters_status ask(const char *reply, kd_wire_counters_reply *out)
{
    const char *argv[] = {"/bin/sh", "-c", "read l; printf '%s\\n' \"$0\"; read l; echo ok quit", reply, NULL};
    kd_child c;
    kd_strbuf start = {0}, why = {0};
    assert_int_equal(kd_child_start(&c, "v1", argv, &start), 0);
    kd_sb_free(&start);
    kd_wire_counters_status st = kd_wire_counters(&c, names, 1, TIMEOUT_MS, out, &why);
    kd_child_stop(&c);
    kd_sb_free(&why);
    return st;
}

static void phases_read(void **state)
{
    (void)state;
    kd_wire_counters_reply r;
    assert_int_equal(ask("ok counters ranges=1 passes=12 replay=user kernels=k r0=1500 setup_ms=281.5 passes_ms=392.0 "
                         "evaluate_ms=1.2",
                         &r),
                     KD_WIRE_COUNTERS_OK);
    assert_true(r.values[0] == 1500);
    assert_true(r.setup_ms == 281.5 && r.passes_ms == 392.0 && r.evaluate_ms == 1.2);
    kd_wire_counters_free(&r);
}

static void phases_absent(void **state)
{
    (void)state;
    kd_wire_counters_reply r;
    assert_int_equal(ask("ok counters ranges=1 passes=1 replay=simulated kernels=k r0=7", &r), KD_WIRE_COUNTERS_OK);
    assert_true(r.values[0] == 7);
    assert_true(r.setup_ms == -1 && r.passes_ms == -1 && r.evaluate_ms == -1);
    kd_wire_counters_free(&r);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(phases_read),
        cmocka_unit_test(phases_absent),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
