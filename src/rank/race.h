/* race.h — the racing engine of `kerndiff rank` (issue 32): many candidates timed against
 * one baseline in interleaved rounds, where a candidate whose interval is clearly below the
 * K-th best contender's drops out, and the time goes to the contenders, until the top K are
 * separated, every contender's interval is as narrow as the target, or the budget is spent.
 *
 * A pure module: it knows nothing of harnesses. A sampler callback gives, for one candidate,
 * one block of k baseline samples and k candidate samples taken in the same round (in the
 * real command: one harness child holding the baseline and the candidate on shared
 * buffers, as the timing pass does for a pair). Tests drive it with simulated candidates.
 *
 * The interval of a candidate is over its rounds: each round gives one paired ratio,
 * median(baseline block) / median(candidate block), taken on the same buffers and placement;
 * the speedup is their geometric mean (> 1: the candidate is faster) and its interval a
 * Student t interval of the mean log ratio, at a Bonferroni-corrected confidence,
 * 1 - (1 - confidence) / family, family the number of candidates timed in the whole rank
 * (every heat uses the same, so that the shards of a rank agree).
 *
 * Why not the timing pass's cluster bootstrap (measure/stats.h): a Bonferroni-corrected
 * tail is far out (0.025% for 100 candidates), where a bootstrap over ten or twenty rounds
 * has no resamples; it reads its extreme resample and the interval is too narrow (A/A with
 * 100 candidates: a false "faster" in 2 of 20 seeds). The t interval's tail widens with few
 * rounds as it should, and costs nothing to recompute every round. */
#ifndef KD_RANK_RACE_H
#define KD_RANK_RACE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "measure/stats.h"

/* The family-wise confidence of a rank: 99%, not the pair's 95%. Measured on 200 seeds of
 * 100 identical simulated candidates, 95% family-wise called one of them faster in 3.5% of
 * the seeds, which a test of 20 seeds sees twice one time in six; a rank's false "faster"
 * is the one an autotuner adopts. */
#define KD_RACE_CONFIDENCE 0.99

typedef struct kd_race_config {
    size_t top;            /* K: the contenders to separate (3) */
    size_t family;         /* the correction's family size (0: the race's own candidates) */
    double confidence;     /* the family-wise confidence (KD_RACE_CONFIDENCE) */
    unsigned block;        /* samples per side and round (5) */
    unsigned min_rounds;   /* rounds every candidate gets before any can drop (5, at least 3) */
    unsigned max_rounds;   /* rounds at most for one candidate (0: 200) */
    double target_pct;     /* stop once every contender's half-width is below (1.0) */
    uint64_t seed;         /* the order of the candidates in a round */
} kd_race_config;

void kd_race_config_default(kd_race_config *c);

/* The confidence of one candidate's interval: Bonferroni, 1 - (1 - confidence) / family. */
double kd_race_corrected_confidence(double confidence, size_t family);

typedef struct kd_race_ops {
    /* One block of candidate `cand` in its round `round` (0, 1, ...): k baseline and k
     * candidate samples (ns, > 0). Returns 0, or -1 when the candidate failed (it then leaves
     * the race, marked failed). */
    int (*sample)(void *ctx, size_t cand, unsigned round, unsigned k, double *base, double *cand_out);
    /* Whether the budget is spent (NULL: never); asked between rounds. */
    bool (*out_of_budget)(void *ctx);
    /* Told when a candidate leaves the race (dropped or failed), so that its harness can end
     * (NULL: nothing). */
    void (*left)(void *ctx, size_t cand);
    void *ctx;
} kd_race_ops;

typedef enum kd_race_state {
    KD_RACE_CONTENDER = 0, /* raced to the end */
    KD_RACE_DROPPED,       /* clearly slower than K others: left the race at `left_round` */
    KD_RACE_FAILED,        /* its sampler failed */
} kd_race_state;

typedef enum kd_race_stop {
    KD_RACE_SEPARATED,     /* K or fewer contenders left, each clearly apart from the next */
    KD_RACE_TARGET,        /* every contender's interval is as narrow as the target */
    KD_RACE_BUDGET,        /* --budget-ms */
    KD_RACE_MAX_ROUNDS,    /* --max-rounds */
    KD_RACE_NOTHING,       /* no candidate could be raced */
} kd_race_stop;

typedef struct kd_race_entry {
    double *base, *cand;   /* the samples, in the order taken */
    unsigned *round;       /* per sample: its round (both sides of a round share it) */
    size_t n, cap;         /* samples per side */
    unsigned rounds;
    kd_race_state state;
    unsigned left_round;   /* the race's round when it left */
    kd_speedup ci;         /* the last interval (corrected) */
    bool has_ci;
} kd_race_entry;

typedef struct kd_race {
    kd_race_entry *e;      /* one per candidate, in the order given */
    size_t n;
    unsigned rounds;       /* the race's rounds */
    size_t samples;        /* every sample taken, both sides */
    kd_race_stop stop;
} kd_race;

/* Races `n` candidates. Returns 0 (the race is in *out), -1 on a bad configuration. */
int kd_race_run(const kd_race_config *cfg, size_t n, const kd_race_ops *ops, kd_race *out);
void kd_race_free(kd_race *r);

/* A candidate's interval from its samples (see above) at `confidence` (already corrected).
 * Returns 0, or -1 with fewer than 2 rounds. */
int kd_race_interval(const kd_race_entry *e, double confidence, kd_speedup *out);

const char *kd_race_stop_name(kd_race_stop s); /* "separated", "target", "budget", "max_rounds", "nothing" */

#endif
