/* compare.h — is v2's output the same as v1's? allclose semantics per element, in full. */
#ifndef KD_CHECK_COMPARE_H
#define KD_CHECK_COMPARE_H

#include <stdbool.h>
#include <stddef.h>
#include "launch/dtype.h"

typedef struct kd_tolerance {
    double rtol, atol;
} kd_tolerance;

/* Defaults per dtype (documented in docs/OPTIONS.md). Integers: exact. Each float default
 * is the type's unit roundoff u times a small factor, the way torch.testing picks them for
 * f16/bf16: a correct v2 that rounds differently (fused multiply-add, another summation
 * order) lands within a few ulps, a wrong one does not. f32 and f64 allow more ulps,
 * because reductions reassociated over thousands of terms drift further:
 *
 *   dtype  rtol     atol   u               rtol / u
 *   f16    1e-3     1e-5   2^-11 = 4.9e-4  2
 *   bf16   1.6e-2   1e-5   2^-8  = 3.9e-3  4
 *   f32    1e-5     1e-6   2^-24 = 6.0e-8  ~170
 *   f64    1e-12    1e-14  2^-53 = 1.1e-16 ~9000
 *   ints   0        0      exact
 *
 * atol only matters where v1 is near zero, where rtol * |v1| vanishes. */
kd_tolerance kd_default_tolerance(kd_dtype t);

#define KD_FIRST_MISMATCHES 8

typedef struct kd_mismatch {
    size_t index;
    double v1, v2;
} kd_mismatch;

typedef struct kd_buffer_check {
    size_t count;              /* elements compared */
    size_t mismatches;         /* elements outside tolerance (unwritten ones included) */
    size_t unwritten[2];       /* elements still poisoned in v1 / v2 */
    size_t nan_mismatches;     /* NaN on one side only (or at different places) */
    double max_abs_err, max_rel_err; /* over elements both sides wrote, NaNs excluded */
    kd_mismatch first[KD_FIRST_MISMATCHES];
    size_t first_count;
    bool match;                /* mismatches == 0 */
} kd_buffer_check;

/* Compares `count` elements of type t (v1 is the reference): an element matches when
 * |v2 - v1| <= atol + rtol * |v1|; both NaN matches; infinities match when equal; an
 * element still poisoned on either side never matches. Vector types are compared as
 * scalars: pass the base type and count * lanes.
 *
 * Details:
 *   - poison (kd_is_poison) is tested before any value, so a poisoned float is counted in
 *     unwritten[], never as a NaN; its side's value in `first` is NaN, the other side's is
 *     what it wrote.
 *   - NaN against a non-NaN counts in nan_mismatches; an infinity matches only the same
 *     infinity.
 *   - integers are compared on their exact values (64-bit ones too, which double cannot
 *     hold): the exact |v2 - v1| is held against the bound, so with the default zero
 *     tolerance any difference mismatches. kd_mismatch holds their double approximations.
 *   - max_abs_err and max_rel_err cover every element both sides wrote with both values
 *     finite, matching or not. The relative error is |v2 - v1| / max(|v1|, DBL_MIN): a
 *     difference against a reference of exactly zero therefore shows as a huge relative
 *     error (it is undefined there), while the match decision relies on atol. */
void kd_compare_buffers(kd_dtype t, const void *v1, const void *v2, size_t count,
                        kd_tolerance tol, kd_buffer_check *out);

/* The same, one chunk at a time, for buffers too large to hold whole: `out` starts zeroed
 * and accumulates; `first` is the chunk's first element, so mismatch indexes are the
 * buffer's. After the last chunk `out` is what kd_compare_buffers gives for the whole. */
void kd_compare_chunk(kd_dtype t, const void *v1, const void *v2, size_t count, size_t first,
                      kd_tolerance tol, kd_buffer_check *out);

#endif
