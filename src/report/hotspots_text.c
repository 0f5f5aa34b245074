/* The hot-spot diff's sentences: the terminal's lines and the Markdown table. */
#include "report/hotspots_report.h"

#include <math.h>
#include <string.h>

#include "report/untrusted.h"

/* Source lines are shown from their first non-blank up to this many characters. */
enum { TEXT_SHOWN = 60 };

void kd_hotspots_reason_text(kd_strbuf *sb, const char *reason)
{
    if (!reason) {
        kd_sb_puts(sb, "none");
        return;
    }
    kd_strbuf tmp = {0};
    for (const char *s = reason; *s; s++)
        kd_sb_append(&tmp, *s == '_' ? " " : s, 1);
    kd_sb_untrusted(sb, kd_sb_str(&tmp));
    kd_sb_free(&tmp);
}

static void share_text(kd_strbuf *sb, double share)
{
    if (share > 0 && share < 0.005)
        kd_sb_puts(sb, "<1%");
    else
        kd_sb_printf(sb, "%.0f%%", share * 100);
}

/* The text shown of a source line: from its first non-blank, cut at TEXT_SHOWN. */
static const char *shown_text(const char *text, char *cut)
{
    while (*text == ' ' || *text == '\t')
        text++;
    if (strlen(text) <= TEXT_SHOWN)
        return text;
    memcpy(cut, text, TEXT_SHOWN);
    strcpy(cut + TEXT_SHOWN, "...");
    return cut;
}

/* A Markdown code span: its contents escaped so that neither '`' nor '|' ends it or the row. */
static void md_code(kd_strbuf *sb, kd_untrusted *u, const char *text)
{
    char cut[TEXT_SHOWN + 4];
    kd_sb_printf(sb, "`%s`", kd_untrusted_md(u, shown_text(text, cut)));
}

static void code_text(kd_strbuf *sb, const char *text)
{
    char cut[TEXT_SHOWN + 4];
    kd_sb_puts(sb, "`");
    kd_sb_untrusted(sb, shown_text(text, cut));
    kd_sb_puts(sb, "`");
}

static void line_numbers(kd_strbuf *sb, const kd_hs_row *row)
{
    if (row->line[0] && row->line[1] && row->line[0] != row->line[1])
        kd_sb_printf(sb, "line %u -> %u", row->line[0], row->line[1]);
    else if (row->line[1] || row->line[0])
        kd_sb_printf(sb, "line %u", row->line[1] ? row->line[1] : row->line[0]);
    else
        kd_sb_puts(sb, "instructions without line info");
    if (row->how == KD_HS_ONLY_V1)
        kd_sb_puts(sb, " (v1 only)");
    else if (row->how == KD_HS_ONLY_V2)
        kd_sb_puts(sb, " (v2 only)");
    const kd_hs_line *l = row->side[1] ? row->side[1] : row->side[0];
    if (l && l->file && !row->text[0] && !row->text[1]) {
        kd_sb_puts(sb, " of ");
        kd_sb_untrusted(sb, l->file);
    }
}

void kd_hotspots_row_text(kd_strbuf *sb, const kd_hs_row *row)
{
    line_numbers(sb, row);
    const char *a = row->text[0], *b = row->text[1];
    if (a && b && strcmp(a, b)) {
        kd_sb_puts(sb, " ");
        code_text(sb, a);
        kd_sb_puts(sb, " -> ");
        code_text(sb, b);
        if (row->how == KD_HS_FAMILY) {
            const kd_hs_line *l = row->side[0] ? row->side[0] : row->side[1];
            kd_sb_puts(sb, " (paired by their ");
            kd_sb_untrusted(sb, l && l->family ? l->family : "?");
            kd_sb_puts(sb, " instructions)");
        }
    } else if (a || b) {
        kd_sb_puts(sb, " ");
        code_text(sb, b ? b : a);
    }
    kd_sb_puts(sb, ": ");
    share_text(sb, row->share[0]);
    kd_sb_puts(sb, " -> ");
    share_text(sb, row->share[1]);
    kd_sb_puts(sb, " of samples, ");
    kd_hotspots_reason_text(sb, row->dominant[0]);
    kd_sb_puts(sb, " -> ");
    kd_hotspots_reason_text(sb, row->dominant[1]);
    if (row->executed[0] >= 0 && row->executed[1] >= 0) {
        kd_sb_puts(sb, "; ");
        kd_hotspots_count_text(sb, row->executed[0]);
        kd_sb_puts(sb, " -> ");
        kd_hotspots_count_text(sb, row->executed[1]);
        kd_sb_puts(sb, " warp instructions executed");
    }
}

void kd_hotspots_count_text(kd_strbuf *sb, long long n)
{
    if (n < 0)
        kd_sb_puts(sb, "?");
    else if (n >= 10000000)
        kd_sb_printf(sb, "%.0fM", (double)n / 1e6);
    else if (n >= 1000000)
        kd_sb_printf(sb, "%.1fM", (double)n / 1e6);
    else if (n >= 10000)
        kd_sb_printf(sb, "%.0fk", (double)n / 1e3);
    else
        kd_sb_printf(sb, "%lld", n);
}

static size_t shown(const kd_hs_diff *d)
{
    size_t n = 0;
    while (n < d->row_count && n < KD_HOTSPOTS_SHOWN && fabs(d->rows[n].delta) >= 0.005)
        n++;
    return n;
}

void kd_hotspots_terminal(FILE *out, const kd_hs_diff *d, bool color)
{
    const char *bold = color ? "\033[1m" : "", *reset = color ? "\033[0m" : "";
    fprintf(out, "\n%sWhere the time moved%s (PC samples: v1 %llu, v2 %llu; lines by the change in their share",
            bold, reset, (unsigned long long)d->side[0]->sampled, (unsigned long long)d->side[1]->sampled);
    if (d->side[0]->has_executed && d->side[1]->has_executed) {
        kd_strbuf sb = {0};
        kd_hotspots_count_text(&sb, (long long)d->side[0]->executed);
        kd_sb_puts(&sb, " -> ");
        kd_hotspots_count_text(&sb, (long long)d->side[1]->executed);
        fprintf(out, "; warp instructions executed in one launch: %s", kd_sb_str(&sb));
        kd_sb_free(&sb);
    }
    fputs(")\n", out);
    size_t n = shown(d);
    if (n == 0)
        fputs("  no line's share of the samples changed by 0.5 points or more\n", out);
    for (size_t k = 0; k < n; k++) {
        kd_strbuf sb = {0};
        kd_hotspots_row_text(&sb, &d->rows[k]);
        fprintf(out, "  %s\n", kd_sb_str(&sb));
        kd_sb_free(&sb);
    }
    for (int s = 0; s < 2; s++)
        if (d->side[s]->dropped)
            fprintf(out, "  v%d: %llu samples dropped (the sampling buffer was full)\n", s + 1,
                    (unsigned long long)d->side[s]->dropped);
}

void kd_hotspots_markdown(FILE *out, const kd_hs_diff *d)
{
    fprintf(out, "\n### Where the time moved\n\nPC samples: v1 %llu, v2 %llu; the lines whose share changed most.\n\n",
            (unsigned long long)d->side[0]->sampled, (unsigned long long)d->side[1]->sampled);
    size_t n = shown(d);
    if (n == 0) {
        fputs("No line's share of the samples changed by 0.5 points or more.\n", out);
        return;
    }
    bool counted = d->side[0]->has_executed && d->side[1]->has_executed;
    fputs(counted ? "| line | source | v1 | v2 | change | stall reason (v1 -> v2) | executed (v1 -> v2) |\n"
                    "|---|---|--:|--:|--:|---|--:|\n"
                  : "| line | source | v1 | v2 | change | stall reason (v1 -> v2) |\n|---|---|--:|--:|--:|---|\n",
          out);
    kd_untrusted u = {0};
    for (size_t k = 0; k < n; k++) {
        const kd_hs_row *row = &d->rows[k];
        kd_strbuf ln = {0}, src = {0}, v1 = {0}, v2 = {0}, why = {0};
        line_numbers(&ln, row);
        const char *a = row->text[0], *b = row->text[1];
        if (a && b && strcmp(a, b)) {
            md_code(&src, &u, a);
            kd_sb_puts(&src, " -> ");
            md_code(&src, &u, b);
        } else if (a || b) {
            md_code(&src, &u, b ? b : a);
        }
        share_text(&v1, row->share[0]);
        share_text(&v2, row->share[1]);
        kd_hotspots_reason_text(&why, row->dominant[0]);
        kd_sb_puts(&why, " -> ");
        kd_hotspots_reason_text(&why, row->dominant[1]);
        kd_strbuf ran = {0};
        if (counted) {
            kd_sb_puts(&ran, " ");
            kd_hotspots_count_text(&ran, row->executed[0]);
            kd_sb_puts(&ran, " -> ");
            kd_hotspots_count_text(&ran, row->executed[1]);
            kd_sb_puts(&ran, " |");
        }
        fprintf(out, "| %s | %s | %s | %s | %+.0f pp | %s |%s\n", kd_untrusted_md(&u, kd_sb_str(&ln)), kd_sb_str(&src),
                kd_sb_str(&v1), kd_sb_str(&v2), row->delta * 100, kd_untrusted_md(&u, kd_sb_str(&why)), kd_sb_str(&ran));
        kd_sb_free(&ln), kd_sb_free(&src), kd_sb_free(&v1), kd_sb_free(&v2), kd_sb_free(&why), kd_sb_free(&ran);
    }
    kd_untrusted_free(&u);
}

/* ", line 3: a pc line names ...": where and why a record was refused. */
static void record_why(kd_strbuf *sb, const kd_hs_error *err)
{
    static const char *const why[] = {
        [KD_HS_OK] = "no error",
        [KD_HS_ERR_HEADER] = "it does not start with \"kerndiff-hotspots 1\" (not a hot-spot record, or a newer one)",
        [KD_HS_ERR_LINE] = "a line that is not one of the record's kinds (docs/HOTSPOTS.md)",
        [KD_HS_ERR_REASON] = "a pc line names a stall-reason index that no reason line declared",
        [KD_HS_ERR_EMPTY] = ("it holds no sampled PC (the kernel ran too briefly for the sampling period, or "
                             "sampling was off); record again with a shorter period"),
    };
    if (err->line)
        kd_sb_printf(sb, ", line %zu", err->line);
    kd_sb_printf(sb, ": %s", why[err->code]);
}

void kd_hotspots_error_text(kd_strbuf *sb, const char *side, const char *path, const kd_hs_error *err)
{
    kd_sb_printf(sb, "%s's hot-spot record ", side);
    kd_sb_untrusted(sb, path);
    record_why(sb, err);
}

static const char *const step_text[] = {
    [KD_HS_STEP_NONE] = "no failure",
    [KD_HS_STEP_NOT_CUBIN] = "its kernel is loaded through a launcher, not from a cubin whose instructions can be "
                             "listed; hot spots need a cubin",
    [KD_HS_STEP_HARNESS] = "its harness could not be started",
    [KD_HS_STEP_SAMPLING] = "PC sampling failed (it needs CUPTI with PC sampling: CUDA 11.3 or later, and a GPU "
                            "that supports it)",
    [KD_HS_STEP_RECORD] = "the harness's record could not be read",
    [KD_HS_STEP_NVDISASM] = "its cubin could not be listed with nvdisasm --print-line-info (install nvdisasm: "
                            "the CUDA toolkit or pip install nvidia-cuda-nvdisasm)",
    [KD_HS_STEP_SOURCE] = "its source could not be read: lines are shown by number only",
};

void kd_hotspots_step_text(kd_strbuf *sb, const char *side, const char *step, const char *detail)
{
    kd_hs_step s = kd_hs_step_named(step);
    kd_sb_printf(sb, "%s: no hot spots: %s", side, step_text[s]);
    unsigned long line;
    int code;
    if (s == KD_HS_STEP_RECORD && detail && sscanf(detail, "%lu %d", &line, &code) == 2 && code > KD_HS_OK &&
        code <= KD_HS_ERR_EMPTY) {
        kd_hs_error err = {(kd_hs_error_code)code, line};
        record_why(sb, &err);
    } else if (detail && *detail) {
        kd_sb_puts(sb, ": ");
        kd_sb_untrusted(sb, detail);
    }
}

void kd_hotspots_failure_text(kd_strbuf *sb, const char *side, const kd_hotspots_failure *f)
{
    char detail[48];
    snprintf(detail, sizeof detail, "%zu %d", f->record.line, (int)f->record.code);
    kd_hotspots_step_text(sb, side, kd_hs_step_name(f->step),
                          f->step == KD_HS_STEP_RECORD ? detail : kd_sb_str(&f->why));
}
