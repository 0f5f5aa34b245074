/* html.c — the HTML report: one page with its CSS and its charts inline (svg.h draws them),
 * no script and no link, so it opens offline, in a mail attachment or a CI artifact. Like
 * the other renderers it reads kd_comparison (and a sweep's points) only, and takes its
 * sentences from the shared text modules so that it says what the terminal says. Each
 * chart is an <svg> with a fixed id (chart-histogram, chart-samples, chart-speedup,
 * chart-roofline, chart-sweep-time, chart-sweep-speedup; html_regions.c adds chart-regions
 * and chart-region-timeline) for the tests. The page's shell is html_page.c's. */
#include "report/report.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "diff/rows.h"
#include "report/launch_text.h"
#include "report/replay_text.h"
#include "report/metric_text.h"
#include "report/model_text.h"
#include "report/note_text.h"
#include "report/sanitizer_text.h"
#include "report/sweep_text.h"
#include "report/gate_summary.h"
#include "report/html_page.h"
#include "report/html_regions.h"
#include "report/hotspots_report.h"
#include "report/resources_text.h"
#include "report/timing_text.h"
#include "util/xalloc.h"

/* A note's sentence as a paragraph of class `cls`, when there is one. */
static void say_note(FILE *out, const char *cls, const kd_note *n)
{
    kd_strbuf text = {0};
    if (kd_note_text(n, &text))
        kd_html_say(out, "p", cls, &text);
    kd_sb_free(&text);
}

/* ---- the samples ------------------------------------------------------------------------ */

enum { BINS = 40 };

/* Both sides' kept samples in the same bins, medians dashed. */
static void histogram_chart(FILE *out, const kd_timing *t)
{
    const kd_summary *a = &t->side[0].summary, *b = &t->side[1].summary;
    double lo = fmin(a->min, b->min), hi = fmax(a->max, b->max);
    if (!(hi > lo)) { /* every sample equal: a range around it */
        lo *= 0.99;
        hi = hi * 1.01 + 1;
    }
    double width = (hi - lo) / BINS;
    size_t count[2][BINS] = {{0}}, outside[2] = {0, 0}, most = 1;
    for (int s = 0; s < 2; s++)
        for (size_t i = 0; i < t->side[s].n; i++) {
            double v = t->side[s].samples[i];
            if (v < lo || v > hi) {
                outside[s]++;
                continue;
            }
            size_t bin = (size_t)((v - lo) / width);
            bin = bin < BINS ? bin : BINS - 1;
            if (++count[s][bin] > most)
                most = count[s][bin];
        }
    char xlabel[64];
    kd_plot p = {.out = out, .width = 720, .height = 300};
    kd_html_axis_of_time(&p.x, &(kd_time_axis){lo, hi, KD_SCALE_LINEAR, "time per launch"}, xlabel, sizeof xlabel);
    p.y = (kd_axis){.label = "samples per bin", .lo = 0, .hi = (double)most * 1.15};
    kd_html_figure_start(out);
    kd_plot_begin(&p, "chart-histogram", "Distribution of the time per launch of v1 and v2");
    for (int s = 0; s < 2; s++)
        for (size_t bin = 0; bin < BINS; bin++)
            if (count[s][bin])
                kd_plot_rect(&p, lo + (double)bin * width, 0, lo + (double)(bin + 1) * width, (double)count[s][bin],
                             s ? "bar v2" : "bar v1");
    kd_plot_line(&p, a->median, 0, a->median, p.y.hi, "median v1");
    kd_plot_line(&p, b->median, 0, b->median, p.y.hi, "median v2");
    const char *labels[2] = {"v1", "v2"};
    kd_plot_legend(&p, labels, kd_html_side_class, 2);
    kd_plot_end(&p);
    char bin_text[32];
    kd_format_ns(width, bin_text, sizeof bin_text);
    kd_strbuf caption = {0};
    kd_sb_printf(&caption, "The samples kept after the outlier rule (Tukey's far-out fences), in %d bins of %s; dashed "
                           "lines: the medians.", BINS, bin_text);
    if (outside[0] || outside[1])
        kd_sb_printf(&caption, " Outliers outside the range, not drawn: %zu of v1, %zu of v2.", outside[0], outside[1]);
    kd_html_figure_end(out, &caption);
}

/* Every raw sample in the order taken: drift is a trend, outliers stand apart. */
static void order_chart(FILE *out, const kd_timing *t)
{
    /* The range of the kept samples and a margin: one far outlier must not flatten the
     * rest. Samples beyond it are drawn on the edge, hollow. */
    double lo = fmin(t->side[0].summary.min, t->side[1].summary.min);
    double hi = fmax(t->side[0].summary.max, t->side[1].summary.max);
    double pad = (hi - lo) * 0.15 + hi * 1e-3;
    size_t longest = 1, throttled = 0, clipped = 0;
    for (int s = 0; s < 2; s++) {
        for (size_t i = 0; i < t->side[s].n; i++)
            clipped += t->side[s].samples[i] < lo - pad || t->side[s].samples[i] > hi + pad;
        longest = t->side[s].n > longest ? t->side[s].n : longest;
        throttled += t->side[s].throttled_count;
    }
    char ylabel[64];
    kd_plot p = {.out = out, .width = 720, .height = 300};
    p.x = (kd_axis){.label = "sample (in the order taken, per version)", .lo = 0, .hi = (double)(longest - 1) + 1e-9};
    kd_html_axis_of_time(&p.y, &(kd_time_axis){lo - pad, hi + pad, KD_SCALE_LINEAR, "time per launch"}, ylabel, sizeof ylabel);
    kd_html_figure_start(out);
    kd_plot_begin(&p, "chart-samples", "Every sample of v1 and v2 in the order taken");
    for (int s = 0; s < 2; s++) {
        const kd_side_timing *st = &t->side[s];
        for (size_t i = 0; i < st->n; i++) {
            double v = st->samples[i];
            bool beyond = v < p.y.lo || v > p.y.hi;
            kd_plot_point(&p, (double)i, v, beyond ? 3 : 1.8, s == 1, beyond ? (s ? "clipped v2" : "clipped v1")
                                                                             : (s ? "pt v2" : "pt v1"));
            if (st->throttled && st->throttled[i])
                kd_plot_point(&p, (double)i, st->samples[i], 4, false, "throttled");
        }
        kd_plot_line(&p, 0, st->summary.median, p.x.hi, st->summary.median, s ? "median v2" : "median v1");
    }
    const char *labels[3] = {"v1", "v2", "throttled"}, *classes[3] = {"v1", "v2", "throttled"};
    kd_plot_legend(&p, labels, classes, throttled ? 3 : 2);
    kd_plot_end(&p);
    kd_strbuf caption = {0};
    kd_sb_printf(&caption, "Every raw sample, outliers included: %zu of v1 and %zu of v2", t->side[0].n, t->side[1].n);
    if (t->rounds) /* saved runs compared: each has rounds of its own */
        kd_sb_printf(&caption, " over %zu rounds, the versions interleaved in blocks", t->rounds);
    kd_sb_puts(&caption, "; dashed lines: the medians of the kept samples. A slope is drift; isolated points are "
                         "outliers.");
    if (clipped)
        kd_sb_printf(&caption, " Hollow marks on the top or bottom edge: %zu samples beyond the range shown.", clipped);
    if (throttled)
        kd_sb_printf(&caption, " Rings: %zu samples taken while the GPU reported throttling.", throttled);
    kd_html_figure_end(out, &caption);
}

/* The speedup's estimate and 95% CI against 1 (no change). */
static void speedup_chart(FILE *out, const kd_timing *t)
{
    const kd_speedup *s = &t->speedup;
    double floor = t->min_effect_pct / 100;
    double lo = fmin(fmin(s->lo, 1), 1 / (1 + floor)), hi = fmax(fmax(s->hi, 1), 1 + floor);
    double pad = (hi - lo) * 0.3 + 0.002;
    static const double at[1] = {0};
    static const char *const text[1] = {"95% CI"};
    kd_plot p = {.out = out, .width = 720, .height = 130, .left = 70};
    p.x = (kd_axis){.label = "speedup: v1 median / v2 median (×; above 1: v2 is faster)", .lo = lo - pad, .hi = hi + pad};
    p.y = (kd_axis){.label = "v1/v2", .lo = -1, .hi = 1, .tick_at = at, .tick_text = text, .nticks = 1};
    kd_html_figure_start(out);
    kd_plot_begin(&p, "chart-speedup", "The speedup of v2 over v1 with its 95% confidence interval");
    if (floor > 0)
        kd_plot_rect(&p, 1 / (1 + floor), -0.8, 1 + floor, 0.8, "floor");
    kd_plot_line(&p, 1, -1, 1, 1, "reference");
    kd_plot_rect(&p, s->lo, -0.35, s->hi, 0.35, "ci");
    kd_plot_point(&p, s->ratio, 0, 4, false, "estimate");
    char label[96];
    int d = kd_ratio_decimals(s->ratio, s->lo, s->hi);
    snprintf(label, sizeof label, "%.*f× (95%% CI %.*f–%.*f×)", d, s->ratio, d, s->lo, d, s->hi);
    kd_plot_text(&p, &(kd_plot_label){s->ratio, 0.35, 0, -6, "middle", "value", label});
    kd_plot_end(&p);
    kd_strbuf caption = {0};
    kd_sb_printf(&caption, "The bar is the 95%% confidence interval of the ratio of medians (a bootstrap over rounds); "
                           "the verdict is faster or slower only when it excludes 1 (dashed)");
    if (floor > 0)
        kd_sb_printf(&caption, " and the grey --min-effect band of %.2f%%", t->min_effect_pct);
    kd_sb_puts(&caption, ".");
    kd_html_figure_end(out, &caption);
}

static void latency_table(FILE *out, const kd_timing *t)
{
    static const struct {
        const char *label;
        size_t offset;
    } rows[] = {
        {"min", offsetof(kd_summary, min)},       {"p20", offsetof(kd_summary, p20)},
        {"median", offsetof(kd_summary, median)}, {"p80", offsetof(kd_summary, p80)},
        {"p95", offsetof(kd_summary, p95)},       {"mean", offsetof(kd_summary, mean)},
        {"stdev", offsetof(kd_summary, stdev)},   {"IQR", offsetof(kd_summary, iqr)},
    };
    const kd_summary *s[2] = {&t->side[0].summary, &t->side[1].summary};
    fputs("<table><tr><th>time per launch</th><th>v1</th><th>v2</th></tr>\n", out);
    for (size_t r = 0; r < sizeof rows / sizeof *rows; r++) {
        char a[32], b[32];
        kd_format_ns(*(const double *)((const char *)s[0] + rows[r].offset), a, sizeof a);
        kd_format_ns(*(const double *)((const char *)s[1] + rows[r].offset), b, sizeof b);
        fputs("<tr>", out);
        kd_html_cell(out, "td", rows[r].label);
        kd_html_cell(out, "td", a);
        kd_html_cell(out, "td", b);
        fputs("</tr>\n", out);
    }
    fprintf(out, "<tr><td>CV</td><td>%.2f%%</td><td>%.2f%%</td></tr>\n", 100 * s[0]->cv, 100 * s[1]->cv);
    fprintf(out, "<tr><td>samples kept (outliers removed)</td><td>%zu (%zu)</td><td>%zu (%zu)</td></tr>\n</table>\n",
            s[0]->n, s[0]->outliers, s[1]->n, s[1]->outliers);
}

static void timing_section(FILE *out, const kd_comparison *c)
{
    const kd_timing *t = &c->timing;
    kd_strbuf line = {0};
    fputs("<h2>Time</h2>\n", out);
    kd_timing_environment(t, c->simulated, &line);
    kd_html_say(out, "p", "muted", &line);
    kd_timing_method(t, &line);
    kd_html_say(out, "p", "muted", &line);
    kd_calibration_line(t, &line);
    if (line.len)
        kd_html_say(out, "p", "calibration", &line);
    kd_between_runs_line(t, &line);
    if (line.len)
        kd_html_say(out, "p", "muted", &line);
    kd_timing_placement(t, &line);
    if (line.len)
        kd_html_say(out, "p", "muted", &line);
    kd_sb_free(&line);
    speedup_chart(out, t);
    histogram_chart(out, t);
    order_chart(out, t);
    latency_table(out, t);
}

/* ---- counters and the roofline ------------------------------------------------------------ */

static double decade_below(double v) { return pow(10, floor(log10(v))); }
static double decade_above(double v) { return pow(10, ceil(log10(v))); }

/* Both kernels on the device's ceilings: DRAM bandwidth and each compute peak known. */
static void roofline_chart(FILE *out, const kd_counters *k)
{
    const kd_peaks *pk = &k->peaks;
    const struct {
        const char *name;
        double peak;
    } ceilings[] = {{"FP32", pk->fp32_flops_per_s}, {"FP64", pk->fp64_flops_per_s}, {"FP16 tensor", pk->tensor_flops_per_s}};
    double bw = pk->dram_bytes_per_s, top = 0, ridge_lo = INFINITY, ridge_hi = 0;
    for (size_t i = 0; i < 3; i++)
        if (ceilings[i].peak > 0) {
            top = fmax(top, ceilings[i].peak);
            ridge_lo = fmin(ridge_lo, ceilings[i].peak / bw);
            ridge_hi = fmax(ridge_hi, ceilings[i].peak / bw);
        }
    double ai[2], perf[2], xlo = ridge_lo, xhi = ridge_hi, ylo = top;
    bool placed[2];
    for (int s = 0; s < 2; s++) {
        const kd_roofline *r = &k->side[s].roofline;
        ai[s] = r->intensity;
        perf[s] = r->seconds > 0 ? r->flops / r->seconds : 0;
        placed[s] = ai[s] > 0 && perf[s] > 0 && isfinite(ai[s]) && isfinite(perf[s]);
        if (placed[s]) {
            xlo = fmin(xlo, ai[s]);
            xhi = fmax(xhi, ai[s]);
            ylo = fmin(ylo, perf[s]);
        }
    }
    xlo = decade_below(xlo) / 10;
    xhi = decade_above(xhi) * 10;
    ylo = decade_below(fmin(ylo, bw * xlo));
    kd_plot p = {.out = out, .width = 720, .height = 380};
    p.x = (kd_axis){.label = "arithmetic intensity (FLOP per DRAM byte)", .lo = xlo, .hi = xhi, .scale = KD_SCALE_LOG,
                    .style = KD_TICKS_SI};
    p.y = (kd_axis){.label = "performance (FLOP/s)", .lo = ylo, .hi = decade_above(top * 1.5), .scale = KD_SCALE_LOG,
                    .style = KD_TICKS_SI};
    kd_html_figure_start(out);
    kd_plot_begin(&p, "chart-roofline", "Roofline: v1 and v2 against the GPU's DRAM and compute ceilings");
    char text[96], value[40];
    kd_plot_line(&p, xlo, bw * xlo, top / bw, top, "ceiling");
    kd_format_metric(KD_UNIT_BYTES_PER_S, bw, value, sizeof value);
    snprintf(text, sizeof text, "DRAM %s", value);
    kd_plot_text(&p, &(kd_plot_label){xlo * 3, bw * xlo * 3, 4, -8, "start", "value", text});
    for (size_t i = 0; i < 3; i++) {
        if (ceilings[i].peak <= 0)
            continue;
        kd_plot_line(&p, ceilings[i].peak / bw, ceilings[i].peak, xhi, ceilings[i].peak, "ceiling");
        kd_format_metric(KD_UNIT_FLOPS_PER_S, ceilings[i].peak, value, sizeof value);
        snprintf(text, sizeof text, "%s %s", ceilings[i].name, value);
        kd_plot_text(&p, &(kd_plot_label){xhi, ceilings[i].peak, -6, -5, "end", "value", text});
    }
    for (int s = 0; s < 2; s++)
        if (placed[s]) {
            kd_plot_point(&p, ai[s], perf[s], 5, s == 1, kd_html_side_class[s]);
            kd_plot_text(&p, &(kd_plot_label){ai[s], perf[s], s ? 9 : -9, 4, s ? "start" : "end", "value", kd_html_side_class[s]});
        }
    kd_plot_end(&p); /* the points are labelled where they are: no legend */
    kd_strbuf caption = {0};
    kd_roofline_line(k, &caption);
    kd_sb_puts(&caption, ". Ceilings: DRAM bandwidth and the compute peaks kerndiff knows for this GPU; an L2 "
                         "ceiling is not measured.");
    for (int s = 0; s < 2; s++)
        if (!placed[s])
            kd_sb_printf(&caption, " v%d is not drawn: the counters saw no floating-point work or no DRAM traffic "
                                   "(a point at zero has no place on log axes).", s + 1);
    kd_html_figure_end(out, &caption);
}

static void counter_table(FILE *out, const kd_counters *k)
{
    size_t changed = 0, comparable = 0;
    for (size_t m = 0; m < kd_metric_def_count; m++) {
        comparable += k->delta[m].comparable;
        changed += k->delta[m].comparable && k->delta[m].changed;
    }
    fprintf(out, "<details><summary>Counter table: %zu of %zu metrics changed</summary>\n", changed, comparable);
    kd_strbuf line = {0};
    kd_counters_header(k, &line);
    kd_html_say(out, "p", "muted", &line);
    fputs("<table><tr><th>metric</th><th>v1</th><th>v2</th><th>change</th><th></th></tr>\n", out);
    for (int g = 0; g < KD_GROUP_COUNT; g++) {
        bool titled = false;
        for (int pass = 0; pass < 2; pass++) /* changed rows first */
            for (size_t m = 0; m < kd_metric_def_count; m++) {
                const kd_metric_def *def = &kd_metric_defs[m];
                const kd_metric_delta *d = &k->delta[m];
                if ((int)def->group != g || !d->comparable || d->changed != (pass == 0))
                    continue;
                if (!titled) {
                    fputs("<tr class=\"group\"><th colspan=\"5\">", out);
                    kd_xml_text(out, kd_group_name((kd_metric_group)g));
                    fputs("</th></tr>\n", out);
                    titled = true;
                }
                char a[40], b[40], delta[32], symbol[16];
                kd_format_metric(def->unit, d->v1, a, sizeof a);
                kd_format_metric(def->unit, d->v2, b, sizeof b);
                kd_format_delta(def, d, delta, sizeof delta);
                snprintf(symbol, sizeof symbol, "%s%s", d->symbol, d->noisy ? " ?" : "");
                const char *cls = !d->changed || d->noisy ? "" : d->symbol[0] == '+' ? "good" : d->symbol[0] == '-' ? "bad" : "";
                fputs("<tr>", out);
                kd_html_cell(out, "td", def->label);
                kd_html_cell(out, "td", a);
                kd_html_cell(out, "td", b);
                kd_html_cell(out, "td", d->changed ? delta : "");
                fprintf(out, "<td class=\"%s\">", cls);
                kd_xml_text(out, symbol);
                fputs("</td></tr>\n", out);
            }
    }
    fputs("</table>\n", out);
    if (k->nadvice) {
        fputs("<p><strong>Advice</strong></p><ul>\n", out);
        for (size_t i = 0; i < k->nadvice; i++)
            kd_html_say_text(out, "li", NULL, k->advice[i]);
        fputs("</ul>\n", out);
    }
    fputs("</details>\n", out);
}

static void counters_section(FILE *out, const kd_comparison *c)
{
    fputs("<h2>Counters and roofline</h2>\n", out);
    const kd_counters *k = &c->counters;
    if (!k->present) {
        kd_strbuf why = {0};
        if (!kd_note_text(&c->counters_note, &why))
            kd_sb_puts(&why, "No counters: the Nsight Compute pass did not run, so there is no roofline and no counter "
                             "table.");
        kd_html_say(out, "p", "warn", &why);
        return;
    }
    if (k->peaks_valid && k->side[0].roofline_valid && k->side[1].roofline_valid) {
        roofline_chart(out, k);
    } else {
        kd_strbuf line = {0};
        kd_sb_puts(&line, "Roofline ");
        kd_roofline_line(k, &line);
        kd_html_say(out, "p", "warn", &line);
    }
    counter_table(out, k);
}

/* ---- the static diff ---------------------------------------------------------------------- */

static void number_cells(FILE *out, long v1, long v2)
{
    fprintf(out, "<td>%ld</td><td>%ld</td><td>", v1, v2);
    if (v1 != v2)
        fprintf(out, "%+ld", v2 - v1);
    fputs("</td></tr>\n", out);
}

static void value_table(FILE *out, const char *title, const kd_value_row *rows, size_t n, const kd_comparison *c)
{
    fputs("<details open><summary>", out);
    kd_xml_text(out, title);
    fputs("</summary><table><tr><th></th><th>v1</th><th>v2</th><th>change</th></tr>\n", out);
    for (size_t i = 0; i < n; i++) {
        const char *label = rows[i].label;
        while (*label == ' ')
            label++;
        fputs("<tr>", out);
        kd_html_cell(out, "td", label);
        const kd_static_result *a = &c->side[0].stat, *b = &c->side[1].stat;
        if (kd_value_row_known(&rows[i], a) && kd_value_row_known(&rows[i], b)) {
            number_cells(out, rows[i].get(a), rows[i].get(b));
            continue;
        }
        /* a value nobody reported is unknown, never 0, and has no change */
        char v1[32], v2[32];
        kd_value_row_format(&rows[i], a, v1, sizeof v1);
        kd_value_row_format(&rows[i], b, v2, sizeof v2);
        fprintf(out, "<td>%s</td><td>%s</td><td></td></tr>\n", v1, v2);
    }
    fputs("</table></details>\n", out);
}

static void occupancy_table(FILE *out, const kd_comparison *c)
{
    const kd_static_result *a = &c->side[0].stat, *b = &c->side[1].stat;
    /* the arch may come from a saved document */
    fputs("<details open><summary>", out);
    kd_strbuf title = {0};
    kd_sb_printf(&title, "Theoretical occupancy (%s)", c->arch);
    kd_xml_text(out, kd_sb_str(&title));
    kd_sb_free(&title);
    fputs("</summary>\n", out);
    if (c->limits && !kd_resources_known(c)) {
        kd_strbuf why = {0};
        kd_sb_puts(&why, "Not computed: ");
        kd_resources_unknown_text(c, &why);
        kd_sb_puts(&why, ".");
        fputs("<p class=\"muted\">", out);
        kd_xml_text(out, kd_sb_str(&why));
        fputs("</p></details>\n", out);
        kd_sb_free(&why);
        return;
    }
    if (!c->limits || !a->occupancy_valid || !b->occupancy_valid) {
        fputs("<p class=\"muted\">Not computed: no limits for this architecture, or a side cannot launch with this "
              "block size (a launcher's kernels have their own launches).</p></details>\n", out);
        return;
    }
    const kd_occupancy *x = &a->occupancy, *y = &b->occupancy;
    fputs("<table><tr><th></th><th>v1</th><th>v2</th><th>change</th></tr>\n<tr><td>block threads</td>", out);
    number_cells(out, a->block_threads, b->block_threads);
    fputs("<tr><td>shared memory per block (B, static + dynamic)</td>", out);
    number_cells(out, a->shared_per_block, b->shared_per_block);
    fputs("<tr><td>blocks per SM</td>", out);
    number_cells(out, x->blocks_per_sm, y->blocks_per_sm);
    fputs("<tr><td>warps per SM</td>", out);
    number_cells(out, x->warps_per_sm, y->warps_per_sm);
    fprintf(out, "<tr><td>occupancy</td><td>%.1f%%</td><td>%.1f%%</td><td>%+.1fpp</td></tr>\n", 100 * x->occupancy,
            100 * y->occupancy, 100 * (y->occupancy - x->occupancy));
    fputs("<tr><td>limited by</td>", out);
    kd_html_cell(out, "td", kd_limiter_name(x->limiter));
    kd_html_cell(out, "td", kd_limiter_name(y->limiter));
    fputs("<td></td></tr>\n</table></details>\n", out);
}

static void count_table(FILE *out, const char *title, const kd_count_table *t)
{
    fputs("<details><summary>", out);
    kd_xml_text(out, title);
    fprintf(out, ": %zu of %zu rows changed, total %ld → %ld</summary>\n", t->changed, t->count, t->total[0], t->total[1]);
    fputs("<table><tr><th>instruction</th><th>v1</th><th>v2</th><th>change</th></tr>\n", out);
    for (size_t i = 0; i < t->count; i++) {
        fputs("<tr><td class=\"code\">", out);
        kd_xml_text(out, t->rows[i].key);
        fputs("</td>", out);
        number_cells(out, t->rows[i].v1, t->rows[i].v2);
    }
    fputs("</table></details>\n", out);
}

static void static_section(FILE *out, const kd_comparison *c)
{
    fputs("<h2>Static diff</h2>\n", out);
    if (c->finding_count) {
        fputs("<ul>\n", out);
        for (size_t i = 0; i < c->finding_count; i++) {
            kd_strbuf finding = {0};
            kd_finding_text(&c->findings[i], &finding);
            kd_html_say(out, "li", NULL, &finding);
        }
        fputs("</ul>\n", out);
    } else {
        kd_html_say_text(out, "p", NULL, "No finding: nothing in resources, SASS checks or instruction mix changed enough to "
                                 "name.");
    }
    value_table(out, "Resources (ptxas)", kd_resource_rows, kd_resource_row_count, c);
    occupancy_table(out, c);
    bool sass = c->side[0].stat.sass_present && c->side[1].stat.sass_present;
    if (sass)
        value_table(out, "Checks (SASS)", kd_check_rows, kd_check_row_count, c);
    count_table(out, "PTX instructions by family", &c->ptx_families);
    count_table(out, "PTX instructions", &c->ptx_ops);
    if (sass) {
        count_table(out, "SASS instructions by family", &c->sass_families);
        count_table(out, "SASS instructions", &c->sass_ops);
    }
    say_note(out, "muted", &c->sass_note);
    kd_html_say_text(out, "p", "muted", "Static counts: each instruction once, however often it runs.");
}

/* ---- the comparison ----------------------------------------------------------------------- */

static void emit_line(const char *text, void *out) { kd_html_say_text(out, "li", NULL, text); }

/* --launch: one paragraph per side against the program's result. */
static void replay_line(const char *line, bool good, void *out) { kd_html_say_text(out, "p", good ? "good" : "bad", line); }

static void summary_section(FILE *out, const kd_comparison *c)
{
    fputs("<ul>\n", out);
    for (int s = 0; s < 2; s++) {
        const kd_side *side = &c->side[s];
        kd_strbuf line = {0};
        kd_sb_printf(&line, "%s: %s [%s]%s", side->label, side->origin ? side->origin : side->path,
                     side->stat.demangled ? side->stat.demangled : side->kernel, side->build.from_cache ? " (cached build)" : "");
        kd_html_say(out, "li", NULL, &line);
    }
    fputs("</ul>\n", out);
    say_note(out, "warn", &c->git_note);
    say_note(out, "warn", &c->selection_note);
    if (c->simulated)
        kd_html_say_text(out, "p", "warn", "Simulated harness (KERNDIFF_SIMULATE): the times below are synthetic, made for "
                                   "testing, not a measurement.");
    kd_strbuf line = {0};
    if (c->timed) {
        kd_timing_headline(&c->timing, &line);
        kd_html_say(out, "p", c->timing.verdict == KD_VERDICT_FASTER   ? "verdict good"
                      : c->timing.verdict == KD_VERDICT_SLOWER ? "verdict bad"
                                                               : "verdict",
            &line);
        if (c->timing.checked) {
            kd_correctness_line(&c->timing, &line);
            kd_html_say(out, "p", c->timing.outputs_match ? "good" : "bad", &line);
            fputs("<ul>\n", out);
            for (size_t i = 0; i < c->timing.noutputs; i++) {
                kd_output_detail(&c->timing.outputs[i], &line);
                kd_html_say(out, "li", NULL, &line);
            }
            fputs("</ul>\n", out);
        }
        kd_replay_result_lines(c, replay_line, out); /* --launch: each side against the program's result */
    }
    say_note(out, "warn", &c->runtime_note);
    kd_strbuf fault = {0};
    kd_fault_explained_text(c, &fault);
    if (fault.len)
        kd_html_say_text(out, "p", "warn", kd_sb_str(&fault));
    kd_sb_free(&fault);
    if (kd_gate_asked(c)) {
        bool bad = kd_gate_summary(c, &line);
        kd_strbuf one = {0};
        for (const char *at = kd_sb_str(&line); *at;) {
            size_t n = strcspn(at, "\n");
            kd_sb_printf(&one, "%.*s", (int)n, at);
            kd_html_say(out, "p", bad ? "bad" : "good", &one);
            at += n + (at[n] == '\n');
        }
        kd_sb_free(&one);
        kd_sb_free(&line);
    }
    if (c->sanitize_tools) {
        kd_sanitizer_heading(c, &line);
        kd_html_say(out, "p", NULL, &line);
        fputs("<ul>\n", out);
        kd_sanitizer_lines(c, emit_line, out);
        fputs("</ul>\n", out);
    }
    fputs("<h2>Launch</h2>\n", out);
    kd_launch_block_text(c, "", &line);
    /* The page says the runtime note above the launch, where the other reports say it below. */
    char *below;
    while (line.data && (below = strstr(line.data, "(see below)")) != NULL)
        memcpy(below, "(see above)", strlen("(see above)"));
    kd_html_say(out, "pre", NULL, &line);
}

static void comparison_body(FILE *out, const kd_comparison *c)
{
    summary_section(out, c);
    if (c->timed)
        timing_section(out, c);
    counters_section(out, c);
    if (c->regions_run)
        kd_html_regions(out, c);
    else
        say_note(out, "muted", &c->regions_note);
    if (c->hotspots.run)
        kd_hotspots_html(out, &c->hotspots.diff);
    if (c->hotspots.asked && c->hotspots.failure.step != KD_HS_STEP_NONE) {
        kd_strbuf sb = {0};
        kd_hotspots_failure_text(&sb, c->hotspots.failed_side ? "v2" : "v1", &c->hotspots.failure);
        kd_html_say(out, "p", "muted", &sb);
    }
    static_section(out, c);
}

/* ---- sweeps ------------------------------------------------------------------------------- */

/* A sweep's values on a log axis when they are all positive numbers, else evenly spaced
 * as categories. Fills x (positions) and returns whether the axis is logarithmic. */
static bool sweep_positions(const kd_sweep_result *s, double *x)
{
    for (size_t i = 0; i < s->count; i++) {
        char *end;
        x[i] = strtod(s->points[i].value, &end);
        if (*end || !(x[i] > 0)) {
            for (size_t j = 0; j < s->count; j++)
                x[j] = (double)j;
            return false;
        }
    }
    return true;
}

/* The sweep's x axis: its points' positions (x), their tick texts (text, filled here) and scale. */
typedef struct sweep_x {
    const kd_sweep_result *s;
    const double *x;
    const char **text;
    bool log_scale;
} sweep_x;

static void sweep_x_axis(const sweep_x *sx, kd_axis *a, char *label, size_t n)
{
    const kd_sweep_result *s = sx->s;
    const double *x = sx->x;
    const char **text = sx->text;
    bool log_scale = sx->log_scale;
    double lo = x[0], hi = x[0];
    for (size_t i = 0; i < s->count; i++) {
        lo = fmin(lo, x[i]);
        hi = fmax(hi, x[i]);
        text[i] = s->points[i].value;
    }
    snprintf(label, n, "%s%s", s->parameter,
             !strcmp(s->parameter, "n") && !s->compile_time ? " (elements, log scale)"
             : log_scale                                    ? " (compile-time value, log scale)"
                                                            : " (compile-time value)");
    *a = (kd_axis){.label = label, .tick_at = x, .tick_text = text, .nticks = s->count};
    if (log_scale) {
        a->scale = KD_SCALE_LOG;
        a->lo = lo / 1.3;
        a->hi = hi * 1.3;
    } else {
        a->lo = lo - 0.5;
        a->hi = hi + 0.5;
    }
}

static void sweep_charts(FILE *out, const kd_sweep_result *s, const double *x, const char **text, bool log_scale)
{
    double *v[2], *ratio, *lo, *hi, *at;
    size_t n = 0;
    v[0] = kd_xcalloc(s->count, sizeof(double));
    v[1] = kd_xcalloc(s->count, sizeof(double));
    ratio = kd_xcalloc(s->count, sizeof(double));
    lo = kd_xcalloc(s->count, sizeof(double));
    hi = kd_xcalloc(s->count, sizeof(double));
    at = kd_xcalloc(s->count, sizeof(double));
    double tmin = INFINITY, tmax = 0, rmin = 1, rmax = 1;
    for (size_t i = 0; i < s->count; i++) {
        const kd_sweep_point *p = &s->points[i];
        if (!p->timed)
            continue;
        at[n] = x[i];
        v[0][n] = p->v1;
        v[1][n] = p->v2;
        ratio[n] = p->ratio;
        lo[n] = p->lo;
        hi[n] = p->hi;
        tmin = fmin(tmin, fmin(p->v1, p->v2));
        tmax = fmax(tmax, fmax(p->v1, p->v2));
        rmin = fmin(rmin, p->lo);
        rmax = fmax(rmax, p->hi);
        n++;
    }
    if (n == 0) {
        kd_html_say_text(out, "p", "warn", "No point of the sweep was timed: there is nothing to plot.");
    } else {
        char xlabel[160], ylabel[64];
        kd_plot p = {.out = out, .width = 720, .height = 320};
        sweep_x_axis(&(sweep_x){s, x, text, log_scale}, &p.x, xlabel, sizeof xlabel);
        kd_html_axis_of_time(&p.y, &(kd_time_axis){tmin / 1.5, tmax * 1.5, KD_SCALE_LOG, "median time, log scale"}, ylabel,
                             sizeof ylabel);
        kd_html_figure_start(out);
        kd_plot_begin(&p, "chart-sweep-time", "Median time per launch of v1 and v2 at each point of the sweep");
        for (int side = 0; side < 2; side++) {
            kd_plot_polyline(&p, at, v[side], n, side ? "line v2" : "line v1");
            for (size_t i = 0; i < n; i++)
                kd_plot_point(&p, at[i], v[side][i], 3.5, side == 1, kd_html_side_class[side]);
        }
        const char *labels[2] = {"v1", "v2"};
        kd_plot_legend(&p, labels, kd_html_side_class, 2);
        kd_plot_end(&p);
        kd_strbuf caption = {0};
        kd_sb_printf(&caption, "The median of each version's kept samples at each of the %zu timed points.", n);
        kd_html_figure_end(out, &caption);

        kd_plot q = {.out = out, .width = 720, .height = 300};
        sweep_x_axis(&(sweep_x){s, x, text, log_scale}, &q.x, xlabel, sizeof xlabel);
        double pad = (rmax - rmin) * 0.1 + 0.005;
        q.y = (kd_axis){.label = "speedup v1/v2 (×)", .lo = rmin - pad, .hi = rmax + pad};
        kd_html_figure_start(out);
        kd_plot_begin(&q, "chart-sweep-speedup", "Speedup of v2 over v1 with its 95% confidence band at each point");
        kd_plot_band(&q, at, lo, hi, n, "band");
        kd_plot_line(&q, q.x.lo, 1, q.x.hi, 1, "reference");
        kd_plot_polyline(&q, at, ratio, n, "line v1");
        for (size_t i = 0; i < n; i++)
            kd_plot_point(&q, at[i], ratio[i], 3, false, "estimate");
        kd_plot_end(&q);
        kd_sb_puts(&caption, "The ratio of medians (above 1: v2 is faster) and, shaded, its 95% confidence interval; "
                             "the dashed line is no change.");
        kd_html_figure_end(out, &caption);
    }
    free(v[0]);
    free(v[1]);
    free(ratio);
    free(lo);
    free(hi);
    free(at);
}

static void sweep_table(FILE *out, const kd_sweep_result *s)
{
    fputs("<table><tr>", out);
    kd_html_cell(out, "th", s->parameter);
    fputs("<th>v1 median</th><th>v2 median</th><th>speedup (95% CI)</th><th>verdict</th><th>v2 bound</th>"
          "<th>outputs</th></tr>\n", out);
    for (size_t i = 0; i < s->count; i++) {
        const kd_sweep_point *p = &s->points[i];
        kd_sweep_cells c;
        kd_sweep_row_cells(p, true, &c);
        fputs("<tr>", out);
        kd_html_cell(out, "td", p->value);
        kd_html_cell(out, "td", c.v1);
        kd_html_cell(out, "td", c.v2);
        kd_html_cell(out, "td", c.speedup);
        kd_html_cell(out, "td", c.verdict);
        kd_html_cell(out, "td", c.bound);
        fprintf(out, "<td class=\"%s\">%s</td></tr>\n", !p->timed ? "" : p->outputs_ok ? "good" : "bad", c.outputs);
    }
    fputs("</table>\n", out);
}

static void sweep_body(FILE *out, const kd_sweep_result *s, const kd_comparison *first)
{
    double *x = kd_xcalloc(s->count + 1, sizeof *x);
    const char **text = kd_xcalloc(s->count + 1, sizeof *text);
    bool log_scale = sweep_positions(s, x);
    fprintf(out, "<p>%zu points; each is a whole diff: both versions timed, outputs compared.</p>\n", s->count);
    if (first && first->simulated)
        kd_html_say_text(out, "p", "warn", "Simulated harness (KERNDIFF_SIMULATE): the times below are synthetic, made for "
                                   "testing, not a measurement.");
    sweep_charts(out, s, x, text, log_scale);
    sweep_table(out, s);
    free(x);
    free(text);
    if (first) {
        kd_strbuf heading = {0};
        kd_sb_printf(&heading, "The first point in full (%s = %s)", s->parameter, s->points[0].value);
        kd_html_say(out, "h2", NULL, &heading);
        comparison_body(out, first);
    }
}

void kd_render_html(FILE *out, const kd_comparison *c, const kd_sweep_result *sweep)
{
    kd_strbuf title = {0};
    if (sweep)
        kd_sb_printf(&title, "kerndiff sweep over %s%s%s", sweep->parameter, c ? ": " : "", c ? c->side[0].kernel : "");
    else if (strcmp(c->side[0].kernel, c->side[1].kernel) != 0) /* two different kernels are both named */
        kd_sb_printf(&title, "kerndiff: %s vs %s (%s)", c->side[0].kernel, c->side[1].kernel, c->arch);
    else
        kd_sb_printf(&title, "kerndiff: %s (%s)", c->side[0].kernel, c->arch);
    kd_html_begin(out, kd_sb_str(&title));
    kd_sb_free(&title);
    if (sweep)
        sweep_body(out, sweep, c);
    else
        comparison_body(out, c);
    kd_html_end(out);
}
