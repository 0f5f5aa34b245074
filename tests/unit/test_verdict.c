/* The one verdict function (measure/verdict.h, issue 29): faster, slower and no difference
 * with their edges, the noise floor, the rounds shared or not, and that it is the interval
 * the timing pass reports (the rounds bootstrap), not another. */
#include "kd_test.h"

#include <math.h>
#include <string.h>

#include "measure/verdict.h"

enum { N = 60, BLOCK = 5 };

/* A fixed, spread-out pattern (no generator needed): within 1.5% of the median, no two
 * samples alike, and a round every BLOCK samples. */
static void fill(double *v, unsigned *round, size_t n, double median, double placement_pct)
{
    for (size_t i = 0; i < n; i++) {
        round[i] = (unsigned)(i / BLOCK);
        /* Rounds alternate between two placements, shifting every sample of the round. */
        double placement = round[i] % 2 ? 1 + placement_pct / 100 : 1 - placement_pct / 100;
        v[i] = median * placement * (1 + 1.5 * sin(1.7 * (double)i + median) / 100);
    }
}

static kd_sample_set set_of(const double *v, const unsigned *round, size_t n) { return (kd_sample_set){v, round, n}; }

static void decides_faster_slower_and_no_difference(void **state)
{
    (void)state;
    double a[N], b[N], same[N];
    unsigned ra[N], rb[N], rs[N];
    fill(a, ra, N, 100e3, 0);
    fill(b, rb, N, 80e3, 0);
    fill(same, rs, N, 100e3, 0);
    kd_verdict_options o = {.seed = 1};
    kd_decision d;

    assert_int_equal(kd_decide((kd_sample_set[]){set_of(a, ra, N), set_of(b, rb, N)}, &o, &d), 0);
    assert_int_equal(d.verdict, KD_VERDICT_FASTER);
    assert_true(fabs(d.speedup.ratio - 1.25) < 0.0125); /* the two patterns differ a little */
    assert_true(d.speedup.lo > 1 && d.speedup.lo <= d.speedup.ratio && d.speedup.ratio <= d.speedup.hi);
    assert_true(d.speedup.confidence == KD_SPEEDUP_CONFIDENCE);

    assert_int_equal(kd_decide((kd_sample_set[]){set_of(b, rb, N), set_of(a, ra, N)}, &o, &d), 0);
    assert_int_equal(d.verdict, KD_VERDICT_SLOWER);
    assert_true(d.speedup.hi < 1);

    assert_int_equal(kd_decide((kd_sample_set[]){set_of(a, ra, N), set_of(same, rs, N)}, &o, &d), 0);
    assert_int_equal(d.verdict, KD_VERDICT_NO_DIFFERENCE);
    assert_true(d.speedup.lo <= 1 && d.speedup.hi >= 1);
}

/* Constant samples give an interval of one point, so the floor's edge is exact: the whole
 * interval must be strictly beyond 1 + floor (or below 1 / (1 + floor)). */
static void the_floor_edge_is_strict(void **state)
{
    (void)state;
    double slow[N], quick[N];
    unsigned round[N];
    for (size_t i = 0; i < N; i++) {
        slow[i] = 125.0;
        quick[i] = 100.0;
        round[i] = (unsigned)(i / BLOCK);
    }
    kd_sample_set faster[2] = {set_of(slow, round, N), set_of(quick, round, N)};
    kd_sample_set slower[2] = {set_of(quick, round, N), set_of(slow, round, N)};
    kd_decision d;
    kd_verdict_options o = {.min_effect_pct = 25, .seed = 1};
    assert_int_equal(kd_decide(faster, &o, &d), 0);
    assert_true(d.speedup.lo == 1.25 && d.speedup.hi == 1.25);
    assert_int_equal(d.verdict, KD_VERDICT_NO_DIFFERENCE); /* at the edge: not beyond it */
    assert_int_equal(kd_decide(slower, &o, &d), 0);
    assert_int_equal(d.verdict, KD_VERDICT_NO_DIFFERENCE);
    o.min_effect_pct = 24.9;
    assert_int_equal(kd_decide(faster, &o, &d), 0);
    assert_int_equal(d.verdict, KD_VERDICT_FASTER);
    assert_int_equal(kd_decide(slower, &o, &d), 0);
    assert_int_equal(d.verdict, KD_VERDICT_SLOWER);
    o.min_effect_pct = 0;
    assert_int_equal(kd_decide((kd_sample_set[]){set_of(quick, round, N), set_of(quick, round, N)}, &o, &d), 0);
    assert_true(d.speedup.ratio == 1 && d.speedup.lo == 1 && d.speedup.hi == 1);
    assert_int_equal(d.verdict, KD_VERDICT_NO_DIFFERENCE); /* an interval at exactly 1 */
}

/* It is the timing pass's interval: the rounds bootstrap with the final resamples and the
 * seed, to the last bit; the seed changes it (so a saved run needs its seed). */
static void it_is_the_rounds_bootstrap(void **state)
{
    (void)state;
    double a[N], b[N];
    unsigned ra[N], rb[N];
    fill(a, ra, N, 100e3, 2);
    fill(b, rb, N, 99e3, 2);
    kd_decision d, other_seed;
    kd_verdict_options o = {.seed = 7};
    kd_sample_set sets[2] = {set_of(a, ra, N), set_of(b, rb, N)};
    assert_int_equal(kd_decide(sets, &o, &d), 0);
    kd_speedup direct;
    kd_speedup_request rq = {.side = {sets[0], sets[1]}, .confidence = KD_SPEEDUP_CONFIDENCE,
                             .resamples = KD_FINAL_RESAMPLES, .seed = 7};
    assert_int_equal(kd_speedup_ci_rounds(&rq, &direct), 0);
    assert_true(d.speedup.ratio == direct.ratio && d.speedup.lo == direct.lo && d.speedup.hi == direct.hi);
    /* ... and not the interval over single samples (the bug of issue 29's saved path). */
    kd_speedup plain;
    assert_int_equal(kd_speedup_ci(&rq, &plain), 0);
    assert_false(plain.lo == direct.lo && plain.hi == direct.hi);
    o.seed = 8;
    assert_int_equal(kd_decide(sets, &o, &other_seed), 0);
    assert_true(other_seed.speedup.ratio == d.speedup.ratio);
    assert_false(other_seed.speedup.lo == d.speedup.lo && other_seed.speedup.hi == d.speedup.hi);
}

/* A placement common to both sides cancels when their rounds are shared (one run); two runs
 * share no placement, so the same samples taken as independent give a wider interval. */
static void shared_rounds_cancel_a_common_placement(void **state)
{
    (void)state;
    double a[N], b[N];
    unsigned ra[N], rb[N];
    fill(a, ra, N, 100e3, 3);
    fill(b, rb, N, 100e3, 3);
    kd_sample_set sets[2] = {set_of(a, ra, N), set_of(b, rb, N)};
    kd_decision shared, independent;
    assert_int_equal(kd_decide(sets, &(kd_verdict_options){.seed = 1}, &shared), 0);
    assert_int_equal(kd_decide(sets, &(kd_verdict_options){.seed = 1, .independent = true}, &independent), 0);
    assert_true(shared.speedup.ratio == independent.speedup.ratio);
    assert_true(kd_speedup_ci_halfwidth_pct(&independent.speedup) > kd_speedup_ci_halfwidth_pct(&shared.speedup));
    assert_int_equal(shared.verdict, KD_VERDICT_NO_DIFFERENCE);
    assert_int_equal(independent.verdict, KD_VERDICT_NO_DIFFERENCE);
}

/* Two runs of different lengths: every round of each is used (none is left without a
 * partner), and a side without rounds has one per sample (app's runs). */
static void independent_sides_use_all_their_rounds(void **state)
{
    (void)state;
    double a[N], b[N / 2];
    unsigned ra[N], rb[N / 2];
    fill(a, ra, N, 100e3, 0);
    fill(b, rb, N / 2, 50e3, 0);
    kd_decision d;
    kd_verdict_options o = {.seed = 3, .independent = true};
    assert_int_equal(kd_decide((kd_sample_set[]){set_of(a, ra, N), set_of(b, rb, N / 2)}, &o, &d), 0);
    assert_int_equal(d.verdict, KD_VERDICT_FASTER);
    assert_true(fabs(d.speedup.ratio - 2.0) < 0.02);
    const double runs1[] = {2.40e6, 2.41e6, 2.39e6}, runs2[] = {0.99e6, 0.98e6, 1.0e6};
    assert_int_equal(kd_decide((kd_sample_set[]){{runs1, NULL, 3}, {runs2, NULL, 3}}, &o, &d), 0);
    assert_int_equal(d.verdict, KD_VERDICT_FASTER);
    assert_true(fabs(d.speedup.ratio - 2.40e6 / 0.99e6) < 1e-9);
    assert_true(d.speedup.lo <= d.speedup.ratio && d.speedup.ratio <= d.speedup.hi);
}

static void too_few_samples_decide_nothing(void **state)
{
    (void)state;
    const double one[] = {5.0}, two[] = {5.0, 6.0};
    const unsigned r[] = {0, 1};
    kd_decision d;
    memset(&d, 0x5a, sizeof d);
    kd_verdict_options o = {.seed = 1};
    assert_int_equal(kd_decide((kd_sample_set[]){{one, r, 1}, {two, r, 2}}, &o, &d), -1);
    assert_int_equal(d.verdict, KD_VERDICT_NO_DIFFERENCE);
    assert_true(d.speedup.ratio == 0 && d.speedup.lo == 0 && d.speedup.hi == 0);
    assert_int_equal(kd_decide((kd_sample_set[]){{two, r, 2}, {one, NULL, 1}}, &o, &d), -1);
    assert_int_equal(kd_decide((kd_sample_set[]){{two, r, 2}, {two, r, 2}}, &o, &d), 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(decides_faster_slower_and_no_difference),
        cmocka_unit_test(the_floor_edge_is_strict),
        cmocka_unit_test(it_is_the_rounds_bootstrap),
        cmocka_unit_test(shared_rounds_cancel_a_common_placement),
        cmocka_unit_test(independent_sides_use_all_their_rounds),
        cmocka_unit_test(too_few_samples_decide_nothing),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
