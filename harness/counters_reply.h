/* counters_reply.h — the `counters` command's words and reply, written once for both harnesses
 * (docs/PROTOCOL.md): `counters NAME[,NAME...] ...` asks for metrics by their Nsight Compute
 * (perfworks) names, the reply gives one value per metric and kernel of the launch:
 *
 *   ok counters ranges=R passes=P replay=user|kernel|simulated kernels=K0,K1 r0=V,V,... r1=...
 *      [setup_ms=.. passes_ms=.. evaluate_ms=..] [cupti=VERSION l2=cupti|harness|none]
 *
 * in the order asked (%.17g; `nan` where the metric is undefined for that kernel). */
#ifndef KD_HARNESS_COUNTERS_REPLY_H
#define KD_HARNESS_COUNTERS_REPLY_H

#include <stddef.h>

#include "wire/protocol.h"

enum { KD_COUNTERS_MAX_METRICS = 256 };

/* The metric names of a `counters` command (words after the first, split at commas), pointing
 * into w's words. Returns how many, or -1 (after replying `err protocol`) when none or too many. */
long kd_counters_names(kd_words *w, const char **names, size_t max);

/* Replies `ok counters ...`: values is ranges x n, row-major; kernel names are %-encoded
 * (commas too; an empty one is sent as `-`). */
/* Where the next reply's time went, in ms (setup: profiler start-up, configuration, counter
 * data; passes: the launches and what runs before each; evaluate: decoding and evaluation),
 * sent as `setup_ms= passes_ms= evaluate_ms=` by that reply only (bench/full_diff.sh). */
void kd_counters_reply_phases(double setup_ms, double passes_ms, double evaluate_ms);

/* Which profiler made the next reply's values, sent as `cupti=VERSION l2=cupti|harness|none`
 * by that reply only: the loaded CUPTI's version (0: unknown) and who prepared L2 before each
 * pass. */
void kd_counters_reply_profiler(unsigned cupti_version, const char *l2);

void kd_counters_reply(size_t ranges, const char *const *kernels, const double *values, size_t n, size_t passes,
                       const char *replay);

#endif
