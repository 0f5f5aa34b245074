#include "report/metric_text.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "measure/timing.h"
#include "report/untrusted.h"

/* Decimal prefixes: 1.2 GB is 1.2e9 bytes, as ncu and NVML count. */
static void scaled(double v, const char *unit, char *buf, size_t n)
{
    static const char *const prefix[] = {"", "K", "M", "G", "T", "P"};
    int p = 0;
    while (fabs(v) >= 1000 && p < 5) {
        v /= 1000;
        p++;
    }
    if (p == 0 && v == floor(v))
        snprintf(buf, n, "%.0f%s%s", v, *unit ? " " : "", unit);
    else
        snprintf(buf, n, "%.3g %s%s", v, prefix[p], unit);
}

void kd_format_metric(kd_unit unit, double value, char *buf, size_t n)
{
    switch (unit) {
    case KD_UNIT_NS: kd_format_ns(value, buf, n); break;
    case KD_UNIT_BYTES: scaled(value, "B", buf, n); break;
    case KD_UNIT_BYTES_PER_S: scaled(value, "B/s", buf, n); break;
    case KD_UNIT_HZ: scaled(value, "Hz", buf, n); break;
    case KD_UNIT_FLOPS_PER_S: scaled(value, "FLOP/s", buf, n); break;
    case KD_UNIT_PCT: snprintf(buf, n, "%.1f%%", value); break;
    case KD_UNIT_COUNT: scaled(value, "", buf, n); break;
    case KD_UNIT_RATIO: snprintf(buf, n, "%.2f", value); break;
    case KD_UNIT_FLOP_PER_BYTE: snprintf(buf, n, "%.3g FLOP/B", value); break;
    }
}

kd_time_column kd_time_column_of(const double *ns, size_t count)
{
    double top = 0, least = 0;
    for (size_t i = 0; i < count; i++) {
        double v = fabs(ns[i]);
        if (!isfinite(v))
            continue;
        top = fmax(top, v);
        if (v > 0 && (least == 0 || v < least))
            least = v;
    }
    /* kd_format_ns's steps: ms with 3 decimals, us with 1 (from 100us) or 2, whole ns */
    kd_time_column col = top >= 1e6 ? (kd_time_column){1e6, "ms", 3}
                         : top >= 1e5 ? (kd_time_column){1e3, "us", 1}
                         : top >= 1e3 ? (kd_time_column){1e3, "us", 2}
                                      : (kd_time_column){1, "ns", 0};
    if (least > 0 && col.scale > 1) {
        int wanted = (int)ceil(1 - log10(least / col.scale)); /* two significant digits */
        if (wanted > col.decimals)
            col.decimals = wanted > 3 ? 3 : wanted;
    }
    return col;
}

void kd_format_ns_in(const kd_time_column *col, double ns, char *buf, size_t n)
{
    snprintf(buf, n, "%.*f%s", col->decimals, ns / col->scale, col->unit);
}

void kd_format_delta(const kd_metric_def *def, const kd_metric_delta *d, char *buf, size_t n)
{
    if (isinf(d->delta))
        snprintf(buf, n, "%s", d->delta > 0 ? "new" : "gone");
    else if (def->unit == KD_UNIT_PCT)
        snprintf(buf, n, "%+.1fpp", d->delta);
    else
        snprintf(buf, n, "%+.1f%%", d->delta);
}

void kd_row_cells_of(kd_unit unit, const kd_metric_delta *d, kd_row_cells *out)
{
    const kd_metric_def def = {.unit = unit};
    if (unit == KD_UNIT_NS) { /* both sides' times in one unit */
        const double both[2] = {d->v1, d->v2};
        kd_time_column col = kd_time_column_of(both, 2);
        kd_format_ns_in(&col, d->v1, out->v1, sizeof out->v1);
        kd_format_ns_in(&col, d->v2, out->v2, sizeof out->v2);
    } else {
        kd_format_metric(unit, d->v1, out->v1, sizeof out->v1);
        kd_format_metric(unit, d->v2, out->v2, sizeof out->v2);
    }
    kd_format_delta(&def, d, out->delta, sizeof out->delta);
}

const char *kd_group_name(kd_metric_group g)
{
    static const char *const names[KD_GROUP_COUNT] = {"speed of light", "arithmetic", "cache", "warp state",
                                                      "launch", "tensor"};
    return g < KD_GROUP_COUNT ? names[g] : "?";
}

static void side_roofline(const kd_side_counters *s, kd_strbuf *out)
{
    const kd_roofline *r = &s->roofline;
    kd_sb_printf(out, "%s-bound (%s%s %.0f%% of peak), %.0f%% of peak DRAM bandwidth, %.0f%% of peak FLOP/s, AI %.3g FLOP/B",
                 kd_bound_name(r->bound), r->bound == KD_BOUND_LATENCY ? "busiest: " : "", kd_busy_unit_name(r->busiest),
                 100 * r->busiest_fraction, 100 * r->bw_fraction, 100 * r->compute_fraction, r->intensity);
}

void kd_roofline_line(const kd_counters *c, kd_strbuf *out)
{
    if (!c->side[0].roofline_valid || !c->side[1].roofline_valid) {
        kd_sb_puts(out, "not placed: no peak figures for this GPU (NVML or the arch table)");
        return;
    }
    kd_sb_puts(out, "v1 ");
    side_roofline(&c->side[0], out);
    kd_sb_puts(out, "; v2 ");
    side_roofline(&c->side[1], out);
    kd_sb_printf(out, "; %s->%s, v2 headroom %.0f%%", kd_bound_short(c->side[0].roofline.bound),
                 kd_bound_short(c->side[1].roofline.bound), 100 * c->side[1].roofline.headroom);
}

void kd_duration_note(const kd_counters *c, kd_strbuf *out)
{
    if (c->contradicted_verdict == KD_VERDICT_NO_DIFFERENCE)
        return;
    const kd_metric_delta *d = &c->delta[kd_metric_index("duration")];
    kd_sb_printf(out, "ncu's duration (%+.1f%%, median of %d profiled launch%s) disagrees with the timing (v2 %s): "
                      "the timing is the measurement; ncu replays each launch alone with caches flushed (marked ?)",
                 d->delta, c->repeats, c->repeats == 1 ? "" : "es", kd_verdict_name(c->contradicted_verdict));
}

void kd_metric_ncu_names(const kd_metric_def *def, kd_strbuf *out)
{
    if (!def->raw[0])
        kd_sb_puts(out, "derived");
    for (size_t i = 0; i < KD_MAX_RAW && def->raw[i]; i++)
        kd_sb_printf(out, "%s%s", i ? " + " : "", def->raw[i]);
}

void kd_missing_extra_note(const kd_counters *c, kd_strbuf *out)
{
    if (!c->missing_extra)
        return;
    kd_sb_puts(out, "--metrics: ncu gave no values for: ");
    kd_sb_untrusted(out, c->missing_extra); /* the option's value */
    kd_sb_puts(out, " (unknown names, or not on this GPU? ncu --query-metrics lists them)");
}

/* Under 10 us CUPTI's own collection is a visible share of the kernel's time: on the H100 a 5-6 us
 * kernel's occupancy read +2..3 points and its IPC +3..3.5% above ncu's in every run with the
 * table's metrics (and 10% off with four metrics, where ncu's did not move), where a 9 us one's
 * were within 1.3 points (docs/COUNTERS.md). */
static void short_kernel_note(const kd_counters *c, kd_strbuf *out)
{
    enum { SHORT_NS = 10000 };
    long duration = kd_metric_index("duration");
    bool short_side[2];
    for (int s = 0; s < 2; s++)
        short_side[s] = duration >= 0 && c->side[s].total.present[duration] &&
                        c->side[s].total.value[duration] < SHORT_NS;
    if (!short_side[0] && !short_side[1])
        return;
    kd_sb_printf(out, "; %s ran under 10 us, where achieved occupancy and IPC read up to 3%% above ncu's "
                      "(docs/COUNTERS.md)",
                 short_side[0] && short_side[1] ? "both sides' kernels" : short_side[0] ? "v1's kernel" : "v2's kernel");
}

void kd_counters_header(const kd_counters *c, kd_strbuf *out)
{
    /* Which collector ran, as the JSON's counters.collector says (the table's metrics are the
     * same; ncu's set and CUPTI's table are kept equal by ncu/metrics.c). */
    if (c->collector && !strcmp(c->collector, "cupti")) {
        kd_sb_puts(out, "CUPTI ");
        if (c->cupti_version)
            kd_sb_printf(out, "%u.%u ", c->cupti_version / 10000, c->cupti_version / 100 % 100);
        kd_sb_printf(out, "range profiler in the harness (--counters ncu for Nsight Compute), %d profiled launch%s per "
                          "side", c->repeats, c->repeats == 1 ? "" : "es");
        /* How far they can be from ncu's, where that is known (docs/COUNTERS.md). */
        if (!strcmp(c->l2, "cupti")) {
            kd_sb_printf(out, "; %s replay, L2 reset by CUPTI before each pass, as ncu's --cache-control all does",
                         c->replay);
            short_kernel_note(c, out);
        }
        else if (!strcmp(c->l2, "harness"))
            kd_sb_printf(out, "; %s replay, L2 flushed by the harness: DRAM writes, duration and achieved occupancy "
                              "may read up to 15%% above ncu's (docs/COUNTERS.md; CUPTI 13.4+ agrees: pip install "
                              "nvidia-cuda-cupti)", c->replay);
        else if (!strcmp(c->l2, "none"))
            kd_sb_printf(out, "; %s replay without an L2 reset between passes: L2 hit rate and DRAM reads of data that "
                              "fits in L2 are not ncu's (docs/COUNTERS.md)", c->replay);
    } else
        kd_sb_printf(out, "Nsight Compute, %s metric set, %d profiled launch%s per side", c->full ? "full" : "fast",
                     c->repeats, c->repeats == 1 ? "" : "es");
    if (c->repeats < 2)
        kd_sb_puts(out, "; counter noise unknown (--ncu-repeats 3 measures it), ? marks only timing noise");
    else
        kd_sb_puts(out, "; ? = inside the spread seen across repeats (or the timing CI for time-based rates)");
}
