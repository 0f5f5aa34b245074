/* Issue 42 item 1: an autotuned kernel's configs measured as a comparison
 * (measure/tune_select.h): the leader, whether its lead is significant, the tied set, each
 * side's best of set per round, and the sides compared on it. */
#include "kd_test.h"

#include <math.h>
#include <stdlib.h>

#include "measure/tune_select.h"

enum { ROUNDS = 40 };

/* A small deterministic generator: noise in [-1, 1). */
static unsigned long long rng_state;
static double noise(void)
{
    rng_state = rng_state * 6364136223846793005ULL + 1442695040888963407ULL;
    return (double)(rng_state >> 11) / (double)(1ULL << 53) * 2.0 - 1.0;
}

/* ns[r * n + i] = base[i] * (1 + drift of round r) * (1 + spread * noise). */
static void fill(double *ns, const double *base, size_t n, double spread, unsigned long long seed)
{
    rng_state = seed;
    for (size_t r = 0; r < ROUNDS; r++) {
        double drift = 1.0 + 0.02 * noise();
        for (size_t i = 0; i < n; i++)
            ns[r * n + i] = base[i] * drift * (1.0 + spread * noise());
    }
}

static void clear_leader_is_significant(void **state)
{
    (void)state;
    double base[3] = {5000, 4000, 5200}, ns[ROUNDS * 3];
    fill(ns, base, 3, 0.01, 1);
    kd_tune_samples s = {ns, 3, ROUNDS};
    kd_tune_choice c;
    assert_int_equal(kd_tune_choose(&s, 7, &c), 0);
    assert_int_equal(c.leader, 1);
    assert_int_equal(c.runner_up, 0);
    assert_true(c.lead_significant);
    assert_true(c.lead.lo > 1.0);
    assert_int_equal(c.tied_count, 1);
    assert_true(c.tied[1] && !c.tied[0] && !c.tied[2]);
    assert_false(kd_tune_needs_more(&c, ROUNDS, 1000));
    kd_tune_choice_free(&c);
}

static void equal_configs_are_tied(void **state)
{
    (void)state;
    /* configs 0 and 2 are one kernel; config 1 is 20% slower */
    double base[3] = {4000, 4800, 4000}, ns[ROUNDS * 3];
    fill(ns, base, 3, 0.01, 2);
    kd_tune_samples s = {ns, 3, ROUNDS};
    kd_tune_choice c;
    assert_int_equal(kd_tune_choose(&s, 7, &c), 0);
    assert_true(c.leader == 0 || c.leader == 2);
    assert_int_equal(c.runner_up, c.leader == 0 ? 2 : 0);
    assert_false(c.lead_significant);
    assert_int_equal(c.tied_count, 2);
    assert_true(c.tied[0] && c.tied[2] && !c.tied[1]);
    /* not separated: more rounds are worth it until the budget is spent */
    assert_true(kd_tune_needs_more(&c, ROUNDS, 1000));
    assert_false(kd_tune_needs_more(&c, 1000, 1000));
    kd_tune_choice_free(&c);
}

static void set_value_takes_only_tied_configs(void **state)
{
    (void)state;
    double base[2] = {4000, 6000}, ns[ROUNDS * 2];
    fill(ns, base, 2, 0.01, 3);
    ns[5 * 2 + 1] = 100; /* one lucky sample of the slow config: an outlier, not a tie */
    kd_tune_samples s = {ns, 2, ROUNDS};
    kd_tune_choice c;
    assert_int_equal(kd_tune_choose(&s, 7, &c), 0);
    assert_int_equal(c.leader, 0);
    assert_false(c.tied[1]);
    double value[ROUNDS];
    kd_tune_set_value(&s, c.tied, value);
    for (size_t r = 0; r < ROUNDS; r++)
        assert_true(value[r] == ns[r * 2]);
    /* two tied configs: their mean, round by round */
    bool both[2] = {true, true};
    kd_tune_set_value(&s, both, value);
    assert_true(value[7] == (ns[7 * 2] + ns[7 * 2 + 1]) / 2);
    kd_tune_choice_free(&c);
}

/* Both sides from one distribution, interleaved in the same rounds: whichever configs
 * each side's sampling happens to tie, set value against set value is no difference. */
static void identical_sides_give_no_difference(void **state)
{
    (void)state;
    double base[4] = {4000, 4010, 4005, 5000};
    for (unsigned long long seed = 10; seed < 30; seed++) {
        double ns[ROUNDS * 8], v1[ROUNDS * 4], v2[ROUNDS * 4];
        double both[8] = {base[0], base[1], base[2], base[3], base[0], base[1], base[2], base[3]};
        fill(ns, both, 8, 0.01, seed); /* v1's and v2's configs alternate within each round */
        for (size_t r = 0; r < ROUNDS; r++)
            for (size_t i = 0; i < 4; i++) {
                v1[r * 4 + i] = ns[r * 8 + i];
                v2[r * 4 + i] = ns[r * 8 + 4 + i];
            }
        kd_tune_samples s1 = {v1, 4, ROUNDS}, s2 = {v2, 4, ROUNDS};
        kd_tune_choice c1, c2;
        assert_int_equal(kd_tune_choose(&s1, seed, &c1), 0);
        assert_int_equal(kd_tune_choose(&s2, seed, &c2), 0);
        assert_false(c1.tied[3]);
        assert_false(c2.tied[3]);
        bool tied[4];
        assert_true(kd_tune_tied_union(&c1, &c2, 4, tied) >= 1);
        assert_false(tied[3]);
        double b1[ROUNDS], b2[ROUNDS];
        kd_tune_set_value(&s1, tied, b1);
        kd_tune_set_value(&s2, tied, b2);
        kd_speedup sp;
        assert_int_equal(kd_tune_pair_ratio((kd_tune_column){b1, 1}, (kd_tune_column){b2, 1}, ROUNDS, seed, &sp), 0);
        assert_int_equal(kd_verdict_of(&sp), KD_VERDICT_NO_DIFFERENCE);
        kd_tune_choice_free(&c1);
        kd_tune_choice_free(&c2);
    }
}

/* Sets of different sizes over configs that are one kernel: the per-round mean does not
 * move with the set's size (the fastest of three would fall about half the spread below
 * the fastest of one, and call identical kernels different). */
static void set_value_does_not_favour_larger_sets(void **state)
{
    (void)state;
    double base[6] = {4000, 4000, 4000, 4000, 4000, 4000}, ns[ROUNDS * 6], v1[ROUNDS * 3], v2[ROUNDS * 3];
    fill(ns, base, 6, 0.01, 5);
    for (size_t r = 0; r < ROUNDS; r++)
        for (size_t i = 0; i < 3; i++) {
            v1[r * 3 + i] = ns[r * 6 + i];
            v2[r * 3 + i] = ns[r * 6 + 3 + i];
        }
    kd_tune_samples s1 = {v1, 3, ROUNDS}, s2 = {v2, 3, ROUNDS};
    bool three[3] = {true, true, true}, one[3] = {true, false, false};
    double b1[ROUNDS], b2[ROUNDS];
    kd_tune_set_value(&s1, three, b1);
    kd_tune_set_value(&s2, one, b2);
    kd_speedup sp;
    assert_int_equal(kd_tune_pair_ratio((kd_tune_column){b1, 1}, (kd_tune_column){b2, 1}, ROUNDS, 5, &sp), 0);
    assert_int_equal(kd_verdict_of(&sp), KD_VERDICT_NO_DIFFERENCE);
}

static void slower_variant_is_slower(void **state)
{
    (void)state;
    double both[4] = {4000, 4400, 4200, 4620}; /* v1: 0,1; v2: the same configs 5% slower */
    double ns[ROUNDS * 4], v1[ROUNDS * 2], v2[ROUNDS * 2];
    fill(ns, both, 4, 0.01, 99);
    for (size_t r = 0; r < ROUNDS; r++)
        for (size_t i = 0; i < 2; i++) {
            v1[r * 2 + i] = ns[r * 4 + i];
            v2[r * 2 + i] = ns[r * 4 + 2 + i];
        }
    kd_tune_samples s1 = {v1, 2, ROUNDS}, s2 = {v2, 2, ROUNDS};
    kd_tune_choice c1, c2;
    assert_int_equal(kd_tune_choose(&s1, 1, &c1), 0);
    assert_int_equal(kd_tune_choose(&s2, 1, &c2), 0);
    bool tied[2];
    kd_tune_tied_union(&c1, &c2, 2, tied);
    double b1[ROUNDS], b2[ROUNDS];
    kd_tune_set_value(&s1, tied, b1);
    kd_tune_set_value(&s2, tied, b2);
    kd_speedup sp;
    assert_int_equal(kd_tune_pair_ratio((kd_tune_column){b1, 1}, (kd_tune_column){b2, 1}, ROUNDS, 1, &sp), 0);
    assert_int_equal(kd_verdict_of(&sp), KD_VERDICT_SLOWER);
    /* config by config: v1's config i against v2's config i, each slower */
    for (size_t i = 0; i < 2; i++) {
        assert_int_equal(kd_tune_pair_ratio((kd_tune_column){v1 + i, 2}, (kd_tune_column){v2 + i, 2}, ROUNDS, 1, &sp), 0);
        assert_int_equal(kd_verdict_of(&sp), KD_VERDICT_SLOWER);
    }
    kd_tune_choice_free(&c1);
    kd_tune_choice_free(&c2);
}

static void untimed_configs_are_left_out(void **state)
{
    (void)state;
    double ns[ROUNDS * 2];
    for (size_t r = 0; r < ROUNDS; r++) {
        ns[r * 2] = NAN;
        ns[r * 2 + 1] = 4000 + (double)(r % 3);
    }
    kd_tune_samples s = {ns, 2, ROUNDS};
    kd_tune_choice c;
    assert_int_equal(kd_tune_choose(&s, 1, &c), 0);
    assert_int_equal(c.leader, 1);
    assert_int_equal(c.runner_up, -1);
    assert_int_equal(c.tied_count, 1);
    kd_tune_choice_free(&c);
    for (size_t r = 0; r < ROUNDS; r++)
        ns[r * 2 + 1] = NAN;
    assert_int_equal(kd_tune_choose(&s, 1, &c), -1);
    assert_int_equal(c.leader, -1);
    kd_tune_choice_free(&c);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(clear_leader_is_significant),
        cmocka_unit_test(equal_configs_are_tied),
        cmocka_unit_test(set_value_takes_only_tied_configs),
        cmocka_unit_test(identical_sides_give_no_difference),
        cmocka_unit_test(set_value_does_not_favour_larger_sets),
        cmocka_unit_test(slower_variant_is_slower),
        cmocka_unit_test(untimed_configs_are_left_out),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
