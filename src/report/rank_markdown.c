/* Markdown and HTML of kerndiff rank (report/rank_report.h): the terminal's table. */
#include "report/rank_report.h"

#include "report/html_page.h"
#include "report/untrusted.h"

/* kd_rank_format_pair's line with each name in a code span: a name is the user's text, and
 * outside a span Markdown would act on it (`<img onerror=..>`, `[x](javascript:..)`). */
static void md_pair(FILE *out, kd_untrusted *u, const kd_rank_result *r, const kd_rank_pair *p)
{
    const char *a = kd_untrusted_md(u, r->rows[p->a].entry->name), *b = kd_untrusted_md(u, r->rows[p->b].entry->name);
    if (p->verdict == KD_VERDICT_NO_DIFFERENCE)
        fprintf(out, "- `%s` vs `%s`: no significant difference\n", a, b);
    else
        fprintf(out, "- `%s` vs `%s`: `%s` is faster\n", a, b, p->verdict == KD_VERDICT_FASTER ? a : b);
}

void kd_rank_render_markdown(FILE *out, const kd_rank_result *r)
{
    kd_untrusted u = {0};
    char header[512], regs[16], spills[24], occ[16], sp[32], ci[48];
    kd_rank_format_header(r, header, sizeof header);
    fprintf(out, "### kerndiff rank\n\n%s\n\n", kd_untrusted_md_text(&u, header));
    fprintf(out, "| # | candidate | status | speedup | interval | registers | spills | occupancy | samples |\n"
                 "|---|---|---|---:|---|---:|---:|---:|---:|\n");
    for (size_t i = 0; i < r->count; i++) {
        const kd_rank_row *row = &r->rows[i];
        kd_rank_format_speedup(&row->speedup, sp, sizeof sp);
        kd_rank_format_interval(&row->speedup, ci, sizeof ci);
        kd_rank_format_static(&row->entry->stat, regs, spills, occ);
        if (row->has_speedup)
            fprintf(out, "| %zu | `%s` | %s | %s | %s | %s | %s | %s | %zu |\n", i + 1, kd_untrusted_md(&u, row->entry->name),
                    kd_rank_status_name(row->status), sp, ci, regs, spills, occ, row->samples);
        else
            fprintf(out, "| - | `%s` | %s | - | %s | %s | %s | %s | - |\n", kd_untrusted_md(&u, row->entry->name),
                    kd_rank_status_name(row->status), kd_untrusted_md_cell(&u, row->entry->reason ? row->entry->reason : ""),
                    regs, spills, occ);
    }
    if (r->npairs)
        fprintf(out, "\nTop %zu, pairwise:\n\n", r->opts.top);
    for (size_t i = 0; i < r->npairs; i++)
        md_pair(out, &u, r, &r->pairs[i]);
    kd_untrusted_free(&u);
}

void kd_rank_render_html(FILE *out, const kd_rank_result *r)
{
    char header[512], regs[16], spills[24], occ[16], sp[32], ci[48], n[32];
    kd_html_begin(out, "kerndiff rank");
    kd_rank_format_header(r, header, sizeof header);
    kd_html_say_text(out, "p", NULL, header);
    fprintf(out, "<table>\n<tr>");
    const char *heads[] = {"#", "candidate", "status", "speedup", "interval", "registers", "spills", "occupancy", "samples"};
    for (size_t i = 0; i < sizeof heads / sizeof *heads; i++)
        kd_html_cell(out, "th", heads[i]);
    fprintf(out, "</tr>\n");
    for (size_t i = 0; i < r->count; i++) {
        const kd_rank_row *row = &r->rows[i];
        kd_rank_format_speedup(&row->speedup, sp, sizeof sp);
        kd_rank_format_interval(&row->speedup, ci, sizeof ci);
        kd_rank_format_static(&row->entry->stat, regs, spills, occ);
        fprintf(out, "<tr>");
        snprintf(n, sizeof n, "%zu", i + 1);
        kd_html_cell(out, "td", row->has_speedup ? n : "-");
        kd_html_cell(out, "td", row->entry->name);
        kd_html_cell(out, "td", kd_rank_status_name(row->status));
        kd_html_cell(out, "td", sp);
        kd_html_cell(out, "td", row->has_speedup ? ci : (row->entry->reason ? row->entry->reason : ""));
        kd_html_cell(out, "td", regs);
        kd_html_cell(out, "td", spills);
        kd_html_cell(out, "td", occ);
        snprintf(n, sizeof n, "%zu", row->samples);
        kd_html_cell(out, "td", n);
        fprintf(out, "</tr>\n");
    }
    fprintf(out, "</table>\n");
    for (size_t i = 0; i < r->npairs; i++) {
        char line[256];
        kd_rank_format_pair(r, &r->pairs[i], line, sizeof line);
        kd_html_say_text(out, "p", NULL, line);
    }
    kd_html_end(out);
}
