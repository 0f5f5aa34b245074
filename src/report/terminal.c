#include "report/report.h"

#include <stdlib.h>
#include <string.h>

#include "diff/rows.h"
#include "report/autotune_text.h"
#include "report/gate_summary.h"
#include "report/kernels_text.h"
#include "report/fit.h"
#include "report/launch_text.h"
#include "report/replay_text.h"
#include "report/metric_text.h"
#include "report/model_text.h"
#include "report/note_text.h"
#include "report/timing_text.h"
#include "report/regions_text.h"
#include "report/hotspots_report.h"
#include "report/resources_text.h"
#include "report/sanitizer_text.h"
#include "report/untrusted.h"

#define BOLD "\033[1m"
#define DIM "\033[2m"
#define RED "\033[31m"
#define GREEN "\033[32m"
#define YELLOW "\033[33m"
#define RESET "\033[0m"

static const char *paint(const kd_render_options *o, const char *code) { return o->color ? code : ""; }

static const char *delta_colour(const kd_render_options *o, kd_better better, long v1, long v2)
{
    if (!o->color || v1 == v2 || better == KD_BETTER_NEITHER)
        return "";
    bool improved = better == KD_BETTER_LOWER ? v2 < v1 : v2 > v1;
    return improved ? GREEN : RED;
}

static void heading(FILE *out, const kd_render_options *o, const char *title)
{
    fprintf(out, "\n%s%s%s\n", paint(o, BOLD), title, paint(o, RESET));
}

/* A section title over the v1/v2/delta columns of the rows below it. */
static void column_heading(FILE *out, const kd_render_options *o, const char *title, int label_width)
{
    if ((int)strlen(title) > label_width + 2) {
        fprintf(out, "\n%s%s%s", paint(o, BOLD), title, paint(o, RESET));
        title = "";
    }
    fprintf(out, "\n%s%-*s %10s %10s  %s%s\n", paint(o, BOLD), label_width + 2, title, "v1", "v2",
            "delta", paint(o, RESET));
}

/* label, v1, v2 and (when they differ) the delta in `colour`. */
static void number_row(FILE *out, const kd_render_options *o, const char *label, long v1, long v2,
                       const char *colour)
{
    fprintf(out, "  %-24s %10ld %10ld", label, v1, v2);
    if (v1 != v2)
        fprintf(out, "  %s%+ld%s", colour, v2 - v1, *colour ? paint(o, RESET) : "");
    fputc('\n', out);
}

static void value_row(FILE *out, const kd_render_options *o, const kd_value_row *row,
                      const kd_comparison *c)
{
    const kd_static_result *a = &c->side[0].stat, *b = &c->side[1].stat;
    if (kd_value_row_known(row, a) && kd_value_row_known(row, b)) {
        long v1 = row->get(a), v2 = row->get(b);
        number_row(out, o, row->label, v1, v2, delta_colour(o, row->better, v1, v2));
        return;
    }
    /* a value nobody reported is unknown, never 0; no delta against it */
    char v1[32], v2[32];
    kd_value_row_format(row, a, v1, sizeof v1);
    kd_value_row_format(row, b, v2, sizeof v2);
    fprintf(out, "  %-24s %10s %10s\n", row->label, v1, v2);
}

static void occupancy_rows(FILE *out, const kd_render_options *o, const kd_comparison *c)
{
    const kd_static_result *a = &c->side[0].stat, *b = &c->side[1].stat;
    kd_untrusted u = {0}; /* the arch and the origins may come from a saved document */
    const char *arch = kd_untrusted_name(&u, c->arch);
    char title[128];
    snprintf(title, sizeof title, "theoretical occupancy (%s)", arch);
    column_heading(out, o, title, 24);
    if (!c->limits) {
        fprintf(out, "  not computed: no limits table entry for %s\n", arch);
        kd_untrusted_free(&u);
        return;
    }
    fprintf(out, "  %-24s %10d %10d  %s(%s / %s)%s\n", "block threads", a->block_threads,
            b->block_threads, paint(o, DIM), kd_untrusted_name(&u, a->block_origin),
            kd_untrusted_name(&u, b->block_origin), paint(o, RESET));
    kd_untrusted_free(&u);
    if (!kd_resources_known(c)) {
        kd_strbuf why = {0};
        kd_resources_unknown_text(c, &why);
        fprintf(out, "  not computed: %s\n", kd_sb_str(&why));
        kd_sb_free(&why);
        return;
    }
    if (!a->occupancy_valid || !b->occupancy_valid) {
        const kd_static_result *bad = !a->occupancy_valid ? a : b;
        fprintf(out, "  not computed: %s %s\n", bad == a ? "v1" : "v2",
                bad->launcher ? "is a launcher (its kernels have their own launches)"
                              : "cannot launch with this block size and these resources");
        return;
    }
    const kd_occupancy *x = &a->occupancy, *y = &b->occupancy;
    number_row(out, o, "shared/block (B)", a->shared_per_block, b->shared_per_block, ""); /* static + dynamic */
    number_row(out, o, "blocks/SM", x->blocks_per_sm, y->blocks_per_sm, "");
    number_row(out, o, "warps/SM", x->warps_per_sm, y->warps_per_sm, "");
    double pp = 100.0 * (y->occupancy - x->occupancy);
    const char *colour = pp == 0 ? "" : paint(o, pp > 0 ? GREEN : RED);
    fprintf(out, "  %-24s %9.1f%% %9.1f%%", "occupancy", 100.0 * x->occupancy, 100.0 * y->occupancy);
    if (pp != 0)
        fprintf(out, "  %s%+.1fpp%s", colour, pp, paint(o, RESET));
    fputc('\n', out);
    fprintf(out, "  %-24s %10s %10s\n", "limited by", kd_limiter_name(x->limiter),
            kd_limiter_name(y->limiter));
}

static void count_table(FILE *out, const kd_render_options *o, const char *title,
                        const kd_count_table *t)
{
    char line[160];
    snprintf(line, sizeof line, "%s (total %ld -> %ld)", title, t->total[0], t->total[1]);
    column_heading(out, o, line, 24);
    size_t shown = o->all_rows ? t->count : t->changed;
    if (shown == 0)
        fprintf(out, "  no change\n");
    kd_untrusted u = {0}; /* opcodes of a user's PTX */
    for (size_t i = 0; i < shown; i++)
        number_row(out, o, kd_untrusted_name(&u, t->rows[i].key), t->rows[i].v1, t->rows[i].v2, "");
    kd_untrusted_free(&u);
    if (shown < t->count)
        fprintf(out, "  %s(%zu unchanged rows; --all-instructions shows them)%s\n", paint(o, DIM),
                t->count - shown, paint(o, RESET));
}

/* A latency row in the table's unit; with `relative`, the change in percent (negative: v2
 * takes less time). */
static void stat_row(FILE *out, const kd_time_column *col, const char *label, double a, double b, bool relative)
{
    char x[32], y[32];
    kd_format_ns_in(col, a, x, sizeof x);
    kd_format_ns_in(col, b, y, sizeof y);
    fprintf(out, "  %-24s %10s %10s", label, x, y);
    if (relative && a > 0)
        fprintf(out, "  %+.1f%%", 100 * (b - a) / a);
    fputc('\n', out);
}

typedef struct terminal_line {
    FILE *out;
    const kd_render_options *o;
} terminal_line;

static void replay_line(const char *line, bool good, void *ctx)
{
    const terminal_line *t = ctx;
    fprintf(t->out, "%s%s%s\n", paint(t->o, good ? GREEN : RED), line, paint(t->o, RESET));
}

/* --launch: each side against the program's own result. */
static void replay_lines(FILE *out, const kd_render_options *o, const kd_comparison *c)
{
    terminal_line t = {out, o};
    kd_replay_result_lines(c, replay_line, &t);
}

static void timing_section(FILE *out, const kd_render_options *o, const kd_comparison *c)
{
    const kd_timing *t = &c->timing;
    kd_strbuf line = {0};
    kd_timing_headline(t, &line);
    kd_untrusted_fix(&line);
    const char *colour = kd_timing_incorrect(t)              ? RED
                         : t->verdict == KD_VERDICT_FASTER ? GREEN
                         : t->verdict == KD_VERDICT_SLOWER ? RED
                                                           : "";
    fprintf(out, "\n%s%s%s%s\n", paint(o, BOLD), paint(o, colour), kd_sb_str(&line), paint(o, RESET));
    kd_sb_free(&line);
    kd_timing_environment(t, c->simulated, &line); /* the GPU's name, maybe from a saved document */
    kd_untrusted_fix(&line);
    fprintf(out, "  %s\n", kd_sb_str(&line));
    kd_sb_free(&line);
    kd_timing_method(t, &line);
    fprintf(out, "  %s\n", kd_sb_str(&line));
    kd_sb_free(&line);
    kd_calibration_line(t, &line);
    if (line.len)
        fprintf(out, "  %s\n", kd_sb_str(&line));
    kd_sb_free(&line);
    kd_between_runs_line(t, &line);
    if (line.len)
        fprintf(out, "  %s\n", kd_sb_str(&line));
    kd_sb_free(&line);
    kd_timing_placement(t, &line);
    kd_untrusted_fix(&line);
    if (line.len)
        fprintf(out, "  %s\n", kd_sb_str(&line));
    kd_sb_free(&line);
    if (t->checked) {
        kd_correctness_line(t, &line);
        kd_untrusted_fix(&line);
        fprintf(out, "%s%s%s\n", paint(o, t->outputs_match ? GREEN : RED), kd_sb_str(&line), paint(o, RESET));
        kd_sb_free(&line);
        for (size_t i = 0; i < t->noutputs; i++) {
            kd_output_detail(&t->outputs[i], &line); /* names the buffer, from the user's source */
            kd_untrusted_fix(&line);
            fprintf(out, "  %s\n", kd_sb_str(&line));
            kd_sb_free(&line);
        }
        kd_audit_line(t, &line);
        kd_untrusted_fix(&line);
        if (line.len)
            fprintf(out, "%s%s%s\n", paint(o, t->audit.failed ? RED : GREEN), kd_sb_str(&line), paint(o, RESET));
        kd_sb_free(&line);
    }
    kd_kernel_count_line(t, &line);
    if (line.len)
        fprintf(out, "%s%s%s\n", paint(o, RED), kd_sb_str(&line), paint(o, RESET));
    kd_sb_free(&line);
    replay_lines(out, o, c);

    const kd_summary *a = &t->side[0].summary, *b = &t->side[1].summary;
    column_heading(out, o, "latency per launch", 24);
    const double times[] = {a->min, a->p20, a->median, a->p80, a->p95, a->mean, a->stdev, a->iqr,
                            b->min, b->p20, b->median, b->p80, b->p95, b->mean, b->stdev, b->iqr};
    const kd_time_column col = kd_time_column_of(times, sizeof times / sizeof *times); /* one unit for the table */
    stat_row(out, &col, "min", a->min, b->min, true);
    stat_row(out, &col, "p20", a->p20, b->p20, true);
    stat_row(out, &col, "median", a->median, b->median, true);
    stat_row(out, &col, "p80", a->p80, b->p80, true);
    stat_row(out, &col, "p95", a->p95, b->p95, true);
    stat_row(out, &col, "mean", a->mean, b->mean, true);
    stat_row(out, &col, "stdev", a->stdev, b->stdev, false);
    stat_row(out, &col, "IQR", a->iqr, b->iqr, false);
    fprintf(out, "  %-24s %9.2f%% %9.2f%%\n", "CV", 100 * a->cv, 100 * b->cv);
    fprintf(out, "  %-24s %10zu %10zu\n", "samples kept", a->n, b->n);
    fprintf(out, "  %-24s %10zu %10zu\n", "outliers removed", a->outliers, b->outliers);
}

static void counter_row(FILE *out, const kd_render_options *o, size_t m, const kd_counters *c)
{
    const kd_metric_def *def = &kd_metric_defs[m];
    const kd_metric_delta *d = &c->delta[m];
    kd_row_cells cells;
    kd_row_cells_of(def->unit, d, &cells);
    bool better = d->symbol[0] == '+', worse = d->symbol[0] == '-';
    const char *colour = !d->changed || d->noisy ? "" : paint(o, better ? GREEN : worse ? RED : "");
    fprintf(out, "  %-28s %10s %10s  %9s %s%s%s%s", def->label, cells.v1, cells.v2, cells.delta, colour, d->symbol,
            *colour ? paint(o, RESET) : "", d->noisy ? " ?" : "");
    if (o->metric_names) {
        kd_strbuf names = {0};
        kd_metric_ncu_names(def, &names);
        fprintf(out, "  %s[%s]%s", paint(o, DIM), kd_sb_str(&names), paint(o, RESET));
        kd_sb_free(&names);
    }
    fputc('\n', out);
}

/* --metrics rows: named by ncu's metric name. */
static void extra_rows(FILE *out, const kd_render_options *o, const kd_counters *k)
{
    kd_strbuf line = {0};
    kd_missing_extra_note(k, &line);
    kd_untrusted_fix(&line);
    if (k->nextras)
        fprintf(out, "  %sextra metrics (--metrics)%s\n", paint(o, BOLD), paint(o, RESET));
    kd_untrusted u = {0}; /* --metrics values */
    for (size_t i = 0; i < k->nextras; i++) {
        kd_row_cells cells;
        kd_row_cells_of(k->extras[i].unit, &k->extras[i].delta, &cells);
        fprintf(out, "  %-28s %10s %10s  %9s %s\n", kd_untrusted_name(&u, k->extras[i].name), cells.v1, cells.v2,
                cells.delta, kd_untrusted_name(&u, k->extras[i].delta.symbol));
    }
    kd_untrusted_free(&u);
    if (line.len)
        fprintf(out, "  %snote: %s%s\n", paint(o, YELLOW), kd_sb_str(&line), paint(o, RESET));
    kd_sb_free(&line);
}

static void per_kernel(FILE *out, const kd_counters *c)
{
    long dur = kd_metric_index("duration"), bytes = kd_metric_index("dram_bytes");
    for (int s = 0; s < 2; s++) {
        fprintf(out, "  %s kernels:\n", s ? "v2" : "v1");
        for (size_t k = 0; k < c->side[s].nkernels; k++) {
            const kd_kernel_counters *kc = &c->side[s].kernels[k];
            char d[32] = "?", b[32] = "?";
            if (dur >= 0 && kc->values.present[dur])
                kd_format_metric(KD_UNIT_NS, kc->values.value[dur], d, sizeof d);
            if (bytes >= 0 && kc->values.present[bytes])
                kd_format_metric(KD_UNIT_BYTES, kc->values.value[bytes], b, sizeof b);
            kd_untrusted u = {0};
            fprintf(out, "    %-40.40s %10s %12s DRAM\n", kd_untrusted_name(&u, kc->name), d, b);
            kd_untrusted_free(&u);
        }
    }
}

static void counters_section(FILE *out, const kd_render_options *o, const kd_comparison *c)
{
    const kd_counters *k = &c->counters;
    fprintf(out, "\n%s%-30s %10s %10s  %9s%s\n", paint(o, BOLD), "counters", "v1", "v2", "delta", paint(o, RESET));
    kd_strbuf line = {0};
    kd_counters_header(k, &line);
    fprintf(out, "  %s%s%s\n", paint(o, DIM), kd_sb_str(&line), paint(o, RESET));
    kd_sb_free(&line);
    kd_duration_note(k, &line);
    if (line.len)
        fprintf(out, "  %snote: %s%s\n", paint(o, YELLOW), kd_sb_str(&line), paint(o, RESET));
    kd_sb_free(&line);
    if (k->side[0].nkernels != k->side[1].nkernels || k->side[0].nkernels > 1)
        fprintf(out, "  kernels per launch: %zu -> %zu (extensive metrics summed, intensive ones duration-weighted)\n",
                k->side[0].nkernels, k->side[1].nkernels);
    for (int g = 0; g < KD_GROUP_COUNT; g++) {
        size_t shown = 0, hidden = 0;
        for (int pass = 0; pass < 2; pass++) { /* changed rows first */
            for (size_t m = 0; m < kd_metric_def_count; m++) {
                const kd_metric_delta *d = &k->delta[m];
                if ((int)kd_metric_defs[m].group != g || !d->comparable || d->changed != (pass == 0))
                    continue;
                if (!d->changed && !o->all_metrics) {
                    hidden++;
                    continue;
                }
                if (shown++ == 0)
                    fprintf(out, "  %s%s%s\n", paint(o, BOLD), kd_group_name((kd_metric_group)g), paint(o, RESET));
                counter_row(out, o, m, k);
            }
        }
        if (hidden && shown)
            fprintf(out, "  %s(%zu unchanged; --all-metrics)%s\n", paint(o, DIM), hidden, paint(o, RESET));
        else if (hidden)
            fprintf(out, "  %s%s: %zu metrics unchanged%s\n", paint(o, DIM), kd_group_name((kd_metric_group)g), hidden,
                    paint(o, RESET));
    }
    extra_rows(out, o, k);
    if (o->per_kernel)
        per_kernel(out, k);
    kd_roofline_line(k, &line);
    fprintf(out, "  roofline: %s\n", kd_sb_str(&line));
    kd_sb_free(&line);
    if (o->advice && k->nadvice) {
        heading(out, o, "advice");
        kd_untrusted u = {0}; /* read back from a saved document too */
        for (size_t i = 0; i < k->nadvice; i++)
            fprintf(out, "  * %s\n", kd_untrusted_text(&u, k->advice[i]));
        kd_untrusted_free(&u);
    }
}

static void launch_block(FILE *out, const kd_render_options *o, const kd_comparison *c)
{
    heading(out, o, "launch");
    kd_strbuf text = {0};
    kd_launch_block_text(c, "  ", &text);
    kd_untrusted_fix(&text);
    fputs(kd_sb_str(&text), out);
    kd_sb_free(&text);
}

static void print_indented(const char *text, void *out)
{
    kd_untrusted u = {0};
    fprintf(out, "  %s\n", kd_untrusted_text(&u, text));
    kd_untrusted_free(&u);
}

static void sanitizer_section(FILE *out, const kd_render_options *o, const kd_comparison *c)
{
    kd_strbuf line = {0};
    kd_sanitizer_heading(c, &line);
    kd_untrusted_fix(&line);
    fprintf(out, "%s%s%s\n", paint(o, BOLD), kd_sb_str(&line), paint(o, RESET));
    kd_sb_free(&line);
    kd_sanitizer_lines(c, print_indented, out);
}

static void region_row(const char *name, const char *v1, const char *v2, const char *change, void *out)
{
    kd_untrusted u = {0}; /* region and group names come from the user's markers */
    fprintf(out, "  %-20s %24s %24s  %s\n", kd_untrusted_name(&u, name), v1, v2, change);
    kd_untrusted_free(&u);
}

static void regions_section(FILE *out, const kd_render_options *o, const kd_comparison *c)
{
    kd_strbuf line = {0};
    kd_region_heading(c, &line);
    kd_untrusted_fix(&line);
    heading(out, o, kd_sb_str(&line));
    kd_sb_free(&line);
    fprintf(out, "  %-20s %24s %24s  %s\n", "", "v1", "v2", "change");
    kd_region_table(c, region_row, out);
    kd_region_overhead(c, &line);
    kd_untrusted_fix(&line);
    fprintf(out, "  %s\n", kd_sb_str(&line));
    kd_sb_free(&line);
}

static void hotspots_section(FILE *out, const kd_render_options *o, const kd_comparison *c)
{
    if (c->hotspots.run)
        kd_hotspots_terminal(out, &c->hotspots.diff, o->color);
    if (c->hotspots.failure.step != KD_HS_STEP_NONE) {
        kd_strbuf sb = {0};
        kd_hotspots_failure_text(&sb, c->hotspots.failed_side ? "v2" : "v1", &c->hotspots.failure);
        fprintf(out, "\n%s%s%s\n", paint(o, YELLOW), kd_sb_str(&sb), paint(o, RESET));
        kd_sb_free(&sb);
    }
}

static void findings_section(FILE *out, const kd_render_options *o, const kd_comparison *c)
{
    if (!c->finding_count)
        return;
    heading(out, o, "what changed");
    for (size_t i = 0; i < c->finding_count; i++) {
        kd_strbuf finding = {0};
        kd_finding_text(&c->findings[i], &finding);
        kd_untrusted_fix(&finding);
        fprintf(out, "  * %s\n", kd_sb_str(&finding));
        kd_sb_free(&finding);
    }
}

static void gate_line(FILE *out, const kd_render_options *o, const kd_comparison *c)
{
    if (!kd_gate_asked(c))
        return;
    kd_strbuf gate = {0};
    bool bad = kd_gate_summary(c, &gate);
    kd_untrusted_fix(&gate);
    /* each line painted on its own, so a colour never spans a line break */
    const char *line = kd_sb_str(&gate);
    while (*line) {
        size_t n = strcspn(line, "\n");
        fprintf(out, "%s%.*s%s\n", paint(o, bad ? RED : GREEN), (int)n, line, paint(o, RESET));
        line += n + (line[n] == '\n');
    }
    kd_sb_free(&gate);
}

/* A note's sentence on a line of its own: `lead` (indent, a blank line), then in `colour`
 * (NULL: none) `label` and the sentence. Nothing when there is no note. */
static void note_line(FILE *out, const kd_render_options *o, const char *lead, const char *colour, const char *label,
                      const kd_note *n)
{
    kd_strbuf text = {0};
    if (kd_note_text(n, &text)) {
        kd_untrusted_fix(&text); /* notes quote --fn values and paths */
        fprintf(out, "%s%s%s%s%s\n", lead, colour ? paint(o, colour) : "", label, kd_sb_str(&text),
                colour ? paint(o, RESET) : "");
    }
    kd_sb_free(&text);
}

/* A sentence of kernels_text.h on a line of its own, after `lead`, in `colour` (NULL: none). */
static void kernels_line(FILE *out, const kd_render_options *o, const char *lead, const char *colour, kd_strbuf *text)
{
    fprintf(out, "%s%s%s%s\n", lead, colour ? paint(o, colour) : "", kd_sb_str(text), colour ? paint(o, RESET) : "");
    kd_sb_free(text);
}

/* --brief of several kernels: why nothing was timed, then what changed in each. */
static void brief_several(FILE *out, const kd_render_options *o, const kd_comparison *c)
{
    kd_strbuf line = {0};
    if (kd_kernels_timing_text(c, &line))
        kernels_line(out, o, "", YELLOW, &line);
    kd_sb_free(&line);
    kd_untrusted u = {0};
    for (size_t k = 0; k < c->kernel_count; k++) {
        if (!c->kernels[k].finding_count)
            continue;
        fprintf(out, "%s%s%s", paint(o, BOLD), kd_untrusted_name(&u, c->kernels[k].side[0].kernel), paint(o, RESET));
        findings_section(out, o, &c->kernels[k]);
    }
    kd_untrusted_free(&u);
    gate_line(out, o, c);
}

/* --brief: what a pull request or an agent needs first, in a few lines. */
static void brief(FILE *out, const kd_render_options *o, const kd_comparison *c)
{
    if (c->kernel_count) {
        brief_several(out, o, c);
        return;
    }
    kd_strbuf line = {0};
    if (c->timed) {
        kd_timing_headline(&c->timing, &line);
        kd_untrusted_fix(&line);
        fprintf(out, "%s%s%s\n", paint(o, BOLD), kd_sb_str(&line), paint(o, RESET));
        kd_sb_free(&line);
        if (c->timing.checked) {
            kd_correctness_line(&c->timing, &line);
            kd_untrusted_fix(&line);
            fprintf(out, "%s%s%s\n", paint(o, c->timing.outputs_match ? GREEN : RED), kd_sb_str(&line), paint(o, RESET));
            kd_sb_free(&line);
        }
        replay_lines(out, o, c);
    }
    note_line(out, o, "", YELLOW, "", &c->runtime_note);
    kd_untrusted u = {0};
    kd_strbuf fault = {0};
    kd_fault_explained_text(c, &fault);
    if (fault.len)
        fprintf(out, "  %s\n", kd_untrusted_text(&u, kd_sb_str(&fault)));
    kd_sb_free(&fault);
    kd_untrusted_free(&u);
    if (c->sanitize_tools)
        sanitizer_section(out, o, c);
    gate_line(out, o, c);
    findings_section(out, o, c);
}

static void static_sections(FILE *out, const kd_render_options *o, const kd_comparison *c);
static void render_several(FILE *out, const kd_render_options *o, const kd_comparison *c);

static void render_terminal(FILE *out, const kd_comparison *c, const kd_render_options *o);

typedef struct terminal_job {
    const kd_comparison *c;
    const kd_render_options *o;
} terminal_job;

static void render_job(FILE *out, const void *ctx)
{
    const terminal_job *job = ctx;
    render_terminal(out, job->c, job->o);
}

/* The report within the terminal's width (report/fit.h), or whole with --verbose. */
void kd_render_terminal(FILE *out, const kd_comparison *c, const kd_render_options *o)
{
    kd_render_options fitted = *o;
    fitted.width = o->full ? 0 : kd_fit_width(out);
    terminal_job job = {c, &fitted};
    kd_fit_render(out, o->full, render_job, &job);
}

static void render_terminal(FILE *out, const kd_comparison *c, const kd_render_options *o)
{
    if (o->brief) {
        brief(out, o, c);
        return;
    }
    if (c->kernel_count) {
        render_several(out, o, c);
        return;
    }
    const kd_side *a = &c->side[0], *b = &c->side[1];
    /* Every string here is a file name, a kernel name, a value or a saved document's. */
    kd_untrusted u = {0};
    /* two different kernels are both named, never a blank */
    bool one_kernel = strcmp(a->kernel, b->kernel) == 0;
    fprintf(out, "%skerndiff%s %s%s%s   arch %s (%s)\n", paint(o, BOLD), paint(o, RESET), kd_untrusted_name(&u, a->kernel),
            one_kernel ? "" : " vs ", one_kernel ? "" : kd_untrusted_name(&u, b->kernel), kd_untrusted_name(&u, c->arch),
            kd_untrusted_name(&u, c->arch_origin));
    for (int s = 0; s < 2; s++) {
        const kd_side *side = &c->side[s];
        const char *label = kd_untrusted_name(&u, side->label);
        const char *cached = side->build.from_cache ? "  (cached build)" : "";
        /* A long signature elided in the middle to fit a line of its own (report/fit.h) */
        kd_strbuf signature = {0};
        const char *demangled = kd_untrusted_name(&u, side->stat.demangled);
        size_t taken = 4 + kd_fit_columns(label, strlen(label)) + 2 + strlen(cached);
        if (o->width && (size_t)o->width > taken + 24)
            kd_fit_elide(demangled, strlen(demangled), (size_t)o->width - taken, &signature);
        else
            kd_sb_puts(&signature, demangled);
        fprintf(out, "  %s: %s  [%s]%s\n", label, kd_untrusted_name(&u, side->origin ? side->origin : side->path),
                kd_sb_str(&signature), cached);
        kd_sb_free(&signature);
        /* How its compiler was driven (Triton: num_warps, num_stages, constexprs, config). */
        if (side->build_note)
            fprintf(out, "      %s\n", kd_untrusted_text(&u, side->build_note));
        kd_strbuf tune = {0};
        if (kd_autotune_text(&side->autotune, &tune))
            fprintf(out, "      %s\n", kd_untrusted_text(&u, kd_sb_str(&tune)));
        kd_sb_free(&tune);
        if (side->build.note)
            fprintf(out, "  %snote: %s: %s%s\n", paint(o, YELLOW), label, kd_untrusted_text(&u, side->build.note),
                    paint(o, RESET));
    }
    note_line(out, o, "  ", YELLOW, "note: ", &c->git_note);
    note_line(out, o, "  ", NULL, "note: ", &c->selection_note);
    /* The verdict first (issue 41): a timed run's launch follows its timing; an untimed one's
       comes here, where it says why nothing could be launched. */
    if (!c->timed)
        launch_block(out, o, c);
    if (c->sanitize_tools)
        sanitizer_section(out, o, c);
    note_line(out, o, "", YELLOW, "", &c->runtime_note);
    kd_strbuf fault = {0};
    kd_fault_explained_text(c, &fault);
    if (fault.len)
        fprintf(out, "%s  %s%s\n", paint(o, YELLOW), kd_untrusted_text(&u, kd_sb_str(&fault)), paint(o, RESET));
    kd_sb_free(&fault);
    kd_untrusted_free(&u);
    if (c->timed)
        timing_section(out, o, c);
    gate_line(out, o, c);
    if (c->timed)
        launch_block(out, o, c);
    if (c->counters.present)
        counters_section(out, o, c);
    else
        note_line(out, o, "\n", YELLOW, "", &c->counters_note);

    if (c->regions_run)
        regions_section(out, o, c);
    else
        note_line(out, o, "\n", YELLOW, "", &c->regions_note);
    if (c->hotspots.asked)
        hotspots_section(out, o, c);

    findings_section(out, o, c);
    static_sections(out, o, c);
    fprintf(out, "%s(static counts: each instruction once, however often it runs)%s\n", paint(o, DIM),
            paint(o, RESET));
}

/* Several kernels compared statically (model.h's `kernels`): the files, the kernels only one
 * side has, why nothing was timed (once), then each kernel's launch, findings and static
 * sections under its name. */
static void render_several(FILE *out, const kd_render_options *o, const kd_comparison *c)
{
    kd_untrusted u = {0};
    kd_strbuf line = {0};
    kd_kernels_heading(c, &line);
    fprintf(out, "%skerndiff%s %s   arch %s (%s)\n", paint(o, BOLD), paint(o, RESET), kd_sb_str(&line),
            kd_untrusted_name(&u, c->arch), kd_untrusted_name(&u, c->arch_origin));
    kd_sb_free(&line);
    for (int s = 0; s < 2; s++) {
        const kd_side *side = &c->side[s];
        fprintf(out, "  %s: %s%s\n", kd_untrusted_name(&u, side->label),
                kd_untrusted_name(&u, side->origin ? side->origin : side->path),
                side->build.from_cache ? "  (cached build)" : "");
    }
    for (int s = 0; s < 2; s++)
        if (kd_kernels_only_text(c, s, &line))
            kernels_line(out, o, "  note: ", NULL, &line);
    note_line(out, o, "  ", YELLOW, "note: ", &c->git_note);
    if (kd_kernels_timing_text(c, &line))
        kernels_line(out, o, "", YELLOW, &line);
    gate_line(out, o, c);
    for (size_t k = 0; k < c->kernel_count; k++) {
        const kd_comparison *one = &c->kernels[k];
        fprintf(out, "\n%s== %s ==%s  [%s]\n", paint(o, BOLD), kd_untrusted_name(&u, one->side[0].kernel),
                paint(o, RESET), kd_untrusted_name(&u, one->side[0].stat.demangled));
        launch_block(out, o, one);
        findings_section(out, o, one);
        static_sections(out, o, one);
    }
    kd_untrusted_free(&u);
    fprintf(out, "%s(static counts: each instruction once, however often it runs)%s\n", paint(o, DIM),
            paint(o, RESET));
}

/* The static half of one kernel's comparison: resources, occupancy, SASS checks, the
 * instruction tables, why SASS is missing. */
static void static_sections(FILE *out, const kd_render_options *o, const kd_comparison *c)
{
    const kd_side *a = &c->side[0], *b = &c->side[1];
    column_heading(out, o, "resources (ptxas)", 24);
    for (size_t i = 0; i < kd_resource_row_count; i++)
        value_row(out, o, &kd_resource_rows[i], c);
    occupancy_rows(out, o, c);

    if (a->stat.sass_present && b->stat.sass_present) {
        column_heading(out, o, "checks (SASS)", 24);
        for (size_t i = 0; i < kd_check_row_count; i++)
            value_row(out, o, &kd_check_rows[i], c);
    }
    count_table(out, o, "PTX instructions by family", &c->ptx_families);
    count_table(out, o, "PTX instructions", &c->ptx_ops);
    if (a->stat.sass_present && b->stat.sass_present) {
        count_table(out, o, "SASS instructions by family", &c->sass_families);
        count_table(out, o, "SASS instructions", &c->sass_ops);
    }
    note_line(out, o, "\n", NULL, "", &c->sass_note);
}
