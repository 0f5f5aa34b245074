/* autotune.h — choosing the config of an autotuned kernel (Triton's @triton.autotune, the
 * backends' `configs`): the one the values the user gave select; else each config built and
 * timed briefly alone (measure/brief.h), the fastest kept; else — nothing to time it on (no
 * GPU, --no-run) or --no-autotune — the first. The choice goes to side->config, which the
 * build uses, and how it was made to side->autotune, which the reports show. */
#ifndef KD_DIFF_AUTOTUNE_H
#define KD_DIFF_AUTOTUNE_H

#include "diff/options.h"
#include "diff/comparison.h"

/* Takes a side from its chosen kernel through prepare, launch, build and static analysis
 * (the pipeline's own steps, compare.c); returns a kd_outcome, the failure printed. */
typedef int (*kd_side_maker)(const kd_diff_options *opts, kd_comparison *c, kd_side *side, int s);

/* Chooses side s's config. A config that fails to build fails the comparison (the build's
 * message is printed); one that cannot run is left out of the ranking, and said. Returns a
 * kd_outcome. */
int kd_autotune_side(const kd_diff_options *opts, kd_comparison *c, int s, kd_side_maker make);

#endif
