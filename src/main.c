/* kerndiff — compare two versions of a GPU kernel. This file only dispatches: each stage
 * of the pipeline lives in its own folder under src/ (see docs/ARCHITECTURE.md). */
#include <errno.h>
#include <jansson.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "app/collect.h"
#include "cli/exit_codes.h"
#include "cli/options.h"
#include "cli/outputs.h"
#include "cli/status.h"
#include "diff/compare.h"
#include "report/app_report.h"
#include "report/diag_text.h"
#include "report/model_text.h"
#include "report/launch_text.h"
#include "report/list_text.h"
#include "report/parts_text.h"
#include "report/report.h"
#include "report/note_text.h"
#include "source/compiled.h"
#include "source/roles.h"
#include "util/output.h"
#include "util/text.h"
#include "util/trace.h"
#include "util/xalloc.h"
#include "wire/protocol.h"
#include "workflow/saved.h"
#include "workflow/sweep.h"
#include "workflow/watch.h"

static int list_kernels(const kd_options *opts, const char *path)
{
    kd_kernel_list list = {0};
    kd_annotations notes = {0};
    char *ptx = NULL;
    int rc = kd_exit_code(kd_list_file(&opts->diff, path, &list, &notes, &ptx));
    if (rc == KD_EXIT_OK) {
        kd_strbuf text = {0};
        kd_list_text(path, &list, &notes, ptx, &opts->diff.launch, &text); /* report/list_text.h */
        fputs(kd_sb_str(&text), stdout);
        kd_sb_free(&text);
    }
    free(ptx);
    kd_kernel_list_free(&list);
    kd_annotations_free(&notes);
    return rc;
}


/* A comparison's exit status: its outcome; when it succeeded, a report that could not be
 * written (render_rc), then the gate's result (judged by the pipeline, diff/gate.h). The
 * same step for a diff and for `compare`. */
static int comparison_status(const kd_comparison *c, kd_outcome outcome, int render_rc)
{
    if (outcome == KD_OK && render_rc != KD_EXIT_OK)
        return render_rc;
    kd_strbuf why = {0};
    int status = kd_comparison_status(c, outcome, &why);
    if (why.len)
        kd_text_fprintf(stderr, "kerndiff: %s\n", kd_sb_str(&why));
    kd_sb_free(&why);
    return status;
}

/* The documents a comparison can be written as (--json/--save, --trace, --markdown, --html, --csv). */
typedef enum document { DOC_JSON, DOC_TRACE, DOC_MARKDOWN, DOC_HTML, DOC_CSV } document;

/* One document to `path` (a file, or "-" for stdout), rendered in memory and written whole
 * (util/output.h). 0, or -1 after a message naming the file. */
static int write_document(document d, const char *path, const kd_comparison *c, const kd_render_options *plain)
{
    static const char *const what[] = {"JSON", "trace", "Markdown", "HTML", "CSV"};
    kd_output out;
    if (!kd_output_open(&out, path, what[d]))
        return -1;
    int failed = 0;
    switch (d) {
    case DOC_JSON: failed = kd_render_json(out.stream, c); break;
    case DOC_TRACE: failed = kd_render_trace(out.stream, c); break;
    case DOC_MARKDOWN: kd_render_markdown(out.stream, c, plain); break;
    case DOC_HTML: kd_render_html(out.stream, c, NULL); break;
    case DOC_CSV: kd_render_csv(out.stream, c, NULL); break;
    }
    return kd_output_close(&out, failed != 0);
}

static int render(const kd_options *opts, const kd_comparison *c)
{
    kd_status_clear();
    if (!kd_options_stdout_taken(opts))
        kd_render_terminal(stdout, c, &opts->render);
    /* The report leaves before any message about the files: with 2>&1 (a CI log) a
     * message then never lands inside one of its tables. */
    kd_stdout_flush();
    kd_render_options plain = opts->render;
    plain.color = false;
    const struct {
        document d;
        const char *path;
    } docs[] = {
        {DOC_JSON, opts->json_path}, {DOC_JSON, opts->save_path},
        {DOC_TRACE, c->regions_run ? opts->trace_path : NULL}, {DOC_MARKDOWN, opts->markdown_path},
        {DOC_HTML, opts->html_path}, {DOC_CSV, opts->csv_path},
    };
    /* Every output is attempted, so one bad path does not cost the others; any failure is
     * the exit status. */
    int rc = KD_EXIT_OK;
    for (size_t i = 0; i < sizeof docs / sizeof *docs; i++)
        if (docs[i].path && write_document(docs[i].d, docs[i].path, c, &plain) != 0)
            rc = KD_EXIT_TOOL;
    return rc;
}

/* `kerndiff app`: collect or read both sides, render, gate on the total kernel time. */
static int app_command(const kd_options *opts)
{
    kd_app_comparison c;
    int rc = kd_exit_code(kd_app_collect(opts->diff.files, &opts->app, opts->diff.gate.fail_if_slower_pct, &c));
    if (rc == KD_EXIT_OK) {
        if (!kd_options_stdout_taken(opts))
            kd_app_render_terminal(stdout, &c, opts->app.top);
        kd_stdout_flush(); /* the report before any message about the files (2>&1) */
        /* Every output is attempted, so one bad path does not cost the others. */
        kd_output out;
        if (opts->json_path && (!kd_output_open(&out, opts->json_path, "JSON") ||
                                kd_output_close(&out, kd_app_render_json(out.stream, &c)) != 0))
            rc = KD_EXIT_TOOL;
        if (opts->markdown_path) {
            if (kd_output_open(&out, opts->markdown_path, "Markdown"))
                kd_app_render_markdown(out.stream, &c, opts->app.top);
            if (!out.stream || kd_output_close(&out, 0) != 0)
                rc = KD_EXIT_TOOL;
        }
        if (opts->html_path) {
            if (kd_output_open(&out, opts->html_path, "HTML"))
                kd_app_render_html(out.stream, &c, opts->app.top);
            if (!out.stream || kd_output_close(&out, 0) != 0)
                rc = KD_EXIT_TOOL;
        }
        if (rc == KD_EXIT_OK && c.gate == KD_APP_GATE_SLOWER) {
            kd_text_fprintf(stderr, "kerndiff: v2's GPU kernel time is more than %g%% above v1's (--fail-if-slower)\n",
                            opts->diff.gate.fail_if_slower_pct);
            rc = KD_EXIT_SLOWER;
        }
    }
    kd_app_comparison_free(&c);
    return rc;
}

int main(int argc, char **argv)
{
    /* A harness that dies makes writes to its pipe fail; that must be an error to handle,
     * not a signal that ends kerndiff. */
    signal(SIGPIPE, SIG_IGN);
    /* jansson's allocations follow the out-of-memory policy too (util/xalloc.h). */
    json_set_alloc_funcs(kd_xmalloc, free);
    /* The engine's messages are data (util/diag.h), worded by report/ on stderr. */
    kd_diag_set_sink(kd_diag_to_stderr, NULL);
    kd_options opts;
    int rc = kd_options_parse(argc, argv, &opts);
    if (rc == 0)
        rc = kd_outputs_check(&opts); /* before anything runs: no report over the user's work */
    if (rc != 0) {
        kd_options_free(&opts);
        return rc;
    }
    kd_trace_set(opts.verbosity);
    switch (opts.command) {
    case KD_CMD_HELP:
        kd_print_help();
        break;
    case KD_CMD_VERSION:
        printf("kerndiff %s\nbuilt with CUDA %s; harness protocol %d; JSON schema %d\n", KD_VERSION, KD_CUDA_VERSION,
               KD_PROTOCOL_VERSION, KD_JSON_SCHEMA_VERSION);
        {
            kd_strbuf parts = {0};
            kd_parts_text(&parts); /* which tools and parts were found, and where */
            fputs(kd_sb_str(&parts), stdout);
            kd_sb_free(&parts);
        }
        break;
    case KD_CMD_COMPLETION:
        kd_print_completion(opts.completion_shell);
        break;
    case KD_CMD_LIST:
        rc = list_kernels(&opts, opts.diff.files[0]);
        break;
    case KD_CMD_APP:
        rc = app_command(&opts);
        break;
    case KD_CMD_COMPARE: {
        kd_comparison c;
        kd_outcome outcome = kd_compare_saved(&opts.diff, opts.compare_side, &c);
        rc = comparison_status(&c, outcome, c.analysed ? render(&opts, &c) : KD_EXIT_OK);
        kd_comparison_free(&c);
        break;
    }
    case KD_CMD_DIFF: {
        if (opts.watch) {
            rc = kd_exit_code(kd_watch_run(&opts.diff, &opts.render, argc, argv));
            break;
        }
        if (kd_sweep_requested(&opts)) {
            kd_sweep_spec spec;
            kd_strbuf error = {0};
            if (kd_sweep_parse(&opts, &spec, &error) != 0) {
                kd_text_fprintf(stderr, "kerndiff: %s\n", kd_sb_str(&error));
                rc = KD_EXIT_USAGE;
            } else {
                rc = kd_sweep_run(&opts, &spec);
            }
            kd_sb_free(&error);
            kd_sweep_spec_free(&spec);
            break;
        }
        kd_comparison c;
        kd_outcome outcome = kd_compare_files(&opts.diff, &c);
        c.argc = argc;
        c.argv = argv;
        int render_rc = KD_EXIT_OK;
        if (c.analysed) {
            render_rc = render(&opts, &c);
            kd_strbuf why = {0};
            if (outcome != KD_OK && kd_note_text(&c.runtime_note, &why))
                kd_text_fprintf(stderr, "kerndiff: %s\n", kd_sb_str(&why));
            kd_sb_free(&why);
        }
        rc = comparison_status(&c, outcome, render_rc);
        kd_comparison_free(&c);
        break;
    }
    }
    kd_options_free(&opts);
    if (kd_stdout_check() != 0 && rc == KD_EXIT_OK)
        rc = KD_EXIT_TOOL; /* a report nobody received: the status says so too */
    return rc;
}
