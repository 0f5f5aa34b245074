/* ptxcount.h — which integer parameters of a PTX entry are the element count, read from the
 * code rather than from a name (a .ptx's parameters are `block_sum_param_2`, or p0, p1, ...
 * once demangled): a parameter compared (`setp`) with the global thread index, the value of
 * `blockIdx.x * blockDim.x + threadIdx.x` (`mad.lo` of %ctaid.x, %ntid.x and %tid.x, or a
 * `mul.lo` and an `add`), is the bound of that index, as a .cu kernel's `if (i < n)` makes
 * it. Such a parameter gets the element count n (source/roles.h KD_ROLE_LENGTH), and the
 * launch says why.
 *
 * Like static/ptxflow.h, the analysis is flow insensitive (a register is whatever any of
 * its assignments made it) and follows copies and conversions (mov, cvt). */
#ifndef KD_SOURCE_PTXCOUNT_H
#define KD_SOURCE_PTXCOUNT_H

#include "source/scan.h"

/* Sets bounds_index on each integer scalar parameter of k that entry `entry` of ptx compares
 * with its global thread index. Nothing when the entry is absent or its parameter count is
 * not k's. */
void kd_ptx_mark_counts(kd_kernel *k, const char *ptx, const char *entry);

#endif
