/* test_report_unknowns.c — what the reports say of gates, unknown resources and launches
 * (issue 28): every gate asked for with the real reason when it was not judged
 * (report/gate_summary.c), unknown resources said with why (report/resources_text.c), a
 * launch refusal said once and what was assumed shown (report/launch_text.c). */
#include "kd_test.h"

#include <string.h>

#include "diff/gate.h"
#include "diff/comparison.h"
#include "report/gate_summary.h"
#include "report/launch_text.h"
#include "report/resources_text.h"

static void gates_in_the_body(void **state)
{
    (void)state;
    kd_comparison *c = calloc(1, sizeof *c);
    kd_strbuf text = {0};
    /* nothing asked: nothing said, nothing bad */
    assert_false(kd_gate_asked(c));
    assert_false(kd_gate_summary(c, &text));
    assert_int_equal(text.len, 0);
    /* --require-match alone without a GPU: named, with the runtime note's reason */
    kd_gate_options o = {.fail_if_slower_pct = -1, .require_match = true};
    kd_gate_evaluate(&c->timing, false, KD_OUTPUTS_NOT_CHECKED, &o, &c->gate);
    kd_note_set(&c->runtime_note, KD_RUNTIME_NO_GPU, KD_NOTE_NO_SIDE, NULL, NULL, "KERNDIFF_NO_GPU is set");
    assert_true(kd_gate_asked(c));
    assert_true(kd_gate_summary(c, &text));
    assert_string_equal(kd_sb_str(&text), "gate --require-match: NOT EVALUATED, no outputs were compared: runtime "
                                          "measurement skipped: KERNDIFF_NO_GPU is set; static diff only");
    kd_sb_free(&text);
    /* judged: passed, and failed */
    c->timed = true;
    kd_gate_evaluate(&c->timing, true, KD_OUTPUTS_MATCH, &o, &c->gate);
    assert_false(kd_gate_summary(c, &text));
    assert_string_equal(kd_sb_str(&text), "gate --require-match: passed, the outputs match");
    kd_sb_free(&text);
    kd_gate_evaluate(&c->timing, true, KD_OUTPUTS_DIFFER, &o, &c->gate);
    assert_true(kd_gate_summary(c, &text));
    assert_string_equal(kd_sb_str(&text), "gate --require-match: FAILED, the outputs differ between v1 and v2");
    kd_sb_free(&text);
    /* --fail-if-slower judged, --require-match not (--no-check): two lines, bad */
    c->gate = (kd_gate){.requested = true, .limit_pct = 5, .evaluated = true, .slowdown = 1.01,
                        .slowdown_low = 0.99, .match_required = true, .result = KD_GATE_NOT_MEASURED};
    assert_true(kd_gate_summary(c, &text));
    assert_string_equal(kd_sb_str(&text), "gate --fail-if-slower 5%: passed (v2 takes +1.00% time, 95% CI at least "
                                          "-1.00%)\ngate --require-match: NOT EVALUATED, no outputs were compared: "
                                          "the correctness check was off (--no-check)");
    kd_sb_free(&text);
    kd_note_free(&c->runtime_note);
    free(c);
}

static void unknown_resources_say_why(void **state)
{
    (void)state;
    kd_comparison *c = calloc(1, sizeof *c);
    kd_strbuf text = {0};
    kd_note_set(&c->sass_note, KD_SASS_NO_CUOBJDUMP, KD_NOTE_NO_SIDE, NULL, NULL, NULL);
    assert_false(kd_resources_known(c));
    kd_resources_unknown_text(c, &text);
    assert_string_equal(kd_sb_str(&text), "resources unknown (cuobjdump not found)");
    kd_sb_free(&text);
    c->side[0].stat.resources.found = true;
    kd_resources_unknown_text(c, &text);
    assert_string_equal(kd_sb_str(&text), "resources of v2 unknown (cuobjdump not found)");
    kd_sb_free(&text);
    /* no cuobjdump note: the build's report had no entry */
    kd_note_free(&c->sass_note);
    c->side[0].stat.resources.found = false;
    c->side[1].stat.resources.found = true;
    kd_resources_unknown_text(c, &text);
    assert_string_equal(kd_sb_str(&text), "resources of v1 unknown (the build reported none for the kernel)");
    kd_sb_free(&text);
    c->side[0].stat.resources.found = true;
    assert_true(kd_resources_known(c));
    kd_resources_unknown_text(c, &text);
    assert_int_equal(text.len, 0);
    free(c);
}

static void launch_reason_once_and_assumptions(void **state)
{
    (void)state;
    kd_comparison *c = calloc(1, sizeof *c);
    kd_strbuf text = {0};
    char reason[] = "scalar parameter 'a' (float) needs a value";
    c->side[0].launch_error = reason;
    c->side[1].launch_error = reason;
    /* no runtime note: the launch block says the reason */
    kd_launch_block_text(c, "  ", &text);
    assert_string_equal(kd_sb_str(&text), "  v1, v2: not launchable as described: scalar parameter 'a' (float) needs a "
                                          "value\n");
    kd_sb_free(&text);
    /* the runtime note says it: pointed to, not repeated */
    kd_note_set(&c->runtime_note, KD_RUNTIME_UNLAUNCHABLE, KD_NOTE_BOTH, "k", NULL, reason);
    kd_launch_block_text(c, "  ", &text);
    assert_string_equal(kd_sb_str(&text), "  v1, v2: not launchable as described (see below)\n");
    kd_sb_free(&text);
    /* a note with another reason: this side's own reason is kept */
    kd_note_set(&c->runtime_note, KD_RUNTIME_UNLAUNCHABLE, KD_NOTE_V1, "k", NULL, "something else");
    kd_launch_block_text(c, "  ", &text);
    assert_non_null(strstr(kd_sb_str(&text), "not launchable as described: scalar parameter 'a'"));
    kd_sb_free(&text);
    kd_note_free(&c->runtime_note);
    /* launchable sides: the assumed line follows the arguments, and decides sameness */
    for (int s = 0; s < 2; s++) {
        kd_launch_spec *l = &c->side[s].launch;
        c->side[s].launch_error = NULL;
        l->grid[0] = l->grid[1] = l->grid[2] = 1;
        l->block[0] = 256, l->block[1] = l->block[2] = 1;
        l->grid_origin = l->block_origin = l->smem_origin = l->n_origin = "default";
        l->n = 256;
        l->dynamic_smem = 1024;
    }
    strcpy(c->side[0].launch.assumed, "smem 1024 B: one float a thread");
    strcpy(c->side[1].launch.assumed, "smem 1024 B: one float a thread");
    kd_launch_block_text(c, "  ", &text);
    assert_string_equal(kd_sb_str(&text), "  v1, v2: grid 1 (default)  block 256 (default)  smem 1024 B (default)  n 256 "
                                          "(default)\n          assumed: smem 1024 B: one float a thread\n");
    kd_sb_free(&text);
    c->side[1].launch.assumed[0] = '\0';
    kd_launch_block_text(c, "  ", &text);
    assert_non_null(strstr(kd_sb_str(&text), "  v1:     grid 1"));
    assert_non_null(strstr(kd_sb_str(&text), "\n  v2:     grid 1"));
    /* one assumed line, v1's, before v2's line */
    const char *assumed = strstr(kd_sb_str(&text), "          assumed: smem 1024 B");
    assert_non_null(assumed);
    assert_null(strstr(assumed + strlen("          assumed:"), "assumed:"));
    assert_true(assumed < strstr(kd_sb_str(&text), "\n  v2:"));
    kd_sb_free(&text);
    free(c);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(gates_in_the_body),
        cmocka_unit_test(unknown_resources_say_why),
        cmocka_unit_test(launch_reason_once_and_assumptions),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
