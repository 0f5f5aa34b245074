/* findings.h — the handful of one-line notes a kernel author wants first: spills that
 * appeared, loads that got wider, barriers that vanished, occupancy and its limiter. Each
 * names the numbers behind it. */
#ifndef KD_DIFF_FINDINGS_H
#define KD_DIFF_FINDINGS_H

#include "diff/model.h"

/* Appends to c->findings. Returns 0, -1 on allocation failure. */
int kd_findings_collect(kd_comparison *c);

#endif
