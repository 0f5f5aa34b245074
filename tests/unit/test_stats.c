#include "kd_test.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "measure/stats.h"

#define RESAMPLES 2000
/* The request structs, written inline: (samples, n) per side, or (samples, rounds, n). */
#define CI(a, na, b, nb, conf, res, sd, out)                                                                             \
    kd_speedup_ci(&(kd_speedup_request){.side = {{(a), NULL, (na)}, {(b), NULL, (nb)}},                                \
                                        .confidence = (conf), .resamples = (res), .seed = (sd)},                        \
                  (out))
#define CI_ROUNDS(a, ra, na, b, rb, nb, conf, res, sd, out)                                                              \
    kd_speedup_ci_rounds(&(kd_speedup_request){.side = {{(a), (ra), (na)}, {(b), (rb), (nb)}},                         \
                                               .confidence = (conf), .resamples = (res), .seed = (sd)},                 \
                         (out))
#define ELEMS(a) (sizeof(a) / sizeof((a)[0]))

/* The tests' own generator (splitmix64), apart from the one stats.c resamples with, so that
 * the simulated timings and the bootstrap never share a stream. */
typedef struct test_rng {
    uint64_t state;
} test_rng;

static uint64_t test_next(test_rng *r)
{
    uint64_t z = (r->state += 0x9E3779B97F4A7C15u);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9u;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBu;
    return z ^ (z >> 31);
}

/* In (0, 1): log() below never sees 0. */
static double test_uniform(test_rng *r) { return ((double)(test_next(r) >> 11) + 0.5) * 0x1.0p-53; }

static double test_normal(test_rng *r) /* Box-Muller */
{
    double u1 = test_uniform(r), u2 = test_uniform(r);
    return sqrt(-2.0 * log(u1)) * cos(2.0 * M_PI * u2);
}

static void assert_close(double actual, double expected)
{
    if (fabs(actual - expected) > 1e-9 * fmax(1.0, fabs(expected)))
        fail_msg("%.17g is not %.17g", actual, expected);
}

static void percentiles_interpolate_like_numpy(void **state)
{
    (void)state;
    const double odd[] = {1, 2, 3, 4, 5}; /* rank = 4 p / 100 */
    assert_close(kd_percentile_sorted(odd, 5, 0), 1);
    assert_close(kd_percentile_sorted(odd, 5, 20), 1.8);  /* rank 0.8: 1 + 0.8 * (2 - 1) */
    assert_close(kd_percentile_sorted(odd, 5, 25), 2);    /* rank 1 exactly */
    assert_close(kd_percentile_sorted(odd, 5, 50), 3);
    assert_close(kd_percentile_sorted(odd, 5, 95), 4.8);  /* rank 3.8 */
    assert_close(kd_percentile_sorted(odd, 5, 100), 5);
    const double even[] = {10, 20, 30, 40}; /* rank = 3 p / 100 */
    assert_close(kd_percentile_sorted(even, 4, 20), 16);   /* rank 0.6: 10 + 0.6 * 10 */
    assert_close(kd_percentile_sorted(even, 4, 50), 25);   /* rank 1.5 */
    assert_close(kd_percentile_sorted(even, 4, 75), 32.5); /* rank 2.25 */
    assert_close(kd_percentile_sorted(even, 4, 95), 38.5); /* rank 2.85 */
    const double one[] = {7};
    assert_close(kd_percentile_sorted(one, 1, 0), 7);
    assert_close(kd_percentile_sorted(one, 1, 63), 7);
    assert_close(kd_percentile_sorted(one, 1, 100), 7);
}

static void assert_summary(const kd_summary *s, size_t n, size_t outliers, const double expected[10])
{
    assert_int_equal(s->n, n);
    assert_int_equal(s->outliers, outliers);
    const double actual[10] = {s->min, s->p20, s->median, s->p80,  s->p95,
                               s->max, s->mean, s->stdev, s->cv,   s->iqr};
    for (int i = 0; i < 10; i++)
        assert_close(actual[i], expected[i]);
}

static void summary_of_small_arrays(void **state)
{
    (void)state;
    kd_summary s;
    /* Sorted 1..5: Q1 2, Q3 4, fences [-4, 10] keep all; stdev sqrt(10 / 4), cv / 3. */
    const double odd[] = {5, 1, 4, 2, 3};
    assert_int_equal(kd_summarize(odd, ELEMS(odd), &s), 0);
    assert_summary(&s, 5, 0,
                   (const double[10]){1, 1.8, 3, 4.2, 4.8, 5, 3, 1.5811388300841898,
                                      0.5270462766947299, 2});
    /* Sorted 10..40: Q1 17.5, Q3 32.5; stdev sqrt(500 / 3). */
    const double even[] = {40, 10, 30, 20};
    assert_int_equal(kd_summarize(even, ELEMS(even), &s), 0);
    assert_summary(&s, 4, 0,
                   (const double[10]){10, 16, 25, 34, 38.5, 40, 25, 12.909944487358056,
                                      0.5163977794943222, 15});
    const double one[] = {7}; /* stdev is 0 for a single sample, not 0 / 0 */
    assert_int_equal(kd_summarize(one, 1, &s), 0);
    assert_summary(&s, 1, 0, (const double[10]){7, 7, 7, 7, 7, 7, 7, 0, 0, 0});
    /* Sorted {1,1,2,3,3,3}, rank = 5 p / 100: p20 rank 1 -> 1, median rank 2.5 -> 2.5,
     * Q1 rank 1.25 -> 1.25, Q3 rank 3.75 -> 3; mean 13/6; squares 2 (7/6)^2 + (1/6)^2 +
     * 3 (5/6)^2 = 174/36, stdev sqrt(174 / 36 / 5). */
    const double ties[] = {3, 1, 3, 2, 3, 1};
    assert_int_equal(kd_summarize(ties, ELEMS(ties), &s), 0);
    assert_summary(&s, 6, 0,
                   (const double[10]){1, 1, 2.5, 3, 3, 3, 13.0 / 6.0, 0.983192080250175,
                                      0.4537809601154654, 1.75});
}

static void summary_ignores_order_and_keeps_input(void **state)
{
    (void)state;
    enum { N = 1000 };
    double forward[N], backward[N], untouched[N];
    test_rng r = {42};
    for (int i = 0; i < N; i++)
        forward[i] = 100000.0 * (1.0 + 0.01 * test_normal(&r)) + 0.1 * i;
    for (int i = 0; i < N; i++)
        backward[i] = forward[N - 1 - i];
    memcpy(untouched, forward, sizeof forward);
    kd_summary a, b;
    assert_int_equal(kd_summarize(forward, N, &a), 0);
    assert_int_equal(kd_summarize(backward, N, &b), 0);
    assert_memory_equal(forward, untouched, sizeof forward);
    /* Bit for bit: a mean summed in input order would differ in its last bits. */
    assert_memory_equal(&a, &b, sizeof a);
}

static void far_outlier_is_removed_and_counted(void **state)
{
    (void)state;
    /* Sorted {98,99,100,100,100,101,102,500}: Q1 rank 1.75 -> 99.75, Q3 rank 5.25 ->
     * 101.25, IQR 1.5, fences [95.25, 105.75]: 500 goes. */
    const double samples[] = {100, 101, 99, 100, 102, 98, 100, 500};
    double kept[ELEMS(samples)];
    assert_int_equal(kd_remove_outliers(samples, ELEMS(samples), kept), 7);
    const double in_input_order[] = {100, 101, 99, 100, 102, 98, 100};
    assert_memory_equal(kept, in_input_order, sizeof in_input_order);
    kd_summary s;
    assert_int_equal(kd_summarize(samples, ELEMS(samples), &s), 0);
    assert_int_equal(s.n, 7);
    assert_int_equal(s.outliers, 1);
    assert_close(s.max, 102);
    assert_close(s.mean, 700.0 / 7.0); /* 100 + (1 - 1 + 2 - 2) / 7 */
}

static void tight_array_keeps_everything(void **state)
{
    (void)state;
    /* Sorted {98,99,100,100,100,101,102,103}: Q1 99.75, Q3 101.25, fences [95.25, 105.75]. */
    const double samples[] = {100, 101, 99, 100, 102, 98, 100, 103};
    double kept[ELEMS(samples)];
    assert_int_equal(kd_remove_outliers(samples, ELEMS(samples), kept), ELEMS(samples));
    assert_memory_equal(kept, samples, sizeof samples);
}

static void fence_itself_is_inside(void **state)
{
    (void)state;
    /* Sorted {1,2,3,4,x} with x >= 4: Q1 2 and Q3 4 whatever x is, so the upper fence is
     * 4 + 3 * 2 = 10. */
    double kept[5];
    assert_int_equal(kd_remove_outliers((const double[]){10, 1, 2, 3, 4}, 5, kept), 5);
    assert_int_equal(kd_remove_outliers((const double[]){10.5, 1, 2, 3, 4}, 5, kept), 4);
    assert_close(kept[0], 1);
}

/* `n` samples around `center` with a relative normal spread of 0.5%. */
static void noisy(test_rng *r, double center, double *v, size_t n)
{
    for (size_t i = 0; i < n; i++)
        v[i] = center * (1.0 + 0.005 * test_normal(r));
}

static double median_of(const double *v, size_t n)
{
    kd_summary s;
    assert_int_equal(kd_summarize(v, n, &s), 0);
    return s.median;
}

static void known_speedup_and_slowdown(void **state)
{
    (void)state;
    enum { N = 50 };
    double v1[N], v2[N];
    test_rng r = {7};
    noisy(&r, 100.0, v1, N);
    noisy(&r, 90.0, v2, N);
    kd_speedup s;
    assert_int_equal(CI(v1, N, v2, N, 0.95, RESAMPLES, 1, &s), 0);
    assert_close(s.ratio, median_of(v1, N) / median_of(v2, N));
    assert_true(fabs(s.ratio - 100.0 / 90.0) < 0.01); /* 1.111, give or take the noise */
    assert_true(s.lo < 100.0 / 90.0 && 100.0 / 90.0 < s.hi);
    assert_true(s.lo > 1.0);
    assert_close(s.confidence, 0.95);
    assert_int_equal(kd_verdict_of(&s), KD_VERDICT_FASTER);
    assert_string_equal(kd_verdict_name(kd_verdict_of(&s)), "faster");

    assert_int_equal(CI(v2, N, v1, N, 0.95, RESAMPLES, 1, &s), 0);
    assert_true(fabs(s.ratio - 0.9) < 0.01);
    assert_true(s.lo < 0.9 && 0.9 < s.hi);
    assert_true(s.hi < 1.0);
    assert_int_equal(kd_verdict_of(&s), KD_VERDICT_SLOWER);
    assert_string_equal(kd_verdict_name(kd_verdict_of(&s)), "slower");
}

static void same_seed_same_interval(void **state)
{
    (void)state;
    enum { N = 40 };
    double v1[N], v2[N], v1_before[N];
    test_rng r = {11};
    noisy(&r, 100.0, v1, N);
    noisy(&r, 100.0, v2, N);
    memcpy(v1_before, v1, sizeof v1);
    kd_speedup a, b, c;
    assert_int_equal(CI(v1, N, v2, N, 0.95, RESAMPLES, 1234, &a), 0);
    assert_int_equal(CI(v1, N, v2, N, 0.95, RESAMPLES, 1234, &b), 0);
    assert_int_equal(CI(v1, N, v2, N, 0.95, RESAMPLES, 1235, &c), 0);
    assert_memory_equal(v1, v1_before, sizeof v1);
    assert_true(a.lo == b.lo && a.hi == b.hi);
    assert_true(a.ratio == c.ratio);
    assert_true(a.lo != c.lo || a.hi != c.hi);
}

/* Realistic kernel timings: 100 us with a right-skewed shifted lognormal (shape 0.5, whose
 * standard deviation 0.6039 is divided out so that `spread` is the relative standard
 * deviation), a 2% chance of a 2-5x outlier, a drift of +2% over the whole run, and the
 * placement of the buffers in GPU memory, which scales a kernel's time by 1 + 2% z (z
 * standard normal) per placement: on an H100 placement alone moved a kernel by up to 5%. */
typedef enum process_model {
    SHARED,   /* kerndiff: both versions in one process on the same buffers, moved every round */
    SEPARATE, /* the old model: a process per version, each on a placement of its own */
} process_model;

typedef struct scenario {
    double spread, v2_factor;
    process_model model;
} scenario;

enum { BLOCK = 5 };            /* samples per side and round, as in the timing pass */
#define PLACEMENT_SPREAD 0.02

static double simulated_timing(test_rng *r, const scenario *sc, double run_fraction)
{
    double skewed = (exp(0.5 * test_normal(r)) - exp(0.125)) / 0.6039;
    double t = 100000.0 * (1.0 + sc->spread * skewed) * (1.0 + 0.02 * run_fraction);
    if (test_uniform(r) < 0.02)
        t *= 2.0 + 3.0 * test_uniform(r);
    return t;
}

/* The run alternates rounds: a block of v1 and a block of v2 in random order, so both
 * versions see the same drift at nearly the same times, and (SHARED) the same placement. */
static void measure_interleaved(test_rng *r, const scenario *sc, size_t n, double *v1, double *v2, unsigned *round)
{
    size_t position = 0;
    double own_placement[2] = {1.0 + PLACEMENT_SPREAD * test_normal(r), 1.0 + PLACEMENT_SPREAD * test_normal(r)};
    for (size_t block = 0; block < n / BLOCK; block++) {
        bool v1_first = test_next(r) & 1;
        double placement = 1.0 + PLACEMENT_SPREAD * test_normal(r);
        for (int half = 0; half < 2; half++) {
            bool is_v1 = (half == 0) == v1_first;
            double where = sc->model == SHARED ? placement : own_placement[!is_v1];
            for (size_t i = block * BLOCK; i < block * BLOCK + BLOCK; i++, position++) {
                double t = where * simulated_timing(r, sc, (double)position / (double)(2 * n - 1));
                if (is_v1)
                    v1[i] = t;
                else
                    v2[i] = t * sc->v2_factor;
                round[i] = (unsigned)block;
            }
        }
    }
}

/* Runs the measure -> outlier rule -> cluster bootstrap chain for `seeds` seeds and counts
 * each verdict; the spread cycles through 0.5%, 1% and 2% unless the scenario fixes it. */
static void count_verdicts(size_t n, int seeds, double v2_factor, double spread, process_model model, int counts[3])
{
    static const double spreads[] = {0.005, 0.01, 0.02};
    double *v1 = malloc(n * sizeof *v1), *v2 = malloc(n * sizeof *v2);
    unsigned *round = malloc(n * sizeof *round);
    assert_non_null(v1);
    assert_non_null(v2);
    assert_non_null(round);
    counts[0] = counts[1] = counts[2] = 0;
    for (int seed = 0; seed < seeds; seed++) {
        test_rng r = {(uint64_t)seed * 7919u + 1};
        scenario sc = {spread > 0 ? spread : spreads[seed % 3], v2_factor, model};
        measure_interleaved(&r, &sc, n, v1, v2, round);
        kd_speedup s;
        assert_int_equal(CI_ROUNDS(v1, round, n, v2, round, n, 0.95, RESAMPLES, (uint64_t)seed, &s), 0);
        counts[kd_verdict_of(&s)]++;
    }
    free(v1);
    free(v2);
    free(round);
}

static double aa_false_positive_pct(size_t n, int seeds, process_model model)
{
    int counts[3];
    count_verdicts(n, seeds, 1.0, 0.0, model, counts);
    int false_positives = counts[KD_VERDICT_FASTER] + counts[KD_VERDICT_SLOWER];
    printf("A/A n=%zu seeds=%d %s, placement %.0f%%: %d faster, %d slower, false-positive rate %.1f%%\n", n, seeds,
           model == SHARED ? "shared buffers" : "a process per side", 100 * PLACEMENT_SPREAD,
           counts[KD_VERDICT_FASTER], counts[KD_VERDICT_SLOWER], 100.0 * false_positives / seeds);
    return 100.0 * false_positives / seeds;
}

static void aa_false_positive_rate_n30(void **state)
{
    (void)state;
    assert_true(aa_false_positive_pct(30, 1000, SHARED) <= 5.0);
}

static void aa_false_positive_rate_n100(void **state)
{
    (void)state;
    assert_true(aa_false_positive_pct(100, 1000, SHARED) <= 5.0);
}

static void aa_false_positive_rate_n300(void **state)
{
    (void)state;
    assert_true(aa_false_positive_pct(300, 200, SHARED) <= 5.0);
}

/* Why the process model changed: with a placement per process, identical code reads as a
 * difference most of the time, whatever the statistics (the H100 campaign: 15 of 40). */
static void separate_placements_fool_any_interval(void **state)
{
    (void)state;
    assert_true(aa_false_positive_pct(100, 200, SEPARATE) >= 30.0);
}

static void assert_detected(double v2_factor, kd_verdict expected)
{
    enum { SEEDS = 200 };
    int counts[3];
    count_verdicts(100, SEEDS, v2_factor, 0.005, SHARED, counts);
    printf("A/B n=100 v2 = %.4f x v1, seeds=%d: %s in %.1f%%\n", v2_factor, SEEDS,
           kd_verdict_name(expected), 100.0 * counts[expected] / SEEDS);
    assert_true(counts[expected] * 100 >= SEEDS * 95);
}

static void three_percent_slowdown_is_detected(void **state)
{
    (void)state;
    assert_detected(1.03, KD_VERDICT_SLOWER);
}

static void eleven_percent_speedup_is_detected(void **state)
{
    (void)state;
    assert_detected(1.0 / 1.11, KD_VERDICT_FASTER);
}

/* Round-level resampling sees what sample-level resampling cannot: when each round has a
 * placement of its own that is NOT common to both sides, the interval widens. */
static void rounds_widen_the_interval_when_rounds_differ(void **state)
{
    (void)state;
    enum { N = 60 };
    double v1[N], v2[N];
    unsigned round[N], one_round[N];
    test_rng r = {5};
    for (size_t i = 0; i < N; i++) {
        round[i] = (unsigned)(i / BLOCK);
        one_round[i] = 0;
        double shift = (round[i] % 2 ? 1.03 : 0.97); /* v1's placement alternates, v2's does not */
        v1[i] = 100.0 * shift * (1.0 + 0.002 * test_normal(&r));
        v2[i] = 100.0 * (1.0 + 0.002 * test_normal(&r));
    }
    kd_speedup by_rounds, pooled;
    assert_int_equal(CI_ROUNDS(v1, round, N, v2, round, N, 0.95, RESAMPLES, 3, &by_rounds), 0);
    assert_int_equal(CI_ROUNDS(v1, one_round, N, v2, one_round, N, 0.95, RESAMPLES, 3, &pooled), 0);
    assert_true(kd_speedup_ci_halfwidth_pct(&by_rounds) > kd_speedup_ci_halfwidth_pct(&pooled));
    assert_close(by_rounds.ratio, pooled.ratio);
}

static void round_spread_is_the_spread_of_round_medians(void **state)
{
    (void)state;
    /* Ten rounds of 5 identical samples at 100, 101, ..., 109: medians 100..109, p10 100.9,
     * p90 108.1, median 104.5: (108.1 - 100.9) / 104.5 = 6.89%. */
    double v[50];
    unsigned round[50];
    for (size_t i = 0; i < 50; i++) {
        round[i] = (unsigned)(i / 5);
        v[i] = 100.0 + (double)round[i];
    }
    assert_close(kd_round_spread_pct(v, round, 50), (108.1 - 100.9) / 104.5 * 100.0);
    unsigned two[4] = {0, 0, 1, 1};
    assert_close(kd_round_spread_pct((const double[]){1, 2, 3, 4}, two, 4), 0.0); /* under 3 rounds */
}

static void rejects_what_it_cannot_use(void **state)
{
    (void)state;
    const double two[] = {1, 2}, nans[] = {NAN, NAN};
    kd_speedup s;
    kd_summary sum;
    assert_int_equal(CI(two, 1, two, 2, 0.95, RESAMPLES, 1, &s), -1);
    assert_int_equal(CI(two, 2, two, 1, 0.95, RESAMPLES, 1, &s), -1);
    assert_int_equal(CI(two, 2, two, 0, 0.95, RESAMPLES, 1, &s), -1);
    assert_int_equal(CI(two, 2, two, 2, 1.0, RESAMPLES, 1, &s), -1);
    assert_int_equal(CI(two, 2, two, 2, 0.95, 0, 1, &s), -1);
    assert_int_equal(CI(two, 2, two, 2, 0.95, 1, 1, &s), 0);
    assert_int_equal(kd_summarize(two, 0, &sum), -1);
    assert_int_equal(kd_summarize(nans, 2, &sum), -1); /* NaN fails every fence */
}

static void constant_samples_give_exactly_one(void **state)
{
    (void)state;
    const double same[] = {5000, 5000, 5000, 5000, 5000};
    kd_speedup s;
    assert_int_equal(CI(same, 5, same, 5, 0.95, RESAMPLES, 9, &s), 0);
    assert_true(s.ratio == 1.0 && s.lo == 1.0 && s.hi == 1.0);
    assert_int_equal(kd_verdict_of(&s), KD_VERDICT_NO_DIFFERENCE);
    assert_string_equal(kd_verdict_name(kd_verdict_of(&s)), "no significant difference");
    assert_close(kd_speedup_ci_halfwidth_pct(&s), 0);
}

static void verdict_needs_the_whole_interval_past_one(void **state)
{
    (void)state;
    assert_int_equal(kd_verdict_of(&(kd_speedup){1.1, 1.01, 1.2, 0.95}), KD_VERDICT_FASTER);
    assert_int_equal(kd_verdict_of(&(kd_speedup){1.1, 1.0, 1.2, 0.95}), KD_VERDICT_NO_DIFFERENCE);
    assert_int_equal(kd_verdict_of(&(kd_speedup){0.9, 0.8, 0.99, 0.95}), KD_VERDICT_SLOWER);
    assert_int_equal(kd_verdict_of(&(kd_speedup){0.9, 0.8, 1.0, 0.95}), KD_VERDICT_NO_DIFFERENCE);
}

static void halfwidth_is_relative_to_the_ratio(void **state)
{
    (void)state;
    /* (1.2 - 1.0) / 2 / 1.1 = 0.0909..., in percent 9.0909... */
    assert_close(kd_speedup_ci_halfwidth_pct(&(kd_speedup){1.1, 1.0, 1.2, 0.95}), 100.0 / 11.0);
    /* (0.52 - 0.48) / 2 / 0.5 = 4% */
    assert_close(kd_speedup_ci_halfwidth_pct(&(kd_speedup){0.5, 0.48, 0.52, 0.95}), 4.0);
    assert_true(isinf(kd_speedup_ci_halfwidth_pct(&(kd_speedup){0.0, 0.0, 0.0, 0.95})));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(percentiles_interpolate_like_numpy),
        cmocka_unit_test(summary_of_small_arrays),
        cmocka_unit_test(summary_ignores_order_and_keeps_input),
        cmocka_unit_test(far_outlier_is_removed_and_counted),
        cmocka_unit_test(tight_array_keeps_everything),
        cmocka_unit_test(fence_itself_is_inside),
        cmocka_unit_test(known_speedup_and_slowdown),
        cmocka_unit_test(same_seed_same_interval),
        cmocka_unit_test(aa_false_positive_rate_n30),
        cmocka_unit_test(aa_false_positive_rate_n100),
        cmocka_unit_test(aa_false_positive_rate_n300),
        cmocka_unit_test(separate_placements_fool_any_interval),
        cmocka_unit_test(rounds_widen_the_interval_when_rounds_differ),
        cmocka_unit_test(round_spread_is_the_spread_of_round_medians),
        cmocka_unit_test(three_percent_slowdown_is_detected),
        cmocka_unit_test(eleven_percent_speedup_is_detected),
        cmocka_unit_test(rejects_what_it_cannot_use),
        cmocka_unit_test(constant_samples_give_exactly_one),
        cmocka_unit_test(verdict_needs_the_whole_interval_past_one),
        cmocka_unit_test(halfwidth_is_relative_to_the_ratio),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
