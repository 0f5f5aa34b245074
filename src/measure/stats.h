/* stats.h — descriptive statistics of timing samples, the speedup with its confidence
 * interval, and the verdict. Pure functions over arrays of doubles (nanoseconds). */
#ifndef KD_MEASURE_STATS_H
#define KD_MEASURE_STATS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

typedef struct kd_summary {
    size_t n;          /* samples kept */
    size_t outliers;   /* samples removed by the outlier rule */
    double min, p20, median, p80, p95, max;
    double mean, stdev, cv; /* cv = stdev / mean */
    double iqr;        /* p75 - p25 */
} kd_summary;

/* Linear-interpolated percentile (p in [0,100]) of sorted data (numpy's default). */
double kd_percentile_sorted(const double *sorted, size_t n, double p);

/* Outlier rule: a sample outside [Q1 - 3 IQR, Q3 + 3 IQR] (Tukey's far-out fences) is
 * removed. Writes the kept samples (in input order) into `kept` (room for n) and returns
 * how many. */
size_t kd_remove_outliers(const double *samples, size_t n, double *kept);

/* z with P(Z > z) = tail for a standard normal Z (tail in (0, 0.5)), by bisection on erfc. */
double kd_normal_upper_quantile(double tail);
/* Student t's upper quantile for the normal quantile z (kd_normal_upper_quantile of the same
 * tail) and df degrees of freedom, by the Cornish-Fisher expansion of Abramowitz & Stegun
 * 26.7.5: within 0.05% of the exact value from 4 degrees of freedom on. */
double kd_student_upper_quantile(double z, double df);

/* Summary of `samples` after the outlier rule. Returns 0, -1 when n == 0. */
int kd_summarize(const double *samples, size_t n, kd_summary *out);

/* The speedup's interval, as the timing pass reports it and `kerndiff compare` recomputes
 * it: the same confidence and resamples, so both give the same interval for the same
 * samples. The adaptive stop checks on a cheaper bootstrap. */
#define KD_SPEEDUP_CONFIDENCE 0.95
enum {
    KD_CHECK_RESAMPLES = 400,   /* bootstrap rounds while deciding whether to stop */
    KD_FINAL_RESAMPLES = 4000,  /* ... and for the reported interval */
};

typedef struct kd_speedup {
    double ratio;      /* median(v1) / median(v2): > 1 means v2 is faster */
    double lo, hi;     /* confidence interval of the ratio */
    double confidence; /* 0.95 */
} kd_speedup;

/* One side's samples (ns) and the round each was taken in: round[i] is sample i's round;
 * round == NULL: every sample is a round of its own (one value per process, as `kerndiff
 * app` has). */
typedef struct kd_sample_set {
    const double *v;
    const unsigned *round;
    size_t n;
} kd_sample_set;

/* What an interval is computed from (issue 29: a struct, not ten parameters). */
typedef struct kd_speedup_request {
    kd_sample_set side[2]; /* v1, v2 */
    double confidence;     /* in (0, 1): KD_SPEEDUP_CONFIDENCE */
    int resamples;         /* >= 1: KD_FINAL_RESAMPLES for a reported interval */
    uint64_t seed;         /* the bootstrap's generator: the result is reproducible */
    /* The sides' rounds are not shared: the samples come from two runs (or processes), so
     * round k of v1 and round k of v2 had nothing in common. Each side's rounds are then
     * drawn on their own (kd_speedup_ci_rounds). */
    bool independent;
} kd_speedup_request;

/* Speedup = ratio of medians, with a percentile-bootstrap confidence interval: each of
 * `resamples` rounds draws both sides with replacement (xorshift seeded by `seed`, so the
 * result is reproducible) and takes the ratio of medians. Inputs are the kept samples;
 * rounds and `independent` are not read. Returns 0, -1 when a side has fewer than 2 samples.
 *
 * The interval is Hesterberg's expanded percentile interval: the bootstrap distribution's
 * percentiles are read at tail Phi(-sqrt(n/(n-1)) t_{n-1, (1-confidence)/2}) instead of
 * (1-confidence)/2, n the smaller side (1.9% instead of 2.5% at n = 30, 2.3% at 100, 2.4%
 * at 300). The plain percentile interval ignores that resamples of interleaved blocks share
 * a slow drift, and with few blocks its A/A false-positive rate reached the nominal 5%
 * (4.8-5.0% at n = 30, 1% spread, +2% drift, blocks of 10); expanded, it stays near 3.7%.
 * The samples are sorted first, so the result does not depend on their order. Also -1 when
 * `confidence` is not in (0, 1) or `resamples` < 1. */
int kd_speedup_ci(const kd_speedup_request *rq, kd_speedup *out);

/* The same interval for samples taken in rounds, where a round shares something the
 * samples within it cannot show: in the timing pass, one placement of the buffers in GPU
 * memory, common to both sides. A cluster bootstrap: each resample draws rounds with
 * replacement (the same rounds for both sides) and pools their samples; the expanded tail
 * uses the number of rounds. Outliers are removed per side first (Tukey's far-out fences
 * over all its samples). With fewer than two rounds that both sides have samples in, it is
 * kd_speedup_ci. This is the interval the A/A campaign validated (docs/ARCHITECTURE.md).
 *
 * rq->independent (two runs): each side's rounds are drawn on their own, as many as it
 * has, and the tail uses the smaller count; with fewer than two rounds on a side, it is
 * kd_speedup_ci. A side without rounds (round == NULL) has one round per sample.
 * Returns 0, -1 as kd_speedup_ci. */
int kd_speedup_ci_rounds(const kd_speedup_request *rq, kd_speedup *out);

/* Placement sensitivity: the spread (p90 - p10) of the per-round medians, in percent of
 * their median, after the outlier rule; 0 with fewer than three rounds. */
double kd_round_spread_pct(const double *v, const unsigned *round, size_t n);

typedef enum kd_verdict {
    KD_VERDICT_NO_DIFFERENCE = 0,
    KD_VERDICT_FASTER,  /* v2 faster: the whole CI is above 1 */
    KD_VERDICT_SLOWER,  /* v2 slower: the whole CI is below 1 */
} kd_verdict;

/* The rule an interval is judged by. The verdict of a comparison is decided in one place,
 * kd_decide (measure/verdict.h), which computes the interval and applies this rule. */
kd_verdict kd_verdict_of(const kd_speedup *s);
/* The verdict with a noise floor: faster only when the whole CI is above 1 + floor/100,
 * slower only when it is below 1/(1 + floor/100). Two processes running the same code can
 * differ by a tenth of a percent (memory placement), a real but meaningless difference. */
kd_verdict kd_verdict_with_floor(const kd_speedup *s, double floor_pct);
const char *kd_verdict_name(kd_verdict v); /* "faster", "slower", "no significant difference" */

/* Half the CI's width relative to the ratio, in percent: the adaptive stop's measure. */
double kd_speedup_ci_halfwidth_pct(const kd_speedup *s);

#endif
