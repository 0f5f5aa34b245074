/* timing_text.h — the sentences that describe a timing result, shared by the terminal and
 * Markdown renderers so that they say the same thing. */
#ifndef KD_REPORT_TIMING_TEXT_H
#define KD_REPORT_TIMING_TEXT_H

#include <stdbool.h>
#include "measure/timing.h"
#include "util/strbuf.h"

/* The GPU, clocks (locked or not, range seen) and throttling. */
void kd_timing_environment(const kd_timing *t, bool simulated, kd_strbuf *out);
/* How samples were taken and why the measurement stopped. */
void kd_timing_method(const kd_timing *t, kd_strbuf *out);
/* Where the samples ran: both versions on the same buffers, moved between rounds, and how
 * much the placement moved each version's time. Empty for a comparison of saved runs made
 * before placements were recorded. */
void kd_timing_placement(const kd_timing *t, kd_strbuf *out);
/* A duration for people: "under 1 ms", "37 ms", "2.4 s" (never "0.0 s"). */
void kd_duration_text(double seconds, kd_strbuf *out);
/* "target reached: CI half-width 0.80% <= 1.00% target", or "target not reached: ... > ...
 * (stopped by --max-time)", from the final interval's half-width `half` (percent). */
void kd_target_text(const kd_timing *t, double half, kd_strbuf *out);
/* The decimals a ratio is printed with: enough that the change it reports, |ratio - 1|,
 * shows with one significant digit, and one more where the 95% CI's half-width is that
 * small; 2 at least, 6 at most. A 0.3% change is "1.003x", never "1x"; 1.0031 with a CI
 * of +-0.0003 is "1.0031x (1.0028-1.0034)"; 1.25 is "1.25x" whatever its CI. Every ratio
 * of the terminal, Markdown, HTML and sweep tables goes through it (JSON and CSV keep full
 * precision): printf("%.*fx", d, ratio), its CI at the same d. lo/hi: the CI (equal: none). */
int kd_ratio_decimals(double ratio, double lo, double hi);

/* How far the verdict can be trusted (issue 42): "verdict calibrated: 0 false in 60 A/A
 * runs (<= 4.9% at 95%); this run could detect a change of 0.31% or more" (the A/A record's
 * counts with their exact binomial bound; the run's own detectable change), or "verdict
 * calibration unknown ..." without a record. Empty when nothing was timed. */
void kd_calibration_line(const kd_timing *t, kd_strbuf *out);
/* kerndiff compare of two separate runs: whether the interval carries the spread between
 * processes, and the samples' own interval; empty otherwise. */
void kd_between_runs_line(const kd_timing *t, kd_strbuf *out);

/* "outputs match (2 buffers compared in full)" or "OUTPUTS DIFFER: ..." */
void kd_correctness_line(const kd_timing *t, kd_strbuf *out);
/* One output buffer's comparison. */
void kd_output_detail(const kd_output_check *oc, kd_strbuf *out);

#endif
