/* tune_select.h — an autotuned kernel's configs measured as a comparison (issue 42 item 1):
 * which config leads, whether its lead over the runner-up is significant, the set of
 * configs that cannot be told apart from the leader, and the two sides compared on those
 * sets. Pure functions over samples taken in shared rounds: in round r every config of both
 * sides was timed once, interleaved, on the same buffers, so a round's samples share its
 * placement and drift and the ratios are paired (kd_speedup_ci_rounds, as the timing pass).
 *
 * Tied set: the leader (lowest median) and every config whose paired ratio against the
 * leader has a confidence interval containing 1 (kd_verdict_of says "no significant
 * difference"). A side's "set value" in round r is the mean of its tied configs' samples in
 * that round; the sides are compared on those per-round values, so neither side is judged
 * by a lucky pick. The mean, not the fastest: the fastest of k samples falls as k grows, so
 * two identical files whose noise tied 3 configs on one side and 2 on the other would read
 * as different; the mean of configs that cannot be told apart does not move with k. Where
 * the sides' config lists correspond, both sides use the union of their tied sets
 * (kd_tune_tied_union), the same config indices on both, so identical files draw their set
 * values from one distribution in the same rounds and the verdict is the timing pass's
 * A/A verdict. */
#ifndef KD_MEASURE_TUNE_SELECT_H
#define KD_MEASURE_TUNE_SELECT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "measure/stats.h"

/* One side's samples: ns[r * configs + i] is config i's time in round r (NAN: not timed). */
typedef struct kd_tune_samples {
    const double *ns;
    size_t configs, rounds;
} kd_tune_samples;

typedef struct kd_tune_choice {
    int leader;          /* lowest median; -1 when no config has two samples */
    int runner_up;       /* second lowest median; -1 with fewer than two timed configs */
    kd_speedup lead;     /* median(runner-up) / median(leader) with its paired interval: > 1 */
    bool lead_significant; /* the interval is wholly above 1 */
    bool *tied;          /* configs entries: in the leader's tied set (the leader included) */
    size_t tied_count;
} kd_tune_choice;

/* Chooses: the leader, the runner-up and the tied set. Returns 0, -1 when no config has
 * two samples (then choice->leader is -1). choice->tied is allocated; kd_tune_choice_free. */
int kd_tune_choose(const kd_tune_samples *s, uint64_t seed, kd_tune_choice *choice);
void kd_tune_choice_free(kd_tune_choice *choice);

/* The side's set value in each round: the mean of the samples of the configs marked in
 * tied[configs] (a choice's tied set, or kd_tune_tied_union's), into value[rounds]; NAN where
 * none of them was timed in that round. */
void kd_tune_set_value(const kd_tune_samples *s, const bool *tied, double *value);

/* tied[i] = a->tied[i] || b->tied[i], for two sides whose config lists correspond
 * (configs entries each). Returns how many are marked. */
size_t kd_tune_tied_union(const kd_tune_choice *a, const kd_tune_choice *b, size_t configs, bool *tied);

/* A column of samples, one per round: values[r * stride] (NAN: not timed in round r). */
typedef struct kd_tune_column {
    const double *values;
    size_t stride;
} kd_tune_column;

/* Config i of v1 against config i of v2 (or the sides' set values): the paired interval of
 * median(a)/median(b) over the rounds both have; > 1 means b is faster. Returns 0, -1 with
 * fewer than two shared rounds. */
int kd_tune_pair_ratio(kd_tune_column a, kd_tune_column b, size_t rounds, uint64_t seed, kd_speedup *out);

/* Whether another round is worth its cost: false once the leader's lead is significant or
 * the rounds reach max_rounds. */
bool kd_tune_needs_more(const kd_tune_choice *choice, size_t rounds, size_t max_rounds);

#endif
