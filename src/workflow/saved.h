/* saved.h — `kerndiff compare OLD.json NEW.json`: two saved runs (--save) diffed with the
 * same renderers. One side of each file is taken (v2 by default, --side v1): "what did this
 * version do then, and what does it do now". Speedup and verdict are decided from the saved
 * raw samples and rounds by the one verdict function (measure/verdict.h), each run's rounds
 * drawn on their own; the static diff and counters come from the files. A warning is shown
 * when the GPU or the driver differ between the runs. The same run twice (one file, or a
 * copy) is re-compared, its v1 against its v2, with its rounds shared and its noise floor:
 * the verdict and interval it was saved with (a run saved without its rounds keeps its
 * saved ones, and says so). */
#ifndef KD_WORKFLOW_SAVED_H
#define KD_WORKFLOW_SAVED_H

#include "diff/comparison.h"
#include "diff/options.h"

/* The two saved runs are opts->files; side_column is "v1" or "v2" (NULL: "v2"; not read for
 * one run twice); the timing options (--seed, --min-effect) decide the verdict and the gate
 * is judged on it. Returns KD_OK, or KD_FAIL_INPUT (a file missing, not JSON, or not a
 * kerndiff result) with the reason said (util/diag.h). */
int kd_compare_saved(const kd_diff_options *opts, const char *side_column, kd_comparison *out);

#endif
