#include "kd_test.h"

#include <float.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "check/output_compare.h"
#include "util/dtype.h"

static const kd_tolerance exact = {.rtol = 0, .atol = 0};

static void default_tolerances(void **state)
{
    (void)state;
    static const struct {
        kd_dtype t;
        double rtol, atol;
    } cases[] = {
        {KD_DT_F32, 1e-5, 1e-6},  {KD_DT_F64, 1e-12, 1e-14}, {KD_DT_F16, 1e-3, 1e-5},
        {KD_DT_BF16, 1.6e-2, 1e-5}, {KD_DT_I8, 0, 0},        {KD_DT_U8, 0, 0},
        {KD_DT_I16, 0, 0},        {KD_DT_U16, 0, 0},         {KD_DT_I32, 0, 0},
        {KD_DT_U32, 0, 0},        {KD_DT_I64, 0, 0},         {KD_DT_U64, 0, 0},
    };
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        kd_tolerance tol = kd_default_tolerance(cases[i].t);
        assert_true(tol.rtol == cases[i].rtol);
        assert_true(tol.atol == cases[i].atol);
    }
}

static void identical_buffers_match(void **state)
{
    (void)state;
    float a[1000], b[1000];
    kd_fill_random(KD_DT_F32, a, 1000, 5);
    memcpy(b, a, sizeof a);
    kd_buffer_check c;
    kd_compare_buffers(KD_DT_F32, a, b, 1000, kd_default_tolerance(KD_DT_F32), &c);
    assert_true(c.match);
    assert_int_equal(c.count, 1000);
    assert_int_equal(c.mismatches, 0);
    assert_int_equal(c.first_count, 0);
    assert_int_equal(c.unwritten[0] + c.unwritten[1] + c.nan_mismatches, 0);
    assert_true(c.max_abs_err == 0 && c.max_rel_err == 0);

    kd_compare_buffers(KD_DT_F32, a, b, 0, exact, &c);
    assert_true(c.match);
    assert_int_equal(c.count, 0);
}

/* f32 defaults at v1 = 1: the bound is 1e-6 + 1e-5 * 1 = 1.1e-5. */
static void f32_tolerance_boundary(void **state)
{
    (void)state;
    float v1[] = {1.0f, 1.0f, -1.0f, 0.0f, 0.0f};
    float v2[] = {1.00001f, 1.000012f, -1.000012f, 9e-7f, 1.1e-6f};
    kd_buffer_check c;
    kd_compare_buffers(KD_DT_F32, v1, v2, 5, kd_default_tolerance(KD_DT_F32), &c);
    assert_int_equal(c.mismatches, 3);
    assert_int_equal(c.first_count, 3);
    assert_int_equal(c.first[0].index, 1);
    assert_int_equal(c.first[1].index, 2);
    assert_int_equal(c.first[2].index, 4); /* near zero only atol applies */
    assert_true(c.first[0].v1 == 1.0 && c.first[0].v2 == (double)1.000012f);
    assert_false(c.match);
}

/* Exactly on the bound matches (<=); the next double above does not. */
static void bound_is_inclusive(void **state)
{
    (void)state;
    kd_tolerance tol = {.rtol = 0.25, .atol = 0.25};
    double v1[] = {2.0, 2.0, -2.0};
    double v2[] = {2.75, nextafter(2.75, 3.0), -1.25};
    kd_buffer_check c;
    kd_compare_buffers(KD_DT_F64, v1, v2, 3, tol, &c);
    assert_int_equal(c.mismatches, 1);
    assert_int_equal(c.first[0].index, 1);
}

/* At 1.0 the f16 bound (1.001e-3) admits one ulp (2^-10), the bf16 bound (1.601e-2) two
 * (2^-7 each). */
static void half_and_bf16_defaults_at_one(void **state)
{
    (void)state;
    unsigned short h1[] = {0x3C00, 0x3C00}, h2[] = {0x3C01, 0x3C02};
    kd_buffer_check c;
    kd_compare_buffers(KD_DT_F16, h1, h2, 2, kd_default_tolerance(KD_DT_F16), &c);
    assert_int_equal(c.mismatches, 1);
    assert_int_equal(c.first[0].index, 1);
    assert_true(c.first[0].v2 == 1.001953125);

    unsigned short b1[] = {0x3F80, 0x3F80, 0x3F80}, b2[] = {0x3F81, 0x3F82, 0x3F83};
    kd_compare_buffers(KD_DT_BF16, b1, b2, 3, kd_default_tolerance(KD_DT_BF16), &c);
    assert_int_equal(c.mismatches, 1);
    assert_int_equal(c.first[0].index, 2);
    assert_true(c.max_abs_err == 3.0 / 128);
}

static void nans(void **state)
{
    (void)state;
    float v1[] = {NAN, NAN, 1.0f, -NAN};
    float v2[] = {NAN, 1.0f, NAN, NAN};
    kd_buffer_check c;
    kd_compare_buffers(KD_DT_F32, v1, v2, 4, kd_default_tolerance(KD_DT_F32), &c);
    assert_int_equal(c.mismatches, 2);
    assert_int_equal(c.nan_mismatches, 2);
    assert_int_equal(c.first[0].index, 1);
    assert_true(isnan(c.first[0].v1) && c.first[0].v2 == 1.0);
    assert_int_equal(c.first[1].index, 2);
    assert_int_equal(c.unwritten[0] + c.unwritten[1], 0);
    assert_true(c.max_abs_err == 0 && c.max_rel_err == 0);
}

static void infinities(void **state)
{
    (void)state;
    double v1[] = {INFINITY, -INFINITY, INFINITY, INFINITY, 1e308, -INFINITY};
    double v2[] = {INFINITY, -INFINITY, -INFINITY, 1e308, INFINITY, NAN};
    kd_buffer_check c;
    kd_compare_buffers(KD_DT_F64, v1, v2, 6, (kd_tolerance){.rtol = 1e9, .atol = 1e300}, &c);
    assert_int_equal(c.mismatches, 4);
    assert_int_equal(c.first[0].index, 2);
    assert_int_equal(c.first[1].index, 3);
    assert_int_equal(c.first[2].index, 4);
    assert_int_equal(c.first[3].index, 5);
    assert_int_equal(c.nan_mismatches, 1);
    assert_true(c.max_abs_err == 0); /* no element had both sides finite and different */
}

static void unwritten_output_on_v2_side(void **state)
{
    (void)state;
    float v1[6], v2[6];
    kd_fill_random(KD_DT_F32, v1, 6, 11);
    memcpy(v2, v1, sizeof v1);
    kd_fill_poison(KD_DT_F32, &v2[3], 1);
    kd_buffer_check c;
    kd_compare_buffers(KD_DT_F32, v1, v2, 6, kd_default_tolerance(KD_DT_F32), &c);
    assert_false(c.match);
    assert_int_equal(c.mismatches, 1);
    assert_int_equal(c.unwritten[0], 0);
    assert_int_equal(c.unwritten[1], 1);
    assert_int_equal(c.nan_mismatches, 0); /* poison is not a NaN result */
    assert_int_equal(c.first_count, 1);
    assert_int_equal(c.first[0].index, 3);
    assert_true(c.first[0].v1 == (double)v1[3]);
    assert_true(isnan(c.first[0].v2));
}

static void unwritten_integers_and_both_sides(void **state)
{
    (void)state;
    int v1[4] = {1, 2, 3, 4}, v2[4] = {1, 2, 3, 4};
    kd_fill_poison(KD_DT_I32, &v1[0], 1);
    kd_fill_poison(KD_DT_I32, &v2[0], 1);
    kd_fill_poison(KD_DT_I32, &v1[2], 1);
    kd_buffer_check c;
    kd_compare_buffers(KD_DT_I32, v1, v2, 4, exact, &c);
    /* element 0: neither side wrote it, which is no difference; element 2: v1 only */
    assert_int_equal(c.mismatches, 1);
    assert_int_equal(c.unwritten[0], 2);
    assert_int_equal(c.unwritten[1], 1);
    assert_int_equal(c.written_differ, 1);
    assert_int_equal(c.first_written_differ, 2);
    assert_int_equal(c.first[0].index, 2);
    assert_true(isnan(c.first[0].v1) && c.first[0].v2 == 3.0);
}

/* 20 mismatches: all counted, the first 8 kept in index order. */
static void first_mismatches_are_capped_and_ordered(void **state)
{
    (void)state;
    double v1[100], v2[100];
    for (int i = 0; i < 100; i++)
        v1[i] = v2[i] = i;
    for (int k = 0; k < 20; k++)
        v2[5 * k + 2] += 1000 + k;
    kd_buffer_check c;
    kd_compare_buffers(KD_DT_F64, v1, v2, 100, kd_default_tolerance(KD_DT_F64), &c);
    assert_int_equal(c.mismatches, 20);
    assert_int_equal(c.first_count, KD_FIRST_MISMATCHES);
    for (int k = 0; k < KD_FIRST_MISMATCHES; k++) {
        assert_int_equal(c.first[k].index, 5 * k + 2);
        assert_true(c.first[k].v1 == 5 * k + 2);
        assert_true(c.first[k].v2 == 5 * k + 2 + 1000 + k);
    }
    assert_true(c.max_abs_err == 1019);
}

/* The largest absolute and relative errors come from different elements; elements with a
 * NaN, an infinity or poison do not contribute. */
static void max_errors(void **state)
{
    (void)state;
    double v1[] = {8.0, 0.25, -4.0, 1.0, NAN, 3.0, 0.0};
    double v2[] = {8.5, 0.5, -4.0, INFINITY, 2.0, 0.0, 0.0};
    kd_fill_poison(KD_DT_F64, &v2[5], 1);
    kd_buffer_check c;
    kd_compare_buffers(KD_DT_F64, v1, v2, 7, exact, &c);
    assert_true(c.max_abs_err == 0.5);
    assert_true(c.max_rel_err == 1.0);
    assert_int_equal(c.mismatches, 5);

    /* against a zero reference the relative error divides by atol (the floor), not by
     * DBL_MIN: an exclusive scan's 0 against an inclusive scan's 0.5 is 5e5 at f32, not
     * 2.2e+307 */
    double zero = 0.0, tiny = 0x1p-1000;
    kd_compare_buffers(KD_DT_F64, &zero, &tiny, 1, kd_default_tolerance(KD_DT_F64), &c);
    assert_true(c.match);
    assert_true(c.max_rel_err == tiny / 1e-14);
    float fz = 0.0f, half = 0.5f;
    kd_compare_buffers(KD_DT_F32, &fz, &half, 1, kd_default_tolerance(KD_DT_F32), &c);
    assert_false(c.match);
    assert_true(c.max_rel_err == 0.5 / 1e-6);
    /* --atol 0: the dtype's default atol is the floor; integers divide by at least 1 */
    kd_compare_buffers(KD_DT_F32, &fz, &half, 1, exact, &c);
    assert_true(c.max_rel_err == 0.5 / 1e-6);
    int iz = 0, three = 3;
    kd_compare_buffers(KD_DT_I32, &iz, &three, 1, exact, &c);
    assert_true(c.max_rel_err == 3.0);
}

static void int64_differences_beyond_double_precision(void **state)
{
    (void)state;
    long long v1[] = {1LL << 53, -(1LL << 62), (-9223372036854775807LL - 1), 5};
    long long v2[] = {(1LL << 53) + 1, -(1LL << 62) - 1, 9223372036854775807LL, 5};
    assert_true((double)v1[0] == (double)v2[0]);
    kd_buffer_check c;
    kd_compare_buffers(KD_DT_I64, v1, v2, 4, kd_default_tolerance(KD_DT_I64), &c);
    assert_int_equal(c.mismatches, 3);
    assert_int_equal(c.first[0].index, 0);
    assert_int_equal(c.first[1].index, 1);
    assert_int_equal(c.first[2].index, 2);
    assert_true(c.max_abs_err == 18446744073709551615.0);

    unsigned long long u1[] = {18446744073709551615ULL, 7}, u2[] = {18446744073709551614ULL, 7};
    kd_compare_buffers(KD_DT_U64, u1, u2, 2, exact, &c);
    assert_int_equal(c.mismatches, 1);
    assert_true(c.max_abs_err == 1.0);
}

static void small_integers_and_integer_tolerance(void **state)
{
    (void)state;
    signed char a[] = {-128, 127, 0}, b[] = {127, 127, 1};
    kd_buffer_check c;
    kd_compare_buffers(KD_DT_I8, a, b, 3, exact, &c);
    assert_int_equal(c.mismatches, 2);
    assert_true(c.max_abs_err == 255.0);
    unsigned short u1[] = {100, 100}, u2[] = {101, 103};
    kd_compare_buffers(KD_DT_U16, u1, u2, 2, (kd_tolerance){.rtol = 0.01, .atol = 1}, &c);
    assert_int_equal(c.mismatches, 1); /* bound 2: off by one passes, off by three fails */
    assert_int_equal(c.first[0].index, 1);
}

/* A float4 buffer of 3 vectors is 12 scalars to the comparison. */
static void vector_types_compare_as_scalars(void **state)
{
    (void)state;
    kd_type_info info;
    assert_true(kd_type_parse("float4", &info));
    assert_int_equal(info.lanes, 4);
    size_t scalars = 3 * (size_t)info.lanes;
    float v1[12], v2[12];
    kd_fill_random(info.base, v1, scalars, 1);
    memcpy(v2, v1, sizeof v1);
    v2[9] = 2.0f;
    kd_buffer_check c;
    kd_compare_buffers(info.base, v1, v2, scalars, kd_default_tolerance(info.base), &c);
    assert_int_equal(c.count, 12);
    assert_int_equal(c.mismatches, 1);
    assert_int_equal(c.first[0].index, 9);
}

/* Chunk by chunk gives what one call over the whole buffer gives: counts, the first
 * mismatches with the buffer's own indexes, the maximum errors. */
static void chunks_add_up_to_the_whole(void **state)
{
    (void)state;
    enum { N = 1000 };
    float v1[N], v2[N];
    kd_fill_random(KD_DT_F32, v1, N, 3);
    memcpy(v2, v1, sizeof v1);
    v2[5] += 1.0f;
    v2[499] *= 2.0f;
    v2[500] = -v2[500] - 1.0f;
    kd_fill_poison(KD_DT_F32, &v2[998], 1);
    kd_tolerance tol = kd_default_tolerance(KD_DT_F32);
    kd_buffer_check whole, chunked;
    kd_compare_buffers(KD_DT_F32, v1, v2, N, tol, &whole);
    memset(&chunked, 0, sizeof chunked);
    for (size_t at = 0; at < N; at += 300)
        kd_compare_chunk(&(kd_values_chunk){KD_DT_F32, v1 + at, v2 + at, N - at < 300 ? N - at : 300, at}, tol, &chunked);
    assert_int_equal(chunked.count, N);
    assert_int_equal(chunked.mismatches, whole.mismatches);
    assert_int_equal(chunked.mismatches, 4);
    assert_int_equal(chunked.unwritten[1], 1);
    assert_int_equal(chunked.first_count, whole.first_count);
    for (size_t i = 0; i < whole.first_count; i++)
        assert_int_equal(chunked.first[i].index, whole.first[i].index);
    assert_int_equal(chunked.first[2].index, 500);
    assert_true(chunked.max_abs_err == whole.max_abs_err && chunked.max_rel_err == whole.max_rel_err);
    assert_false(chunked.match);
}

/* ---- patterns: what explains a difference ---- */

/* An exclusive scan (v1) against an inclusive one (v2): v2[i] == v1[i+1] (up to rounding). */
static void exclusive_against_inclusive_scan_is_a_shift(void **state)
{
    (void)state;
    enum { N = 1024 };
    float x[N], ex[N], in[N];
    kd_fill_random(KD_DT_F32, x, N, 7);
    float run = 0;
    for (int i = 0; i < N; i++) {
        ex[i] = run;
        run += x[i];
        in[i] = run;
    }
    kd_buffer_check c;
    kd_compare_buffers(KD_DT_F32, ex, in, N, kd_default_tolerance(KD_DT_F32), &c);
    assert_false(c.match);
    assert_true(c.mismatches > N / 2);
    assert_int_equal(c.pattern, KD_PATTERN_SHIFT);
    assert_int_equal(c.shift, 1);
    assert_int_equal(c.pattern_of, N - 1);
    assert_int_equal(c.pattern_fits, N - 1);
    assert_string_equal(kd_pattern_name(c.pattern), "shift");
    assert_true(c.max_rel_err < 1e7); /* ex[0] = 0: floored, not 1e+307 */
    /* the other way round: v2[i] == v1[i-1] */
    kd_compare_buffers(KD_DT_F32, in, ex, N, kd_default_tolerance(KD_DT_F32), &c);
    assert_int_equal(c.pattern, KD_PATTERN_SHIFT);
    assert_int_equal(c.shift, -1);
}

/* Longer than the scoring window and compared in chunks: the shift found in the window is
 * followed to the end, across chunk boundaries, and a few stray differences are allowed. */
static void shift_followed_past_the_window_in_chunks(void **state)
{
    (void)state;
    enum { N = 20000, K = 5 };
    int *v1 = malloc(N * sizeof *v1), *v2 = malloc(N * sizeof *v2);
    for (int i = 0; i < N; i++)
        v1[i] = i * 7 + 3;
    for (int i = 0; i < N; i++)
        v2[i] = i + K < N ? v1[i + K] : -1;
    for (int i = 0; i < 50; i++)
        v2[100 * i + 9000] = 0; /* 50 strays, 0.25% */
    kd_buffer_check c;
    memset(&c, 0, sizeof c);
    for (size_t at = 0; at < N; at += 777)
        kd_compare_chunk(&(kd_values_chunk){KD_DT_I32, v1 + at, v2 + at, N - at < 777 ? N - at : 777, at}, exact, &c);
    assert_int_equal(c.pattern, KD_PATTERN_SHIFT);
    assert_int_equal(c.shift, K);
    assert_int_equal(c.pattern_of, N - K);
    assert_int_equal(c.pattern_fits, N - K - 50);
    /* 2% strays: no longer a shift */
    for (int i = 0; i < 400; i++)
        v2[40 * i + 1000] = 0;
    kd_compare_buffers(KD_DT_I32, v1, v2, N, exact, &c);
    assert_int_not_equal(c.pattern, KD_PATTERN_SHIFT);
    free(v1);
    free(v2);
}

/* A buffer that is mostly one value "fits" every shift; a shift is claimed only where it
 * explains more than the plain comparison. */
static void constant_buffer_with_a_few_differences_is_no_shift(void **state)
{
    (void)state;
    enum { N = 1000 };
    int v1[N], v2[N];
    for (int i = 0; i < N; i++)
        v1[i] = v2[i] = 4;
    v2[10] = 5;
    v2[700] = 6;
    kd_buffer_check c;
    kd_compare_buffers(KD_DT_I32, v1, v2, N, exact, &c);
    assert_int_equal(c.mismatches, 2);
    assert_int_equal(c.pattern, KD_PATTERN_NONE);
}

static void permutation(void **state)
{
    (void)state;
    enum { N = 500 };
    float v1[N], v2[N];
    kd_fill_random(KD_DT_F32, v1, N, 21);
    for (int i = 0; i < N; i++)
        v2[i] = v1[(i * 37 + 11) % N]; /* 37 is prime to 500: a permutation */
    kd_buffer_check c;
    kd_compare_buffers(KD_DT_F32, v1, v2, N, kd_default_tolerance(KD_DT_F32), &c);
    assert_false(c.match);
    assert_int_equal(c.pattern, KD_PATTERN_PERMUTATION);
    assert_int_equal(c.pattern_of, N);
    assert_string_equal(kd_pattern_name(c.pattern), "permutation");
    /* one value changed: not the same multiset */
    v2[3] += 1.0f;
    kd_compare_buffers(KD_DT_F32, v1, v2, N, kd_default_tolerance(KD_DT_F32), &c);
    assert_int_equal(c.pattern, KD_PATTERN_NONE);
}

static void constant_factor(void **state)
{
    (void)state;
    enum { N = 300 };
    float v1[N], v2[N];
    kd_fill_random(KD_DT_F32, v1, N, 8);
    v1[0] = 0; /* a zero fits any factor */
    for (int i = 0; i < N; i++)
        v2[i] = 2.5f * v1[i];
    kd_buffer_check c;
    kd_compare_buffers(KD_DT_F32, v1, v2, N, kd_default_tolerance(KD_DT_F32), &c);
    assert_int_equal(c.pattern, KD_PATTERN_FACTOR);
    assert_true(fabs(c.factor - 2.5) < 1e-6);
    assert_int_equal(c.pattern_fits, N);
    assert_int_equal(c.pattern_of, N);
    /* integers: exact */
    int a[64], b[64];
    for (int i = 0; i < 64; i++)
        a[i] = i - 20, b[i] = -3 * (i - 20);
    kd_compare_buffers(KD_DT_I32, a, b, 64, exact, &c);
    assert_int_equal(c.pattern, KD_PATTERN_FACTOR);
    assert_true(c.factor == -3.0);
}

/* A bounds check that stops 100 elements early: the last 100 differ, nothing before. */
static void differences_only_in_the_tail(void **state)
{
    (void)state;
    enum { N = 1000 };
    float v1[N], v2[N];
    kd_fill_random(KD_DT_F32, v1, N, 4);
    memcpy(v2, v1, sizeof v1);
    for (int i = N - 100; i < N; i++)
        v2[i] = v1[i] + 10.0f;
    kd_buffer_check c;
    kd_compare_buffers(KD_DT_F32, v1, v2, N, kd_default_tolerance(KD_DT_F32), &c);
    assert_int_equal(c.mismatches, 100);
    assert_int_equal(c.pattern, KD_PATTERN_TAIL);
    assert_int_equal(c.first[0].index, N - 100);
    assert_int_equal(c.pattern_of, 100);
    assert_int_equal(c.pattern_fits, 100);
    /* unwritten tail (single run: the poison left in place) is a tail too */
    memcpy(v2, v1, sizeof v1);
    kd_fill_poison(KD_DT_F32, &v2[N - 24], 24);
    kd_compare_buffers(KD_DT_F32, v1, v2, N, kd_default_tolerance(KD_DT_F32), &c);
    assert_int_equal(c.pattern, KD_PATTERN_TAIL);
    assert_int_equal(c.unwritten[1], 24);
    /* a difference in the middle is not a tail */
    memcpy(v2, v1, sizeof v1);
    v2[500] += 1.0f;
    kd_compare_buffers(KD_DT_F32, v1, v2, N, kd_default_tolerance(KD_DT_F32), &c);
    assert_int_equal(c.pattern, KD_PATTERN_NONE);
}

static void differences_only_in_nan_and_inf(void **state)
{
    (void)state;
    enum { N = 100 };
    double v1[N], v2[N];
    kd_fill_random(KD_DT_F64, v1, N, 6);
    memcpy(v2, v1, sizeof v1);
    v2[3] = NAN;
    v2[40] = INFINITY;
    v1[77] = NAN;
    kd_buffer_check c;
    kd_compare_buffers(KD_DT_F64, v1, v2, N, kd_default_tolerance(KD_DT_F64), &c);
    assert_int_equal(c.mismatches, 3);
    assert_int_equal(c.nan_mismatches, 2);
    assert_int_equal(c.inf_mismatches, 1);
    assert_int_equal(c.pattern, KD_PATTERN_NONFINITE);
    assert_string_equal(kd_pattern_name(c.pattern), "nonfinite");
    v2[50] += 1.0;
    kd_compare_buffers(KD_DT_F64, v1, v2, N, kd_default_tolerance(KD_DT_F64), &c);
    assert_int_equal(c.pattern, KD_PATTERN_NONE);
}

/* The correctness check's two runs: seeded values equal, poisoned run all poison on both
 * sides: nothing was written, so nothing was compared (no match, and no difference). */
static void all_unwritten(void **state)
{
    (void)state;
    enum { N = 256 };
    float seeded[N], poisoned[N];
    kd_fill_random(KD_DT_F32, seeded, N, 2);
    kd_fill_poison(KD_DT_F32, poisoned, N);
    kd_buffer_check c;
    memset(&c, 0, sizeof c);
    kd_compare_chunk(&(kd_values_chunk){KD_DT_F32, seeded, seeded, N, 0}, kd_default_tolerance(KD_DT_F32), &c);
    assert_true(c.match);
    kd_compare_written_chunk(KD_DT_F32, poisoned, poisoned, N, 0, &c);
    assert_false(c.match);
    assert_int_equal(c.mismatches, 0);
    assert_int_equal(c.unwritten[0], N);
    assert_int_equal(c.unwritten[1], N);
    assert_int_equal(c.written_differ, 0);
    /* single run: both sides all poison */
    kd_compare_buffers(KD_DT_F32, poisoned, poisoned, N, kd_default_tolerance(KD_DT_F32), &c);
    assert_false(c.match);
    assert_int_equal(c.mismatches, 0);
    assert_int_equal(c.unwritten[0] + c.unwritten[1], 2 * N);
}

/* A reduction that leaves different parts of its scratch input untouched: the values agree
 * (both sides started from the same seeded contents), only which elements were written
 * differs. The buffer matches; the difference is counted apart. */
static void partly_written_differently_still_matches(void **state)
{
    (void)state;
    enum { N = 1000 };
    float seeded[N], p1[N], p2[N];
    kd_fill_random(KD_DT_F32, seeded, N, 9);
    kd_fill_random(KD_DT_F32, p1, N, 10);
    memcpy(p2, p1, sizeof p1);
    kd_fill_poison(KD_DT_F32, p1 + 600, 400); /* v1 leaves 600.. */
    kd_fill_poison(KD_DT_F32, p2 + 650, 350); /* v2 leaves 650.. */
    kd_buffer_check c;
    memset(&c, 0, sizeof c);
    for (size_t at = 0; at < N; at += 300) {
        size_t n = N - at < 300 ? N - at : 300;
        kd_compare_chunk(&(kd_values_chunk){KD_DT_F32, seeded + at, seeded + at, n, at},
                         kd_default_tolerance(KD_DT_F32), &c);
        kd_compare_written_chunk(KD_DT_F32, p1 + at, p2 + at, n, at, &c);
    }
    assert_true(c.match);
    assert_int_equal(c.mismatches, 0);
    assert_int_equal(c.unwritten[0], 400);
    assert_int_equal(c.unwritten[1], 350);
    assert_int_equal(c.written_differ, 50);
    assert_int_equal(c.first_written_differ, 600);
    assert_int_equal(c.pattern, KD_PATTERN_NONE);
}

/* Random differences everywhere: nothing simple. */
static void unstructured_difference_has_no_pattern(void **state)
{
    (void)state;
    enum { N = 5000 };
    float *v1 = malloc(N * sizeof *v1), *v2 = malloc(N * sizeof *v2);
    kd_fill_random(KD_DT_F32, v1, N, 30);
    kd_fill_random(KD_DT_F32, v2, N, 31);
    kd_buffer_check c;
    kd_compare_buffers(KD_DT_F32, v1, v2, N, kd_default_tolerance(KD_DT_F32), &c);
    assert_true(c.mismatches > N - 10);
    assert_int_equal(c.pattern, KD_PATTERN_NONE);
    free(v1);
    free(v2);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(default_tolerances),
        cmocka_unit_test(identical_buffers_match),
        cmocka_unit_test(f32_tolerance_boundary),
        cmocka_unit_test(bound_is_inclusive),
        cmocka_unit_test(half_and_bf16_defaults_at_one),
        cmocka_unit_test(nans),
        cmocka_unit_test(infinities),
        cmocka_unit_test(unwritten_output_on_v2_side),
        cmocka_unit_test(unwritten_integers_and_both_sides),
        cmocka_unit_test(first_mismatches_are_capped_and_ordered),
        cmocka_unit_test(max_errors),
        cmocka_unit_test(int64_differences_beyond_double_precision),
        cmocka_unit_test(small_integers_and_integer_tolerance),
        cmocka_unit_test(vector_types_compare_as_scalars),
        cmocka_unit_test(chunks_add_up_to_the_whole),
        cmocka_unit_test(exclusive_against_inclusive_scan_is_a_shift),
        cmocka_unit_test(shift_followed_past_the_window_in_chunks),
        cmocka_unit_test(constant_buffer_with_a_few_differences_is_no_shift),
        cmocka_unit_test(permutation),
        cmocka_unit_test(constant_factor),
        cmocka_unit_test(differences_only_in_the_tail),
        cmocka_unit_test(differences_only_in_nan_and_inf),
        cmocka_unit_test(all_unwritten),
        cmocka_unit_test(partly_written_differently_still_matches),
        cmocka_unit_test(unstructured_difference_has_no_pattern),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
