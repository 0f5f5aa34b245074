/* calib.c — the A/A record, the binomial bound, the detectable change, compare's widening. */
#include "measure/calib.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "measure/stats.h"
#include "measure/timing.h"
#include "util/env.h"
#include "wire/locate.h"

/* P(X <= k), X ~ Binomial(n, p), summed term by term in logs (lgamma) so that n in the
 * millions neither overflows nor underflows before the sum. */
static double binomial_cdf(long k, long n, double p)
{
    if (p <= 0.0)
        return 1.0;
    if (p >= 1.0)
        return k >= n ? 1.0 : 0.0;
    double lp = log(p), lq = log1p(-p), sum = 0.0;
    for (long i = 0; i <= k; i++) {
        double lc = lgamma((double)n + 1.0) - lgamma((double)i + 1.0) - lgamma((double)(n - i) + 1.0);
        sum += exp(lc + (double)i * lp + (double)(n - i) * lq);
    }
    return sum > 1.0 ? 1.0 : sum;
}

double kd_binomial_upper_bound(long k, long n, double confidence)
{
    if (n <= 0 || k < 0 || k > n || !(confidence > 0.0 && confidence < 1.0))
        return -1.0;
    if (k == n)
        return 1.0;
    /* The CDF falls as p rises: find p where it crosses 1 - confidence. */
    double lo = 0.0, hi = 1.0, alpha = 1.0 - confidence;
    for (int i = 0; i < 200 && hi - lo > 1e-15; i++) {
        double mid = 0.5 * (lo + hi);
        if (binomial_cdf(k, n, mid) > alpha)
            lo = mid;
        else
            hi = mid;
    }
    return 0.5 * (lo + hi);
}

/* Whether a number parsed from s ended where the value does: nothing but blanks after it. */
static bool ends_value(const char *s, const char *end)
{
    return !errno && end != s && (!*end || strchr("\n \t\r", *end));
}

/* A whole non-negative count: digits alone, no sign, no overflow. */
static bool parse_count(const char *s, long *out)
{
    if (!s || *s < '0' || *s > '9')
        return false;
    errno = 0;
    char *end = NULL;
    long v = strtol(s, &end, 10);
    if (!ends_value(s, end))
        return false;
    *out = v;
    return true;
}

static bool parse_pct(const char *s, double *out)
{
    if (!s || !*s)
        return false;
    errno = 0;
    char *end = NULL;
    double v = strtod(s, &end);
    if (!ends_value(s, end))
        return false;
    if (!isfinite(v) || v < 0.0 || v > 100.0)
        return false;
    *out = v;
    return true;
}

void kd_calib_read(const char *path, kd_calib *out)
{
    memset(out, 0, sizeof *out);
    FILE *f = path ? fopen(path, "r") : NULL;
    if (!f)
        return;
    bool have_runs = false, have_false = false, bad = false, bad_between = false;
    bool have_spread = false, have_procs = false;
    char line[512];
    while (fgets(line, sizeof line, f)) {
        if (!strchr(line, '\n') && !feof(f)) { /* a line longer than any the record writes */
            bad = true;
            break;
        }
        char *key = line + strspn(line, " \t");
        if (*key == '#' || *key == '\n' || *key == '\0')
            continue;
        size_t klen = strcspn(key, " \t\n");
        char *val = key + klen;
        val += strspn(val, " \t");
        if (klen == 7 && !strncmp(key, "aa_runs", 7))
            have_runs = parse_count(val, &out->aa_runs), bad |= !have_runs;
        else if (klen == 8 && !strncmp(key, "aa_false", 8))
            have_false = parse_count(val, &out->aa_false), bad |= !have_false;
        else if (klen == 22 && !strncmp(key, "between_run_spread_pct", 22))
            have_spread = parse_pct(val, &out->between_pct), bad_between |= !have_spread;
        else if (klen == 21 && !strncmp(key, "between_run_processes", 21))
            have_procs = parse_count(val, &out->between_runs), bad_between |= !have_procs;
    }
    if (ferror(f))
        bad = true;
    fclose(f);
    out->known = !bad && have_runs && have_false && out->aa_runs > 0 && out->aa_false <= out->aa_runs;
    out->has_between = out->known && !bad_between && have_spread && have_procs && out->between_runs >= 2;
    if (!out->known) {
        out->aa_runs = out->aa_false = 0;
    }
    if (!out->has_between) {
        out->between_pct = 0.0;
        out->between_runs = 0;
    }
}

double kd_min_detectable_pct(double lo, double hi, double confidence, double power,
                             double min_effect_pct)
{
    if (!(lo > 0.0) || !isfinite(lo) || !isfinite(hi) || hi < lo ||
        !(confidence > 0.0 && confidence < 1.0) || !(power > 0.0 && power < 1.0))
        return -1.0;
    double z_a = kd_normal_upper_quantile((1.0 - confidence) / 2.0);
    double se = log(hi / lo) / (2.0 * z_a);
    /* power above 0.5: the power quantile is the upper one of 1 - power */
    double z_p = power >= 0.5 ? kd_normal_upper_quantile(1.0 - power) : -kd_normal_upper_quantile(power);
    double pct = 100.0 * (exp((z_a + z_p) * se) - 1.0);
    return pct < min_effect_pct ? min_effect_pct : pct;
}

int kd_calib_widen(const kd_speedup *sp, double between_pct, kd_speedup *out)
{
    double ratio = sp->ratio, lo = sp->lo, hi = sp->hi, confidence = sp->confidence;
    if (!(ratio > 0.0) || !(lo > 0.0) || !(hi >= lo) || !isfinite(hi) || !isfinite(ratio) ||
        lo > ratio || hi < ratio || !(between_pct >= 0.0) || !isfinite(between_pct) ||
        !(confidence > 0.0 && confidence < 1.0))
        return -1;
    double z = kd_normal_upper_quantile((1.0 - confidence) / 2.0);
    /* s: one side's sd of log median between processes; the ratio's log carries both sides */
    double s = log1p(between_pct / 100.0);
    double extra = 2.0 * z * z * s * s;
    double dl = log(ratio / lo), dh = log(hi / ratio);
    *out = *sp;
    out->lo = ratio * exp(-sqrt(dl * dl + extra));
    out->hi = ratio * exp(sqrt(dh * dh + extra));
    return 0;
}

void kd_calib_load(kd_calib *out)
{
    const char *env = kd_env_nonempty(KD_ENV_CALIBRATION);
    if (env) {
        kd_calib_read(env, out);
        return;
    }
    char *path = kd_share_path(KD_CALIB_FILE);
    kd_calib_read(path, out);
    free(path);
}

/* The detectable change of the interval the verdict reads. */
static void set_mde(kd_timing *t)
{
    double c = t->speedup.confidence > 0 ? t->speedup.confidence : KD_SPEEDUP_CONFIDENCE;
    t->mde_pct = kd_min_detectable_pct(t->speedup.lo, t->speedup.hi, c, KD_CALIB_POWER, t->min_effect_pct);
    t->has_mde = t->mde_pct >= 0.0;
}

void kd_calib_attach(kd_timing *t)
{
    /* read once a process: a sweep decides a timing per point */
    static kd_calib record;
    static bool loaded;
    if (!loaded)
        kd_calib_load(&record);
    loaded = true;
    t->calib = record;
    set_mde(t);
}

void kd_calib_between_runs(kd_timing *t)
{
    t->own_speedup = t->speedup;
    if (!t->calib.has_between) {
        t->between_unknown = true;
        return;
    }
    kd_speedup s = t->speedup, wide;
    if (!(s.confidence > 0))
        s.confidence = KD_SPEEDUP_CONFIDENCE;
    if (kd_calib_widen(&s, t->calib.between_pct, &wide) != 0) {
        t->between_unknown = true;
        return;
    }
    t->speedup = wide;
    t->verdict = kd_verdict_with_floor(&t->speedup, t->min_effect_pct);
    t->between_applied = true;
    set_mde(t);
}
