/* app_html.c — the HTML page of `kerndiff app` (app_report.h): the shell and pieces of
 * html_page.h, the sentences and cells of app_text.c, so it says what the terminal says;
 * one chart (chart-app-kernels), the top kernels' GPU time of v1 and v2 side by side. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "report/app_capture.h"
#include "report/app_report.h"
#include "report/html_page.h"
#include "util/xalloc.h"

enum { DEFAULT_CHART_KERNELS = 10, SHORT_NAME = 32 };

static void sides_section(FILE *out, const kd_app_comparison *c)
{
    fputs("<ul>\n", out);
    for (int s = 0; s < 2; s++) {
        kd_strbuf line = {0};
        kd_sb_printf(&line, "v%d: %s — ", s + 1, c->sides[s].label);
        kd_app_side_text(c, s, &line);
        kd_html_say(out, "li", NULL, &line);
    }
    kd_strbuf line = {0};
    if (c->range) {
        kd_sb_printf(&line, "only GPU work inside NVTX ranges '%s'", c->range);
        kd_html_say(out, "li", NULL, &line);
    }
    if (c->steps > 0) {
        kd_sb_printf(&line, "%g steps per run (%s)", c->steps, c->steps_from_ranges ? "NVTX ranges" : "--steps");
        kd_html_say(out, "li", NULL, &line);
    }
    fputs("</ul>\n", out);
}

static void headline(FILE *out, const kd_app_comparison *c)
{
    const kd_app_change *t = &c->totals[KD_APP_KERNEL_NS];
    kd_strbuf verdict = {0}, rest = {0};
    kd_app_headline(c, &verdict, &rest);
    fprintf(out, "<p class=\"verdict%s\">", t->verdict == KD_VERDICT_FASTER   ? " good"
                                            : t->verdict == KD_VERDICT_SLOWER ? " bad"
                                                                              : "");
    kd_xml_text(out, kd_sb_str(&verdict));
    fputs("<span class=\"muted\">", out);
    kd_xml_text(out, kd_sb_str(&rest));
    fputs("</span></p>\n", out);
    kd_sb_free(&verdict);
    kd_sb_free(&rest);
    if (c->gate == KD_APP_GATE_SLOWER) {
        kd_strbuf gate = {0};
        kd_sb_printf(&gate, "gate: v2's GPU kernel time is more than %g%% above v1's", c->fail_if_slower_pct);
        kd_html_say(out, "p", "bad", &gate);
    }
}

static void totals_table(FILE *out, const kd_app_comparison *c)
{
    fputs("<h2>Totals</h2>\n<table><tr><th>median per run</th><th>v1</th><th>v2</th><th>change [95% CI]</th>", out);
    if (c->steps > 0)
        fputs("<th>per step v1</th><th>per step v2</th>", out);
    fputs("</tr>\n", out);
    for (int id = 0; id < KD_APP_TOTALS; id++) {
        kd_app_total_cells row;
        if (!kd_app_total_row(c, id, &row))
            continue;
        fputs("<tr>", out);
        kd_html_cell(out, "td", row.label);
        kd_html_cell(out, "td", row.v[0]);
        kd_html_cell(out, "td", row.v[1]);
        kd_html_cell(out, "td", row.change);
        if (c->steps > 0) {
            kd_html_cell(out, "td", row.per_step[0]);
            kd_html_cell(out, "td", row.per_step[1]);
        }
        fputs("</tr>\n", out);
    }
    fputs("</table>\n", out);
}

/* "#3 fused": a kernel's rank and its name without the parameter list, cut to fit an axis. */
static void short_name(char *buf, size_t n, size_t rank, const char *name)
{
    size_t len = strcspn(name, "(");
    if (len == 0)
        len = strlen(name);
    if (len > SHORT_NAME)
        snprintf(buf, n, "#%zu %.*s...", rank, SHORT_NAME - 3, name);
    else
        snprintf(buf, n, "#%zu %.*s", rank, (int)len, name);
}

/* Horizontal bars, the largest kernel on top: v1's above v2's in each kernel's row. */
static void kernel_chart(FILE *out, const kd_app_comparison *c, size_t k)
{
    double *at = kd_xcalloc(k, sizeof *at);
    char (*names)[SHORT_NAME + 32] = kd_xcalloc(k, sizeof *names);
    const char **text = kd_xcalloc(k, sizeof *text);
    double most = 0;
    for (size_t i = 0; i < k; i++) {
        at[i] = (double)(k - i) - 0.5;
        short_name(names[i], sizeof *names, i + 1, c->rows[i].name);
        text[i] = names[i];
        most = fmax(most, fmax(c->rows[i].time.v[0], c->rows[i].time.v[1]));
    }
    char xlabel[96];
    kd_plot p = {.out = out, .width = 720, .height = 28 + 46 + 34 * (double)k, .left = 230};
    kd_html_axis_of_time(&p.x, &(kd_time_axis){.lo = 0, .hi = most * 1.1 + 1e-9, .scale = KD_SCALE_LINEAR, .what = "GPU time per run, median"},
                         xlabel, sizeof xlabel);
    p.y = (kd_axis){.label = "kernel", .lo = 0, .hi = (double)k, .tick_at = at, .tick_text = text, .nticks = k};
    kd_html_figure_start(out);
    kd_plot_begin(&p, "chart-app-kernels", "GPU time per run of the kernels that take the most, v1 and v2");
    for (size_t i = 0; i < k; i++)
        for (int s = 0; s < 2; s++)
            if (c->rows[i].present[s]) {
                double top = at[i] + (s ? 0 : 0.38);
                kd_plot_rect(&p, 0, top - 0.36, c->rows[i].time.v[s], top, s ? "bar v2" : "bar v1");
            }
    const char *labels[2] = {"v1", "v2"};
    kd_plot_legend(&p, labels, kd_html_side_class, 2);
    kd_plot_end(&p);
    kd_strbuf caption = {0};
    kd_sb_printf(&caption, "The %zu kernel%s with the most GPU time of %zu, ranked as in the table below: the sum of "
                           "each kernel's durations, median over runs. A kernel missing from a side has no bar there.",
                 k, k == 1 ? "" : "s", c->nrows);
    kd_html_figure_end(out, &caption);
    free(at);
    free(names);
    free(text);
}

static void kernel_table(FILE *out, const kd_app_comparison *c, size_t shown)
{
    fprintf(out, "<details open><summary>Kernels (%zu of %zu, by time; median per run)</summary>\n", shown, c->nrows);
    fputs("<div class=\"scroll\"><table><tr><th>kernel</th><th>launches v1</th><th>launches v2</th><th>time v1</th><th>time v2</th>"
          "<th>change [95% CI]</th><th>mean v1</th><th>mean v2</th><th>share v1 / v2</th>"
          "<th>config (grid x block, regs)</th><th>capture command (then --launch FILE)</th></tr>\n", out);
    for (size_t i = 0; i < shown; i++) {
        const kd_app_row *r = &c->rows[i];
        kd_app_kernel_cells row;
        kd_app_kernel_row(r, &row);
        fputs("<tr><td class=\"code\">", out);
        kd_xml_text(out, r->name);
        fputs("</td>", out);
        for (int k = 0; k < 2; k++)
            kd_html_cell(out, "td", row.launches[k]);
        for (int k = 0; k < 2; k++)
            kd_html_cell(out, "td", row.time[k]);
        kd_html_cell(out, "td", row.change);
        for (int k = 0; k < 2; k++)
            kd_html_cell(out, "td", row.mean[k]);
        kd_html_cell(out, "td", row.share);
        fprintf(out, "<td class=\"code\">%s", row.config_of_v1 ? "v1: " : "");
        kd_xml_text(out, row.config);
        fputs("</td><td class=\"code\">", out);
        kd_strbuf cmd = {0};
        if (kd_app_capture_command(c, r, &cmd))
            kd_xml_text(out, kd_sb_str(&cmd));
        else
            fputs("-", out);
        kd_sb_free(&cmd);
        fputs("</td></tr>\n", out);
    }
    fputs("</table></div></details>\n", out);
}

/* The kernels of one side only, by name: a fusion or a split shows here first. */
static void only_in_one_side(FILE *out, const kd_app_comparison *c)
{
    for (int s = 0; s < 2; s++) {
        size_t only = kd_app_only_in(c, s);
        if (!only)
            continue;
        fprintf(out, "<p>%zu kernel%s only in v%d:</p>\n<ul>\n", only, only == 1 ? "" : "s", s + 1);
        for (size_t i = 0; i < c->nrows; i++)
            if (c->rows[i].present[s] && !c->rows[i].present[1 - s]) {
                char time[32];
                kd_app_value_text(time, sizeof time, c->rows[i].time.v[s], KD_APP_UNIT_NS);
                fputs("<li><code>", out);
                kd_xml_text(out, c->rows[i].name);
                fprintf(out, "</code>: %s per run</li>\n", time);
            }
        fputs("</ul>\n", out);
    }
}

static void api_table(FILE *out, const kd_app_comparison *c, size_t shown)
{
    fprintf(out, "<h2>CUDA API calls</h2>\n<details open><summary>%zu of %zu, by time; mean per run</summary>\n",
            shown, c->napis);
    fputs("<table><tr><th>call</th><th>calls v1</th><th>calls v2</th><th>time v1</th><th>time v2</th></tr>\n", out);
    for (size_t i = 0; i < shown; i++) {
        const kd_app_api_row *a = &c->apis[i];
        char cells[4][32];
        kd_app_value_text(cells[0], sizeof cells[0], a->count[0], KD_APP_UNIT_COUNT);
        kd_app_value_text(cells[1], sizeof cells[1], a->count[1], KD_APP_UNIT_COUNT);
        kd_app_value_text(cells[2], sizeof cells[2], a->ns[0], KD_APP_UNIT_NS);
        kd_app_value_text(cells[3], sizeof cells[3], a->ns[1], KD_APP_UNIT_NS);
        fputs("<tr><td class=\"code\">", out);
        kd_xml_text(out, a->name);
        fprintf(out, " (%s)</td>", a->driver ? "driver" : "runtime");
        for (int k = 0; k < 4; k++)
            kd_html_cell(out, "td", cells[k]);
        fputs("</tr>\n", out);
    }
    fputs("</table></details>\n", out);
}

void kd_app_render_html(FILE *out, const kd_app_comparison *c, int top)
{
    kd_html_begin(out, "kerndiff app: the GPU activity of two programs");
    headline(out, c);
    sides_section(out, c);
    totals_table(out, c);
    fputs("<h2>Kernels</h2>\n", out);
    size_t shown = top > 0 && (size_t)top < c->nrows ? (size_t)top : c->nrows;
    size_t charted = top > 0 ? shown : c->nrows < DEFAULT_CHART_KERNELS ? c->nrows : DEFAULT_CHART_KERNELS;
    if (charted)
        kernel_chart(out, c, charted);
    else
        kd_html_say_text(out, "p", "muted", "No kernel ran on either side: there is nothing to chart.");
    kernel_table(out, c, shown);
    only_in_one_side(out, c);
    if (c->napis)
        api_table(out, c, top > 0 && (size_t)top < c->napis ? (size_t)top : c->napis);
    kd_html_say_text(out, "p", "muted", kd_app_change_note);
    kd_html_end(out);
}
