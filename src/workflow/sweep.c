#include "workflow/sweep.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/exit_codes.h"
#include "cli/status.h"
#include "diff/compare.h"
#include "launch/expr.h"
#include "report/model_text.h"
#include "report/report.h"
#include "report/note_text.h"
#include "util/output.h"
#include "util/text.h"
#include "util/xalloc.h"

enum { MAX_POINTS = 64 };

bool kd_sweep_n_list(const char *n)
{
    return n && (strchr(n, ',') || strstr(n, ".."));
}

bool kd_sweep_requested(const kd_options *opts)
{
    return opts->sweep || kd_sweep_n_list(opts->diff.launch.n);
}

static int push_value(kd_sweep_spec *s, const char *text, size_t len)
{
    if (s->count == MAX_POINTS)
        return -1;
    s->values = kd_xrealloc(s->values, (s->count + 1) * sizeof *s->values);
    s->values[s->count++] = kd_xstrndup(text, len);
    return 0;
}

/* "1M..64M:x4" or "1K..8K:+1K": from, to, and a factor or a step. */
static int expand_range(const char *text, kd_sweep_spec *s, kd_strbuf *error)
{
    const char *dots = strstr(text, ".."), *colon = strchr(text, ':');
    if (!dots || !colon || colon < dots || (colon[1] != 'x' && colon[1] != '+')) {
        kd_sb_printf(error, "--n range '%s' wants FROM..TO:xFACTOR or FROM..TO:+STEP (e.g. 1M..64M:x4)", text);
        return -1;
    }
    /* Copies of any length: a range written as expressions must not be cut short. */
    char *from_text = kd_xstrndup(text, (size_t)(dots - text)), *to_text = kd_xstrndup(dots + 2, (size_t)(colon - dots - 2));
    char err[256] = "";
    unsigned long long from, to, by;
    bool bad = kd_parse_count(from_text, &from, err, sizeof err) != 0 ||
               kd_parse_count(to_text, &to, err, sizeof err) != 0 || kd_parse_count(colon + 2, &by, err, sizeof err) != 0 ||
               (colon[1] == 'x' && by < 2) || from > to;
    free(from_text);
    free(to_text);
    if (bad) {
        kd_sb_printf(error, "--n range '%s': %s", text, *err ? err : "FROM must not exceed TO and a factor must be >= 2");
        return -1;
    }
    for (unsigned long long v = from; v <= to; v = colon[1] == 'x' ? v * by : v + by) {
        char value[32];
        int n = snprintf(value, sizeof value, "%llu", v);
        if (push_value(s, value, (size_t)n) != 0) {
            kd_sb_printf(error, "--n range '%s' has more than %d points", text, MAX_POINTS);
            return -1;
        }
    }
    return 0;
}

static int split_list(const char *list, kd_sweep_spec *s, kd_strbuf *error, const char *what)
{
    for (const char *p = list; *p;) {
        size_t len = strcspn(p, ",");
        if (len == 0 || push_value(s, p, len) != 0) {
            kd_sb_printf(error, "%s '%s': empty value or more than %d points", what, list, MAX_POINTS);
            return -1;
        }
        p += len + (p[len] == ',');
    }
    return 0;
}

/* Each point is a -D NAME=VALUE: checked as -D is (compile/build.h), before any build. */
static int check_defines(const kd_sweep_spec *s, kd_strbuf *error)
{
    for (size_t i = 0; i < s->count; i++) {
        kd_strbuf define = {0}, why = {0};
        kd_sb_printf(&define, "%s=%s", s->parameter, s->values[i]);
        int rc = kd_build_check_define(kd_sb_str(&define), &why);
        if (rc != 0)
            kd_sb_printf(error, "--sweep: %s", kd_sb_str(&why));
        kd_sb_free(&define);
        kd_sb_free(&why);
        if (rc != 0)
            return -1;
    }
    return 0;
}

/* Each --n point is an element count: all checked before the first point runs. */
static int check_counts(const kd_sweep_spec *s, kd_strbuf *error)
{
    for (size_t i = 0; i < s->count; i++) {
        unsigned long long count;
        char why[256];
        if (kd_parse_count(s->values[i], &count, why, sizeof why) != 0) {
            kd_sb_printf(error, "--n: point %zu of %zu, '%s', is not an element count (16M, 1<<24, 4096): %s; "
                         "nothing was run", i + 1, s->count, s->values[i], why);
            return -1;
        }
    }
    return 0;
}

int kd_sweep_parse(const kd_options *opts, kd_sweep_spec *out, kd_strbuf *error)
{
    memset(out, 0, sizeof *out);
    if (opts->sweep) {
        const char *eq = strchr(opts->sweep, '=');
        if (!eq || eq == opts->sweep || !eq[1]) {
            kd_sb_printf(error, "--sweep wants NAME=a,b,c, got '%s'", opts->sweep);
            return -1;
        }
        out->parameter = kd_xstrndup(opts->sweep, (size_t)(eq - opts->sweep));
        out->define = true;
        if (split_list(eq + 1, out, error, "--sweep") != 0)
            return -1;
        return check_defines(out, error);
    }
    out->parameter = kd_xstrdup("n");
    if (strstr(opts->diff.launch.n, ".."))
        return expand_range(opts->diff.launch.n, out, error);
    if (split_list(opts->diff.launch.n, out, error, "--n") != 0)
        return -1;
    return check_counts(out, error);
}

void kd_sweep_spec_free(kd_sweep_spec *s)
{
    for (size_t i = 0; i < s->count; i++)
        free(s->values[i]);
    free(s->values);
    free((char *)s->parameter);
    memset(s, 0, sizeof *s);
}

static void summarise(const kd_comparison *c, int rc, kd_sweep_point *p)
{
    p->rc = rc;
    p->timed = c->timed;
    if (!c->timed)
        return;
    const kd_timing *t = &c->timing;
    p->v1 = t->side[0].summary.median;
    p->v2 = t->side[1].summary.median;
    p->ratio = t->speedup.ratio;
    p->lo = t->speedup.lo;
    p->hi = t->speedup.hi;
    p->verdict = kd_verdict_name(t->verdict);
    p->bound = c->counters.present && c->counters.side[1].roofline_valid ? kd_bound_name(c->counters.side[1].roofline.bound)
                                                                         : "-";
    p->outputs_ok = !t->checked || t->outputs_match;
}

static void print_table(FILE *out, const kd_sweep_spec *s, const kd_sweep_point *points, bool markdown)
{
    if (markdown)
        fprintf(out, "\n| %s | v1 | v2 | speedup (95%% CI) | verdict | v2 bound | outputs |\n|---:|---:|---:|---|---|---|---|\n",
                s->parameter);
    else
        fprintf(out, "\nsweep over %s\n  %-12s %10s %10s  %-24s %-26s %-8s %s\n", s->parameter, s->parameter, "v1", "v2",
                "speedup (95% CI)", "verdict", "bound", "outputs");
    for (size_t i = 0; i < s->count; i++) {
        const kd_sweep_point *p = &points[i];
        char a[32] = "-", b[32] = "-", speedup[64] = "-";
        if (p->timed) {
            kd_format_ns(p->v1, a, sizeof a);
            kd_format_ns(p->v2, b, sizeof b);
            snprintf(speedup, sizeof speedup, "%.3fx (%.3f-%.3f)", p->ratio, p->lo, p->hi);
        }
        const char *verdict = p->timed ? p->verdict : p->rc ? "failed" : "not measured";
        const char *outputs = !p->timed ? "-" : p->outputs_ok ? "match" : "DIFFER";
        if (markdown)
            fprintf(out, "| %s | %s | %s | %s | %s | %s | %s |\n", s->values[i], a, b, speedup, verdict,
                    p->timed ? p->bound : "-", outputs);
        else
            fprintf(out, "  %-12s %10s %10s  %-24s %-26s %-8s %s\n", s->values[i], a, b, speedup, verdict,
                    p->timed ? p->bound : "-", outputs);
    }
}

/* A point's options: the sweep's value in place of --n, or one more -D. */
static void point_options(const kd_options *opts, const kd_sweep_spec *s, size_t i, kd_options *o,
                          kd_strlist *defines, kd_strbuf *define_text)
{
    *o = *opts;
    o->json_path = o->markdown_path = o->save_path = o->html_path = o->csv_path = NULL;
    if (!s->define) {
        o->diff.launch.n = s->values[i];
        return;
    }
    memset(defines, 0, sizeof *defines);
    for (size_t d = 0; d < opts->diff.frontend.defines.count; d++)
        kd_strlist_push(defines, opts->diff.frontend.defines.items[d]);
    kd_sb_printf(define_text, "%s=%s", s->parameter, s->values[i]); /* any length */
    kd_strlist_push(defines, kd_sb_str(define_text));
    o->diff.frontend.defines = *defines;
}

/* The first analysed point, kept for the HTML page's static diff, with what its
 * comparison may still point into (the point's -D list). */
typedef struct kept_point {
    bool kept;
    kd_comparison c;
    kd_strlist defines;
    kd_strbuf define_text;
} kept_point;

/* --html and --csv: the sweep's charts and table, and its points as CSV rows. */
static int write_pictures(const kd_options *opts, const kd_sweep_spec *s, const kd_sweep_point *points,
                          const kept_point *first)
{
    kd_sweep_result result = {s->parameter, s->define, points, s->count};
    const kd_comparison *c = first->kept ? &first->c : NULL;
    int status = KD_EXIT_OK;
    kd_output out;
    if (opts->html_path) {
        if (kd_output_open(&out, opts->html_path, "sweep HTML"))
            kd_render_html(out.stream, c, &result);
        if (!out.stream || kd_output_close(&out, 0) != 0)
            status = KD_EXIT_TOOL;
    }
    if (opts->csv_path) {
        if (kd_output_open(&out, opts->csv_path, "sweep CSV"))
            kd_render_csv(out.stream, c, &result);
        if (!out.stream || kd_output_close(&out, 0) != 0)
            status = KD_EXIT_TOOL;
    }
    return status;
}

/* The human report written out now (stdout's failure kept for the end of the run). */
static void flush_human(FILE *human)
{
    if (human == stdout)
        kd_stdout_flush();
    else
        fflush(human);
}

int kd_sweep_run(const kd_options *opts, const kd_sweep_spec *s)
{
    kd_sweep_point *points = kd_xcalloc(s->count, sizeof *points);
    json_t *results = json_array();
    int status = KD_EXIT_OK;
    /* A document on stdout owns it: the human report then goes to stderr. */
    bool stdout_taken = kd_options_stdout_taken(opts);
    FILE *human = stdout_taken ? stderr : stdout;
    kept_point first = {0};
    /* Outside the loop: a comparison keeps pointers into its options (side.include_dirs),
     * and the kept first point must not see them go out of scope. Points differ only in
     * n and the -D list, which the kept point owns. */
    kd_options o;
    for (size_t i = 0; i < s->count; i++)
        points[i].value = s->values[i];
    for (size_t i = 0; i < s->count; i++) {
        kd_strlist defines = {0};
        kd_strbuf define_text = {0};
        point_options(opts, s, i, &o, &defines, &define_text);
        fprintf(human, "== %s = %s\n", s->parameter, s->values[i]);
        flush_human(human);
        kd_comparison c;
        kd_outcome outcome = kd_compare_files(&o.diff, &c);
        if (c.analysed && (i == 0 || opts->render.per_kernel))
            kd_render_terminal(human, &c, &opts->render); /* the static diff once; the table says the rest */
        else if (c.timed) {
            kd_strbuf line = {0};
            kd_timing_headline(&c.timing, &line);
            fprintf(human, "%s\n", kd_sb_str(&line));
            kd_sb_free(&line);
        }
        flush_human(human); /* the point's report before its messages: with 2>&1 none lands inside a table */
        kd_strbuf why = {0};
        if (outcome != KD_OK && kd_note_text(&c.runtime_note, &why))
            kd_text_fprintf(stderr, "kerndiff: %s = %s: %s\n", s->parameter, s->values[i], kd_sb_str(&why));
        kd_sb_free(&why);
        /* The point's exit status: --fail-if-slower and --require-match hold at every point,
         * as in a single diff. */
        int rc = kd_comparison_status(&c, outcome, &why);
        if (why.len)
            kd_text_fprintf(stderr, "kerndiff: %s = %s: %s\n", s->parameter, s->values[i], kd_sb_str(&why));
        kd_sb_free(&why);
        summarise(&c, rc, &points[i]);
        json_t *result = c.analysed ? kd_comparison_json(&c) : json_null();
        json_array_append_new(results, json_pack("{s:s, s:i, s:o}", "value", s->values[i], "exit", rc,
                                                 "result", result ? result : json_null()));
        if (c.analysed && !first.kept && opts->html_path) {
            first = (kept_point){true, c, defines, define_text};
        } else {
            kd_comparison_free(&c);
            free(defines.items);
            kd_sb_free(&define_text);
        }
        if (rc != KD_EXIT_OK && status == KD_EXIT_OK)
            status = rc;
        if (rc == KD_EXIT_BUILD || rc == KD_EXIT_INPUT || rc == KD_EXIT_USAGE || rc == KD_EXIT_TOOL)
            break; /* the other points would fail the same way */
    }
    print_table(human, s, points, false);
    flush_human(human); /* the table before any message about the files */
    json_t *root = json_pack("{s:i, s:s, s:{s:s, s:b, s:o}}", "schema_version", KD_JSON_SCHEMA_VERSION, "kerndiff_version", KD_VERSION,
                             "sweep", "parameter", s->parameter, "compile_time", s->define, "points", results);
    /* --json and --save may both be given: each gets the document. */
    const char *json_paths[2] = {opts->json_path, opts->save_path};
    kd_output out;
    for (int i = 0; i < 2; i++) {
        if (!json_paths[i])
            continue;
        if (!kd_output_open(&out, json_paths[i], "sweep JSON") ||
            kd_output_close(&out, !root || kd_write_json(out.stream, json_incref(root)) != 0) != 0)
            status = KD_EXIT_TOOL;
    }
    json_decref(root);
    if (opts->markdown_path) {
        if (kd_output_open(&out, opts->markdown_path, "sweep Markdown")) {
            fprintf(out.stream, "### kerndiff sweep over `%s`\n", s->parameter);
            print_table(out.stream, s, points, true);
        }
        if (!out.stream || kd_output_close(&out, 0) != 0)
            status = KD_EXIT_TOOL;
    }
    if (write_pictures(opts, s, points, &first) != KD_EXIT_OK)
        status = KD_EXIT_TOOL;
    if (first.kept) {
        kd_comparison_free(&first.c);
        free(first.defines.items);
        kd_sb_free(&first.define_text);
    }
    free(points);
    return status;
}
