#include "kd_test.h"

#include <string.h>

#include "report/timing_text.h"

static void expect_duration(double seconds, const char *want)
{
    kd_strbuf sb = {0};
    kd_duration_text(seconds, &sb);
    assert_string_equal(kd_sb_str(&sb), want);
    kd_sb_free(&sb);
}

static void short_durations_are_never_zero_seconds(void **state)
{
    (void)state;
    expect_duration(0.0001, "under 1 ms");
    expect_duration(0.037, "37 ms");
    expect_duration(2.44, "2.4 s");
}

/* A timing whose final CI half-width is `half` percent of a speedup of 1. */
static void expect_target(double half, bool reached_by_stop_rule, const char *want)
{
    kd_timing t;
    memset(&t, 0, sizeof t);
    t.speedup.ratio = 1;
    t.speedup.lo = 1 - half / 100;
    t.speedup.hi = 1 + half / 100;
    t.target_pct = 1;
    t.target_reached = reached_by_stop_rule;
    t.stop_reason = reached_by_stop_rule ? KD_STOP_TARGET_REACHED : KD_STOP_MAX_TIME;
    kd_strbuf sb = {0};
    kd_target_text(&t, half, &sb);
    assert_string_equal(kd_sb_str(&sb), want);
    kd_sb_free(&sb);
}

static void the_target_sentence_says_whether_it_was_met(void **state)
{
    (void)state;
    expect_target(0.8, true, "target reached: CI half-width 0.80% <= 1.00% target");
    expect_target(1.05, true, "target not reached: CI half-width 1.05% > 1.00% target "
                              "(the stopping check's quicker estimate was within it)");
    expect_target(3, false, "target not reached: CI half-width 3.00% > 1.00% target (stopped by --max-time)");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(short_durations_are_never_zero_seconds),
        cmocka_unit_test(the_target_sentence_says_whether_it_was_met),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
