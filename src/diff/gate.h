/* gate.h — what decides a CI job, judged once per comparison (the diff of two files and
 * `kerndiff compare` alike):
 *  --fail-if-slower PCT: is v2 *significantly* slower by more than PCT percent? Judged on
 *    the confidence interval: the smallest slowdown the 95% CI allows (v2/v1 at the
 *    interval's fast end) must exceed 1 + PCT/100. A point estimate over the limit with an
 *    interval that reaches below it does not fail the gate.
 *  --require-match: the outputs that were compared must match.
 *  outputs that differ (or an audit that differed) fail by default, --allow-mismatch aside.
 * Every gate fails closed: one that could not be judged (nothing timed, no GPU, outputs not
 * compared) is KD_GATE_NOT_MEASURED, never a pass. (--sanitize is judged by its pass; when
 * nothing runs, diff/runtime.c fails it the same way.)
 * The result is a code; report/ says it in words and cli/ maps it to an exit status. */
#ifndef KD_DIFF_GATE_H
#define KD_DIFF_GATE_H

#include <stdbool.h>
#include "measure/timing.h"

typedef struct kd_gate_options {
    double fail_if_slower_pct;  /* < 0: not asked */
    bool require_match;
    bool allow_mismatch;        /* --allow-mismatch: outputs that differ do not fail (exit 0) */
} kd_gate_options;

/* What the compared outputs said. */
typedef enum kd_outputs_state { KD_OUTPUTS_NOT_CHECKED, KD_OUTPUTS_MATCH, KD_OUTPUTS_DIFFER } kd_outputs_state;

typedef enum kd_gate_result {
    KD_GATE_PASSED = 0,         /* or nothing was asked */
    KD_GATE_SLOWER,             /* --fail-if-slower failed */
    KD_GATE_NOT_MEASURED,       /* --fail-if-slower had no timing, or --require-match no compared
                                   outputs, to judge */
    KD_GATE_OUTPUTS_DIFFER,     /* the outputs differ (unless --allow-mismatch) */
} kd_gate_result;

typedef struct kd_gate {
    bool requested;        /* --fail-if-slower */
    double limit_pct;
    bool evaluated;        /* a timing was there to judge */
    bool between_unknown;  /* not evaluated: two separate runs, no between-process spread known */
    bool failed;
    double slowdown_low;   /* v2/v1 at the CI's end most favourable to v2 */
    double slowdown;       /* v2/v1 median ratio */
    bool match_required;   /* --require-match */
    bool match_evaluated;  /* ... and outputs were compared to judge it */
    kd_outputs_state outputs;
    kd_gate_result result; /* the first of: slower, not measured (either gate), outputs differ */
} kd_gate;

/* What the timing's correctness run found (not checked when nothing was timed). */
kd_outputs_state kd_outputs_of(const kd_timing *t, bool timed);

/* Judges the timing and the outputs' state against the options; fills *out and returns
 * out->result. */
kd_gate_result kd_gate_evaluate(const kd_timing *t, bool timed, kd_outputs_state outputs,
                                const kd_gate_options *o, kd_gate *out);

#endif
