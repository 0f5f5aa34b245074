/* Under a replayed launch (--launch FILE) the harness's buffers are arguments P+J, after the
 * kernel's P parameters (docs/PROTOCOL.md "Replayed launches"), while the side's spec holds
 * only the J buffers (launch/replay.c): a sanitizer finding must name buffer J, not the
 * spec's argument P+J (or none). P is the capture's parameter count, which
 * sanitizer/sanitize_pass.c passes (side->replay->cap.nparams). */
#include "kd_test.h"

#include <string.h>

#include "sanitizer/report.h"

/* A replay of axpy(float a, const float *x, float *y, int n): P = 4, allocations x and y. */
static kd_launch_arg replay_args[2];
static kd_launch_spec replay_spec = {.n = 1024, .n_origin = "captured", .args = replay_args, .nargs = 2};

static int set_up(void **state)
{
    (void)state;
    replay_args[0] = (kd_launch_arg){.name = "x", .role = KD_ROLE_INPUT, .type = {.base = KD_DT_F32, .lanes = 1},
                                     .count = 1024, .origin = "captured"};
    replay_args[1] = (kd_launch_arg){.name = "y", .role = KD_ROLE_INOUT, .type = {.base = KD_DT_F32, .lanes = 1},
                                     .count = 1024, .origin = "captured"};
    return 0;
}

static void replayed_indexes_name_the_allocations(void **state)
{
    (void)state;
    kd_san_buffer b[8];
    size_t n = kd_san_buffers("4:0x7f0000000000:4096,5:0x7f0000010000:4096", &replay_spec, 4, b, 8);
    assert_int_equal(n, 2);
    assert_ptr_equal(b[0].arg, &replay_args[0]);
    assert_ptr_equal(b[1].arg, &replay_args[1]);
    assert_true(b[1].address == 0x7f0000010000ull && b[1].bytes == 4096);

    /* a write one past y's end is said as y[1024], not as another buffer or as nothing */
    kd_san_finding f = {.kind = KD_SAN_INVALID_ACCESS, .access = "write", .space = "global", .size = 4,
                        .has_address = true, .address = 0x7f0000010000ull + 4096, .has_nearest = true,
                        .offset = 1, .nearest = 0x7f0000010000ull, .nearest_size = 4096, .count = 1};
    kd_strbuf text = {0};
    kd_san_explain(&f, b, n, &text);
    assert_non_null(strstr(kd_sb_str(&text), "y[1024]"));
    assert_null(strstr(kd_sb_str(&text), "x["));
    kd_sb_free(&text);
}

static void described_indexes_are_the_specs(void **state)
{
    (void)state;
    /* the same spec described (not replayed): an index is a place in spec->args */
    kd_launch_spec described = replay_spec;
    described.n_origin = "--n";
    kd_san_buffer b[8];
    size_t n = kd_san_buffers("1:0x1000:4096", &described, 0, b, 8);
    assert_int_equal(n, 1);
    assert_ptr_equal(b[0].arg, &replay_args[1]);
    /* past the spec's arguments: dropped, never read */
    assert_int_equal(kd_san_buffers("4:0x1000:4096", &described, 0, b, 8), 0);
    /* a replay's list cut to room */
    assert_int_equal(kd_san_buffers("4:0x1000:4,5:0x2000:4", &replay_spec, 4, b, 1), 1);
    assert_ptr_equal(b[0].arg, &replay_args[0]);
    assert_int_equal(kd_san_buffers("-", &replay_spec, 4, b, 8), 0);
    /* a list naming only y (P + 1): y, never x (the parameter count is given, not guessed
     * from the smallest index listed) */
    assert_int_equal(kd_san_buffers("5:0x2000:4096", &replay_spec, 4, b, 8), 1);
    assert_ptr_equal(b[0].arg, &replay_args[1]);
    /* the capture's parameters themselves are no buffers */
    assert_int_equal(kd_san_buffers("0:0x1000:4,3:0x3000:4", &replay_spec, 4, b, 8), 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup(replayed_indexes_name_the_allocations, set_up),
        cmocka_unit_test_setup(described_indexes_are_the_specs, set_up),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
