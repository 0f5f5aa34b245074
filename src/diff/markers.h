/* markers.h — which form a side's KD_REGION markers take in its sampled instrumented build.
 *
 * In the blocks that do not record, a marker either runs the record with its store
 * predicated off (the default: the recording warps, which set a one-wave launch's time, pay
 * about 27 cycles a record instead of 40-65, because the branch makes ptxas wait on all of
 * the warp's scoreboards and read the clock with a variable-latency S2UR) or branches around
 * it (KD_REGION_BRANCHED). The branch wins in two cases, each checked here:
 *   - at build time, when the predicated form keeps the record context's registers live
 *     enough to cost the kernel blocks per SM against the plain build;
 *   - at run time, once the GPU's SM count and so the block sample are known, when the grid
 *     runs more than one wave: each SM then runs several blocks in turn, most of them silent,
 *     and what the predicated markers cost those adds up on every SM (examples/regions v2 on
 *     an H200: +3.5% predicated against +0.6% branched).
 * The branched build is its own cache entry; side->regions_branched and
 * side->regions_branch_reason say which form the kept build has. */
#ifndef KD_DIFF_MARKERS_H
#define KD_DIFF_MARKERS_H

#include "diff/comparison.h"
#include "diff/options.h"

/* After side->regions_build is made predicated: builds it again branched when that has
 * fewer blocks per SM than the plain build, and keeps the build with more. Returns KD_OK,
 * or the front end's failure for the branched build (already said). */
int kd_markers_keep_occupancy(const kd_diff_options *opts, const kd_comparison *c, kd_side *side);

/* Before the region pass records side: builds it again branched when its build is
 * predicated, `stride` > 1 (most blocks silent) and the grid's blocks exceed what `sms` SMs
 * hold at once at the build's occupancy. A failed rebuild keeps the predicated build (the
 * trace says why); nothing else changes. */
void kd_markers_branch_for_waves(const kd_diff_options *opts, const kd_comparison *c, kd_side *side, unsigned stride,
                                 int sms);

#endif
