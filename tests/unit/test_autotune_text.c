/* Issue 29 item 2: an autotuned kernel's choice is data (backend/side.h's kd_autotune, made by
 * diff/autotune.c); report/autotune_text.c words it, one sentence for every report. */
#include "kd_test.h"

#include <math.h>
#include <string.h>

#include "report/autotune_text.h"
#include "report/note_text.h"

static char *configs3[] = {"BLOCK=256, num_warps=2", "BLOCK=512, num_warps=4", "BLOCK=1024, num_warps=8"};

static kd_autotune tuned(kd_tune_how how, size_t chosen)
{
    return (kd_autotune){.count = 3, .chosen = chosen, .how = how, .decided = true, .configs = configs3};
}

static void fastest_names_each_time(void **state)
{
    (void)state;
    double ns[3] = {55000, 41200, NAN};
    kd_autotune t = tuned(KD_TUNE_FASTEST, 1);
    t.median_ns = ns;
    t.untimed = KD_UNTIMED_TIMING_FAILED;
    t.untimed_config = 2;
    t.untimed_detail = "timing the kernel: the harness exited with status 1";
    kd_strbuf sb = {0};
    assert_true(kd_autotune_text(&t, &sb));
    assert_string_equal(kd_sb_str(&sb),
                        "autotune: config 2 of 3 (BLOCK=512, num_warps=4) was fastest, 41.20us vs 55.00us/(did not run) "
                        "(each timed briefly alone; --arg of its meta-parameters picks one); config 3 could not run: "
                        "timing the kernel: the harness exited with status 1");
    kd_sb_free(&sb);
}

static void given_and_first(void **state)
{
    (void)state;
    kd_autotune t = tuned(KD_TUNE_GIVEN, 2);
    kd_strbuf sb = {0};
    assert_true(kd_autotune_text(&t, &sb));
    assert_string_equal(kd_sb_str(&sb), "autotune: config 3 of 3 (BLOCK=1024, num_warps=8) used, the one the values "
                                        "given (--arg, --call, annotations) select");
    kd_sb_free(&sb);
    t = tuned(KD_TUNE_FIRST, 0);
    t.untimed = KD_UNTIMED_NO_AUTOTUNE;
    assert_true(kd_autotune_text(&t, &sb));
    assert_string_equal(kd_sb_str(&sb), "autotune: config 1 of 3 (BLOCK=256, num_warps=2) used, the first: --no-autotune");
    kd_sb_free(&sb);
    t.untimed = KD_UNTIMED_LAUNCH_FAILED;
    t.untimed_config = 0;
    t.untimed_detail = "no grid";
    assert_true(kd_autotune_text(&t, &sb));
    assert_non_null(strstr(kd_sb_str(&sb), "the first: config 1 could not run: cannot launch it: no grid"));
    kd_sb_free(&sb);
}

/* Nothing can be timed: the runtime note's own sentence, in parentheses. */
static void nothing_timed_quotes_the_note(void **state)
{
    (void)state;
    kd_autotune t = tuned(KD_TUNE_FIRST, 0);
    t.untimed = KD_UNTIMED_NOTHING_TIMED;
    kd_note_set(&t.untimed_note, KD_RUNTIME_NO_GPU, KD_NOTE_NO_SIDE, NULL, NULL, "no device");
    kd_strbuf note = {0}, sb = {0};
    assert_true(kd_note_text(&t.untimed_note, &note));
    assert_true(kd_autotune_text(&t, &sb));
    kd_strbuf want = {0};
    kd_sb_printf(&want, "autotune: config 1 of 3 (BLOCK=256, num_warps=2) used, the first: nothing could be timed (%s)",
                 kd_sb_str(&note));
    assert_string_equal(kd_sb_str(&sb), kd_sb_str(&want));
    kd_note_free(&t.untimed_note);
    kd_sb_free(&note);
    kd_sb_free(&sb);
    kd_sb_free(&want);
}

/* Not autotuned, or no choice made (a config failed to build): nothing said. */
static void nothing_without_a_choice(void **state)
{
    (void)state;
    kd_autotune none = {0};
    kd_autotune undecided = tuned(KD_TUNE_FIRST, 0);
    undecided.decided = false;
    kd_strbuf sb = {0};
    assert_false(kd_autotune_text(&none, &sb));
    assert_false(kd_autotune_text(&undecided, &sb));
    assert_int_equal(sb.len, 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(fastest_names_each_time),
        cmocka_unit_test(given_and_first),
        cmocka_unit_test(nothing_timed_quotes_the_note),
        cmocka_unit_test(nothing_without_a_choice),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
