/* Tolerance with a floor (issue 39 part 4): a degenerate v2 (all zero, one constant, all
 * NaN) does not match however loose the tolerance, where v1 is not degenerate the same
 * way; the error is also given against the output's scale (v1's RMS). */
#include "kd_test.h"

#include <math.h>
#include <string.h>

#include "check/output_compare.h"
#include "util/dtype.h"

#define N 1000

/* v1: values of magnitude ~1e-5 (KernelBench#165's outputs), never zero. */
static void small_reference(float *v1, size_t n)
{
    kd_fill_random(KD_DT_F32, v1, n, 165);
    for (size_t i = 0; i < n; i++)
        v1[i] *= 1e-5f;
}

static const kd_tolerance loose = {.rtol = 1e-5, .atol = 1e-4};

static void all_zero_v2_under_a_loose_atol_does_not_match(void **state)
{
    (void)state;
    static float v1[N], v2[N];
    small_reference(v1, N);
    memset(v2, 0, sizeof v2);
    kd_buffer_check c;
    kd_compare_buffers(KD_DT_F32, v1, v2, N, loose, &c);
    assert_int_equal(c.mismatches, 0); /* every zero is within atol of its reference */
    assert_int_equal(c.degenerate, KD_DEGENERATE_ZERO);
    assert_false(c.match);
    assert_string_equal(kd_degenerate_name(c.degenerate), "zero");
    /* uniform in [-1e-5, 1e-5): RMS 1e-5 / sqrt(3) */
    assert_true(c.v1_rms > 0.5e-5 && c.v1_rms < 0.65e-5);
    assert_true(c.v2_rms == 0);
    assert_true(c.scale_rel_err > 1 && c.scale_rel_err < 2); /* the error is as large as v1 */
    assert_true(fabs(c.scale_rel_err - c.max_abs_err / c.v1_rms) < 1e-12);

    /* -0 is zero too; an infinite atol changes nothing */
    for (size_t i = 0; i < N; i += 2)
        v2[i] = -0.0f;
    kd_compare_buffers(KD_DT_F32, v1, v2, N, (kd_tolerance){.rtol = 0, .atol = INFINITY}, &c);
    assert_int_equal(c.mismatches, 0);
    assert_int_equal(c.degenerate, KD_DEGENERATE_ZERO);
    assert_false(c.match);
}

static void constant_v2_does_not_match(void **state)
{
    (void)state;
    static float v1[N], v2[N];
    small_reference(v1, N);
    for (size_t i = 0; i < N; i++)
        v2[i] = 5e-6f;
    kd_buffer_check c;
    kd_compare_buffers(KD_DT_F32, v1, v2, N, loose, &c);
    assert_int_equal(c.mismatches, 0);
    assert_int_equal(c.degenerate, KD_DEGENERATE_CONSTANT);
    assert_string_equal(kd_degenerate_name(c.degenerate), "constant");
    assert_false(c.match);
    assert_true(fabs(c.v2_rms - 5e-6) < 1e-12);
}

static void all_nan_v2_never_matches(void **state)
{
    (void)state;
    static float v1[N], v2[N];
    small_reference(v1, N);
    for (size_t i = 0; i < N; i++)
        v2[i] = NAN;
    kd_buffer_check c;
    kd_compare_buffers(KD_DT_F32, v1, v2, N, (kd_tolerance){.rtol = 1e9, .atol = INFINITY}, &c);
    assert_false(c.match);
    assert_int_equal(c.mismatches, N);
    assert_int_equal(c.degenerate, KD_DEGENERATE_NONFINITE);
    assert_string_equal(kd_degenerate_name(c.degenerate), "nonfinite");
    assert_true(c.v2_rms == 0 && c.v1_rms > 0);

    /* infinities likewise; NaN where v1 is NaN too does not make v2 any better */
    for (size_t i = 0; i < N; i++)
        v2[i] = i % 2 ? INFINITY : -INFINITY;
    v1[7] = NAN;
    v2[7] = NAN;
    kd_compare_buffers(KD_DT_F32, v1, v2, N, (kd_tolerance){.rtol = 1e9, .atol = INFINITY}, &c);
    assert_false(c.match);
    assert_int_equal(c.mismatches, N - 1);
    assert_int_equal(c.degenerate, KD_DEGENERATE_NONFINITE);

    /* one finite v2 value where v1 is finite: not NONFINITE (still differing, of course) */
    v2[3] = v1[3];
    kd_compare_buffers(KD_DT_F32, v1, v2, N, loose, &c);
    assert_false(c.match);
    assert_int_equal(c.degenerate, KD_DEGENERATE_NONE);
}

/* v1 degenerate the same way: reproducing it is right. */
static void both_sides_degenerate_alike_match(void **state)
{
    (void)state;
    static float v1[N], v2[N];
    kd_buffer_check c;
    memset(v1, 0, sizeof v1);
    memset(v2, 0, sizeof v2);
    kd_compare_buffers(KD_DT_F32, v1, v2, N, loose, &c);
    assert_true(c.match);
    assert_int_equal(c.degenerate, KD_DEGENERATE_NONE);
    assert_true(c.v1_rms == 0 && c.scale_rel_err == 0);

    v2[5] = -0.0f; /* not the same bytes: the element walk decides */
    kd_compare_buffers(KD_DT_F32, v1, v2, N, kd_default_tolerance(KD_DT_F32), &c);
    assert_true(c.match);
    assert_int_equal(c.degenerate, KD_DEGENERATE_NONE);

    for (size_t i = 0; i < N; i++)
        v1[i] = v2[i] = 3.0f;
    kd_compare_buffers(KD_DT_F32, v1, v2, N, loose, &c);
    assert_true(c.match);
    assert_true(fabs(c.v1_rms - 3.0) < 1e-12);

    /* v1 constant up to rounding (an ulp apart), v2 the exact constant: not degenerate */
    for (size_t i = 0; i < N; i += 3)
        v1[i] = nextafterf(3.0f, 4.0f);
    kd_compare_buffers(KD_DT_F32, v1, v2, N, kd_default_tolerance(KD_DT_F32), &c);
    assert_int_equal(c.degenerate, KD_DEGENERATE_NONE);
    assert_true(c.match);

    /* both all NaN: the NaNs match, v1 has no finite value v2 failed */
    for (size_t i = 0; i < N; i++)
        v1[i] = v2[i] = NAN;
    kd_compare_buffers(KD_DT_F32, v1, v2, N, loose, &c);
    assert_int_equal(c.degenerate, KD_DEGENERATE_NONE);
    assert_true(c.match);
}

static void honest_v2_within_tolerance_matches(void **state)
{
    (void)state;
    static float v1[N], v2[N];
    small_reference(v1, N);
    for (size_t i = 0; i < N; i++)
        v2[i] = v1[i] * (1 + 1e-6f);
    kd_buffer_check c;
    kd_compare_buffers(KD_DT_F32, v1, v2, N, loose, &c);
    assert_true(c.match);
    assert_int_equal(c.degenerate, KD_DEGENERATE_NONE);
    assert_string_equal(kd_degenerate_name(c.degenerate), "none");
    assert_true(c.scale_rel_err > 0 && c.scale_rel_err < 1e-5);
    assert_true(fabs(c.v2_rms / c.v1_rms - 1) < 1e-5);

    /* one element: neither zero nor constant means anything */
    float one1 = 1e-5f, one2 = 0;
    kd_compare_buffers(KD_DT_F32, &one1, &one2, 1, loose, &c);
    assert_true(c.match);
    assert_int_equal(c.degenerate, KD_DEGENERATE_NONE);
}

/* Elements neither side wrote (poisoned on both) are left out of the values. */
static void poison_is_no_value(void **state)
{
    (void)state;
    static float v1[N], v2[N];
    small_reference(v1, N);
    memset(v2, 0, sizeof v2);
    kd_fill_poison(KD_DT_F32, v1, 10);
    kd_fill_poison(KD_DT_F32, v2, 10);
    kd_buffer_check c;
    kd_compare_buffers(KD_DT_F32, v1, v2, N, loose, &c);
    assert_int_equal(c.mismatches, 0);
    assert_int_equal(c.degenerate, KD_DEGENERATE_ZERO);
    assert_false(c.match);
    assert_int_equal(c.values.side[0].values, N - 10);
    assert_int_equal(c.values.side[1].values, N - 10);
}

static void same_check(const kd_buffer_check *a, const kd_buffer_check *b)
{
    assert_int_equal(a->degenerate, b->degenerate);
    assert_int_equal(a->match, b->match);
    assert_int_equal(a->mismatches, b->mismatches);
    assert_true(fabs(a->v1_rms - b->v1_rms) <= 1e-12 * a->v1_rms);
    assert_true(fabs(a->v2_rms - b->v2_rms) <= 1e-12 * a->v2_rms);
    assert_true(fabs(a->scale_rel_err - b->scale_rel_err) <= 1e-12 * a->scale_rel_err);
}

static void two_chunks(kd_dtype t, const void *v1, const void *v2, size_t n, size_t split, kd_tolerance tol,
                       kd_buffer_check *out, kd_buffer_check *after_first)
{
    size_t size = kd_dtype_size(t);
    memset(out, 0, sizeof *out);
    kd_compare_chunk(&(kd_values_chunk){.type = t, .v1 = v1, .v2 = v2, .count = split, .first = 0}, tol, out);
    *after_first = *out;
    kd_compare_chunk(&(kd_values_chunk){.type = t,
                                        .v1 = (const char *)v1 + split * size,
                                        .v2 = (const char *)v2 + split * size,
                                        .count = n - split,
                                        .first = split},
                     tol, out);
}

static void chunks_give_the_whole(void **state)
{
    (void)state;
    static float v1[N], v2[N];
    kd_buffer_check whole, chunked, first;

    /* all zero: the same in two chunks */
    small_reference(v1, N);
    memset(v2, 0, sizeof v2);
    kd_compare_buffers(KD_DT_F32, v1, v2, N, loose, &whole);
    two_chunks(KD_DT_F32, v1, v2, N, 400, loose, &chunked, &first);
    assert_int_equal(first.degenerate, KD_DEGENERATE_ZERO);
    same_check(&whole, &chunked);

    /* zero in the first chunk only: degenerate until the second chunk says otherwise */
    for (size_t i = 400; i < N; i++)
        v2[i] = v1[i];
    kd_compare_buffers(KD_DT_F32, v1, v2, N, loose, &whole);
    assert_int_equal(whole.degenerate, KD_DEGENERATE_NONE);
    assert_true(whole.match);
    two_chunks(KD_DT_F32, v1, v2, N, 400, loose, &chunked, &first);
    assert_int_equal(first.degenerate, KD_DEGENERATE_ZERO);
    assert_false(first.match);
    same_check(&whole, &chunked);

    /* the first chunk identical bytes (no element walk), constant 3 on both sides; then v1
     * varies and v2 stays 3: constant across the boundary */
    for (size_t i = 0; i < N; i++) {
        v1[i] = i < 500 ? 3.0f : 3.0f + (float)(i % 7) * 1e-5f;
        v2[i] = 3.0f;
    }
    kd_compare_buffers(KD_DT_F32, v1, v2, N, loose, &whole);
    assert_int_equal(whole.mismatches, 0);
    assert_int_equal(whole.degenerate, KD_DEGENERATE_CONSTANT);
    two_chunks(KD_DT_F32, v1, v2, N, 500, loose, &chunked, &first);
    assert_int_equal(first.degenerate, KD_DEGENERATE_NONE);
    assert_true(first.match);
    same_check(&whole, &chunked);

    /* honest, both chunks identical bytes but for a few elements */
    small_reference(v1, N);
    memcpy(v2, v1, sizeof v1);
    v2[900] *= 1.000001f;
    kd_compare_buffers(KD_DT_F32, v1, v2, N, loose, &whole);
    assert_true(whole.match);
    two_chunks(KD_DT_F32, v1, v2, N, 333, loose, &chunked, &first);
    same_check(&whole, &chunked);
}

static void integers(void **state)
{
    (void)state;
    int v1[100], v2[100];
    for (int i = 0; i < 100; i++) {
        v1[i] = i + 1;
        v2[i] = 7;
    }
    kd_buffer_check c;
    kd_tolerance wide = {.rtol = 0, .atol = 1000};
    kd_compare_buffers(KD_DT_I32, v1, v2, 100, wide, &c);
    assert_int_equal(c.mismatches, 0);
    assert_int_equal(c.degenerate, KD_DEGENERATE_CONSTANT);
    assert_false(c.match);

    memset(v2, 0, sizeof v2);
    kd_compare_buffers(KD_DT_I32, v1, v2, 100, wide, &c);
    assert_int_equal(c.degenerate, KD_DEGENERATE_ZERO);
    assert_false(c.match);

    /* exact: a constant v2 differs anyway, and says why */
    for (int i = 0; i < 100; i++)
        v2[i] = 7;
    kd_compare_buffers(KD_DT_I32, v1, v2, 100, (kd_tolerance){0, 0}, &c);
    assert_int_equal(c.mismatches, 99);
    assert_int_equal(c.degenerate, KD_DEGENERATE_CONSTANT);

    /* both constant alike */
    for (int i = 0; i < 100; i++)
        v1[i] = 7;
    kd_compare_buffers(KD_DT_I32, v1, v2, 100, (kd_tolerance){0, 0}, &c);
    assert_true(c.match);
    assert_int_equal(c.degenerate, KD_DEGENERATE_NONE);

    /* 64-bit values one apart beyond double precision still vary */
    long long w1[4] = {1LL << 60, (1LL << 60) + 1, 1LL << 60, (1LL << 60) + 1};
    long long w2[4] = {1LL << 60, 1LL << 60, 1LL << 60, 1LL << 60};
    kd_compare_buffers(KD_DT_I64, w1, w2, 4, (kd_tolerance){.rtol = 0, .atol = 2}, &c);
    assert_int_equal(c.mismatches, 0);
    assert_int_equal(c.degenerate, KD_DEGENERATE_CONSTANT);
    assert_false(c.match);
}

static void f16_buffers(void **state)
{
    (void)state;
    unsigned short h1[N], h2[N];
    for (size_t i = 0; i < N; i++) {
        h1[i] = kd_float_to_half(1e-3f * (float)(1 + i % 13));
        h2[i] = i % 2 ? 0x8000 : 0x0000; /* -0 and +0 */
    }
    kd_tolerance tol = {.rtol = 1e-3, .atol = 2e-2}; /* v1 is at most 0.013 */
    kd_buffer_check c;
    kd_compare_buffers(KD_DT_F16, h1, h2, N, tol, &c);
    assert_int_equal(c.mismatches, 0);
    assert_int_equal(c.degenerate, KD_DEGENERATE_ZERO);
    assert_false(c.match);
    assert_true(c.v1_rms > 1e-3 && c.v1_rms < 13e-3);

    for (size_t i = 0; i < N; i++)
        h2[i] = kd_float_to_half(5e-3f);
    kd_compare_buffers(KD_DT_F16, h1, h2, N, tol, &c);
    assert_int_equal(c.mismatches, 0);
    assert_int_equal(c.degenerate, KD_DEGENERATE_CONSTANT);
    assert_false(c.match);

    /* honest: one ulp off here and there */
    for (size_t i = 0; i < N; i++)
        h2[i] = (unsigned short)(h1[i] + (i % 5 == 0));
    kd_compare_buffers(KD_DT_F16, h1, h2, N, kd_default_tolerance(KD_DT_F16), &c);
    assert_true(c.match);
    assert_int_equal(c.degenerate, KD_DEGENERATE_NONE);
    assert_true(c.scale_rel_err > 0 && c.scale_rel_err < 1e-2);
}

/* Outputs near f64's limits: the sum of squares is scaled, never infinite. */
static void rms_at_the_extremes(void **state)
{
    (void)state;
    double big[4] = {1e300, -1e300, 1e300, -1e300}, tiny[4] = {1e-310, -1e-310, 1e-310, -1e-310};
    kd_buffer_check c;
    kd_compare_buffers(KD_DT_F64, big, big, 4, kd_default_tolerance(KD_DT_F64), &c);
    assert_true(fabs(c.v1_rms / 1e300 - 1) < 1e-12);
    kd_compare_buffers(KD_DT_F64, tiny, tiny, 4, kd_default_tolerance(KD_DT_F64), &c);
    assert_true(fabs(c.v1_rms / 1e-310 - 1) < 1e-9);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(all_zero_v2_under_a_loose_atol_does_not_match),
        cmocka_unit_test(constant_v2_does_not_match),
        cmocka_unit_test(all_nan_v2_never_matches),
        cmocka_unit_test(both_sides_degenerate_alike_match),
        cmocka_unit_test(honest_v2_within_tolerance_matches),
        cmocka_unit_test(poison_is_no_value),
        cmocka_unit_test(chunks_give_the_whole),
        cmocka_unit_test(integers),
        cmocka_unit_test(f16_buffers),
        cmocka_unit_test(rms_at_the_extremes),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
