/* diff.h — turning two sides' runs into the comparison: totals, the per-kernel table
 * matched by demangled name, the API table, the verdict and the --fail-if-slower gate. */
#ifndef KD_APP_DIFF_H
#define KD_APP_DIFF_H

#include "app/app_model.h"

/* Fills everything in `c` after its sides: `steps` from --steps (0: the NVTX ranges per
 * run when collected with --range, else unknown). The gate judges the total GPU kernel
 * time against c->fail_if_slower_pct: on the CI's bound with two runs a side or more, on
 * the medians otherwise. */
void kd_app_diff(kd_app_comparison *c, double steps);

#endif
