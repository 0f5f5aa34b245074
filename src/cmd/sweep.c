/* A sweep (workflow/sweep.h): the diff at every point, each point's report as it comes, then
 * the summary table and every document through report/'s fan-out. */
#include "cmd/cmd.h"

#include <stdio.h>
#include <stdlib.h>

#include "cli/exit_codes.h"
#include "cli/outputs.h"
#include "cli/status.h"
#include "diff/pipeline.h"
#include "report/formats.h"
#include "report/gate_text.h"
#include "report/note_text.h"
#include "report/sweep_text.h"
#include "util/output.h"
#include "util/xalloc.h"
#include "workflow/sweep.h"
#include "workflow/workflow_msgs.h"

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

/* The first analysed point, kept for the HTML page's static diff, with what its
 * comparison may still point into (the point's -D list). */
typedef struct kept_point {
    bool kept;
    kd_comparison c;
    kd_strlist defines;
    kd_strbuf define_text;
} kept_point;

/* The human report written out now (stdout's failure kept for the end of the run). */
static void flush_human(FILE *human)
{
    if (human == stdout)
        kd_stdout_flush();
    else
        fflush(human);
}

/* Something about one point, said with the point named ("kerndiff: n = 4: ..."). */
static void say_point(const kd_sweep_spec *s, size_t i, const kd_strbuf *what)
{
    if (what->len)
        kd_say(KD_MSG_SWEEP_POINT, KD_DIAG_NO_SIDE, KD_S(s->parameter), KD_S(s->values[i]), KD_S(kd_sb_str(what)));
}

/* Runs every point, printing each as it comes; its exit status, and the points summarised. */
static int run_points(const kd_options *opts, const kd_sweep_spec *s, FILE *human, kd_sweep_point *points,
                      json_t *results, kept_point *first)
{
    int status = KD_EXIT_OK;
    /* Outside the loop: a comparison keeps pointers into its options (side.include_dirs),
     * and the kept first point must not see them go out of scope. Points differ only in
     * n and the -D list, which the kept point owns. */
    kd_sweep_point_options o = {0};
    for (size_t i = 0; i < s->count; i++) {
        kd_sweep_point_setup(&opts->diff, s, i, &o);
        kd_render_sweep_point_header(human, s->parameter, s->values[i]);
        flush_human(human);
        kd_comparison c;
        kd_outcome outcome = kd_compare_files(&o.diff, &c);
        if (c.analysed && (i == 0 || opts->render.per_kernel))
            kd_render_terminal(human, &c, &opts->render); /* the static diff once; the table says the rest */
        else if (c.timed)
            kd_render_sweep_point_headline(human, &c.timing);
        flush_human(human); /* the point's report before its messages: with 2>&1 none lands inside a table */
        kd_strbuf why = {0};
        if (outcome != KD_OK && kd_note_text(&c.runtime_note, &why))
            say_point(s, i, &why);
        kd_sb_free(&why);
        /* The point's exit status: --fail-if-slower and --require-match hold at every point,
         * as in a single diff. */
        bool gate_failed;
        int rc = kd_comparison_status(&c, outcome, 0, &gate_failed);
        if (gate_failed)
            kd_gate_failure_text(&c, &why);
        say_point(s, i, &why);
        kd_sb_free(&why);
        summarise(&c, rc, &points[i]);
        json_t *result = c.analysed ? kd_comparison_json(&c) : json_null();
        json_array_append_new(results, json_pack("{s:s, s:i, s:o}", "value", s->values[i], "exit", rc, "result",
                                                 result ? result : json_null()));
        if (c.analysed && !first->kept && kd_options_output(opts, "--html")) {
            *first = (kept_point){true, c, o.defines, o.define_text};
            o.defines = (kd_strlist){0};
            o.define_text = (kd_strbuf){0};
        } else {
            kd_comparison_free(&c);
            kd_sweep_point_options_release(&o.defines, &o.define_text);
        }
        if (rc != KD_EXIT_OK && status == KD_EXIT_OK)
            status = rc;
        if (rc == KD_EXIT_BUILD || rc == KD_EXIT_INPUT || rc == KD_EXIT_USAGE || rc == KD_EXIT_TOOL)
            break; /* the other points would fail the same way */
    }
    return status;
}

int kd_cmd_sweep(const kd_cmd_args *a)
{
    const kd_options *opts = a->opts;
    kd_sweep_spec spec;
    kd_diag error = {0};
    if (kd_sweep_parse(opts->sweep, opts->diff.launch.n, &spec, &error) != 0) {
        kd_diag_say(&error);
        kd_diag_free(&error);
        kd_sweep_spec_free(&spec);
        return KD_EXIT_USAGE;
    }
    kd_sweep_point *points = kd_xcalloc(spec.count, sizeof *points);
    for (size_t i = 0; i < spec.count; i++)
        points[i].value = spec.values[i];
    json_t *results = json_array();
    /* A document on stdout owns it: the human report then goes to stderr. */
    FILE *human = kd_options_stdout_taken(opts) ? stderr : stdout;
    kept_point first = {0};
    int status = run_points(opts, &spec, human, points, results, &first);

    kd_sweep_result result = {spec.parameter, spec.define, points, spec.count};
    json_t *root = json_pack("{s:i, s:s, s:{s:s, s:b, s:o}}", "schema_version", KD_JSON_SCHEMA_VERSION,
                             "kerndiff_version", KD_VERSION, "sweep", "parameter", spec.parameter, "compile_time",
                             spec.define, "points", results);
    kd_format_request requests[KD_OUTPUTS_MAX];
    size_t n = kd_outputs_requests(opts, requests, KD_OUTPUTS_MAX);
    kd_format_subject s = {.kind = KD_SUBJECT_SWEEP, .comparison = first.kept ? &first.c : NULL, .sweep = &result,
                           .sweep_json = root, .render = &opts->render};
    int failures = kd_formats_write(&s, human, requests, n); /* the table, then the documents */
    if (failures)
        status = kd_outputs_status(failures); /* as before: a document lost is the sweep's status */
    json_decref(root);
    if (first.kept) {
        kd_comparison_free(&first.c);
        kd_sweep_point_options_release(&first.defines, &first.define_text);
    }
    free(points);
    kd_sweep_spec_free(&spec);
    return status;
}
