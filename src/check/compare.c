/* compare.c — element-wise allclose of v2's buffer against v1's (see compare.h). */
#include "check/compare.h"

#include <float.h>
#include <math.h>
#include <stdint.h>
#include <string.h>

kd_tolerance kd_default_tolerance(kd_dtype t)
{
    switch (t) {
    case KD_DT_F16: return (kd_tolerance){.rtol = 1e-3, .atol = 1e-5};
    case KD_DT_BF16: return (kd_tolerance){.rtol = 1.6e-2, .atol = 1e-5};
    case KD_DT_F32: return (kd_tolerance){.rtol = 1e-5, .atol = 1e-6};
    case KD_DT_F64: return (kd_tolerance){.rtol = 1e-12, .atol = 1e-14};
    default: return (kd_tolerance){.rtol = 0, .atol = 0};
    }
}

static double allowed_error(kd_tolerance tol, double reference)
{
    return tol.atol + tol.rtol * fabs(reference);
}

/* Called for every element both sides wrote with finite values, matching or not, so the
 * maxima describe how far apart the outputs are, not just the failures. */
static void note_error(kd_buffer_check *out, double abs_err, double reference)
{
    double rel_err = abs_err / fmax(fabs(reference), DBL_MIN);
    if (abs_err > out->max_abs_err)
        out->max_abs_err = abs_err;
    if (rel_err > out->max_rel_err)
        out->max_rel_err = rel_err;
}

static bool floats_match(double a, double b, kd_tolerance tol, kd_buffer_check *out)
{
    if (isnan(a) || isnan(b)) {
        if (isnan(a) && isnan(b))
            return true;
        out->nan_mismatches++;
        return false;
    }
    /* inf - inf is NaN, so infinities cannot go through the tolerance test. */
    if (isinf(a) || isinf(b))
        return a == b;
    double err = fabs(b - a);
    note_error(out, err, a);
    return err <= allowed_error(tol, a);
}

static bool is_signed_integer(kd_dtype t)
{
    return t == KD_DT_I8 || t == KD_DT_I16 || t == KD_DT_I32 || t == KD_DT_I64;
}

static int64_t load_signed(kd_dtype t, const void *buf, size_t i)
{
    const unsigned char *p = (const unsigned char *)buf + i * kd_dtype_size(t);
    switch (t) {
    case KD_DT_I8: { int8_t v; memcpy(&v, p, 1); return v; }
    case KD_DT_I16: { int16_t v; memcpy(&v, p, 2); return v; }
    case KD_DT_I32: { int32_t v; memcpy(&v, p, 4); return v; }
    default: { int64_t v; memcpy(&v, p, 8); return v; }
    }
}

static uint64_t load_unsigned(kd_dtype t, const void *buf, size_t i)
{
    const unsigned char *p = (const unsigned char *)buf + i * kd_dtype_size(t);
    switch (t) {
    case KD_DT_U8: { uint8_t v; memcpy(&v, p, 1); return v; }
    case KD_DT_U16: { uint16_t v; memcpy(&v, p, 2); return v; }
    case KD_DT_U32: { uint32_t v; memcpy(&v, p, 4); return v; }
    default: { uint64_t v; memcpy(&v, p, 8); return v; }
    }
}

/* |v2 - v1| exactly: 64-bit values differing beyond 2^53 would be equal as doubles. The
 * true distance always fits in uint64_t, and unsigned arithmetic computes it without the
 * overflow a signed subtraction could hit. */
static uint64_t integer_distance(kd_dtype t, const void *v1, const void *v2, size_t i)
{
    if (is_signed_integer(t)) {
        int64_t a = load_signed(t, v1, i), b = load_signed(t, v2, i);
        return a > b ? (uint64_t)a - (uint64_t)b : (uint64_t)b - (uint64_t)a;
    }
    uint64_t a = load_unsigned(t, v1, i), b = load_unsigned(t, v2, i);
    return a > b ? a - b : b - a;
}

/* A nonzero distance is at least 1.0 as a double, so a zero tolerance stays exact; only
 * the bound itself is approximate. */
static bool integers_match(kd_dtype t, const void *v1, const void *v2, size_t i,
                           kd_tolerance tol, kd_buffer_check *out)
{
    double err = (double)integer_distance(t, v1, v2, i);
    double reference = kd_dtype_load(t, v1, i);
    note_error(out, err, reference);
    return err <= allowed_error(tol, reference);
}

static void note_mismatch(kd_buffer_check *out, size_t i, double a, double b)
{
    if (out->first_count < KD_FIRST_MISMATCHES)
        out->first[out->first_count++] = (kd_mismatch){.index = i, .v1 = a, .v2 = b};
    out->mismatches++;
}

void kd_compare_buffers(kd_dtype t, const void *v1, const void *v2, size_t count,
                        kd_tolerance tol, kd_buffer_check *out)
{
    memset(out, 0, sizeof *out);
    kd_compare_chunk(t, v1, v2, count, 0, tol, out);
}

void kd_compare_chunk(kd_dtype t, const void *v1, const void *v2, size_t count, size_t first,
                      kd_tolerance tol, kd_buffer_check *out)
{
    /* An unknown type has no element size to read by; the spec builder rejects such
     * buffers before anything is allocated, so there is nothing to compare. */
    if (!kd_dtype_size(t))
        count = 0;
    out->count += count;
    out->match = out->mismatches == 0;
    /* Identical bytes with nothing poisoned is the common answer; it needs no element walk. */
    if (count && memcmp(v1, v2, count * kd_dtype_size(t)) == 0 && kd_count_poison(t, v1, count) == 0)
        return;
    for (size_t i = 0; i < count; i++) {
        bool poisoned1 = kd_is_poison(t, v1, i), poisoned2 = kd_is_poison(t, v2, i);
        double a = poisoned1 ? NAN : kd_dtype_load(t, v1, i);
        double b = poisoned2 ? NAN : kd_dtype_load(t, v2, i);
        bool match;
        if (poisoned1 || poisoned2) {
            out->unwritten[0] += poisoned1;
            out->unwritten[1] += poisoned2;
            match = false;
        } else if (kd_dtype_is_float(t)) {
            match = floats_match(a, b, tol, out);
        } else {
            match = integers_match(t, v1, v2, i, tol, out);
        }
        if (!match)
            note_mismatch(out, first + i, a, b);
    }
    out->match = out->mismatches == 0;
}
