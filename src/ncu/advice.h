/* advice.h — short notes tied to the counter deltas, each naming the metric behind it:
 * "shared-memory bank conflicts vanished (l1tex bank conflicts ld 3.1M -> 0)", "loads are no
 * longer coalesced (sectors/request ld 4.0 -> 32.0)", "occupancy now limited by registers",
 * "tensor pipe idle in a matmul-like kernel (...)". --no-advice hides them.
 * The notes are ranked by their share of the change (issue 31 item 3): where both sides have
 * the warp-stall rows, a mechanism's share is the part of the change in stalls that its
 * stall reasons carry (global memory: long scoreboard and LG throttle; shared memory: MIO
 * throttle and short scoreboard; ...), said in the note; without them, the size of its own
 * evidence row's change. With a hot-spot diff, each note names its hot line: the line whose
 * share of the samples changed most among those with the mechanism's instructions (LDG for
 * global loads, LDS for shared ones, HMMA/HGMMA for tensor cores, LDL/STL for spills) or
 * stall reason. */
#ifndef KD_NCU_ADVICE_H
#define KD_NCU_ADVICE_H

#include <stddef.h>
#include "hotspots/hotspots.h"
#include "ncu/metrics.h"

typedef struct kd_advice_input {
    const kd_metric_values *side[2];   /* aggregated values of v1 and v2 */
    long spill_bytes[2];               /* ptxas spill stores + loads per side (static diff) */
} kd_advice_input;

/* Appends notes (malloc'd strings) to *notes (*count of them), the largest share first; the
 * notes already there stay first. */
void kd_advice(const kd_advice_input *in, char ***notes, size_t *count);
/* The same, each note naming its hot line in hotspots (NULL: kd_advice). */
void kd_advice_hot(const kd_advice_input *in, const kd_hs_diff *hotspots, char ***notes, size_t *count);

#endif
