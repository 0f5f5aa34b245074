/* app_text.c — the terminal and Markdown views of `kerndiff app`, and the sentences and
 * cells every view of it shares (app_report.h: the HTML page takes them too). Terminal and
 * Markdown are built from the same tables of cells (one function per section); only the
 * table printer differs, so the two cannot disagree on a figure. */
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "report/app_capture.h"
#include "report/app_report.h"
#include "report/timing_text.h"
#include "util/strbuf.h"
#include "util/text.h"
#include "util/xalloc.h"

enum { MAX_COLS = 10, NAME_WIDTH = 64 };

const char kd_app_change_note[] = "change: v2 against v1; * where the 95% CI excludes no change. Kernel times are "
                                  "sums of kernel durations (concurrent kernels count in full).";

typedef struct table {
    int ncols;
    char **cells; /* row-major, header first */
    size_t ncells, cap;
} table;

static void cell(table *t, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void cell(table *t, const char *fmt, ...)
{
    if (t->ncells == t->cap) {
        size_t cap = t->cap ? t->cap * 2 : 64;
        t->cells = kd_xrealloc(t->cells, cap * sizeof *t->cells);
        t->cap = cap;
    }
    va_list ap;
    va_start(ap, fmt);
    t->cells[t->ncells++] = kd_xvasprintf(fmt, ap);
    va_end(ap);
}

/* Text from the user's program (a kernel or API name): control characters written out;
 * for Markdown, in a code span ('|' and '`' written out); in the terminal, long names cut. */
static void name_cell(table *t, const char *name, bool markdown)
{
    kd_strbuf sb = {0};
    kd_escape_text(name, strlen(name), KD_ESCAPE_LINES | (markdown ? KD_ESCAPE_MARKDOWN : 0), &sb);
    const char *text = kd_sb_str(&sb);
    if (markdown) /* in a code span: outside one, Markdown acts on `<img onerror=..>` and `[x](javascript:..)` */
        cell(t, "`%s`", text);
    else if (strlen(text) > NAME_WIDTH)
        cell(t, "%.*s...", NAME_WIDTH - 3, text);
    else
        cell(t, "%s", text);
    kd_sb_free(&sb);
}

static void print_table(FILE *out, table *t, bool markdown, const char *indent)
{
    size_t width[MAX_COLS] = {0};
    for (size_t i = 0; i < t->ncells; i++) {
        size_t n = t->cells[i] ? strlen(t->cells[i]) : 0;
        if (n > width[i % (size_t)t->ncols])
            width[i % (size_t)t->ncols] = n;
    }
    for (size_t i = 0; i < t->ncells; i++) {
        size_t col = i % (size_t)t->ncols;
        const char *s = t->cells[i] ? t->cells[i] : "";
        if (markdown)
            fprintf(out, "%s %s ", col ? "" : "|", s);
        else
            fprintf(out, "%s%-*s", col ? "  " : indent, col + 1 == (size_t)t->ncols ? 0 : (int)width[col], s);
        if (col + 1 == (size_t)t->ncols) {
            fputs(markdown ? "|\n" : "\n", out);
            if (markdown && i + 1 == (size_t)t->ncols) {
                for (int c = 0; c < t->ncols; c++)
                    fputs(c ? "---|" : "|---|", out);
                fputc('\n', out);
            }
        } else if (markdown) {
            fputc('|', out);
        }
    }
    for (size_t i = 0; i < t->ncells; i++)
        free(t->cells[i]);
    free(t->cells);
    memset(t, 0, sizeof *t);
}

void kd_app_value_text(char *buf, size_t n, double v, kd_app_unit unit)
{
    if (unit == KD_APP_UNIT_NS) {
        if (v >= 1e9)
            snprintf(buf, n, "%.3f s", v / 1e9);
        else if (v >= 1e6)
            snprintf(buf, n, "%.3f ms", v / 1e6);
        else if (v >= 1e3)
            snprintf(buf, n, "%.2f us", v / 1e3);
        else
            snprintf(buf, n, "%.0f ns", v);
    } else if (unit == KD_APP_UNIT_BYTES) {
        const char *units[] = {"B", "KiB", "MiB", "GiB", "TiB"};
        int u = 0;
        while (v >= 1024 && u < 4)
            v /= 1024, u++;
        snprintf(buf, n, u ? "%.1f %s" : "%.0f %s", v, units[u]);
    } else {
        snprintf(buf, n, v == (long long)v ? "%.0f" : "%.3g", v);
    }
}

void kd_app_change_text(char *buf, size_t n, const kd_app_change *ch, bool present_v1, bool present_v2)
{
    if (!present_v1 || !present_v2)
        snprintf(buf, n, "%s", present_v1 ? "gone" : present_v2 ? "new" : "");
    else if (!ch->has_ratio)
        snprintf(buf, n, ch->v[0] == ch->v[1] ? "=" : "-");
    else if (ch->has_ci)
        snprintf(buf, n, "%+.1f%% [%+.1f, %+.1f]%s", (1 / ch->ratio.ratio - 1) * 100, (1 / ch->ratio.hi - 1) * 100,
                 (1 / ch->ratio.lo - 1) * 100, ch->verdict == KD_VERDICT_NO_DIFFERENCE ? "" : " *");
    else
        snprintf(buf, n, "%+.1f%%", (1 / ch->ratio.ratio - 1) * 100);
}

bool kd_app_total_row(const kd_app_comparison *c, int id, kd_app_total_cells *out)
{
    if (id == KD_APP_WALL_NS && (c->sides[0].profile || c->sides[1].profile))
        return false;
    const kd_app_total_info *info = &kd_app_total_infos[id];
    const kd_app_change *ch = &c->totals[id];
    out->label = info->label;
    for (int s = 0; s < 2; s++) {
        kd_app_value_text(out->v[s], sizeof out->v[s], ch->v[s], info->unit);
        out->per_step[s][0] = '\0';
        if (info->per_step)
            kd_app_value_text(out->per_step[s], sizeof out->per_step[s], ch->per_step[s], info->unit);
    }
    kd_app_change_text(out->change, sizeof out->change, ch, true, true);
    return true;
}

void kd_app_kernel_row(const kd_app_row *r, kd_app_kernel_cells *out)
{
    for (int s = 0; s < 2; s++) {
        if (!r->present[s]) {
            strcpy(out->launches[s], "-");
            strcpy(out->time[s], "-");
            strcpy(out->mean[s], "-");
            continue;
        }
        kd_app_value_text(out->launches[s], sizeof out->launches[s], r->launches[s], KD_APP_UNIT_COUNT);
        kd_app_value_text(out->time[s], sizeof out->time[s], r->time.v[s], KD_APP_UNIT_NS);
        kd_app_value_text(out->mean[s], sizeof out->mean[s], r->mean_ns[s], KD_APP_UNIT_NS);
    }
    kd_app_change_text(out->change, sizeof out->change, &r->time, r->present[0], r->present[1]);
    snprintf(out->share, sizeof out->share, "%.1f%% / %.1f%%", r->share[0] * 100, r->share[1] * 100);
    int s = r->present[1] ? 1 : 0;
    out->config_of_v1 = s == 0;
    kd_app_config_text(out->config, sizeof out->config, &r->config[s], r->nconfigs[s]);
}

void kd_app_config_text(char *buf, size_t n, const kd_app_config *g, size_t nconfigs)
{
    int len = snprintf(buf, n, "(%d,%d,%d)x(%d,%d,%d) %ur", g->grid[0], g->grid[1], g->grid[2], g->block[0],
                       g->block[1], g->block[2], g->registers);
    if (len > 0 && (size_t)len < n && g->static_smem + g->dynamic_smem)
        len += snprintf(buf + len, n - (size_t)len, " %dB smem", g->static_smem + g->dynamic_smem);
    if (len > 0 && (size_t)len < n && nconfigs > 1)
        snprintf(buf + len, n - (size_t)len, " +%zu more", nconfigs - 1);
}

void kd_app_side_text(const kd_app_comparison *c, int s, kd_strbuf *out)
{
    const kd_app_side *side = &c->sides[s];
    if (side->profile) {
        kd_sb_puts(out, "nsys profile");
    } else {
        size_t ok = 0;
        for (size_t r = 0; r < side->nruns; r++)
            ok += side->runs[r].exit_code == 0 && side->runs[r].signal == 0;
        char wall[32];
        kd_app_value_text(wall, sizeof wall, c->totals[KD_APP_WALL_NS].v[s], KD_APP_UNIT_NS);
        kd_sb_printf(out, "exit 0 in %zu of %zu runs, wall time %s (median)", ok, side->nruns, wall);
    }
    if (c->unavailable[s])
        kd_sb_printf(out, "; collection could not start in %zu process%s (CUPTI refused: another profiler?), totals "
                          "are incomplete", c->unavailable[s], c->unavailable[s] == 1 ? "" : "es");
    else if (!c->gpu[s])
        kd_sb_puts(out, "; no GPU activity (the program never initialised CUDA)");
    if (c->lost[s])
        kd_sb_printf(out, "; %llu activity records lost (totals are low)", (unsigned long long)c->lost[s]);
}

static void side_summary(FILE *out, const kd_app_comparison *c, int s, bool markdown)
{
    kd_strbuf label = {0}, text = {0};
    kd_escape_text(c->sides[s].label, strlen(c->sides[s].label), KD_ESCAPE_LINES | (markdown ? KD_ESCAPE_MARKDOWN : 0),
                   &label);
    kd_app_side_text(c, s, &text);
    fprintf(out, markdown ? "- **v%d**: `%s` — %s\n" : "  v%d: %s — %s\n", s + 1, kd_sb_str(&label), kd_sb_str(&text));
    kd_sb_free(&label);
    kd_sb_free(&text);
}

void kd_app_headline(const kd_app_comparison *c, kd_strbuf *verdict, kd_strbuf *rest)
{
    const kd_app_change *t = &c->totals[KD_APP_KERNEL_NS];
    char a[32], b[32];
    kd_app_value_text(a, sizeof a, t->v[0], KD_APP_UNIT_NS);
    kd_app_value_text(b, sizeof b, t->v[1], KD_APP_UNIT_NS);
    if (!t->has_ratio) {
        kd_sb_printf(verdict, "GPU kernel time %s -> %s", a, b);
        kd_sb_puts(rest, ": no ratio (a side has no kernel time)");
    } else if (!t->has_ci) {
        kd_sb_printf(verdict, "v2 takes %.3fx the GPU kernel time of v1 (%s -> %s)", 1 / t->ratio.ratio, a, b);
        kd_sb_puts(rest, "; one run a side: no confidence interval");
    } else if (t->verdict == KD_VERDICT_NO_DIFFERENCE) {
        kd_sb_printf(verdict, "no significant difference in GPU kernel time (%s -> %s, v1/v2 %.3fx, 95%% CI %.3f-%.3fx)",
                     a, b, t->ratio.ratio, t->ratio.lo, t->ratio.hi);
    } else {
        double shown = t->verdict == KD_VERDICT_FASTER ? t->ratio.ratio : 1 / t->ratio.ratio;
        /* digits enough to show the change (a 0.3% change is 1.003x, never 1.00x) */
        kd_sb_printf(verdict, "v2 is %.*fx %s in GPU kernel time (%s -> %s, 95%% CI %.3f-%.3fx)",
                     t->verdict == KD_VERDICT_FASTER ? kd_ratio_decimals(shown, t->ratio.lo, t->ratio.hi)
                                                     : kd_ratio_decimals(shown, 1 / t->ratio.hi, 1 / t->ratio.lo),
                     shown,
                     t->verdict == KD_VERDICT_FASTER ? "faster" : "slower", a, b, t->ratio.lo, t->ratio.hi);
    }
}

static void headline(FILE *out, const kd_app_comparison *c, bool markdown)
{
    kd_strbuf verdict = {0}, rest = {0};
    kd_app_headline(c, &verdict, &rest);
    const char *bold = markdown ? "**" : "";
    fprintf(out, "%s%s%s%s\n", bold, kd_sb_str(&verdict), bold, kd_sb_str(&rest));
    kd_sb_free(&verdict);
    kd_sb_free(&rest);
}

size_t kd_app_only_in(const kd_app_comparison *c, int s)
{
    size_t only = 0;
    for (size_t i = 0; i < c->nrows; i++)
        only += c->rows[i].present[s] && !c->rows[i].present[1 - s];
    return only;
}

static void totals_section(FILE *out, const kd_app_comparison *c, bool markdown)
{
    table t = {.ncols = c->steps > 0 ? 6 : 4};
    cell(&t, "totals (median per run)");
    cell(&t, "v1");
    cell(&t, "v2");
    cell(&t, "change [95%% CI]");
    if (c->steps > 0) {
        cell(&t, "per step v1");
        cell(&t, "per step v2");
    }
    for (int id = 0; id < KD_APP_TOTALS; id++) {
        kd_app_total_cells row;
        if (!kd_app_total_row(c, id, &row))
            continue;
        cell(&t, "%s", row.label);
        cell(&t, "%s", row.v[0]);
        cell(&t, "%s", row.v[1]);
        cell(&t, "%s", row.change);
        if (c->steps > 0) {
            cell(&t, "%s", row.per_step[0]);
            cell(&t, "%s", row.per_step[1]);
        }
    }
    print_table(out, &t, markdown, "  ");
}

/* The commands that capture the top kernels (report/app_capture.h), one per line under the
 * table: in the terminal for the first TERMINAL_CAPTURES kernels shown, in Markdown for every
 * kernel shown, each a code span (its fence longer than any backtick run inside, so the
 * command reads as it is copied). */
enum { TERMINAL_CAPTURES = 3 };
static void capture_lines(FILE *out, const kd_app_comparison *c, size_t shown, bool markdown)
{
    size_t most = markdown || shown < TERMINAL_CAPTURES ? shown : TERMINAL_CAPTURES;
    bool opened = false;
    for (size_t i = 0; i < most; i++) {
        kd_strbuf cmd = {0}, text = {0};
        if (kd_app_capture_command(c, &c->rows[i], &cmd)) {
            if (!opened)
                fputs(markdown ? "\nTo compare a kernel's versions on the program's own launch, capture it, then "
                                 "`kerndiff --launch FILE v1.cu v2.cu`:\n\n"
                               : "  capture a kernel's launch (then kerndiff --launch FILE v1.cu v2.cu):\n",
                      out);
            opened = true;
            kd_escape_text(kd_sb_str(&cmd), cmd.len, KD_ESCAPE_LINES, &text);
            if (markdown) {
                size_t run = 0, longest = 0;
                for (const char *p = kd_sb_str(&text); *p; p++)
                    longest = (run = *p == '`' ? run + 1 : 0) > longest ? run : longest;
                kd_strbuf fence = {0};
                for (size_t k = 0; k <= longest; k++)
                    kd_sb_puts(&fence, "`");
                fprintf(out, "- %s %s %s\n", kd_sb_str(&fence), kd_sb_str(&text), kd_sb_str(&fence));
                kd_sb_free(&fence);
            } else {
                fprintf(out, "    %s\n", kd_sb_str(&text));
            }
        }
        kd_sb_free(&cmd);
        kd_sb_free(&text);
    }
}

static void kernels_section(FILE *out, const kd_app_comparison *c, int top, bool markdown)
{
    size_t shown = top > 0 && (size_t)top < c->nrows ? (size_t)top : c->nrows;
    fprintf(out, markdown ? "\n### Kernels (%zu of %zu, by time)\n\n" : "\nkernels (%zu of %zu, by time; median per run)\n",
            shown, c->nrows);
    table t = {.ncols = 10};
    const char *head[] = {"kernel", "launches v1", "launches v2", "time v1", "time v2", "change [95% CI]",
                          "mean v1", "mean v2", "share v1/v2", "config v2 (grid x block, regs)"};
    for (int i = 0; i < 10; i++)
        cell(&t, "%s", head[i]);
    for (size_t i = 0; i < shown; i++) {
        const kd_app_row *r = &c->rows[i];
        kd_app_kernel_cells row;
        kd_app_kernel_row(r, &row);
        name_cell(&t, r->name, markdown);
        for (int k = 0; k < 2; k++)
            cell(&t, "%s", row.launches[k]);
        for (int k = 0; k < 2; k++)
            cell(&t, "%s", row.time[k]);
        cell(&t, "%s", row.change);
        for (int k = 0; k < 2; k++)
            cell(&t, "%s", row.mean[k]);
        cell(&t, "%s", row.share);
        cell(&t, "%s%s", row.config_of_v1 ? "v1: " : "", row.config);
    }
    print_table(out, &t, markdown, "  ");
    capture_lines(out, c, shown, markdown);
    for (int s = 0; s < 2; s++) {
        size_t only = kd_app_only_in(c, s);
        if (only)
            fprintf(out, markdown ? "\n%zu kernel%s only in v%d.\n" : "  %zu kernel%s only in v%d\n", only,
                    only == 1 ? "" : "s", s + 1);
    }
}

static void api_section(FILE *out, const kd_app_comparison *c, int top, bool markdown)
{
    if (c->napis == 0)
        return;
    size_t shown = top > 0 && (size_t)top < c->napis ? (size_t)top : c->napis;
    fprintf(out, markdown ? "\n### CUDA API calls (%zu of %zu, by time; mean per run)\n\n"
                          : "\nCUDA API calls (%zu of %zu, by time; mean per run)\n", shown, c->napis);
    table t = {.ncols = 5};
    const char *head[] = {"call", "calls v1", "calls v2", "time v1", "time v2"};
    for (int i = 0; i < 5; i++)
        cell(&t, "%s", head[i]);
    for (size_t i = 0; i < shown; i++) {
        const kd_app_api_row *a = &c->apis[i];
        char buf[4][32];
        kd_app_value_text(buf[0], sizeof buf[0], a->count[0], KD_APP_UNIT_COUNT);
        kd_app_value_text(buf[1], sizeof buf[1], a->count[1], KD_APP_UNIT_COUNT);
        kd_app_value_text(buf[2], sizeof buf[2], a->ns[0], KD_APP_UNIT_NS);
        kd_app_value_text(buf[3], sizeof buf[3], a->ns[1], KD_APP_UNIT_NS);
        kd_strbuf name = {0};
        kd_sb_printf(&name, "%s (%s)", a->name, a->driver ? "driver" : "runtime");
        name_cell(&t, kd_sb_str(&name), markdown);
        kd_sb_free(&name);
        for (int k = 0; k < 4; k++)
            cell(&t, "%s", buf[k]);
    }
    print_table(out, &t, markdown, "  ");
}

static void render(FILE *out, const kd_app_comparison *c, int top, bool markdown)
{
    fprintf(out, markdown ? "## kerndiff app\n\n" : "kerndiff app\n\n");
    headline(out, c, markdown);
    if (markdown)
        fputc('\n', out);
    for (int s = 0; s < 2; s++)
        side_summary(out, c, s, markdown);
    if (c->range)
        fprintf(out, markdown ? "- only GPU work inside NVTX ranges `%s`\n" : "  only GPU work inside NVTX ranges '%s'\n",
                c->range);
    if (c->steps > 0)
        fprintf(out, markdown ? "- %g steps per run (%s)\n" : "  %g steps per run (%s)\n", c->steps,
                c->steps_from_ranges ? "NVTX ranges" : "--steps");
    fputs(markdown ? "\n" : "\n", out);
    totals_section(out, c, markdown);
    kernels_section(out, c, top, markdown);
    api_section(out, c, top, markdown);
    if (c->gate == KD_APP_GATE_SLOWER)
        fprintf(out, "\ngate: v2's GPU kernel time is more than %g%% above v1's\n", c->fail_if_slower_pct);
    if (markdown)
        fprintf(out, "\n%s\n", kd_app_change_note);
    else
        fputs("\n  change: v2 against v1; * where the 95% CI excludes no change. Kernel times are sums of\n"
              "  kernel durations (concurrent kernels count in full).\n",
              out);
}

void kd_app_render_terminal(FILE *out, const kd_app_comparison *c, int top)
{
    render(out, c, top, false);
}

void kd_app_render_markdown(FILE *out, const kd_app_comparison *c, int top)
{
    render(out, c, top, true);
}
