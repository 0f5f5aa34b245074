/* measure/calib.h: the exact binomial bound, the record's reader (missing, malformed, hostile
 * values never read as known), the smallest detectable change from a run's own samples, and
 * compare's widening by the between-process spread. */
#include "kd_test.h"

#include <math.h>

#include "measure/calib.h"
#include "measure/stats.h"

static void binomial_bound(void **state)
{
    (void)state;
    /* k = 0 has the closed form 1 - alpha^(1/n): 60 runs bound the rate at 4.9% */
    assert_true(fabs(kd_binomial_upper_bound(0, 60, 0.95) - (1.0 - pow(0.05, 1.0 / 60.0))) < 1e-9);
    assert_true(fabs(kd_binomial_upper_bound(0, 300, 0.95) - (1.0 - pow(0.05, 1.0 / 300.0))) < 1e-9);
    /* k = 1: the bound is the p where (1-p)^n + n p (1-p)^(n-1) = alpha */
    double p = kd_binomial_upper_bound(1, 40, 0.95);
    double cdf = pow(1.0 - p, 40) + 40.0 * p * pow(1.0 - p, 39);
    assert_true(fabs(cdf - 0.05) < 1e-9);
    assert_true(p > kd_binomial_upper_bound(0, 40, 0.95));
    assert_true(kd_binomial_upper_bound(2, 300, 0.95) < kd_binomial_upper_bound(2, 100, 0.95));
    assert_true(kd_binomial_upper_bound(5, 5, 0.95) == 1.0);
    assert_true(kd_binomial_upper_bound(6, 5, 0.95) < 0);
    assert_true(kd_binomial_upper_bound(-1, 5, 0.95) < 0);
    assert_true(kd_binomial_upper_bound(0, 0, 0.95) < 0);
    assert_true(kd_binomial_upper_bound(0, 10, 1.0) < 0);
}

static void read_text(const char *text, kd_calib *c)
{
    char path[] = "/tmp/kd-calib-XXXXXX";
    int fd = mkstemp(path);
    assert_true(fd >= 0);
    assert_int_equal(write(fd, text, strlen(text)), (ssize_t)strlen(text));
    close(fd);
    kd_calib_read(path, c);
    unlink(path);
}

static void reader(void **state)
{
    (void)state;
    kd_calib c;
    kd_calib_read("/nonexistent/kerndiff-calibration.txt", &c);
    assert_false(c.known);
    kd_calib_read(NULL, &c);
    assert_false(c.known);
    read_text("# record\naa_runs 40\naa_false 1\nsomething_new 7\n", &c);
    assert_true(c.known);
    assert_int_equal(c.aa_runs, 40);
    assert_int_equal(c.aa_false, 1);
    assert_false(c.has_between);
    read_text("aa_runs 312\naa_false 0\nbetween_run_spread_pct 1.25\nbetween_run_processes 20\n", &c);
    assert_true(c.known && c.has_between);
    assert_true(fabs(c.between_pct - 1.25) < 1e-12);
    assert_int_equal(c.between_runs, 20);
    /* hostile or malformed: never known, never a made-up number */
    const char *bad[] = {
        "", "aa_runs 40\n", "aa_false 0\n", "aa_runs 40\naa_false 41\n", "aa_runs -40\naa_false 0\n",
        "aa_runs 0\naa_false 0\n", "aa_runs 4x\naa_false 0\n", "aa_runs 99999999999999999999999\naa_false 0\n",
        "aa_runs 40\naa_false +1\n", "aa_runs\naa_false 0\n", "aa_runs 40\naa_false nan\n",
        "\x01\x02\xff garbage\n",
    };
    for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
        read_text(bad[i], &c);
        assert_false(c.known);
        assert_int_equal(c.aa_runs, 0);
    }
    /* an over-long line */
    char longline[2048];
    memset(longline, 'a', sizeof longline - 1);
    longline[sizeof longline - 1] = '\0';
    read_text(longline, &c);
    assert_false(c.known);
    /* a spread that is off drops the spread alone */
    const char *bad_spread[] = {
        "aa_runs 40\naa_false 0\nbetween_run_spread_pct nan\nbetween_run_processes 9\n",
        "aa_runs 40\naa_false 0\nbetween_run_spread_pct -1\nbetween_run_processes 9\n",
        "aa_runs 40\naa_false 0\nbetween_run_spread_pct inf\nbetween_run_processes 9\n",
        "aa_runs 40\naa_false 0\nbetween_run_spread_pct 1.0\nbetween_run_processes 1\n",
        "aa_runs 40\naa_false 0\nbetween_run_spread_pct 1.0\n",
    };
    for (size_t i = 0; i < sizeof bad_spread / sizeof *bad_spread; i++) {
        read_text(bad_spread[i], &c);
        assert_true(c.known);
        assert_false(c.has_between);
        assert_true(c.between_pct == 0.0);
    }
}

static void mde_known_case(void **state)
{
    (void)state;
    /* SE of the log ratio 0.01: the interval is exp(+-1.959964 * 0.01); 95% power adds
     * z_0.95 = 1.644854: the change is exp(3.604818 * 0.01) - 1 = 3.6706% */
    double h = 1.959964 * 0.01;
    double mde = kd_min_detectable_pct(exp(-h), exp(h), 0.95, 0.95, 0.0);
    assert_true(fabs(mde - 100.0 * (exp(0.03604818) - 1.0)) < 1e-3);
    /* the --min-effect floor is a second hurdle */
    assert_true(kd_min_detectable_pct(exp(-h), exp(h), 0.95, 0.95, 5.0) == 5.0);
    assert_true(kd_min_detectable_pct(0.0, 1.0, 0.95, 0.95, 0.0) < 0);
    assert_true(kd_min_detectable_pct(1.1, 1.0, 0.95, 0.95, 0.0) < 0);
    assert_true(kd_min_detectable_pct(0.9, INFINITY, 0.95, 0.95, 0.0) < 0);
}

/* Deterministic samples around `centre` with relative spread `spread` (a fixed sawtooth). */
static void samples(double *v, size_t n, double centre, double spread)
{
    for (size_t i = 0; i < n; i++)
        v[i] = centre * (1.0 + spread * ((double)((i * 7) % 13) - 6.0) / 6.0);
}

static double mde_of(double spread)
{
    double a[60], b[60];
    samples(a, 60, 1000.0, spread);
    samples(b, 60, 1000.0, spread);
    kd_speedup_request rq = {.side = {{a, NULL, 60}, {b, NULL, 60}},
                             .confidence = KD_SPEEDUP_CONFIDENCE,
                             .resamples = KD_FINAL_RESAMPLES,
                             .seed = 42};
    kd_speedup s;
    assert_int_equal(kd_speedup_ci(&rq, &s), 0);
    double mde = kd_min_detectable_pct(s.lo, s.hi, s.confidence, 0.95, 0.0);
    /* consistent with the interval: (z_a + z_p) / z_a times its half-width in log */
    double expect = 100.0 * (exp(log(s.hi / s.lo) / 2.0 * (1.959964 + 1.644854) / 1.959964) - 1.0);
    assert_true(fabs(mde - expect) < 1e-3);
    return mde;
}

static void mde_from_samples(void **state)
{
    (void)state;
    double narrow = mde_of(0.002), wide = mde_of(0.02);
    assert_true(narrow > 0.0);
    assert_true(wide > 3.0 * narrow); /* ten times the spread: a much larger change needed */
}

static int widened(double ratio, double lo, double hi, double between_pct, double *wlo, double *whi)
{
    kd_speedup s = {.ratio = ratio, .lo = lo, .hi = hi, .confidence = 0.95}, w = {0};
    int rc = kd_calib_widen(&s, between_pct, &w);
    *wlo = w.lo;
    *whi = w.hi;
    return rc;
}

static void widen(void **state)
{
    (void)state;
    double lo, hi;
    assert_int_equal(widened(1.02, 1.01, 1.03, 0.0, &lo, &hi), 0);
    assert_true(fabs(lo - 1.01) < 1e-12 && fabs(hi - 1.03) < 1e-12);
    /* 1% between processes: the log interval grows by sqrt(2) * 1.96 * log(1.01) in quadrature */
    assert_int_equal(widened(1.02, 1.01, 1.03, 1.0, &lo, &hi), 0);
    double dl = log(1.02 / 1.01), s = log(1.01);
    assert_true(fabs(lo - 1.02 * exp(-sqrt(dl * dl + 2.0 * 1.959964 * 1.959964 * s * s))) < 1e-6);
    assert_true(lo < 1.0 && hi > 1.03); /* a verdict the narrow interval made is now none */
    assert_int_equal(widened(1.02, 1.03, 1.04, 1.0, &lo, &hi), -1);
    assert_int_equal(widened(1.02, 1.01, 1.03, NAN, &lo, &hi), -1);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(binomial_bound),
        cmocka_unit_test(reader),
        cmocka_unit_test(mde_known_case),
        cmocka_unit_test(mde_from_samples),
        cmocka_unit_test(widen),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
