/* advice.h — short notes tied to the counter deltas, each naming the metric behind it:
 * "shared-memory bank conflicts vanished (l1tex bank conflicts ld 3.1M -> 0)", "loads are no
 * longer coalesced (sectors/request ld 4.0 -> 32.0)", "occupancy now limited by registers",
 * "tensor pipe idle in a matmul-like kernel (...)". --no-advice hides them. */
#ifndef KD_NCU_ADVICE_H
#define KD_NCU_ADVICE_H

#include <stddef.h>
#include "ncu/metrics.h"

typedef struct kd_advice_input {
    const kd_metric_values *side[2];   /* aggregated values of v1 and v2 */
    long spill_bytes[2];               /* ptxas spill stores + loads per side (static diff) */
} kd_advice_input;

/* Appends notes (malloc'd strings) to *notes (*count of them). */
void kd_advice(const kd_advice_input *in, char ***notes, size_t *count);

#endif
