/* test_gates.c — nothing false from what cannot be known: buffer sizes range-checked
 * (measure/timing.c), every gate that could not be judged fails closed with the real reason
 * (diff/gate.c, report/gate_text.c), unknown resources are unknown (diff/rows.c), and the
 * notes that say so (report/note_text.c). */
#include "kd_test.h"

#include <string.h>

#include "diff/gate.h"
#include "diff/comparison.h"
#include "diff/rows.h"
#include "measure/timing.h"
#include "report/gate_text.h"
#include "report/note_text.h"

static void sizes_are_range_checked(void **state)
{
    (void)state;
    kd_launch_arg args[2] = {
        {.name = "x", .role = KD_ROLE_INPUT, .type = {.base = KD_DT_F32, .lanes = 1}, .count = 1ull << 52},
        {.name = "y", .role = KD_ROLE_OUTPUT, .type = {.base = KD_DT_F32, .lanes = 1}, .count = 16},
    };
    kd_launch_spec spec = {.args = args, .nargs = 2};
    kd_strbuf why = {0};
    /* 2^52 floats: 16 PiB, and count x 4 would overflow nothing here but is far past the cap. */
    assert_int_equal(kd_timing_check_sizes(&spec, "v2", &why), -1);
    assert_non_null(strstr(kd_sb_str(&why), "v2: buffer 'x' (4503599627370496 f32 elements"));
    assert_non_null(strstr(kd_sb_str(&why), "more than the 1024 GiB"));
    kd_sb_free(&why);
    /* A count whose byte size wraps 64 bits. */
    args[0].count = ~0ull / 2;
    assert_int_equal(kd_timing_check_sizes(&spec, NULL, &why), -1);
    assert_int_equal(strncmp(kd_sb_str(&why), "buffer 'x'", 10), 0);
    kd_sb_free(&why);
    /* Each under the cap, together over it: the second is named. */
    args[0].count = (KD_MAX_SIDE_BYTES / 4) - 8;
    assert_int_equal(kd_timing_check_sizes(&spec, "v1", &why), -1);
    assert_non_null(strstr(kd_sb_str(&why), "v1: buffer 'y'"));
    assert_non_null(strstr(kd_sb_str(&why), "with the buffers before it"));
    kd_sb_free(&why);
    /* Exactly at the cap is allowed. */
    args[0].count = (KD_MAX_SIDE_BYTES / 4) - 16;
    assert_int_equal(kd_timing_check_sizes(&spec, "v1", &why), 0);
    assert_int_equal(why.len, 0);
}

static void require_match_fails_closed(void **state)
{
    (void)state;
    kd_timing t;
    memset(&t, 0, sizeof t);
    kd_gate g;
    kd_gate_options o = {.fail_if_slower_pct = -1, .require_match = true};
    /* Nothing timed: not a pass. */
    assert_int_equal(kd_gate_evaluate(&t, false, KD_OUTPUTS_NOT_CHECKED, &o, &g), KD_GATE_NOT_MEASURED);
    assert_false(g.match_evaluated);
    /* Compared and equal: passes; compared and different: fails. */
    assert_int_equal(kd_gate_evaluate(&t, true, KD_OUTPUTS_MATCH, &o, &g), KD_GATE_PASSED);
    assert_int_equal(kd_gate_evaluate(&t, true, KD_OUTPUTS_DIFFER, &o, &g), KD_GATE_OUTPUTS_DIFFER);
    /* Not asked: nothing to evaluate. */
    o.require_match = false;
    assert_int_equal(kd_gate_evaluate(&t, false, KD_OUTPUTS_NOT_CHECKED, &o, &g), KD_GATE_PASSED);
}

static void the_reason_is_the_real_one(void **state)
{
    (void)state;
    kd_comparison *c = calloc(1, sizeof *c);
    kd_gate_options o = {.fail_if_slower_pct = 5, .require_match = true};
    kd_gate_evaluate(&c->timing, false, KD_OUTPUTS_NOT_CHECKED, &o, &c->gate);
    kd_note_set(&c->runtime_note, KD_RUNTIME_NO_GPU, KD_NOTE_NO_SIDE, NULL, NULL, "KERNDIFF_NO_GPU is set");
    kd_strbuf text = {0};
    kd_gate_not_evaluated_text(c, &text);
    assert_string_equal(kd_sb_str(&text), "gate --fail-if-slower 5%, --require-match: NOT EVALUATED, nothing was "
                                          "measured and no outputs were compared: runtime measurement skipped: "
                                          "KERNDIFF_NO_GPU is set; static diff only");
    kd_sb_free(&text);
    /* Timed without the check: only --require-match is left, and says why. */
    c->timed = true;
    o.fail_if_slower_pct = -1;
    kd_gate_evaluate(&c->timing, true, KD_OUTPUTS_NOT_CHECKED, &o, &c->gate);
    kd_gate_not_evaluated_text(c, &text);
    assert_string_equal(kd_sb_str(&text), "gate --require-match: NOT EVALUATED, no outputs were compared: the "
                                          "correctness check was off (--no-check)");
    kd_sb_free(&text);
    /* Every gate judged: nothing to say. */
    kd_gate_evaluate(&c->timing, true, KD_OUTPUTS_MATCH, &o, &c->gate);
    kd_gate_not_evaluated_text(c, &text);
    assert_int_equal(text.len, 0);
    kd_note_free(&c->runtime_note);
    free(c);
}

static void nested_notes_carry_the_reason(void **state)
{
    (void)state;
    kd_note n = {0};
    kd_strbuf text = {0};
    kd_note_set(&n, KD_RUNTIME_GATE_NOT_EVALUATED, KD_NOTE_NO_SIDE, "--sanitize", "no_gpu", "KERNDIFF_NO_GPU is set");
    kd_note_text(&n, &text);
    assert_string_equal(kd_sb_str(&text), "gate --sanitize: NOT EVALUATED, nothing was run: runtime measurement "
                                          "skipped: KERNDIFF_NO_GPU is set; static diff only");
    kd_sb_free(&text);
    /* A reason naming this note itself, another kind's id, or nothing: not followed. */
    static const char *const unfollowed[] = {"gate_not_evaluated", "no_cuobjdump", "nonsense"};
    for (size_t i = 0; i < 3; i++) {
        kd_note_set(&n, KD_RUNTIME_GATE_NOT_EVALUATED, KD_NOTE_NO_SIDE, "--sanitize", unfollowed[i], NULL);
        kd_note_text(&n, &text);
        assert_string_equal(kd_sb_str(&text), "gate --sanitize: NOT EVALUATED, nothing was run: nothing was run");
        kd_sb_free(&text);
    }
    kd_note_set(&n, KD_REGIONS_NOT_TIMED, KD_NOTE_NO_SIDE, "no_run_flag", NULL, NULL);
    kd_note_text(&n, &text);
    assert_string_equal(kd_sb_str(&text), "regions not recorded: nothing was run, so no region was timed (runtime "
                                          "measurement not run: --no-run; static diff only)");
    kd_sb_free(&text);
    kd_note_set(&n, KD_RUNTIME_SAVED_NO_SAMPLES, KD_NOTE_V2, NULL, NULL, NULL);
    n.number[0] = 1;
    n.number[1] = 2;
    kd_note_text(&n, &text);
    assert_string_equal(kd_sb_str(&text), "no timing compared: NEW's run has 1 usable runtime sample; a comparison "
                                          "needs at least 2 per run");
    kd_sb_free(&text);
    kd_note_set(&n, KD_SELECTION_SAVED_KERNELS_DIFFER, KD_NOTE_NO_SIDE, "saxpy", "axpy", NULL);
    kd_note_text(&n, &text);
    assert_non_null(strstr(kd_sb_str(&text), "different kernels, saxpy (OLD) and axpy (NEW)"));
    kd_sb_free(&text);
    kd_note_free(&n);
}

static void unknown_resources_are_unknown(void **state)
{
    (void)state;
    kd_static_result r;
    memset(&r, 0, sizeof r);
    char buf[32];
    for (size_t i = 0; i < kd_resource_row_count; i++) {
        assert_false(kd_value_row_known(&kd_resource_rows[i], &r));
        kd_value_row_format(&kd_resource_rows[i], &r, buf, sizeof buf);
        assert_string_equal(buf, KD_VALUE_UNKNOWN);
    }
    r.resources.found = true;
    r.resources.registers = 22;
    assert_true(kd_value_row_known(&kd_resource_rows[0], &r));
    kd_value_row_format(&kd_resource_rows[0], &r, buf, sizeof buf);
    assert_string_equal(buf, "22");
    /* The SASS rows are judged by needs_sass, as before. */
    assert_true(kd_value_row_known(&kd_check_rows[0], &r));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(sizes_are_range_checked),
        cmocka_unit_test(require_match_fails_closed),
        cmocka_unit_test(the_reason_is_the_real_one),
        cmocka_unit_test(nested_notes_carry_the_reason),
        cmocka_unit_test(unknown_resources_are_unknown),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
