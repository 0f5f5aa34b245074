/* The outputs as one table, and the fan-out that writes them (report/formats.h). */
#include "report/formats.h"

#include <string.h>

#include "report/app_report.h"
#include "report/fit.h"
#include "report/rank_report.h"
#include "report/sweep_text.h"
#include "util/output.h"
#include "report/stderr_text.h"

/* Documents never carry colour; the rest of the terminal's options hold. */
static kd_render_options plain(const kd_format_subject *s)
{
    kd_render_options o = s->render ? *s->render : (kd_render_options){0};
    o.color = false;
    return o;
}

/* The terminal report. */
static int terminal_comparison(FILE *out, const kd_format_subject *s)
{
    kd_render_terminal(out, s->comparison, s->render);
    return 0;
}
static int terminal_sweep(FILE *out, const kd_format_subject *s)
{
    kd_render_sweep_table(out, s->sweep, false);
    return 0;
}
static int terminal_app(FILE *out, const kd_format_subject *s)
{
    kd_app_render_terminal(out, s->app, s->app_top);
    return 0;
}

/* JSON (docs/json-schema.json, docs/app-json-schema.json). */
static int json_comparison(FILE *out, const kd_format_subject *s)
{
    return kd_render_json(out, s->comparison);
}
static int json_sweep(FILE *out, const kd_format_subject *s)
{
    return s->sweep_json ? kd_write_json(out, json_incref(s->sweep_json)) : -1;
}
static int json_app(FILE *out, const kd_format_subject *s)
{
    return kd_app_render_json(out, s->app);
}

/* The region timelines: only when regions were run. */
static int trace_comparison(FILE *out, const kd_format_subject *s)
{
    return kd_render_trace(out, s->comparison);
}
static bool trace_applies(const kd_format_subject *s)
{
    return s->kind == KD_SUBJECT_COMPARISON && s->comparison->regions_run;
}

static int markdown_comparison(FILE *out, const kd_format_subject *s)
{
    kd_render_options o = plain(s);
    kd_render_markdown(out, s->comparison, &o);
    return 0;
}
static int markdown_sweep(FILE *out, const kd_format_subject *s)
{
    fprintf(out, "### kerndiff sweep over `%s`\n", s->sweep->parameter);
    kd_render_sweep_table(out, s->sweep, true);
    return 0;
}
static int markdown_app(FILE *out, const kd_format_subject *s)
{
    kd_app_render_markdown(out, s->app, s->app_top);
    return 0;
}

/* HTML: a sweep's page shows its first analysed point's static diff (or none). */
static int html_comparison(FILE *out, const kd_format_subject *s)
{
    kd_render_html(out, s->comparison, NULL);
    return 0;
}
static int html_sweep(FILE *out, const kd_format_subject *s)
{
    kd_render_html(out, s->comparison, s->sweep);
    return 0;
}
static int html_app(FILE *out, const kd_format_subject *s)
{
    kd_app_render_html(out, s->app, s->app_top);
    return 0;
}

/* The raw samples: only when something was timed (a sweep has its rows whatever was timed). */
static bool csv_applies(const kd_format_subject *s)
{
    return s->kind != KD_SUBJECT_COMPARISON || (s->comparison && s->comparison->timed);
}
static int csv_comparison(FILE *out, const kd_format_subject *s)
{
    kd_render_csv(out, s->comparison, NULL);
    return 0;
}
static int csv_sweep(FILE *out, const kd_format_subject *s)
{
    kd_render_csv(out, s->comparison, s->sweep);
    return 0;
}

/* kerndiff rank (report/rank_report.h). */
static int terminal_rank(FILE *out, const kd_format_subject *s)
{
    kd_rank_render_terminal(out, s->rank, s->render && s->render->color);
    return 0;
}
static int json_rank(FILE *out, const kd_format_subject *s) { return kd_rank_render_json(out, s->rank); }
static int markdown_rank(FILE *out, const kd_format_subject *s)
{
    kd_rank_render_markdown(out, s->rank);
    return 0;
}
static int html_rank(FILE *out, const kd_format_subject *s)
{
    kd_rank_render_html(out, s->rank);
    return 0;
}

/* The built-in rows; a format of its own file defines its row the same way
 * (const kd_format kd_format_NAME = {...}) and adds X(NAME) to the list below. */
const kd_format kd_format_terminal = {"terminal report", {{.name = NULL}}, terminal_comparison, terminal_sweep, terminal_app, NULL,
                                      terminal_rank, NULL};
const kd_format kd_format_json = {
    "JSON",
    {{"--json", true, "--json[=FILE]",
      "write JSON (docs/json-schema.json) to FILE or stdout (-);\n"
      "`--json FILE` takes the next word unless it is a source file", "Output", ".json", 0},
     {"--save", false, "--save FILE.json", "the whole result (samples, counters, environment)", "Saving", ".json", 1u << KD_SUBJECT_APP}},
    json_comparison, json_sweep, json_app, NULL, json_rank, NULL};
const kd_format kd_format_trace = {
    "trace",
    {{"--trace", false, "--trace FILE.json",
      "both versions' region timelines for ui.perfetto.dev (implies --regions)", "Regions", ".json", 0}},
    trace_comparison, NULL, NULL, trace_applies, NULL,
    "the trace holds --regions timelines, and none were taken"};
const kd_format kd_format_markdown = {
    "Markdown",
    {{"--markdown", true, "--markdown[=FILE]", "write Markdown to FILE or stdout (`--markdown FILE`, -)", "Output", ".md", 0}},
    markdown_comparison, markdown_sweep, markdown_app, NULL, markdown_rank, NULL};
const kd_format kd_format_html = {
    "HTML",
    {{"--html", false, "--html FILE",
      "a self-contained HTML report with charts (samples, speedup CI,\n"
      "roofline, regions and a timeline of one block per side; a sweep's\n"
      "time and speedup against its values; app: its top kernels)", "Output", ".html", 0}},
    html_comparison, html_sweep, html_app, NULL, html_rank, NULL};
const kd_format kd_format_csv = {
    "CSV",
    {{"--csv", false, "--csv FILE",
      "the raw samples (side,index,round,ns,throttled), or one row per\n"
      "sweep point; \"-\" writes any document to stdout (one at most)", "Output", ".csv", 0}},
    csv_comparison, csv_sweep, NULL, csv_applies, NULL,
    "the CSV holds the timing's raw samples, and nothing was timed"};

/* THE TABLE: one line per format, the terminal first (kd_formats_write writes it to the
 * human stream). */
#define KD_FORMAT_LIST(X)                                                                                              \
    X(terminal)                                                                                                        \
    X(json)                                                                                                            \
    X(trace)                                                                                                           \
    X(markdown)                                                                                                        \
    X(html)                                                                                                            \
    X(csv)                                                                                                             \
    /* a new format: its line X(NAME) above this one */

#define KD_FORMAT_DECLARE(name) extern const kd_format kd_format_##name;
#define KD_FORMAT_ADDRESS(name) &kd_format_##name,
KD_FORMAT_LIST(KD_FORMAT_DECLARE)
const kd_format *const kd_formats[] = {KD_FORMAT_LIST(KD_FORMAT_ADDRESS) NULL};

enum { ROW_OPTIONS = sizeof kd_format_terminal.options / sizeof kd_format_terminal.options[0] };

const kd_format *kd_format_for_option(const char *option)
{
    for (const kd_format *const *row = kd_formats; option && *row; row++) {
        const kd_format *f = *row;
        for (size_t i = 0; i < ROW_OPTIONS && f->options[i].name; i++)
            if (strcmp(f->options[i].name, option) == 0)
                return f;
    }
    return NULL;
}

static kd_format_render renderer(const kd_format *f, kd_subject_kind kind);

bool kd_format_option_renders(const kd_format_option *o, kd_subject_kind kind)
{
    const kd_format *f = o ? kd_format_for_option(o->name) : NULL;
    return f && renderer(f, kind) && !(o->not_for & (1u << kind));
}

const kd_format_option *kd_format_option_at(size_t slot)
{
    size_t n = 0;
    for (const kd_format *const *row = kd_formats; *row; row++)
        for (size_t i = 0; i < ROW_OPTIONS && (*row)->options[i].name; i++)
            if (n++ == slot)
                return &(*row)->options[i];
    return NULL;
}

int kd_format_option_slot(const char *option)
{
    const kd_format_option *o;
    for (size_t slot = 0; option && (o = kd_format_option_at(slot)) != NULL; slot++)
        if (strcmp(o->name, option) == 0)
            return (int)slot;
    return -1;
}

static kd_format_render renderer(const kd_format *f, kd_subject_kind kind)
{
    switch (kind) {
    case KD_SUBJECT_COMPARISON: return f->comparison;
    case KD_SUBJECT_SWEEP: return f->sweep;
    case KD_SUBJECT_APP: return f->app;
    case KD_SUBJECT_RANK: return f->rank;
    }
    return NULL;
}

/* What became of one output, said when it failed ("the sweep JSON", naming the path). */
static int say_result(kd_output_result result, int err, const char *name, bool sweep, const char *path)
{
    const char *where = strcmp(path, "-") == 0 ? "standard output" : path;
    const char *prefix = sweep ? "sweep " : "";
    switch (result) {
    case KD_OUTPUT_WRITTEN: return 0;
    case KD_OUTPUT_NO_MEMORY:
        kd_untrusted_fprintf(stderr, "kerndiff: cannot prepare the %s%s for '%s': out of memory\n", prefix, name, path);
        break;
    case KD_OUTPUT_NOT_RENDERED:
        kd_untrusted_fprintf(stderr, "kerndiff: cannot write the %s%s to '%s': it could not be rendered (out of memory, or "
                        "a value JSON cannot hold); nothing was written\n", prefix, name, where);
        break;
    case KD_OUTPUT_NOT_WRITTEN:
        kd_untrusted_fprintf(stderr, "kerndiff: cannot write the %s%s to '%s': %s (check that the folder exists, is "
                        "writable and has space)\n", prefix, name, where, err ? strerror(err) : "write error");
        break;
    }
    return -1;
}

/* One document, rendered in memory and written whole (util/output.h); 0 or -1 (said). */
static int write_one(const kd_format *f, kd_format_render render, const kd_format_subject *s, const char *path)
{
    kd_output out;
    int failed = 0, err;
    if (kd_output_open(&out, path))
        failed = render(out.stream, s) != 0;
    kd_output_result result = kd_output_close(&out, failed, &err);
    return say_result(result, err, f->name, s->kind == KD_SUBJECT_SWEEP, path);
}

typedef struct human_job {
    kd_format_render render;
    const kd_format_subject *s;
} human_job;

static void human_render(FILE *out, const void *ctx)
{
    const human_job *job = ctx;
    job->render(out, job->s);
}

static bool formats_attempted;

bool kd_formats_attempted(void)
{
    return formats_attempted;
}

void kd_formats_unwritten(const kd_format_request *requests, size_t n)
{
    for (size_t i = 0; i < n; i++)
        if (requests[i].path && strcmp(requests[i].path, "-") != 0)
            kd_untrusted_fprintf(stderr, "kerndiff: %s %s: not written: the run stopped before its report%s\n",
                                 requests[i].option, requests[i].path,
                                 kd_output_left_over(requests[i].path) ? "; the file there is an earlier run's" : "");
}

int kd_formats_write(const kd_format_subject *s, FILE *human, const kd_format_request *requests, size_t n)
{
    formats_attempted = true;
    if (human) {
        kd_format_render render = renderer(&kd_format_terminal, s->kind);
        /* within the terminal's width (a diff's report fits itself: kd_render_terminal) */
        human_job job = {render, s};
        if (render && s->kind == KD_SUBJECT_COMPARISON)
            render(human, s);
        else if (render)
            kd_fit_render(human, s->render && s->render->full, human_render, &job);
    }
    /* The report leaves before any message about the files: with 2>&1 (a CI log) a message
     * then never lands inside one of its tables. stdout's failure is kept for the end. */
    if (human == stdout || !human)
        kd_stdout_flush();
    else
        fflush(human);
    int failures = 0;
    for (size_t i = 0; i < n; i++) {
        const kd_format *f = kd_format_for_option(requests[i].option);
        kd_format_render render = f ? renderer(f, s->kind) : NULL;
        if (!requests[i].path || !f)
            continue;
        /* Nothing requested is dropped in silence (issue 41): a format this command's results
           have no form in is a lost output (exit 7); one with nothing to show this time (a
           trace without a timed run) is said. */
        static const char *const subject_words[] = {"a diff", "a sweep", "app", "rank"};
        if (!render) {
            kd_untrusted_fprintf(stderr, "kerndiff: %s %s: %s has no %s form; nothing was written (use --json or "
                                         "--markdown)\n", requests[i].option, requests[i].path,
                                 subject_words[s->kind], f->name);
            failures++;
            continue;
        }
        if (f->applies && !f->applies(s)) {
            /* A file an earlier run left there would pass for this run's: it goes. */
            int err, gone = kd_output_discard(requests[i].path, &err);
            kd_untrusted_fprintf(stderr, "kerndiff: %s %s: the %s has nothing to show for this run (%s); not written%s%s\n",
                                 requests[i].option, requests[i].path, f->name,
                                 f->nothing_to_show ? f->nothing_to_show : "it applies to none of it",
                                 gone == 1 ? ", and the file already there is removed (it was not this run's)"
                                 : gone < 0 ? ", and the file already there could not be removed: "
                                            : "",
                                 gone < 0 ? strerror(err) : "");
            failures += gone < 0;
            continue;
        }
        /* Every output is attempted, so one bad path does not cost the others. */
        if (write_one(f, render, s, requests[i].path) != 0)
            failures++;
    }
    return failures;
}

int kd_formats_stdout_check(void)
{
    int err;
    if (kd_stdout_check(&err) == 0)
        return 0;
    kd_untrusted_fprintf(stderr, "kerndiff: cannot write the report to standard output: %s\n",
                    err ? strerror(err) : "write error");
    return -1;
}
