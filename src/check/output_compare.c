/* compare.c — element-wise allclose of v2's buffer against v1's (see compare.h). */
#include "check/output_compare.h"

#include <float.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
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
static void note_error(kd_buffer_check *out, double abs_err, double reference, double floor)
{
    double rel_err = abs_err / fmax(fabs(reference), floor);
    if (abs_err > out->max_abs_err)
        out->max_abs_err = abs_err;
    if (rel_err > out->max_rel_err)
        out->max_rel_err = rel_err;
}

static bool floats_match(double a, double b, kd_tolerance tol, double floor, kd_buffer_check *out)
{
    if (isnan(a) || isnan(b)) {
        if (isnan(a) && isnan(b))
            return true;
        out->nan_mismatches++;
        return false;
    }
    /* inf - inf is NaN, so infinities cannot go through the tolerance test. */
    if (isinf(a) || isinf(b)) {
        out->inf_mismatches += a != b;
        return a == b;
    }
    double err = fabs(b - a);
    note_error(out, err, a, floor);
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
    note_error(out, err, reference, 1.0);
    return err <= allowed_error(tol, reference);
}

static void note_mismatch(kd_buffer_check *out, size_t i, double a, double b)
{
    if (out->first_count < KD_FIRST_MISMATCHES)
        out->first[out->first_count++] = (kd_mismatch){.index = i, .v1 = a, .v2 = b};
    out->mismatches++;
    out->last_mismatch = i;
}

/* The relative error's denominator never falls below this: a difference against a
 * reference of zero is then a large but readable number. */
static double relative_floor(kd_dtype t, kd_tolerance tol)
{
    if (!kd_dtype_is_float(t))
        return 1.0;
    return tol.atol > 0 ? tol.atol : kd_default_tolerance(t).atol;
}

/* ---- the pattern detectors ------------------------------------------------------------ */

const char *kd_pattern_name(kd_difference_pattern p)
{
    static const char *const names[KD_PATTERN_COUNT] = {"none", "nonfinite", "shift", "permutation", "factor", "tail"};
    return p < KD_PATTERN_COUNT ? names[p] : "none";
}

/* Whether b stands for a under the tolerance, the way floats_match decides, on values
 * already loaded (integers as doubles: exact up to 2^53, enough to recognise a pattern). */
static bool fits(double a, double b, kd_tolerance tol)
{
    if (isnan(a) || isnan(b))
        return isnan(a) && isnan(b);
    if (isinf(a) || isinf(b))
        return a == b;
    return fabs(b - a) <= tol.atol + tol.rtol * fabs(a);
}

/* splitmix64's finaliser: summed over the elements, an order-independent fingerprint of a
 * multiset (two of them, differently seeded, so a chance collision needs both). */
static unsigned long long mix(unsigned long long x)
{
    x ^= x >> 30;
    x *= 0xbf58476d1ce4e5b9ull;
    x ^= x >> 27;
    x *= 0x94d049bb133111ebull;
    return x ^ (x >> 31);
}

static unsigned long long element_bits(kd_dtype t, const void *buf, size_t i)
{
    unsigned long long bits = 0;
    size_t size = kd_dtype_size(t);
    memcpy(&bits, (const unsigned char *)buf + i * size, size);
    return bits;
}

/* A chunk being compared: both sides' elements, of type t, the first at index `first` of
 * the whole buffer. */
typedef struct chunk {
    kd_dtype t;
    const void *v[2];
    size_t first;
    kd_tolerance tol;
} chunk;

/* One element of both sides as read: its index in the whole buffer, the values (NaN where
 * poisoned) and whether each side wrote it. */
typedef struct element {
    size_t j;
    double a, b;
    bool ok1, ok2;
} element;

/* Pairs element j of one side with the KD_SHIFT_MAX elements before it on the other: shift
 * +k pairs v2[j-k] with v1[j], shift -k pairs v2[j] with v1[j-k]. All shifts are scored
 * over the first KD_SHIFT_WINDOW + KD_SHIFT_MAX elements; then the best is followed alone. */
static void score_shifts(kd_pattern_scan *s, const element *e, kd_tolerance tol)
{
    const size_t j = e->j;
    const double a = e->a, b = e->b;
    const bool ok1 = e->ok1, ok2 = e->ok2;
    if (j >= KD_SHIFT_WINDOW + KD_SHIFT_MAX && !s->followed) {
        size_t best = KD_SHIFT_MAX;
        for (size_t k = 0; k <= 2 * KD_SHIFT_MAX; k++)
            if (k != KD_SHIFT_MAX && s->shift_fits[k] > s->shift_fits[best])
                best = k;
        s->followed = best == KD_SHIFT_MAX ? KD_SHIFT_MAX + 1 : (int)best - KD_SHIFT_MAX; /* +65: none fits */
    }
    int lo = 1, hi = KD_SHIFT_MAX;
    if (s->followed) {
        if (s->followed > KD_SHIFT_MAX)
            return;
        lo = hi = abs(s->followed);
    }
    for (int k = lo; k <= hi && (size_t)k <= j; k++) {
        size_t at = (j - (size_t)k) % KD_SHIFT_MAX;
        if ((!s->followed || s->followed == k) && ok1 && s->recent_ok[1][at] && fits(a, s->recent[1][at], tol))
            s->shift_fits[KD_SHIFT_MAX + k]++;
        if ((!s->followed || s->followed == -k) && ok2 && s->recent_ok[0][at] && fits(s->recent[0][at], b, tol))
            s->shift_fits[KD_SHIFT_MAX - k]++;
    }
}

/* Element i of the chunk, which both sides may have written: every detector's step. */
static void scan_element(kd_buffer_check *out, const chunk *c, size_t i, const element *e, bool matched)
{
    kd_pattern_scan *s = &out->scan;
    const kd_dtype t = c->t;
    const size_t j = e->j;
    const double a = e->a, b = e->b;
    const bool ok1 = e->ok1, ok2 = e->ok2;
    score_shifts(s, e, c->tol);
    s->recent[0][j % KD_SHIFT_MAX] = a;
    s->recent[1][j % KD_SHIFT_MAX] = b;
    s->recent_ok[0][j % KD_SHIFT_MAX] = ok1;
    s->recent_ok[1][j % KD_SHIFT_MAX] = ok2;
    bool ok[2] = {ok1, ok2};
    for (int k = 0; k < 2; k++)
        if (ok[k]) {
            unsigned long long bits = element_bits(t, c->v[k], i);
            s->sum[k][0] += mix(bits);
            s->sum[k][1] += mix(bits ^ 0x5851f42d4c957f2dull);
            s->written[k]++;
        }
    if (!ok1 || !ok2 || !isfinite(a) || !isfinite(b))
        return;
    if (s->factor == 0 && !matched && a != 0 && b != 0)
        s->factor = b / a;
    if (s->factor != 0 ? fits(s->factor * a, b, c->tol) : a == 0 && b == 0)
        s->factor_fits++;
}

/* The pattern that explains the difference, from what the detectors gathered so far. A
 * pattern must leave fewer elements unexplained than the plain comparison does. */
static void find_pattern(kd_buffer_check *out)
{
    const kd_pattern_scan *s = &out->scan;
    out->pattern = KD_PATTERN_NONE;
    out->shift = 0;
    out->factor = 0;
    out->pattern_fits = out->pattern_of = 0;
    if (out->mismatches == 0)
        return;
    if (out->nan_mismatches + out->inf_mismatches == out->mismatches) {
        out->pattern = KD_PATTERN_NONFINITE;
        out->pattern_fits = out->pattern_of = out->mismatches;
        return;
    }
    int best = 0;
    if (s->followed && s->followed <= KD_SHIFT_MAX)
        best = s->followed;
    for (int k = -KD_SHIFT_MAX; !s->followed && k <= KD_SHIFT_MAX; k++)
        if (k && s->shift_fits[KD_SHIFT_MAX + k] >
                     (best ? s->shift_fits[KD_SHIFT_MAX + best] : 0))
            best = k;
    size_t pairs = best && out->count > (size_t)abs(best) ? out->count - (size_t)abs(best) : 0;
    size_t fit = best ? s->shift_fits[KD_SHIFT_MAX + best] : 0;
    if (pairs >= 4 && fit >= 0.99 * (double)pairs && pairs - fit + (size_t)abs(best) < out->mismatches) {
        out->pattern = KD_PATTERN_SHIFT;
        out->shift = best;
        out->pattern_fits = fit;
        out->pattern_of = pairs;
        return;
    }
    if (s->written[0] == s->written[1] && s->written[0] == out->count && out->count > 1 &&
        s->sum[0][0] == s->sum[1][0] && s->sum[0][1] == s->sum[1][1]) {
        out->pattern = KD_PATTERN_PERMUTATION;
        out->pattern_fits = out->pattern_of = out->count;
        return;
    }
    if (s->factor != 0 && s->factor_fits >= 0.99 * (double)out->count &&
        out->count - s->factor_fits < out->mismatches) {
        out->pattern = KD_PATTERN_FACTOR;
        out->factor = s->factor;
        out->pattern_fits = s->factor_fits;
        out->pattern_of = out->count;
        return;
    }
    size_t from = out->first[0].index, tail = out->count - from;
    if (from > 0 && out->last_mismatch + 1 == out->count && tail <= out->count / 2 &&
        out->mismatches >= 0.9 * (double)tail) {
        out->pattern = KD_PATTERN_TAIL;
        out->pattern_fits = out->mismatches;
        out->pattern_of = tail;
    }
}

/* ---- the output's scale and degenerate outputs ------------------------------------------ */

const char *kd_degenerate_name(kd_degenerate d)
{
    static const char *const names[KD_DEGENERATE_COUNT] = {"none", "zero", "constant", "nonfinite"};
    return d < KD_DEGENERATE_COUNT ? names[d] : "none";
}

/* How values of a type are noted: floats are also compared as doubles (+0 and -0 are the
 * same value), integers bit for bit (a 64-bit one may not survive the conversion to
 * double); only f64's squares can overflow a double, so only f64 sums scaled squares. */
typedef struct value_kind {
    bool is_float, scaled;
} value_kind;

static value_kind kind_of(kd_dtype t)
{
    return (value_kind){kd_dtype_is_float(t), t == KD_DT_F64};
}

static inline bool differs(value_kind k, unsigned long long bits1, double x1, unsigned long long bits2, double x2)
{
    return bits1 != bits2 && (!k.is_float || x1 != x2);
}

/* One value a side wrote (x as loaded, bits as stored). */
static inline void note_value(kd_value_stats *st, value_kind k, double x, unsigned long long bits)
{
    if (st->values++ == 0) {
        st->first_bits = bits;
        st->first_value = x;
    } else if (differs(k, bits, x, st->first_bits, st->first_value)) {
        st->varied = true;
    }
    if (!isfinite(x)) {
        st->nonfinite++;
        return;
    }
    if (st->values - st->nonfinite == 1) {
        st->min = st->max = x;
    } else {
        st->min = x < st->min ? x : st->min;
        st->max = x > st->max ? x : st->max;
    }
    if (x == 0)
        return;
    st->nonzero++;
    if (!k.scaled) { /* an f32's square, or a 64-bit integer's, fits a double */
        st->scale = 1;
        st->ssq += x * x;
        return;
    }
    double ax = fabs(x);
    if (ax > st->scale) { /* rescale what was summed to the new largest magnitude */
        double r = st->scale / ax;
        st->ssq = 1 + st->ssq * r * r;
        st->scale = ax;
    } else {
        double r = ax / st->scale;
        st->ssq += r * r;
    }
}

/* The same as note_value on each of count f32 values, after the side's first value was
 * noted: the common output type, summed in locals the compiler keeps in registers. */
static void note_f32(kd_value_stats *st, const unsigned char *p, size_t count)
{
    uint32_t first_bits = (uint32_t)st->first_bits;
    float first = (float)st->first_value;
    bool varied = false, any_finite = st->values > st->nonfinite;
    float lo = any_finite ? (float)st->min : INFINITY, hi = any_finite ? (float)st->max : -INFINITY;
    size_t nonfinite = 0, nonzero = 0;
    double ssq[2] = {0, 0}; /* two sums: half the additions' latency */
    for (size_t i = 0; i < count; i++) {
        uint32_t bits;
        float x;
        memcpy(&bits, p + 4 * i, 4);
        memcpy(&x, &bits, 4);
        varied |= bits != first_bits && x != first;
        if (!isfinite(x)) {
            nonfinite++;
            continue;
        }
        lo = x < lo ? x : lo;
        hi = x > hi ? x : hi;
        nonzero += x != 0;
        ssq[i & 1] += (double)x * x;
    }
    st->values += count;
    st->nonfinite += nonfinite;
    st->nonzero += nonzero;
    st->varied |= varied;
    if (count > nonfinite) {
        st->min = lo;
        st->max = hi;
    }
    if (nonzero) {
        st->scale = 1;
        st->ssq += ssq[0] + ssq[1];
    }
}

/* count values of one side, those holding the poison left out (none can when
 * !maybe_poisoned): a pass of its own, tight for the common types, cheaper than a step more
 * in the element walk. */
static void note_values(kd_value_stats *st, kd_dtype t, const void *v, size_t count, bool maybe_poisoned)
{
    const value_kind k = kind_of(t);
    const unsigned char *p = v;
    const bool poisoned = maybe_poisoned && kd_count_poison(t, v, count) > 0;
    if (t == KD_DT_F32 && !poisoned && count > 1) {
        note_value(st, k, kd_dtype_load(t, v, 0), element_bits(t, v, 0));
        note_f32(st, p + 4, count - 1);
    } else if (t == KD_DT_F64 && !poisoned) {
        for (size_t i = 0; i < count; i++) {
            uint64_t bits;
            double x;
            memcpy(&bits, p + 8 * i, 8);
            memcpy(&x, &bits, 8);
            note_value(st, k, x, bits);
        }
    } else {
        for (size_t i = 0; i < count; i++)
            if (!poisoned || !kd_is_poison(t, v, i))
                note_value(st, k, kd_dtype_load(t, v, i), element_bits(t, v, i));
    }
}

/* Adds the statistics `from` of later elements to `to`'s. */
static void merge_values(kd_value_stats *to, const kd_value_stats *from, kd_dtype t)
{
    if (from->values == 0)
        return;
    if (to->values == 0) {
        *to = *from;
        return;
    }
    to->varied |= from->varied || differs(kind_of(t), from->first_bits, from->first_value, to->first_bits, to->first_value);
    size_t finite = to->values - to->nonfinite, more = from->values - from->nonfinite;
    if (more) {
        to->min = finite ? fmin(to->min, from->min) : from->min;
        to->max = finite ? fmax(to->max, from->max) : from->max;
    }
    to->values += from->values;
    to->nonfinite += from->nonfinite;
    to->nonzero += from->nonzero;
    if (from->scale > to->scale) {
        double r = to->scale / from->scale;
        to->ssq = from->ssq + to->ssq * r * r;
        to->scale = from->scale;
    } else if (from->scale > 0) {
        double r = from->scale / to->scale;
        to->ssq += from->ssq * r * r;
    }
}

static double rms(const kd_value_stats *st)
{
    size_t finite = st->values - st->nonfinite;
    return finite && st->scale > 0 ? st->scale * sqrt(st->ssq / (double)finite) : 0;
}

/* v1's finite values spread wider than rounding noise: more than the dtype's default rtol
 * (a few ulps; 0 for integers, where any two distinct values count) times their largest
 * magnitude. */
static bool varies(const kd_value_stats *st, kd_dtype t)
{
    if (!kd_dtype_is_float(t))
        return st->varied;
    if (!st->varied || st->values - st->nonfinite < 2)
        return false;
    double spread = st->max - st->min;
    return spread > kd_default_tolerance(t).rtol * fmax(fabs(st->min), fabs(st->max));
}

static kd_degenerate find_degenerate(const kd_value_scan *s, kd_dtype t)
{
    const kd_value_stats *v1 = &s->side[0], *v2 = &s->side[1];
    if (s->v1_finite > 0 && s->v2_nonfinite_there == s->v1_finite)
        return KD_DEGENERATE_NONFINITE;
    if (v2->values < 2)
        return KD_DEGENERATE_NONE; /* one value is neither zero nor constant output */
    if (v2->values > v2->nonfinite && v2->nonzero == 0 && v1->nonzero > 0)
        return KD_DEGENERATE_ZERO;
    if (!v2->varied && varies(v1, t))
        return KD_DEGENERATE_CONSTANT;
    return KD_DEGENERATE_NONE;
}

/* match: the values agree, something was written (nothing written is no evidence), and v2
 * is not degenerate where v1 is not. */
static void conclude(kd_buffer_check *out, kd_dtype t)
{
    out->degenerate = find_degenerate(&out->values, t);
    out->v1_rms = rms(&out->values.side[0]);
    out->v2_rms = rms(&out->values.side[1]);
    out->scale_rel_err = out->v1_rms > 0 ? out->max_abs_err / out->v1_rms : 0;
    bool nothing_written = out->count && out->unwritten[0] >= out->count && out->unwritten[1] >= out->count;
    out->match = out->mismatches == 0 && !nothing_written && out->degenerate == KD_DEGENERATE_NONE;
    find_pattern(out);
}

/* ---- the comparisons ------------------------------------------------------------------ */

void kd_compare_buffers(kd_dtype t, const void *v1, const void *v2, size_t count,
                        kd_tolerance tol, kd_buffer_check *out)
{
    memset(out, 0, sizeof *out);
    kd_compare_chunk(&(kd_values_chunk){.type = t, .v1 = v1, .v2 = v2, .count = count, .first = 0}, tol, out);
}

/* A chunk of identical bytes: only the shift detector's memory of the last elements
 * needs them (the hashes of equal values cancel; an identical stretch fits no shift or
 * factor, which only makes the detectors more cautious), and the values' statistics, the
 * same for both sides, gathered once. */
static void remember_tail(kd_buffer_check *out, kd_dtype t, const void *v, size_t count, size_t first)
{
    out->scan.written[0] += count;
    out->scan.written[1] += count;
    kd_value_stats chunk_values = {0};
    note_values(&chunk_values, t, v, count, false);
    merge_values(&out->values.side[0], &chunk_values, t);
    merge_values(&out->values.side[1], &chunk_values, t);
    out->values.v1_finite += chunk_values.values - chunk_values.nonfinite;
    for (size_t i = count > KD_SHIFT_MAX ? count - KD_SHIFT_MAX : 0; i < count; i++) {
        double x = kd_dtype_load(t, v, i);
        for (int s = 0; s < 2; s++) {
            out->scan.recent[s][(first + i) % KD_SHIFT_MAX] = x;
            out->scan.recent_ok[s][(first + i) % KD_SHIFT_MAX] = 1;
        }
    }
}

void kd_compare_chunk(const kd_values_chunk *values, kd_tolerance tol, kd_buffer_check *out)
{
    kd_dtype t = values->type;
    const void *v1 = values->v1, *v2 = values->v2;
    size_t count = values->count, first = values->first;
    /* An unknown type has no element size to read by; the spec builder rejects such
     * buffers before anything is allocated, so there is nothing to compare. */
    if (!kd_dtype_size(t))
        count = 0;
    out->count += count;
    /* Identical bytes with nothing poisoned is the common answer; it needs no element walk. */
    if (count && memcmp(v1, v2, count * kd_dtype_size(t)) == 0 && kd_count_poison(t, v1, count) == 0) {
        remember_tail(out, t, v1, count, first);
        conclude(out, t);
        return;
    }
    double floor = relative_floor(t, tol);
    const chunk c = {t, {v1, v2}, first, tol};
    size_t v1_finite = 0, v2_nonfinite_there = 0;
    for (size_t i = 0; i < count; i++) {
        bool poisoned1 = kd_is_poison(t, v1, i), poisoned2 = kd_is_poison(t, v2, i);
        double a = poisoned1 ? NAN : kd_dtype_load(t, v1, i);
        double b = poisoned2 ? NAN : kd_dtype_load(t, v2, i);
        bool match;
        if (poisoned1 || poisoned2) {
            out->unwritten[0] += poisoned1;
            out->unwritten[1] += poisoned2;
            match = poisoned1 && poisoned2; /* neither wrote it: the same (no) value */
            if (!match && out->written_differ++ == 0)
                out->first_written_differ = first + i;
        } else if (kd_dtype_is_float(t)) {
            match = floats_match(a, b, tol, floor, out);
        } else {
            match = integers_match(t, v1, v2, i, tol, out);
        }
        if (!match)
            note_mismatch(out, first + i, a, b);
        if (!poisoned1 && !poisoned2 && isfinite(a)) {
            v1_finite++;
            v2_nonfinite_there += !isfinite(b);
        }
        scan_element(out, &c, i, &(element){first + i, a, b, !poisoned1, !poisoned2}, match);
    }
    out->values.v1_finite += v1_finite;
    out->values.v2_nonfinite_there += v2_nonfinite_there;
    note_values(&out->values.side[0], t, v1, count, true);
    note_values(&out->values.side[1], t, v2, count, true);
    conclude(out, t);
}

void kd_compare_written_chunk(kd_dtype t, const void *poisoned_v1, const void *poisoned_v2, size_t count,
                              size_t first, kd_buffer_check *out)
{
    if (!kd_dtype_size(t))
        count = 0;
    size_t left[2] = {kd_count_poison(t, poisoned_v1, count), kd_count_poison(t, poisoned_v2, count)};
    out->unwritten[0] += left[0];
    out->unwritten[1] += left[1];
    if (left[0] || left[1])
        for (size_t i = 0; i < count; i++)
            if (kd_is_poison(t, poisoned_v1, i) != kd_is_poison(t, poisoned_v2, i) && out->written_differ++ == 0)
                out->first_written_differ = first + i;
    conclude(out, t);
}
