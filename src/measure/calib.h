/* calib.h — how far a verdict can be trusted (issue 42 item 2): the A/A campaign's record
 * (pairs run, false "faster/slower" verdicts, the exact one-sided binomial upper bound on the
 * false-positive rate; the between-process spread of one kernel's median) read from a small
 * data file, and the smallest change one run's own samples could detect. Pure numbers; the
 * sentence that carries them is made in report/. */
#ifndef KD_MEASURE_CALIB_H
#define KD_MEASURE_CALIB_H

#include <stdbool.h>

#include "measure/stats.h"

/* The calibration record's file, installed next to the tool like its other share files. */
#define KD_CALIB_FILE "kerndiff-calibration.txt"
/* The power the detectable change is stated at. */
#define KD_CALIB_POWER 0.95

typedef struct kd_calib {
    bool known;            /* false: no file, or a malformed one: the line says "unknown" */
    long aa_runs;          /* A/A pairs run (> 0) */
    long aa_false;         /* of them, verdicts "faster" or "slower" (0..aa_runs) */
    bool has_between;      /* the record carries a between-process spread */
    double between_pct;    /* its standard deviation of log(median) between processes, in % */
    long between_runs;     /* how many separate processes it was measured from (>= 2) */
} kd_calib;

/* Reads the record: $KERNDIFF_CALIBRATION, else KD_CALIB_FILE beside the harness programs
 * (wire/locate.h kd_share_path). Not found: out->known false. */
void kd_calib_load(kd_calib *out);

/* Exact (Clopper-Pearson) one-sided upper bound on a binomial rate: the p with
 * P(X <= k | n, p) = 1 - confidence, X ~ Binomial(n, p); 1 when k >= n. By bisection on the
 * binomial CDF summed in logs (exact to 1e-12 for n up to millions). -1 when n <= 0, k < 0
 * or k > n, or confidence outside (0, 1). */
double kd_binomial_upper_bound(long k, long n, double confidence);

/* Reads the record at `path`: lines "key value", '#' comments. Keys: aa_runs, aa_false,
 * between_run_spread_pct, between_run_processes; unknown keys are skipped. Any missing,
 * unparsable, negative, non-finite or inconsistent value (aa_false > aa_runs) leaves
 * out->known false (a spread that is off alone leaves has_between false). Never fails. */
void kd_calib_read(const char *path, kd_calib *out);

/* The smallest change (in %, of the ratio away from 1) that a run with this interval would
 * call with `power` at the interval's confidence: the interval [lo, hi] of the ratio is read
 * as symmetric in log (the bootstrap of a ratio of medians is close to it), so its standard
 * error is SE = ln(hi/lo) / (2 z_{(1-confidence)/2}); a true log ratio d is called when the
 * interval, of the same width, excludes 0, i.e. when the estimate exceeds z_{a/2} SE, which
 * happens with probability `power` once d = (z_{a/2} + z_{1-power}) SE. The --min-effect
 * floor is a second hurdle: the result is never below it. -1 when the interval is not one
 * (lo <= 0, hi < lo, non-finite). */
double kd_min_detectable_pct(double lo, double hi, double confidence, double power,
                             double min_effect_pct);

/* A compare of two saved runs (separate processes): the interval of the ratio widened by
 * the between-process spread s (in %, the sd of one side's log median between processes):
 * each of the run's own half-widths h (in log, below and above the ratio) and the two sides'
 * process terms add in quadrature, sqrt(h^2 + 2 (z s)^2), around the same ratio; s = 0
 * gives the interval back (s->confidence its z). Returns -1 (and writes nothing) when the
 * inputs are not an interval around the ratio. */
int kd_calib_widen(const kd_speedup *s, double between_pct, kd_speedup *out);

struct kd_timing;
/* A decided timing's trust: reads the record into t->calib and sets t->mde_pct from its
 * interval (has_mde false when the interval is none). */
void kd_calib_attach(struct kd_timing *t);

/* kerndiff compare of two separate runs: widens t->speedup by the record's between-process
 * spread (the samples' own interval kept in t->own_speedup) and decides the verdict again on
 * the widened one with t->min_effect_pct; without a spread, marks t->between_unknown. */
void kd_calib_between_runs(struct kd_timing *t);

#endif
