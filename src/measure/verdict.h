/* verdict.h — the verdict of a comparison, decided in one place (issue 29). The timing pass
 * (measure/timing.c, after its loop has measured), `kerndiff compare` of saved runs
 * (workflow/saved.c), a sweep's points (through the timing pass) and `kerndiff app`
 * (app/diff.c) all call kd_decide: the same interval (the rounds bootstrap the A/A campaign
 * validated, measure/stats.h kd_speedup_ci_rounds) and the same rule, so a saved run
 * re-compared gets the verdict and interval it was saved with. */
#ifndef KD_MEASURE_VERDICT_H
#define KD_MEASURE_VERDICT_H

#include <stdbool.h>
#include <stdint.h>

#include "measure/stats.h"

/* The options that matter to a verdict. */
typedef struct kd_verdict_options {
    double min_effect_pct; /* --min-effect: the noise floor (0: the interval alone decides) */
    uint64_t seed;         /* --seed: the bootstrap's generator */
    int resamples;         /* 0: KD_FINAL_RESAMPLES (the reported interval) */
    /* The sides come from two runs (or processes): their rounds are not shared and are
     * drawn each on its own. false: one run's interleaved rounds, common to both sides. */
    bool independent;
} kd_verdict_options;

typedef struct kd_decision {
    kd_speedup speedup; /* ratio of medians v1/v2 and its interval (confidence 0.95) */
    kd_verdict verdict;
} kd_decision;

/* Decides: the interval from both sides' raw samples and rounds (outliers removed inside;
 * a side with round == NULL has one round per sample), then the verdict of that interval
 * with the noise floor. Returns 0, or -1 when a side has fewer than 2 samples (out is then
 * a ratio of 0 and no difference). */
int kd_decide(const kd_sample_set sides[2], const kd_verdict_options *o, kd_decision *out);

#endif
