/* compare.h — is v2's output the same as v1's? allclose semantics per element, in full. */
#ifndef KD_CHECK_COMPARE_H
#define KD_CHECK_COMPARE_H

#include <stdbool.h>
#include <stddef.h>
#include "util/dtype.h"

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

/* The simple structure a difference can have, found while comparing (kd_difference_pattern
 * is KD_PATTERN_NONE when the buffers match or when nothing simple explains them). */
typedef enum kd_difference_pattern {
    KD_PATTERN_NONE = 0,
    KD_PATTERN_NONFINITE,   /* every differing element has a NaN or an infinity on a side */
    KD_PATTERN_SHIFT,       /* v2[i] == v1[i + shift] for >= 99% of the pairs (|shift| <= 64) */
    KD_PATTERN_PERMUTATION, /* the same values, bit for bit, in another order */
    KD_PATTERN_FACTOR,      /* v2[i] == factor * v1[i] for >= 99% of the elements */
    KD_PATTERN_TAIL,        /* every difference lies in the buffer's tail (a bounds check?) */
    KD_PATTERN_COUNT
} kd_difference_pattern;

/* "shift", "permutation" ... (the JSON ids) */
const char *kd_pattern_name(kd_difference_pattern p);

#define KD_SHIFT_MAX 64
/* Shifts are scored over the first KD_SHIFT_WINDOW pairs; past it only the best one is
 * followed, so a shift costs one comparison per element, not 128. */
#define KD_SHIFT_WINDOW 4096

/* The streaming detectors' working state: the buffers arrive a chunk at a time, so the
 * last KD_SHIFT_MAX values of each side are kept to pair across a chunk boundary. Only
 * kd_compare_chunk reads it. */
typedef struct kd_pattern_scan {
    double recent[2][KD_SHIFT_MAX];        /* value of element i at [side][i % KD_SHIFT_MAX] */
    unsigned char recent_ok[2][KD_SHIFT_MAX]; /* written (not poison) */
    size_t shift_fits[2 * KD_SHIFT_MAX + 1]; /* pairs that fit shift k, at k + KD_SHIFT_MAX */
    int followed;                          /* the shift followed past the window (0: none yet) */
    unsigned long long sum[2][2];          /* order-independent hashes of each side's values */
    size_t written[2];                     /* elements hashed per side */
    double factor;                         /* the candidate v2/v1 (0: none yet) */
    size_t factor_fits;
} kd_pattern_scan;

/* A degenerate v2: an output that a loose tolerance lets through although it computes
 * nothing (KernelBench#165: v1's values are ~1e-5, v2 writes zeros, and under --atol 1e-4
 * every element "matches"; such all-zero outputs passed 4 of 60 tasks). The element-wise
 * test cannot see it, since each zero is within atol of its reference; the whole buffer
 * can: v2 holds one value, or none that is finite, while v1 does not. A degenerate v2 does
 * not match, whatever the tolerance. v2 is judged against v1, never alone: both all zero,
 * or both the same constant, is a legitimate output (a ReLU of negative inputs, a fill).
 * Priority when several apply: NONFINITE, ZERO, CONSTANT. */
typedef enum kd_degenerate {
    KD_DEGENERATE_NONE = 0,
    KD_DEGENERATE_ZERO,      /* v2's finite values are all exactly zero (+0 or -0), at least 2 v2
                              * values, while v1 holds a non-zero finite value somewhere */
    KD_DEGENERATE_CONSTANT,  /* v2 holds one value throughout (bit for bit, or equal as doubles)
                              * where v1 varies: at least 2 v2 values, and v1's finite values
                              * spread wider than the dtype's default rtol times their largest
                              * magnitude (for integers: any two distinct values), so that a v1
                              * constant up to rounding noise, against which an exact constant
                              * is an honest answer, is not taken for varying */
    KD_DEGENERATE_NONFINITE, /* v2 is NaN or infinite at every element where v1 is finite (both
                              * written; at least one such element). Such elements already
                              * mismatch; the label says the whole output is garbage */
    KD_DEGENERATE_COUNT
} kd_degenerate;

/* "none", "zero", "constant", "nonfinite" (the JSON ids) */
const char *kd_degenerate_name(kd_degenerate d);

/* One side's values as seen so far (elements that side did not leave holding the poison);
 * streamed across chunks like kd_pattern_scan. Working state: read the results from
 * kd_buffer_check's degenerate, v1_rms, v2_rms and scale_rel_err. */
typedef struct kd_value_stats {
    size_t values;             /* elements not poisoned on this side */
    size_t nonfinite;          /* of them NaN or infinite */
    size_t nonzero;            /* of them finite and not zero */
    unsigned long long first_bits; /* the first value, bit for bit and as a double */
    double first_value;
    bool varied;               /* some value differs from the first (bits and double both) */
    double min, max;           /* of the finite values (valid when values > nonfinite) */
    double scale, ssq;         /* the finite values' sum of squares is scale^2 * ssq; scale is
                                * 1 (0 before a non-zero value), but for f64 their largest
                                * magnitude (no overflow at f64's extremes; other types'
                                * squares fit a double) */
} kd_value_stats;

typedef struct kd_value_scan {
    kd_value_stats side[2];    /* v1, v2 */
    size_t v1_finite;          /* elements both sides wrote with v1 finite */
    size_t v2_nonfinite_there; /* of them, those where v2 is NaN or infinite */
} kd_value_scan;

typedef struct kd_buffer_check {
    size_t count;              /* elements compared */
    size_t mismatches;         /* elements whose values differ beyond the tolerance */
    size_t unwritten[2];       /* elements left holding the poison by v1 / v2 */
    size_t written_differ;     /* elements written by one side only (poisoned run) */
    size_t first_written_differ; /* the first of them (valid when written_differ > 0) */
    size_t nan_mismatches;     /* NaN on one side only (or at different places) */
    size_t inf_mismatches;     /* an infinity against anything but the same infinity */
    size_t last_mismatch;      /* index of the last differing element */
    double max_abs_err, max_rel_err; /* over elements both sides wrote, NaNs excluded */
    kd_mismatch first[KD_FIRST_MISMATCHES];
    size_t first_count;
    /* What explains the difference (kept current after every chunk). */
    kd_difference_pattern pattern;
    long shift;                /* SHIFT: v2[i] == v1[i + shift] */
    double factor;             /* FACTOR: v2[i] == factor * v1[i] */
    size_t pattern_fits, pattern_of; /* elements (pairs for SHIFT) that fit, out of how many */
    /* The output's scale, and the floor under the tolerance (kept current after every chunk).
     * atol is absolute: against outputs of v1's scale or below it accepts anything,
     * degenerate or not, so the report needs the error measured against that scale. */
    kd_degenerate degenerate;  /* v2 degenerate where v1 is not (NONE: not degenerate) */
    double v1_rms, v2_rms;     /* root mean square of each side's finite values, poison left out
                                * (0: none, or all zero) */
    double scale_rel_err;      /* max_abs_err / v1_rms (0 when v1_rms is 0): the error against the
                                * output's scale; near or above 1, v2 is as far from v1 as v1 is
                                * from zero, whatever the tolerance allowed */
    bool match;                /* mismatches == 0, at least one element written, and degenerate
                                * == KD_DEGENERATE_NONE */
    kd_pattern_scan scan;
    kd_value_scan values;
} kd_buffer_check;

/* Compares `count` elements of type t (v1 is the reference): an element matches when
 * |v2 - v1| <= atol + rtol * |v1|; both NaN matches; infinities match when equal; an
 * element poisoned on both sides matches (neither wrote it); poisoned on one side only, it
 * differs. Vector types are compared as scalars: pass the base type and count * lanes.
 *
 * Details:
 *   - poison (kd_is_poison) is tested before any value, so a poisoned float is counted in
 *     unwritten[], never as a NaN; its side's value in `first` is NaN, the other side's is
 *     what it wrote. An element poisoned on one side also counts in written_differ.
 *   - NaN against a non-NaN counts in nan_mismatches, an infinity against anything else
 *     in inf_mismatches.
 *   - integers are compared on their exact values (64-bit ones too, which double cannot
 *     hold): the exact |v2 - v1| is held against the bound, so with the default zero
 *     tolerance any difference mismatches. kd_mismatch holds their double approximations.
 *   - max_abs_err and max_rel_err cover every element both sides wrote with both values
 *     finite, matching or not. The relative error is |v2 - v1| / max(|v1|, floor), the
 *     floor being atol (the dtype's default atol when atol is 0; 1 for integers): against
 *     a reference of zero it stays a readable number, never 1e+307.
 *   - match is false when no element was written by either side: nothing was compared.
 *   - match is false when v2 is degenerate (kd_degenerate), even with no element differing:
 *     a tolerance loose against the output's scale must not let an all-zero, constant or
 *     all-NaN v2 through. Degeneracy and the scales are measured on the values compared
 *     here (the seeded run), each side's poisoned elements left out. Elements neither side
 *     writes hold their seeded values on both sides and count as such (the poisoned run,
 *     which says which they are, comes after the values).
 *   - the pattern (see kd_difference_pattern) is looked for only when values differ; a
 *     shift must explain more elements than the unshifted comparison does. */
void kd_compare_buffers(kd_dtype t, const void *v1, const void *v2, size_t count,
                        kd_tolerance tol, kd_buffer_check *out);

/* The same, one chunk at a time, for buffers too large to hold whole: `out` starts zeroed
 * and accumulates; `first` is the chunk's first element, so mismatch indexes are the
 * buffer's. After the last chunk `out` is what kd_compare_buffers gives for the whole.
 * Chunks must come in order (the pattern detectors pair neighbouring elements). degenerate,
 * match and the scales describe the elements seen so far: a v2 all zero in its first chunk
 * is ZERO until a later chunk holds a non-zero value; there is no "finish" call to make. */
typedef struct kd_values_chunk {
    kd_dtype type;
    const void *v1, *v2; /* count elements of each side */
    size_t count;
    size_t first; /* the chunk's first element's index in the whole buffer */
} kd_values_chunk;
void kd_compare_chunk(const kd_values_chunk *values, kd_tolerance tol, kd_buffer_check *out);

/* The correctness check runs each side twice (docs/PROTOCOL.md `check`): the values come
 * from the seeded run (kd_compare_chunk), which elements were written from the poisoned
 * run, given here chunk by chunk in the same order: unwritten[] counts the elements a side
 * left holding the poison, written_differ those only one side wrote. A difference only in
 * which elements were written does not make the buffer differ: given the same starting
 * contents, both sides leave the same values. */
void kd_compare_written_chunk(kd_dtype t, const void *poisoned_v1, const void *poisoned_v2, size_t count,
                              size_t first, kd_buffer_check *out);

#endif
