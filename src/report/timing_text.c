#include "report/timing_text.h"

#include <math.h>
#include <string.h>

#include "gpu/nvml.h"
#include "measure/calib.h"
#include "report/model_text.h"

void kd_timing_environment(const kd_timing *t, bool simulated, kd_strbuf *out)
{
    if (simulated)
        kd_sb_printf(out, "simulated harness (KERNDIFF_SIMULATE): synthetic samples, not a measurement; ");
    else
        kd_sb_printf(out, "GPU %s (sm_%d, %d SMs, driver %d.%d); ", t->device, t->sm, t->sms, t->driver / 1000,
                     (t->driver % 1000) / 10);
    unsigned lo = t->side[0].clock_min_mhz, hi = t->side[0].clock_max_mhz;
    for (int s = 1; s < 2; s++) {
        if (t->side[s].clock_min_mhz && (!lo || t->side[s].clock_min_mhz < lo))
            lo = t->side[s].clock_min_mhz;
        if (t->side[s].clock_max_mhz > hi)
            hi = t->side[s].clock_max_mhz;
    }
    if (t->locked_by_kerndiff_mhz)
        kd_sb_printf(out, "clocks locked by kerndiff at %u MHz (--lock-clocks; reset at exit)", t->locked_by_kerndiff_mhz);
    else
        kd_sb_puts(out, t->clocks_locked ? "clocks locked (NVML reports application/locked clocks)"
                                         : "clocks not locked");
    if (hi)
        kd_sb_printf(out, ", SM clock %u-%u MHz", lo, hi);
    else
        kd_sb_puts(out, ", SM clock not readable (no NVML)");
    size_t throttled = t->side[0].throttled_count + t->side[1].throttled_count;
    size_t total = t->side[0].n + t->side[1].n;
    if (throttled) {
        char names[128];
        kd_nvml_reason_names((t->side[0].reasons_seen | t->side[1].reasons_seen) & KD_REASONS_THROTTLE, names,
                             sizeof names);
        kd_sb_printf(out, "; %zu of %zu samples taken while throttled (%s): treat small differences with care",
                     throttled, total, names);
    } else if (hi) {
        kd_sb_puts(out, "; no throttling reported");
    }
}

void kd_timing_method(const kd_timing *t, kd_strbuf *out)
{
    if (!strcmp(t->load, "sustained"))
        kd_sb_printf(out, "sustained load (back to back, 256 MiB cleared between launches, as triton.testing.do_bench): "
                          "%u ms of load before each block of %u samples",
                     t->sustained_ms, t->block_samples);
    else if (t->batched)
        kd_sb_printf(out, "batched: %u launches per sample, L2 warm (launches under 2 us are too short to time one by one)",
                     t->batch);
    else
        kd_sb_printf(out, "one launch per sample, L2 flushed before each (%.0f MiB written)",
                     2.0 * (double)t->l2_bytes / (1 << 20));
    if (!strcmp(t->timer, "cupti"))
        kd_sb_puts(out, "; kernel start-to-end from CUPTI activity records");
    else if (*t->timer && strcmp(t->timer, "simulated") != 0)
        kd_sb_printf(out, "; CUDA events around the launch (%s)", *t->timer_note ? t->timer_note : "no CUPTI");
    if (t->from_saved)
        kd_sb_printf(out, "; %zu + %zu samples; ", t->side[0].n, t->side[1].n);
    else {
        kd_sb_printf(out, "; v1/v2 interleaved in %zu random-order rounds; %zu + %zu samples in ", t->rounds,
                     t->side[0].n, t->side[1].n);
        kd_duration_text(t->measure_s, out);
        kd_sb_puts(out, "; ");
    }
    double half = kd_speedup_ci_halfwidth_pct(&t->speedup);
    if (t->from_saved && t->from_one_run)
        kd_sb_printf(out, "re-compared from the saved run's raw samples (its v1 against its v2): CI half-width %.2f%%",
                     half);
    else if (t->from_saved)
        kd_sb_printf(out, "recomputed from the two saved runs' raw samples: CI half-width %.2f%%", half);
    else
        kd_target_text(t, half, out);
}

void kd_duration_text(double seconds, kd_strbuf *out)
{
    if (seconds < 0.0005)
        kd_sb_puts(out, "under 1 ms");
    else if (seconds < 1)
        kd_sb_printf(out, "%.0f ms", seconds * 1e3);
    else
        kd_sb_printf(out, "%.1f s", seconds);
}

/* Whether the final CI met --target, said as a comparison. The stopping rule checks a
 * quicker 400-resample interval, so "stopped at the target" can still end with a final
 * interval a little wider than the target: that is said too. */
void kd_target_text(const kd_timing *t, double half, kd_strbuf *out)
{
    bool met = half <= t->target_pct;
    kd_sb_printf(out, "target %s: CI half-width %.2f%% %s %.2f%% target", met ? "reached" : "not reached", half,
                 met ? "<=" : ">", t->target_pct);
    if (!met && t->target_reached)
        kd_sb_puts(out, " (the stopping check's quicker estimate was within it)");
    else if (!met)
        kd_sb_printf(out, " (stopped by %s)", kd_stop_reason_text(t->stop_reason));
}

/* The decimals that show `x` (> 0) with one significant digit: 0.003 -> 3, 0.04 -> 2. */
static int decimals_for(double x)
{
    if (!(x > 0) || !isfinite(x))
        return 0;
    return (int)floor(-log10(x)) + 1;
}

int kd_ratio_decimals(double ratio, double lo, double hi)
{
    int d = decimals_for(fabs(ratio - 1));
    /* A narrow CI earns one digit more than the change needs, not more: 1.25x stays 1.25x
     * however narrow its CI, 1.0031x shows its 0.31% change. */
    int ci = decimals_for((hi - lo) / 2);
    if (ci > d)
        d = ci < d + 1 ? ci : d + 1;
    return d < 2 ? 2 : d > 6 ? 6 : d;
}

void kd_timing_placement(const kd_timing *t, kd_strbuf *out)
{
    if (!t->placements)
        return;
    kd_sb_printf(out, "both versions in one process on the same buffers (%zu shared), moved to a new place in GPU "
                      "memory before each of %zu rounds; placement sensitivity: per-round medians spread %.2f%% (v1), "
                      "%.2f%% (v2)",
                 t->shared_buffers, t->placements, t->side[0].placement_spread_pct, t->side[1].placement_spread_pct);
}

/* How one buffer came out: its values differ, neither side wrote it (nothing compared), or
 * its values agree. Decided from the counts, so that "differ" always has elements that
 * differ, whatever produced the result (a saved run's JSON included). */
typedef enum buffer_outcome { BUFFER_MATCHES, BUFFER_DIFFERS, BUFFER_NOT_WRITTEN } buffer_outcome;

static buffer_outcome outcome_of(const kd_buffer_check *r)
{
    if (r->mismatches || r->degenerate != KD_DEGENERATE_NONE)
        return BUFFER_DIFFERS;
    if (r->count && r->unwritten[0] >= r->count && r->unwritten[1] >= r->count)
        return BUFFER_NOT_WRITTEN;
    return BUFFER_MATCHES;
}

/* Which elements a side wrote differs, the values do not. */
static bool written_differently(const kd_buffer_check *r)
{
    return r->written_differ || r->unwritten[0] != r->unwritten[1];
}

void kd_correctness_line(const kd_timing *t, kd_strbuf *out)
{
    size_t n[3] = {0, 0, 0}, written = 0;
    for (size_t i = 0; i < t->noutputs; i++) {
        n[outcome_of(&t->outputs[i].result)]++;
        written += outcome_of(&t->outputs[i].result) == BUFFER_MATCHES && written_differently(&t->outputs[i].result);
    }
    if (t->noutputs == 0) {
        kd_sb_puts(out, "OUTPUTS NOT COMPARED: no output of v1 pairs with one of v2 by name or position");
    } else if (n[BUFFER_DIFFERS]) {
        kd_sb_printf(out, "OUTPUTS DIFFER: %zu of %zu output buffers do not match", n[BUFFER_DIFFERS], t->noutputs);
    } else if (n[BUFFER_NOT_WRITTEN] == t->noutputs) {
        kd_sb_printf(out, "OUTPUTS NOT COMPARED: neither v1 nor v2 wrote any element of %s", t->noutputs == 1 ? "its output" : "their outputs");
    } else {
        kd_sb_printf(out, "outputs match (%zu buffer%s compared in full)", n[BUFFER_MATCHES], n[BUFFER_MATCHES] == 1 ? "" : "s");
        if (n[BUFFER_NOT_WRITTEN])
            kd_sb_printf(out, "; %zu written by neither side, not compared", n[BUFFER_NOT_WRITTEN]);
    }
    if (!n[BUFFER_DIFFERS] && written)
        kd_sb_puts(out, "; only which elements were written differs (below)");
    if (t->unpaired)
        kd_sb_printf(out, "; not compared (one side only): %s", t->unpaired);
}

/* How many of the first differing elements the sentences show (the JSON has them all). */
#define SHOWN_MISMATCHES 5

static void pattern_text(const kd_buffer_check *r, kd_strbuf *out)
{
    switch (r->pattern) {
    case KD_PATTERN_NONFINITE:
        kd_sb_printf(out, "every difference is a NaN or an infinity on one side (%zu NaN, %zu infinite)",
                     r->nan_mismatches, r->inf_mismatches);
        break;
    case KD_PATTERN_SHIFT: {
        long k = r->shift < 0 ? -r->shift : r->shift;
        kd_sb_printf(out, "v2 is v1 shifted by %ld: %s (v2[i] = v1[i%+ld] for %zu of %zu elements)", r->shift,
                     k == 1 ? "exclusive vs inclusive?" : "an index off by a constant?", r->shift, r->pattern_fits,
                     r->pattern_of);
        break;
    }
    case KD_PATTERN_PERMUTATION:
        kd_sb_puts(out, "v2 holds v1's values, bit for bit, in another order: a permutation (another "
                        "element-to-thread mapping?)");
        break;
    case KD_PATTERN_FACTOR:
        kd_sb_printf(out, "v2 is v1 times %.6g (for %zu of %zu elements): a scale factor?", r->factor,
                     r->pattern_fits, r->pattern_of);
        break;
    case KD_PATTERN_TAIL:
        kd_sb_printf(out, "every difference lies in the last %zu elements (from index %zu): a bounds check?",
                     r->pattern_of, r->count - r->pattern_of);
        break;
    case KD_PATTERN_NONE:
    case KD_PATTERN_COUNT:
        break;
    }
}

/* v1 differed from itself between the check's two runs: the atol it raised. */
static void self_noise_text(const kd_output_check *oc, kd_strbuf *out)
{
    if (oc->self_noise > 0)
        kd_sb_printf(out, "; v1 differs from itself by up to %.3g between two runs on the same inputs (float atomics "
                          "in another order?): atol at least 4x that", oc->self_noise);
}

void kd_output_detail(const kd_output_check *oc, kd_strbuf *out)
{
    const kd_buffer_check *r = &oc->result;
    kd_sb_printf(out, "%s (%s", oc->name, kd_dtype_name(oc->type.base));
    if (oc->type.lanes > 1)
        kd_sb_printf(out, "x%d", oc->type.lanes);
    kd_sb_printf(out, ", %zu elements): ", r->count);
    switch (outcome_of(r)) {
    case BUFFER_NOT_WRITTEN:
        kd_sb_puts(out, "written by neither side (every element still holds the poison): nothing to compare; "
                        "is it an input the kernels only read?");
        return;
    case BUFFER_MATCHES:
        kd_sb_printf(out, "match (rtol %g, atol %g); max abs err %.3g, max rel err %.3g", oc->tolerance.rtol,
                     oc->tolerance.atol, r->max_abs_err, r->max_rel_err);
        self_noise_text(oc, out);
        if (written_differently(r)) {
            kd_sb_printf(out, "; only which elements were written differs: never written: v1 %zu, v2 %zu",
                         r->unwritten[0], r->unwritten[1]);
            if (r->written_differ)
                kd_sb_printf(out, " (%zu written by one side only, the first at index %zu)", r->written_differ,
                             r->first_written_differ);
            kd_sb_puts(out, "; the values agree because both sides started from the same contents");
        }
        return;
    case BUFFER_DIFFERS:
        break;
    }
    if (r->degenerate != KD_DEGENERATE_NONE && r->degenerate != KD_DEGENERATE_NONFINITE)
        /* within the tolerance, yet no answer: a tolerance has a floor (issue 39) */
        kd_sb_printf(out, "v2 is %s where v1's values vary (RMS %.3g against v1's %.3g): not a match, whatever the "
                          "tolerance; ", r->degenerate == KD_DEGENERATE_ZERO ? "all zero" : "one constant value",
                     r->v2_rms, r->v1_rms);
    kd_sb_printf(out, "%zu differ (rtol %g, atol %g); max abs err %.3g, max rel err %.3g", r->mismatches,
                 oc->tolerance.rtol, oc->tolerance.atol, r->max_abs_err, r->max_rel_err);
    if (r->pattern != KD_PATTERN_NONE) {
        kd_sb_puts(out, "; ");
        pattern_text(r, out);
    } else if (r->nan_mismatches) {
        kd_sb_printf(out, "; %zu NaN on one side only", r->nan_mismatches);
    }
    if (r->unwritten[0] || r->unwritten[1])
        kd_sb_printf(out, "; never written: v1 %zu, v2 %zu", r->unwritten[0], r->unwritten[1]);
    for (size_t i = 0; i < r->first_count && i < SHOWN_MISMATCHES; i++)
        kd_sb_printf(out, "%s[%zu] %.6g vs %.6g", i ? ", " : "; first: ", r->first[i].index, r->first[i].v1,
                     r->first[i].v2);
    if (r->mismatches > SHOWN_MISMATCHES && r->first_count)
        kd_sb_puts(out, ", ...");
    self_noise_text(oc, out);
}

void kd_calibration_line(const kd_timing *t, kd_strbuf *out)
{
    if (!t->has_mde)
        return;
    const kd_calib *c = &t->calib;
    double bound = c->known ? kd_binomial_upper_bound(c->aa_false, c->aa_runs, 0.95) : -1.0;
    if (bound >= 0.0)
        kd_sb_printf(out, "verdict calibrated: %ld false in %ld A/A runs (<= %.1f%% at 95%%)", c->aa_false,
                     c->aa_runs, 100.0 * bound);
    else
        kd_sb_puts(out, "verdict calibration unknown (no valid A/A record)");
    kd_sb_printf(out, "; this run could detect a change of %.2f%% or more", t->mde_pct);
}

void kd_between_runs_line(const kd_timing *t, kd_strbuf *out)
{
    if (!t->from_saved || t->from_one_run || !(t->speedup.hi > 0))
        return;
    if (t->between_applied)
        kd_sb_printf(out,
                     "separate runs: the interval carries a %.2f%% spread between processes (measured over %ld); "
                     "the samples alone gave %.4f-%.4fx",
                     t->calib.between_pct, t->calib.between_runs, t->own_speedup.lo, t->own_speedup.hi);
    else if (t->between_unknown)
        kd_sb_puts(out, "separate runs: the interval cannot carry the spread between processes (no measured "
                        "spread in the calibration record); --fail-if-slower is not evaluated");
}
