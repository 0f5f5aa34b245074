/* The hot-spot diff as JSON (every row, with its instructions) and as an HTML annotated
 * source view: v2's source, each line with v1's and v2's share of the samples as bars. */
#include "report/hotspots_report.h"

#include <math.h>
#include <string.h>

#include "report/html_page.h"

static const char *const match_names[] = {
    [KD_HS_SAME_LINE] = "same_line", [KD_HS_CHANGED] = "changed", [KD_HS_FAMILY] = "family",
    [KD_HS_ONLY_V1] = "only_v1",     [KD_HS_ONLY_V2] = "only_v2",
};

static json_t *str_or_null(const char *s) { return s ? json_string(s) : json_null(); }

/* Executed instructions: null where that side was not counted (no SASS metrics). */
static json_t *count_or_null(long long n) { return n >= 0 ? json_integer((json_int_t)n) : json_null(); }

static json_t *side_json(const kd_hs_row *row, int s)
{
    const kd_hs_line *l = row->side[s];
    if (!row->line[s] && !l)
        return json_null();
    return json_pack("{s:o, s:o, s:o, s:I, s:f, s:o, s:o}", "line", row->line[s] ? json_integer(row->line[s]) : json_null(),
                     "file", str_or_null(l ? l->file : NULL), "text", str_or_null(row->text[s]), "samples",
                     (json_int_t)(l ? l->samples : 0), "share", row->share[s], "reason", str_or_null(row->dominant[s]),
                     "executed", count_or_null(row->executed[s]));
}

static json_t *insn_json(const kd_hs_insn *in, const kd_hs_profile *p)
{
    if (!in)
        return json_null();
    return json_pack("{s:s, s:I, s:o, s:I, s:f, s:o}", "function", in->function, "offset", (json_int_t)in->offset,
                     "sass", str_or_null(in->text), "samples", (json_int_t)in->samples, "share",
                     p->sampled ? (double)in->samples / (double)p->sampled : 0.0, "executed",
                     count_or_null(p->has_executed ? (long long)in->executed : -1));
}

json_t *kd_hotspots_json(const kd_hs_diff *d)
{
    json_t *lines = json_array();
    for (size_t k = 0; k < d->row_count; k++) {
        const kd_hs_row *row = &d->rows[k];
        json_t *insns = json_array();
        for (size_t i = 0; i < row->insn_count; i++) {
            const kd_hs_insn *a = row->insns[i].side[0], *b = row->insns[i].side[1];
            const char *family = a && a->family ? a->family : b && b->family ? b->family : NULL;
            json_array_append_new(insns, json_pack("{s:o, s:o, s:o}", "family", str_or_null(family), "v1",
                                                   insn_json(a, d->side[0]), "v2", insn_json(b, d->side[1])));
        }
        json_array_append_new(lines, json_pack("{s:s, s:o, s:o, s:f, s:o}", "match", match_names[row->how], "v1",
                                               side_json(row, 0), "v2", side_json(row, 1), "delta", row->delta,
                                               "instructions", insns));
    }
    const kd_hs_profile *a = d->side[0], *b = d->side[1];
    return json_pack("{s:o, s:[I,I], s:[I,I], s:[o,o], s:o}", "kernel", str_or_null(b->kernel ? b->kernel : a->kernel),
                     "samples", (json_int_t)a->sampled, (json_int_t)b->sampled, "dropped", (json_int_t)a->dropped,
                     (json_int_t)b->dropped, "executed", count_or_null(a->has_executed ? (long long)a->executed : -1),
                     count_or_null(b->has_executed ? (long long)b->executed : -1), "lines", lines);
}

enum { BAR_WIDTH = 120, BAR_HEIGHT = 10 };

static void bar(FILE *out, int side, double share)
{
    fprintf(out, "<td class=\"num\"><svg width=\"%d\" height=\"%d\" role=\"img\" aria-label=\"v%d %.1f%%\">"
                 "<rect class=\"%s bar\" x=\"0\" y=\"0\" width=\"%.1f\" height=\"%d\"/></svg> %.0f%%</td>",
            BAR_WIDTH, BAR_HEIGHT, side + 1, share * 100, kd_html_side_class[side], fmin(share, 1) * BAR_WIDTH,
            BAR_HEIGHT, share * 100);
}

static const kd_hs_row *row_of(const kd_hs_diff *d, int s, unsigned line)
{
    for (size_t k = 0; k < d->row_count; k++)
        if (d->rows[k].line[s] == line && (d->rows[k].side[s] || d->rows[k].side[!s]))
            return &d->rows[k];
    return NULL;
}

static void source_row(FILE *out, const kd_hs_row *row, unsigned v2_line, const char *text)
{
    fputs("<tr>", out);
    char n[32];
    snprintf(n, sizeof n, "%u", row && row->line[0] ? row->line[0] : 0);
    kd_html_cell(out, "td", row && row->line[0] ? n : "");
    bar(out, 0, row ? row->share[0] : 0);
    snprintf(n, sizeof n, "%u", v2_line);
    kd_html_cell(out, "td", v2_line ? n : "");
    bar(out, 1, row ? row->share[1] : 0);
    fputs("<td>", out);
    kd_html_cell(out, "code", text ? text : "");
    fputs("</td></tr>\n", out);
}

void kd_hotspots_html(FILE *out, const kd_hs_diff *d)
{
    fputs("<section class=\"hotspots\">\n<h2>Where the time moved</h2>\n", out);
    kd_strbuf sb = {0};
    kd_sb_printf(&sb, "PC samples: v1 %llu, v2 %llu. The lines whose share of the samples changed most:",
                 (unsigned long long)d->side[0]->sampled, (unsigned long long)d->side[1]->sampled);
    kd_html_say(out, "p", NULL, &sb);
    fputs("<ul>\n", out);
    for (size_t k = 0; k < d->row_count && k < KD_HOTSPOTS_SHOWN; k++) {
        kd_strbuf line = {0};
        kd_hotspots_row_text(&line, &d->rows[k]);
        kd_html_say(out, "li", NULL, &line);
    }
    fputs("</ul>\n<table class=\"hotspots-source\">\n<tr><th>v1 line</th><th>v1 share</th><th>v2 line</th>"
          "<th>v2 share</th><th>source (v2)</th></tr>\n",
          out);
    const kd_hs_profile *v2 = d->side[1];
    if (v2->src) {
        for (unsigned n = 1; n <= v2->src_count; n++)
            source_row(out, row_of(d, 1, n), n, v2->src[n - 1]);
    }
    /* Lines that no v2 source line shows: v1's alone, and lines outside v2's source. */
    for (size_t k = 0; k < d->row_count; k++) {
        const kd_hs_row *row = &d->rows[k];
        if (v2->src && row->line[1] && row->line[1] <= v2->src_count)
            continue;
        source_row(out, row, row->line[1], row->text[1] ? row->text[1] : row->text[0]);
    }
    fputs("</table>\n</section>\n", out);
}
