/* runtime.h — the runtime half of a comparison: describe both launches, then (with a GPU,
 * or the simulated harness) run the timing pass and the correctness check. */
#ifndef KD_DIFF_RUNTIME_H
#define KD_DIFF_RUNTIME_H

#include "backend/backend.h"
#include "cli/options.h"
#include "diff/model.h"

/* Fills each side's launch (or launch_error). Never fails: a launch that cannot be
 * described matters only when kerndiff is about to run it. */
void kd_describe_launches(const kd_options *opts, kd_comparison *c);
/* The same for one side (s: 0 for v1, 1 for v2, whose --call settings apply). */
void kd_describe_launch(const kd_options *opts, kd_side *side, int s);

/* The backend that runs the comparison's kernels, or NULL with why nothing can run
 * ("runtime measurement not run: --no-run; ...", malloc'd) in *why. */
const kd_backend *kd_runtime_backend(const kd_options *opts, const kd_comparison *c, char **why);

/* What the timing code needs of a built, described and analysed side, run by `harness`. */
kd_timing_side kd_timing_side_of(const kd_side *side, const kd_argv *harness);

/* Runs the timing pass when there is something to run it on; otherwise sets
 * c->runtime_note to why not. Returns KD_EXIT_OK, KD_EXIT_INPUT (a launch cannot be
 * described), KD_EXIT_RUNTIME (a side faulted, hung or broke), KD_EXIT_TOOL. On failure
 * the message is also in c->runtime_note, so the static report still shows it. */
int kd_compare_runtime(const kd_options *opts, kd_comparison *c);

#endif
