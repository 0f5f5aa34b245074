/* kerndiff — compare two versions of a GPU kernel. This file only dispatches: each stage
 * of the pipeline lives in its own folder under src/ (see docs/ARCHITECTURE.md). */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>

#include "cli/exit_codes.h"
#include "cli/options.h"
#include "diff/compare.h"
#include "report/report.h"
#include "source/roles.h"
#include "workflow/saved.h"
#include "workflow/sweep.h"
#include "workflow/watch.h"

static int list_kernels(const kd_options *opts, const char *path)
{
    kd_kernel_list list = {0};
    int rc = kd_scan_file(opts, path, NULL, &list, NULL);
    if (rc != KD_EXIT_OK)
        return rc;
    if (list.count == 0)
        printf("%s: no __global__ kernels\n", path);
    for (size_t i = 0; i < list.count; i++) {
        const kd_kernel *k = &list.items[i];
        printf("%s%s  (line %d", k->qualified, k->is_template ? "<...>" : "", k->line);
        if (k->is_launcher)
            printf(", launcher");
        if (k->extern_c)
            printf(", extern \"C\"");
        if (k->launch_bounds)
            printf(", __launch_bounds__(%s)", k->launch_bounds);
        printf(")\n");
        if (k->is_template) {
            printf("  template <%s>; instances:", k->template_params ? k->template_params : "");
            for (size_t j = 0; j < k->ninstantiations; j++)
                printf(" %s<%s>", k->name, k->instantiations[j]);
            printf("%s\n", k->ninstantiations ? "" : " none (pick one with --fn 'NAME<TYPE>')");
        }
        for (size_t j = 0; j < k->nparams; j++) {
            const kd_param *p = &k->params[j];
            kd_param_role role = kd_param_role_of(p);
            printf("  %-24s %-12s %s", p->type, *p->name ? p->name : "(unnamed)", kd_param_role_name(role));
            if (p->is_pointer)
                printf(" of %s", p->pointee);
            if (role == KD_ROLE_SCALAR && !p->default_value)
                printf(" (needs --arg %s=VALUE)", *p->name ? p->name : "NAME");
            if (p->default_value)
                printf(" (default %s)", p->default_value);
            printf("\n");
        }
    }
    kd_kernel_list_free(&list);
    return KD_EXIT_OK;
}

/* Opens an output destination: "-" is stdout. */
static FILE *open_output(const char *path, const char *what)
{
    if (strcmp(path, "-") == 0)
        return stdout;
    FILE *f = fopen(path, "w");
    if (!f)
        fprintf(stderr, "kerndiff: cannot write the %s to '%s': %s\n", what, path, strerror(errno));
    return f;
}

static int close_output(FILE *f, const char *path, const char *what)
{
    int failed = fflush(f) != 0 || ferror(f);
    if (f != stdout)
        failed |= fclose(f) != 0;
    if (failed)
        fprintf(stderr, "kerndiff: writing the %s to '%s' failed\n", what, path);
    return failed ? -1 : 0;
}

/* --fail-if-slower: a failed gate, or one with nothing to judge, decides the exit status. */
static int gate_status(const kd_comparison *c, int rc)
{
    if (rc != KD_EXIT_OK || !c->gate.requested || (c->gate.evaluated && !c->gate.failed))
        return rc;
    fprintf(stderr, "kerndiff: %s\n", c->gate.text);
    return c->gate.failed ? KD_EXIT_SLOWER : KD_EXIT_RUNTIME;
}

static int render(const kd_options *opts, const kd_comparison *c)
{
    kd_render_options ro = kd_render_options_for(opts);
    bool stdout_taken = (opts->json_path && strcmp(opts->json_path, "-") == 0) ||
                        (opts->markdown_path && strcmp(opts->markdown_path, "-") == 0);
    if (!stdout_taken)
        kd_render_terminal(stdout, c, &ro);
    const char *json_paths[2] = {opts->json_path, opts->save_path};
    for (int i = 0; i < 2; i++) {
        if (!json_paths[i])
            continue;
        FILE *f = open_output(json_paths[i], "JSON");
        if (!f || kd_render_json(f, c) != 0 || close_output(f, json_paths[i], "JSON") != 0)
            return KD_EXIT_TOOL;
    }
    if (opts->markdown_path) {
        FILE *f = open_output(opts->markdown_path, "Markdown");
        if (!f)
            return KD_EXIT_TOOL;
        ro.color = false;
        kd_render_markdown(f, c, &ro);
        if (close_output(f, opts->markdown_path, "Markdown") != 0)
            return KD_EXIT_TOOL;
    }
    return KD_EXIT_OK;
}

int main(int argc, char **argv)
{
    /* A harness that dies makes writes to its pipe fail; that must be an error to handle,
     * not a signal that ends kerndiff. */
    signal(SIGPIPE, SIG_IGN);
    kd_options opts;
    int rc = kd_options_parse(argc, argv, &opts);
    if (rc != 0) {
        kd_options_free(&opts);
        return rc;
    }
    switch (opts.command) {
    case KD_CMD_HELP:
        kd_print_help();
        break;
    case KD_CMD_VERSION:
        printf("kerndiff %s\n", KD_VERSION);
        break;
    case KD_CMD_LIST:
        rc = list_kernels(&opts, opts.files[0]);
        break;
    case KD_CMD_COMPARE: {
        kd_comparison c;
        rc = kd_compare_saved(&opts, &c);
        if (c.analysed && opts.fail_if_slower_pct >= 0)
            kd_gate_evaluate(&c.timing, c.timed, opts.fail_if_slower_pct, &c.gate);
        if (c.analysed)
            rc = render(&opts, &c);
        rc = gate_status(&c, rc);
        kd_comparison_free(&c);
        break;
    }
    case KD_CMD_DIFF: {
        if (opts.watch) {
            rc = kd_watch_run(&opts, argc, argv);
            break;
        }
        if (kd_sweep_requested(&opts)) {
            kd_sweep_spec spec;
            kd_strbuf error = {0};
            if (kd_sweep_parse(&opts, &spec, &error) != 0) {
                fprintf(stderr, "kerndiff: %s\n", kd_sb_str(&error));
                rc = KD_EXIT_USAGE;
            } else {
                rc = kd_sweep_run(&opts, &spec);
            }
            kd_sb_free(&error);
            kd_sweep_spec_free(&spec);
            break;
        }
        kd_comparison c;
        rc = kd_compare_files(&opts, &c);
        c.argc = argc;
        c.argv = argv;
        if (c.analysed) {
            int render_rc = render(&opts, &c);
            if (rc != KD_EXIT_OK && c.runtime_note)
                fprintf(stderr, "kerndiff: %s\n", c.runtime_note);
            if (rc == KD_EXIT_OK)
                rc = render_rc;
        }
        rc = gate_status(&c, rc);
        if (rc == KD_EXIT_OK && opts.require_match && c.timed && c.timing.checked && !c.timing.outputs_match) {
            fprintf(stderr, "kerndiff: outputs differ between v1 and v2 (--require-match)\n");
            rc = KD_EXIT_MISMATCH;
        }
        kd_comparison_free(&c);
        break;
    }
    }
    kd_options_free(&opts);
    return rc;
}
