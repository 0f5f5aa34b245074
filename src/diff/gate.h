/* gate.h — --fail-if-slower PCT: is v2 *significantly* slower by more than PCT percent?
 * Judged on the confidence interval: the smallest slowdown the 95% CI allows (v2/v1 at the
 * interval's fast end) must exceed 1 + PCT/100. A point estimate over the limit with an
 * interval that reaches below it does not fail the gate. */
#ifndef KD_DIFF_GATE_H
#define KD_DIFF_GATE_H

#include <stdbool.h>
#include "measure/timing.h"

typedef struct kd_gate {
    bool requested;
    double limit_pct;
    bool evaluated;        /* a timing was there to judge */
    bool failed;
    double slowdown_low;   /* v2/v1 at the CI's end most favourable to v2 */
    double slowdown;       /* v2/v1 median ratio */
    char text[256];        /* one line for the reports */
} kd_gate;

void kd_gate_evaluate(const kd_timing *t, bool timed, double limit_pct, kd_gate *out);

#endif
