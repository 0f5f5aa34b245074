/* brief.h — a short time of one side alone, where a ranking or a ratio is enough and the
 * timing pass (interleaving, placements, a confidence interval) would be too much: the
 * autotune pass ranks a kernel's configs with it, the region pass the overhead of an
 * instrumented build. Single launches with L2 flushed after the harness's warm-up, the
 * median of a few samples: the same timer and protocol as the timing pass. */
#ifndef KD_MEASURE_BRIEF_H
#define KD_MEASURE_BRIEF_H

#include "util/strbuf.h"
#include "wire/client.h"

/* On a child already set up: warm-up, then the median of a few samples, in *median_ns.
 * Returns 0, or -1 with "timing <what>: what happened" in why. */
int kd_time_briefly(kd_child *c, const char *what, int timeout_ms, double *median_ns, kd_strbuf *why);

/* The whole of it for one side: its own child started, the side described and set up,
 * timed briefly, stopped. Returns 0, or -1 with what failed in why. */
int kd_time_side_briefly(const kd_harness_side *side, unsigned long long seed, int timeout_ms, double *median_ns,
                         kd_strbuf *why);

#endif
