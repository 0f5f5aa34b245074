/* runtime.h — the runtime half of a comparison: describe both launches, then (with a GPU,
 * or the simulated harness) run the timing pass and the correctness check. */
#ifndef KD_DIFF_RUNTIME_H
#define KD_DIFF_RUNTIME_H

#include "cli/options.h"
#include "diff/model.h"

/* Fills each side's launch (or launch_error). Never fails: a launch that cannot be
 * described matters only when kerndiff is about to run it. */
void kd_describe_launches(const kd_options *opts, kd_comparison *c);

/* Runs the timing pass when there is something to run it on; otherwise sets
 * c->runtime_note to why not. Returns KD_EXIT_OK, KD_EXIT_INPUT (a launch cannot be
 * described), KD_EXIT_RUNTIME (a side faulted, hung or broke), KD_EXIT_TOOL. On failure
 * the message is also in c->runtime_note, so the static report still shows it. */
int kd_compare_runtime(const kd_options *opts, kd_comparison *c);

#endif
