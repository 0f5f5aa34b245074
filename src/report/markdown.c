#include "report/report.h"

#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "diff/rows.h"
#include "report/autotune_text.h"
#include "report/gate_summary.h"
#include "report/kernels_text.h"
#include "report/launch_text.h"
#include "report/replay_text.h"
#include "report/metric_text.h"
#include "report/model_text.h"
#include "report/note_text.h"
#include "report/timing_text.h"
#include "report/sanitizer_text.h"
#include "report/regions_text.h"
#include "report/hotspots_report.h"
#include "report/resources_text.h"
#include "report/untrusted.h"

static void bullet(const char *text, void *out)
{
    kd_untrusted u = {0};
    fprintf(out, "  - %s\n", kd_untrusted_md_text(&u, text));
    kd_untrusted_free(&u);
}

/* "+3", "-12", "" for no change. */
static void format_delta(char *buf, size_t n, long v1, long v2)
{
    if (v1 == v2)
        snprintf(buf, n, "%s", "");
    else
        snprintf(buf, n, "%+ld", v2 - v1);
}

/* Backticks keep opcodes like `ld.global.v4.f32` literal in a pull-request comment. */
static void value_table(FILE *out, const char *title, const kd_value_row *rows, size_t n,
                        const kd_comparison *c)
{
    fprintf(out, "\n| %s | v1 | v2 | Δ |\n|---|---:|---:|---:|\n", title);
    for (size_t i = 0; i < n; i++) {
        const kd_static_result *a = &c->side[0].stat, *b = &c->side[1].stat;
        /* a value nobody reported is unknown, never 0, and has no delta */
        char v1[32], v2[32], delta[32] = "";
        kd_value_row_format(&rows[i], a, v1, sizeof v1);
        kd_value_row_format(&rows[i], b, v2, sizeof v2);
        if (kd_value_row_known(&rows[i], a) && kd_value_row_known(&rows[i], b))
            format_delta(delta, sizeof delta, rows[i].get(a), rows[i].get(b));
        const char *label = rows[i].label;
        while (*label == ' ')
            label++;
        fprintf(out, "| %s | %s | %s | %s |\n", label, v1, v2, delta);
    }
}

static void count_table(FILE *out, const char *title, const kd_count_table *t, bool all_rows)
{
    char delta[32];
    format_delta(delta, sizeof delta, t->total[0], t->total[1]);
    fprintf(out, "\n**%s**: %ld → %ld %s\n", title, t->total[0], t->total[1], delta);
    size_t shown = all_rows ? t->count : t->changed;
    if (shown == 0) {
        fprintf(out, "\nno change\n");
        return;
    }
    fprintf(out, "\n| instruction | v1 | v2 | Δ |\n|---|---:|---:|---:|\n");
    kd_untrusted u = {0}; /* opcodes of a user's PTX */
    for (size_t i = 0; i < shown; i++) {
        format_delta(delta, sizeof delta, t->rows[i].v1, t->rows[i].v2);
        fprintf(out, "| `%s` | %ld | %ld | %s |\n", kd_untrusted_md(&u, t->rows[i].key), t->rows[i].v1, t->rows[i].v2,
                delta);
    }
    kd_untrusted_free(&u);
    if (shown < t->count)
        fprintf(out, "\n%zu unchanged rows not shown.\n", t->count - shown);
}

static void occupancy_table(FILE *out, const kd_comparison *c)
{
    const kd_static_result *a = &c->side[0].stat, *b = &c->side[1].stat;
    kd_untrusted u = {0}; /* the arch may come from a saved document */
    const char *arch = kd_untrusted_md(&u, c->arch);
    if (c->limits && !kd_resources_known(c)) {
        kd_strbuf why = {0};
        kd_resources_unknown_text(c, &why);
        fprintf(out, "\nTheoretical occupancy not computed for %s: %s.\n", arch, kd_sb_str(&why));
        kd_sb_free(&why);
        kd_untrusted_free(&u);
        return;
    }
    if (!c->limits || !a->occupancy_valid || !b->occupancy_valid) {
        fprintf(out, "\nTheoretical occupancy not computed for %s.\n", arch);
        kd_untrusted_free(&u);
        return;
    }
    const kd_occupancy *x = &a->occupancy, *y = &b->occupancy;
    fprintf(out, "\n| occupancy (%s) | v1 | v2 |\n|---|---:|---:|\n", arch);
    kd_untrusted_free(&u);
    fprintf(out, "| block threads | %d | %d |\n", a->block_threads, b->block_threads);
    fprintf(out, "| shared/block (B, static + dynamic) | %ld | %ld |\n", a->shared_per_block, b->shared_per_block);
    fprintf(out, "| blocks/SM | %d | %d |\n", x->blocks_per_sm, y->blocks_per_sm);
    fprintf(out, "| warps/SM | %d | %d |\n", x->warps_per_sm, y->warps_per_sm);
    fprintf(out, "| occupancy | %.1f%% | %.1f%% |\n", 100 * x->occupancy, 100 * y->occupancy);
    fprintf(out, "| limited by | %s | %s |\n", kd_limiter_name(x->limiter), kd_limiter_name(y->limiter));
}

/* --launch: one bullet per side against the program's result, a difference in bold. */
static void replay_line(const char *line, bool good, void *out)
{
    kd_strbuf safe = {0};
    kd_sb_puts(&safe, line);
    kd_untrusted_fix_md(&safe);
    fprintf(out, "- %s%s%s\n", good ? "" : "**", kd_sb_str(&safe), good ? "" : "**");
    kd_sb_free(&safe);
}

static void timing_section(FILE *out, const kd_comparison *c)
{
    const kd_timing *t = &c->timing;
    kd_strbuf line = {0};
    kd_timing_headline(t, &line);
    kd_untrusted_fix_md(&line);
    fprintf(out, "\n**%s**\n\n", kd_sb_str(&line));
    kd_sb_free(&line);
    kd_timing_environment(t, c->simulated, &line); /* the GPU's name, maybe from a saved document */
    kd_untrusted_fix_md(&line);
    fprintf(out, "- %s\n", kd_sb_str(&line));
    kd_sb_free(&line);
    kd_timing_method(t, &line);
    fprintf(out, "- %s\n", kd_sb_str(&line));
    kd_sb_free(&line);
    kd_calibration_line(t, &line);
    if (line.len)
        fprintf(out, "- %s\n", kd_sb_str(&line));
    kd_sb_free(&line);
    kd_between_runs_line(t, &line);
    if (line.len)
        fprintf(out, "- %s\n", kd_sb_str(&line));
    kd_sb_free(&line);
    kd_timing_placement(t, &line);
    kd_untrusted_fix_md(&line);
    if (line.len)
        fprintf(out, "- %s\n", kd_sb_str(&line));
    kd_sb_free(&line);
    if (t->checked) {
        kd_correctness_line(t, &line);
        kd_untrusted_fix_md(&line);
        fprintf(out, "- %s%s%s\n", t->outputs_match ? "" : "**", kd_sb_str(&line), t->outputs_match ? "" : "**");
        kd_sb_free(&line);
        for (size_t i = 0; i < t->noutputs; i++) {
            kd_output_detail(&t->outputs[i], &line); /* names the buffer, from the user's source */
            kd_untrusted_fix_md(&line);
            fprintf(out, "  - %s\n", kd_sb_str(&line));
            kd_sb_free(&line);
        }
    }
    kd_replay_result_lines(c, replay_line, out); /* --launch: each side against the program's result */
    const kd_summary *s[2] = {&t->side[0].summary, &t->side[1].summary};
    fprintf(out, "\n| latency | v1 | v2 |\n|---|---:|---:|\n");
    const struct {
        const char *label;
        size_t offset;
    } rows[] = {
        {"min", offsetof(kd_summary, min)},   {"median", offsetof(kd_summary, median)},
        {"p95", offsetof(kd_summary, p95)},   {"mean", offsetof(kd_summary, mean)},
        {"stdev", offsetof(kd_summary, stdev)},
    };
    double times[2 * sizeof rows / sizeof *rows];
    for (size_t r = 0; r < sizeof rows / sizeof *rows; r++)
        for (int side = 0; side < 2; side++)
            times[2 * r + (size_t)side] = *(const double *)((const char *)s[side] + rows[r].offset);
    const kd_time_column col = kd_time_column_of(times, sizeof times / sizeof *times); /* one unit for the table */
    for (size_t r = 0; r < sizeof rows / sizeof *rows; r++) {
        char a[32], b[32];
        kd_format_ns_in(&col, times[2 * r], a, sizeof a);
        kd_format_ns_in(&col, times[2 * r + 1], b, sizeof b);
        fprintf(out, "| %s | %s | %s |\n", rows[r].label, a, b);
    }
    fprintf(out, "| CV | %.2f%% | %.2f%% |\n", 100 * s[0]->cv, 100 * s[1]->cv);
    fprintf(out, "| samples (outliers removed) | %zu (%zu) | %zu (%zu) |\n", s[0]->n, s[0]->outliers, s[1]->n,
            s[1]->outliers);
}

static void counters_section(FILE *out, const kd_comparison *c, const kd_render_options *o)
{
    const kd_counters *k = &c->counters;
    kd_strbuf line = {0};
    kd_counters_header(k, &line);
    fprintf(out, "\n**Counters** (%s)\n\n| metric | v1 | v2 | Δ | |\n|---|---:|---:|---:|---|\n", kd_sb_str(&line));
    kd_sb_free(&line);
    size_t hidden = 0;
    for (size_t m = 0; m < kd_metric_def_count; m++) {
        const kd_metric_delta *d = &k->delta[m];
        if (!d->comparable || (!d->changed && !o->all_metrics)) {
            hidden += d->comparable;
            continue;
        }
        const kd_metric_def *def = &kd_metric_defs[m];
        kd_row_cells cells;
        kd_row_cells_of(def->unit, d, &cells);
        kd_strbuf names = {0};
        if (o->metric_names) {
            kd_sb_puts(&names, " (`");
            kd_metric_ncu_names(def, &names);
            kd_sb_puts(&names, "`)");
        }
        fprintf(out, "| %s%s | %s | %s | %s | `%s`%s |\n", def->label, kd_sb_str(&names), cells.v1, cells.v2, cells.delta,
                d->symbol,
                d->noisy ? " ?" : "");
        kd_sb_free(&names);
    }
    kd_untrusted u = {0};
    for (size_t i = 0; i < k->nextras; i++) { /* --metrics, by ncu's name */
        kd_row_cells cells;
        kd_row_cells_of(k->extras[i].unit, &k->extras[i].delta, &cells);
        fprintf(out, "| `%s` | %s | %s | %s | `%s` |\n", kd_untrusted_md(&u, k->extras[i].name), cells.v1, cells.v2,
                cells.delta, kd_untrusted_md(&u, k->extras[i].delta.symbol));
    }
    if (hidden)
        fprintf(out, "\n%zu unchanged metrics not shown.\n", hidden);
    kd_duration_note(k, &line);
    if (line.len)
        fprintf(out, "\nNote: %s.\n", kd_sb_str(&line));
    kd_sb_free(&line);
    kd_missing_extra_note(k, &line);
    kd_untrusted_fix_md(&line);
    if (line.len)
        fprintf(out, "\nNote: %s.\n", kd_sb_str(&line));
    kd_sb_free(&line);
    kd_roofline_line(k, &line);
    fprintf(out, "\nRoofline: %s\n", kd_sb_str(&line));
    kd_sb_free(&line);
    if (o->advice && k->nadvice) {
        fprintf(out, "\n**Advice**\n\n");
        for (size_t i = 0; i < k->nadvice; i++)
            fprintf(out, "- %s\n", kd_untrusted_md_text(&u, k->advice[i]));
    }
    kd_untrusted_free(&u);
}

static void region_row(const char *name, const char *v1, const char *v2, const char *change, void *out)
{
    kd_untrusted u = {0}; /* region and group names come from the user's markers */
    fprintf(out, "| `%s` | %s | %s | %s |\n", kd_untrusted_md(&u, name), v1, v2, change);
    kd_untrusted_free(&u);
}

static void regions_section(FILE *out, const kd_comparison *c)
{
    kd_strbuf line = {0};
    kd_region_heading(c, &line);
    kd_untrusted_fix_md(&line);
    fprintf(out, "\n**Regions** (%s)\n\n| region | v1 | v2 | change |\n|---|---:|---:|---|\n", kd_sb_str(&line));
    kd_sb_free(&line);
    kd_region_table(c, region_row, out);
    kd_region_overhead(c, &line);
    kd_untrusted_fix_md(&line);
    fprintf(out, "\n%s\n", kd_sb_str(&line));
    kd_sb_free(&line);
}

/* A note's sentence after `lead` ("- ", a blank line), when there is one. */
static void note_line(FILE *out, const char *lead, const kd_note *n)
{
    kd_strbuf text = {0};
    if (kd_note_text(n, &text)) {
        kd_untrusted_fix_md(&text); /* notes quote --fn values and paths */
        fprintf(out, "%s%s\n", lead, kd_sb_str(&text));
    }
    kd_sb_free(&text);
}

/* One kernel's findings under a bold title. */
static void hotspots_section(FILE *out, const kd_comparison *c)
{
    if (c->hotspots.run)
        kd_hotspots_markdown(out, &c->hotspots.diff);
    if (c->hotspots.failure.step != KD_HS_STEP_NONE) {
        kd_strbuf sb = {0};
        kd_untrusted u = {0};
        kd_hotspots_failure_text(&sb, c->hotspots.failed_side ? "v2" : "v1", &c->hotspots.failure);
        fprintf(out, "- %s\n", kd_untrusted_md_text(&u, kd_sb_str(&sb)));
        kd_untrusted_free(&u);
        kd_sb_free(&sb);
    }
}

static void findings_list(FILE *out, const char *title, const kd_comparison *c)
{
    if (!c->finding_count)
        return;
    fprintf(out, "\n**%s**\n\n", title);
    for (size_t i = 0; i < c->finding_count; i++) {
        kd_strbuf finding = {0};
        kd_finding_text(&c->findings[i], &finding);
        kd_untrusted_fix_md(&finding);
        fprintf(out, "- %s\n", kd_sb_str(&finding));
        kd_sb_free(&finding);
    }
}

/* The folded static tables of one kernel's comparison, under `summary`. */
static void static_tables(FILE *out, const char *summary, const kd_comparison *c, const kd_render_options *o)
{
    const kd_side *a = &c->side[0], *b = &c->side[1];
    /* The long tables fold away: a pull-request comment shows the verdict first. */
    fprintf(out, "\n<details><summary>%s</summary>\n", summary);
    value_table(out, "resources (ptxas)", kd_resource_rows, kd_resource_row_count, c);
    occupancy_table(out, c);
    bool sass = a->stat.sass_present && b->stat.sass_present;
    if (sass)
        value_table(out, "checks (SASS)", kd_check_rows, kd_check_row_count, c);
    count_table(out, "PTX instructions by family", &c->ptx_families, o->all_rows);
    count_table(out, "PTX instructions", &c->ptx_ops, o->all_rows);
    if (sass) {
        count_table(out, "SASS instructions by family", &c->sass_families, o->all_rows);
        count_table(out, "SASS instructions", &c->sass_ops, o->all_rows);
    } else {
        note_line(out, "\n", &c->sass_note);
    }
    fprintf(out, "\n</details>\n");
}

/* A kernels_text.h sentence as a bullet. */
static void kernels_bullet(FILE *out, const char *lead, kd_strbuf *text)
{
    kd_untrusted_fix_md(text);
    fprintf(out, "%s%s\n", lead, kd_sb_str(text));
    kd_sb_free(text);
}

/* Several kernels compared statically (model.h's `kernels`): the files, the kernels only one
 * side has, why nothing was timed (once), then each kernel under its name. */
static void render_several(FILE *out, const kd_comparison *c, const kd_render_options *o)
{
    kd_untrusted u = {0};
    fprintf(out, "### kerndiff: %zu kernels (%s)\n\n", c->kernel_count, kd_untrusted_md(&u, c->arch));
    for (int s = 0; s < 2; s++)
        fprintf(out, "- %s: `%s`\n", kd_untrusted_md(&u, c->side[s].label),
                kd_untrusted_md(&u, c->side[s].origin ? c->side[s].origin : c->side[s].path));
    kd_strbuf line = {0};
    for (int s = 0; s < 2; s++)
        if (kd_kernels_only_text(c, s, &line))
            kernels_bullet(out, "- note: ", &line);
    note_line(out, "- note: ", &c->git_note);
    if (kd_kernels_timing_text(c, &line))
        kernels_bullet(out, "- ", &line);
    kd_sb_free(&line);
    for (size_t k = 0; k < c->kernel_count; k++) {
        const kd_comparison *one = &c->kernels[k];
        fprintf(out, "\n#### `%s` (`%s`)\n", kd_untrusted_md(&u, one->side[0].kernel),
                kd_untrusted_md(&u, one->side[0].stat.demangled));
        findings_list(out, "What changed", one);
        if (o->brief)
            continue;
        kd_strbuf launch = {0};
        kd_launch_block_text(one, "", &launch);
        kd_untrusted_fix_md(&launch); /* no backtick can end the fence */
        fprintf(out, "\n**Launch**\n\n```text\n%s```\n", kd_sb_str(&launch));
        kd_sb_free(&launch);
        static_tables(out, "Static analysis: resources, occupancy, instructions", one, o);
    }
    kd_untrusted_free(&u);
}

void kd_render_markdown(FILE *out, const kd_comparison *c, const kd_render_options *o)
{
    if (c->kernel_count) {
        render_several(out, c, o);
        return;
    }
    const kd_side *a = &c->side[0], *b = &c->side[1];
    /* Every string here is a file name, a kernel name, a value or a saved document's. */
    kd_untrusted u = {0};
    if (strcmp(a->kernel, b->kernel) == 0)
        fprintf(out, "### kerndiff: `%s` (%s)\n\n", kd_untrusted_md(&u, a->kernel), kd_untrusted_md(&u, c->arch));
    else /* two different kernels are both named */
        fprintf(out, "### kerndiff: `%s` vs `%s` (%s)\n\n", kd_untrusted_md(&u, a->kernel), kd_untrusted_md(&u, b->kernel),
                kd_untrusted_md(&u, c->arch));
    fprintf(out, "- v1: `%s` (`%s`)\n- v2: `%s` (`%s`)\n", kd_untrusted_md(&u, a->origin ? a->origin : a->path),
            kd_untrusted_md(&u, a->stat.demangled), kd_untrusted_md(&u, b->origin ? b->origin : b->path),
            kd_untrusted_md(&u, b->stat.demangled));
    for (int s = 0; s < 2; s++) {
        const char *label = kd_untrusted_md(&u, c->side[s].label);
        if (c->side[s].build_note)
            fprintf(out, "- %s build: %s\n", label, kd_untrusted_md_text(&u, c->side[s].build_note));
        kd_strbuf tune = {0};
        if (kd_autotune_text(&c->side[s].autotune, &tune))
            fprintf(out, "- %s %s\n", label, kd_untrusted_md_text(&u, kd_sb_str(&tune)));
        kd_sb_free(&tune);
    }
    note_line(out, "- note: ", &c->git_note);
    note_line(out, "- note: ", &c->selection_note);
    kd_strbuf launch = {0};
    kd_launch_block_text(c, "", &launch);
    kd_untrusted_fix_md(&launch); /* no backtick can end the fence */
    fprintf(out, "\n**Launch**\n\n```text\n%s```\n\n", kd_sb_str(&launch)); /* a fence: text stays literal */
    kd_sb_free(&launch);
    if (c->sanitize_tools) {
        kd_strbuf heading = {0};
        kd_sanitizer_heading(c, &heading);
        kd_untrusted_fix_md(&heading);
        fprintf(out, "- **%s**\n", kd_sb_str(&heading));
        kd_sb_free(&heading);
        kd_sanitizer_lines(c, bullet, out);
    }
    note_line(out, "- ", &c->runtime_note);
    kd_strbuf fault = {0};
    kd_fault_explained_text(c, &fault);
    if (fault.len)
        fprintf(out, "- %s\n", kd_untrusted_md_text(&u, kd_sb_str(&fault)));
    kd_sb_free(&fault);
    kd_untrusted_free(&u);
    if (c->timed)
        timing_section(out, c);
    if (kd_gate_asked(c)) {
        kd_strbuf gate = {0};
        bool bad = kd_gate_summary(c, &gate);
        kd_untrusted_fix_md(&gate);
        const char *line = kd_sb_str(&gate);
        while (*line) {
            size_t n = strcspn(line, "\n");
            fprintf(out, "\n%s %.*s\n", bad ? ":x:" : ":white_check_mark:", (int)n, line);
            line += n + (line[n] == '\n');
        }
        kd_sb_free(&gate);
    }
    if (c->counters.present && !o->brief) {
        fprintf(out, "\n<details><summary>Counters (Nsight Compute)</summary>\n");
        counters_section(out, c, o);
        fprintf(out, "\n</details>\n");
    } else {
        note_line(out, "- ", &c->counters_note);
    }
    if (c->regions_run)
        regions_section(out, c);
    else
        note_line(out, "- ", &c->regions_note);
    if (c->hotspots.asked)
        hotspots_section(out, c);
    findings_list(out, "What changed", c);
    if (o->brief)
        return;
    static_tables(out, "Static analysis: resources, occupancy, instructions", c, o);
}
