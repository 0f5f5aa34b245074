/* runtime.h — the runtime half of a comparison: describe both launches, then (with a GPU,
 * or the simulated harness) run the timing pass and the correctness check. */
#ifndef KD_DIFF_RUNTIME_H
#define KD_DIFF_RUNTIME_H

#include "backend/backend.h"
#include "diff/options.h"
#include "diff/comparison.h"

/* Side s's launch request: the global flags, then that side's --call settings on top
 * (already merged by the option parser, launch/call.h). */
kd_launch_request kd_side_launch_request(const kd_launch_options *given, const kd_side *side, int s);

/* Fills side s's launch (or launch_error; s: 0 for v1, 1 for v2, whose --call settings
 * apply). Never fails: a launch that cannot be described matters only when kerndiff is
 * about to run it. */
void kd_describe_launch(const kd_launch_options *given, kd_side *side, int s);

/* Side s's launch as the diff resolves it before the build: its front end's preparation (what
 * the kernel's compiler fixes: Triton's constexprs, block and scalar types), then the
 * description (kd_describe_launch). The diff (each side) and `kerndiff list` (each kernel,
 * kd_list_launch) both call it, so that they cannot disagree. Returns the preparation's
 * kd_outcome, said on stderr; the launch is described only after a preparation that succeeded. */
int kd_resolve_launch(const kd_frontend_options *fopts, const kd_launch_options *launch, kd_side *side, int s);

/* The backend that runs the comparison's kernels, or NULL with why nothing can run in *why
 * (a runtime note). */
const kd_backend *kd_runtime_backend(const kd_diff_options *opts, const kd_comparison *c, kd_note *why);

/* What the timing code needs of a built, described and analysed side, run by `harness`. */
kd_timing_side kd_timing_side_of(const kd_side *side, const kd_argv *harness);

/* Starts the harness children and runs the passes of diff/passes.h (sanitizer, timing,
 * counters, regions) when there is something to run them on; otherwise sets
 * c->runtime_note to why not. Returns KD_OK, KD_FAIL_INPUT (a launch cannot be
 * described), KD_FAIL_RUNTIME (a side faulted, hung or broke), KD_FAIL_TOOL. On failure
 * the message is also in c->runtime_note, so the static report still shows it. */
int kd_compare_runtime(const kd_diff_options *opts, kd_comparison *c);

/* Called once per run when the verdict is known, before the passes after the timing (the
 * counters, the regions: slower), with the comparison so far. The layer that words things
 * installs it (main: report/announce.h's kd_announce_verdict); none installed, nothing is
 * said. */
typedef void (*kd_verdict_hook)(const kd_comparison *c);
void kd_runtime_on_verdict(kd_verdict_hook hook);

#endif
