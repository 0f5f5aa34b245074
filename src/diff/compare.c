#include "diff/compare.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "compile/build.h"
#include "diff/runtime.h"
#include "wire/locate.h"
#include "cli/exit_codes.h"
#include "source/select.h"
#include "util/fs.h"
#include "util/tmpdir.h"
#include "util/trace.h"

int kd_scan_file(const char *path, const char *side, kd_kernel_list *kernels,
                 kd_annotations *annotations)
{
    size_t len;
    char *text = kd_read_file(path, &len);
    if (!text) {
        fprintf(stderr, "kerndiff: %s%scannot read '%s': %s\n", side ? side : "", side ? ": " : "",
                path, strerror(errno));
        return KD_EXIT_INPUT;
    }
    int rc = kd_scan_source(text, len, kernels);
    if (rc == 0 && annotations)
        rc = kd_annotations_parse(text, len, annotations);
    free(text);
    if (rc != 0) {
        fprintf(stderr, "kerndiff: out of memory while scanning '%s'\n", path);
        return KD_EXIT_TOOL;
    }
    return KD_EXIT_OK;
}

/* --arch, else the GPU's own, else sm_90 (the lent and most common data-centre part). */
static int choose_arch(const kd_options *opts, kd_comparison *c)
{
    if (opts->arch) {
        if (kd_arch_parse(opts->arch) < 0) {
            fprintf(stderr, "kerndiff: --arch wants sm_XX (e.g. sm_90), got '%s'\n", opts->arch);
            return KD_EXIT_USAGE;
        }
        snprintf(c->arch, sizeof c->arch, "%s", opts->arch);
        c->arch_origin = "--arch";
    } else if (c->gpu.present) {
        snprintf(c->arch, sizeof c->arch, "sm_%d", c->gpu.sm);
        c->arch_origin = "GPU";
    } else {
        snprintf(c->arch, sizeof c->arch, "sm_90");
        c->arch_origin = "default, no GPU";
    }
    c->limits = kd_arch_limits_for(kd_arch_parse(c->arch));
    return KD_EXIT_OK;
}

/* `libs=cublas,cublasLt` in a launcher's annotations: libraries to link (owned by side). */
static void read_libs(kd_side *side)
{
    const char *libs = kd_annotation_get(&side->annotations, "libs");
    if (!libs)
        return;
    side->libs_text = strdup(libs);
    for (char *save = NULL, *lib = strtok_r(side->libs_text, ",", &save); lib; lib = strtok_r(NULL, ",", &save))
        kd_strlist_push(&side->libs, lib);
}

static int build_side(const kd_options *opts, const kd_comparison *c, kd_side *side)
{
    /* <kerndiff/launcher.h> must resolve for launcher files: its folder comes last. */
    kd_strlist include_dirs = {0};
    for (size_t i = 0; i < side->include_dirs->count; i++)
        kd_strlist_push(&include_dirs, side->include_dirs->items[i]);
    char *public_headers = kd_include_dir();
    if (public_headers)
        kd_strlist_push(&include_dirs, public_headers);
    bool launcher = side->kernel_info && side->kernel_info->is_launcher;
    if (launcher)
        read_libs(side);
    kd_build_config cfg = {
        .nvcc = kd_find_nvcc(opts->nvcc),
        .arch = c->arch,
        .include_dirs = &include_dirs,
        .defines = &opts->defines,
        .nvcc_flags = &opts->nvcc_flags,
        .use_cache = !opts->no_cache,
        .launcher = launcher ? side->kernel_info : NULL,
        .libs = &side->libs,
        .cuobjdump = kd_find_cuobjdump(kd_find_nvcc(opts->nvcc)),
    };
    kd_strbuf why = {0};
    kd_build_status st = kd_build_source(&cfg, side->path, side->label, &side->build, &why);
    int rc = KD_EXIT_OK;
    switch (st) {
    case KD_BUILD_OK:
        break;
    case KD_BUILD_NO_SOURCE:
        fprintf(stderr, "kerndiff: %s: %s\n", side->label, kd_sb_str(&why));
        rc = KD_EXIT_INPUT;
        break;
    case KD_BUILD_NO_COMPILER:
        fprintf(stderr, "kerndiff: %s\n", kd_sb_str(&why));
        rc = KD_EXIT_TOOL;
        break;
    case KD_BUILD_FAILED:
        fprintf(stderr, "kerndiff: %s: build of %s failed (nvcc -arch=%s); nvcc said:\n%s\n"
                        "Fix the error in %s, or check -I/-D/--nvcc-flag.\n",
                side->label, side->path, c->arch, kd_sb_str(&why), side->path);
        rc = KD_EXIT_BUILD;
        break;
    case KD_BUILD_SYSTEM:
        fprintf(stderr, "kerndiff: %s: %s\n", side->label, kd_sb_str(&why));
        rc = KD_EXIT_TOOL;
        break;
    }
    kd_sb_free(&why);
    free(include_dirs.items);
    free(public_headers);
    return rc;
}

/* --block as a plain number, for the occupancy estimate when no launch could be described. */
static int leading_count(const char *text)
{
    char *end;
    long v = text ? strtol(text, &end, 10) : 0;
    return text && !*end && v > 0 && v <= 1024 ? (int)v : 0;
}

static int analyze_side(const kd_options *opts, kd_comparison *c, kd_side *side)
{
    kd_static_request req = {
        .build = &side->build,
        .kernel = side->kernel,
        .launch_bounds = side->kernel_info ? side->kernel_info->launch_bounds : NULL,
        .annotated_block = kd_annotation_get(&side->annotations, "block"),
        .block_threads = side->launch_error ? leading_count(opts->block)
                                            : (int)(side->launch.block[0] * side->launch.block[1] * side->launch.block[2]),
        .block_origin = side->launch_error ? "--block" : "launch",
        .limits = c->limits,
        .cuobjdump = kd_find_cuobjdump(kd_find_nvcc(opts->nvcc)),
        .launcher = side->kernel_info && side->kernel_info->is_launcher,
    };
    kd_strbuf error = {0}, sass_note = {0};
    int rc = kd_static_analyze(&req, &side->stat, &error, &sass_note);
    if (rc != 0)
        fprintf(stderr, "kerndiff: %s (%s): %s\n", side->label, side->path, kd_sb_str(&error));
    if (sass_note.len && !c->sass_note) {
        kd_strbuf labelled = {0};
        kd_sb_printf(&labelled, "%s%s%s", req.cuobjdump ? side->label : "", req.cuobjdump ? ": " : "",
                     kd_sb_str(&sass_note));
        c->sass_note = kd_sb_take(&labelled);
    }
    kd_sb_free(&error);
    kd_sb_free(&sass_note);
    return rc == 0 ? KD_EXIT_OK : KD_EXIT_INPUT;
}

/* Git mode: the two sides are revisions of one file, written out with their includes. */
static int resolve_git(const kd_options *opts, kd_comparison *c, const char *files[2])
{
    const char *tmp = kd_tmpdir();
    char *workdir = tmp ? kd_path_join(tmp, "git") : NULL;
    kd_git_request req = {.file = opts->git_file, .at = opts->at, .workdir = workdir,
                          .include_dirs = &opts->include_dirs};
    kd_strbuf error = {0};
    int rc = workdir && kd_git_resolve(&req, &c->git, &error) == 0 ? KD_EXIT_OK : KD_EXIT_INPUT;
    if (rc != KD_EXIT_OK)
        fprintf(stderr, "kerndiff: %s\n", workdir ? kd_sb_str(&error) : "cannot create a private temporary folder");
    for (int s = 0; s < 2 && rc == KD_EXIT_OK; s++) {
        files[s] = c->git.side[s].path;
        kd_strbuf origin = {0};
        kd_sb_printf(&origin, "%s @ %s", opts->git_file, c->git.side[s].label);
        c->side[s].origin = kd_sb_take(&origin);
        c->side[s].include_dirs = &c->git.side[s].include_dirs;
    }
    if (rc == KD_EXIT_OK && c->git.identical) {
        kd_strbuf note = {0};
        kd_sb_printf(&note, "%s and %s are identical (file and includes): any difference below is noise",
                     c->git.side[0].label, c->git.side[1].label);
        c->git_note = kd_sb_take(&note);
    }
    kd_sb_free(&error);
    free(workdir);
    return rc;
}

int kd_compare_files(const kd_options *opts, kd_comparison *c)
{
    memset(c, 0, sizeof *c);
    c->started = (long long)time(NULL);
    static const char *const labels[2] = {"v1", "v2"};
    const char *files[2] = {opts->files[0], opts->files[1]};
    int rc;
    if (opts->git_file && (rc = resolve_git(opts, c, files)) != KD_EXIT_OK)
        return rc;
    for (int s = 0; s < 2; s++) {
        c->side[s].label = labels[s];
        c->side[s].path = files[s];
        if (!c->side[s].include_dirs)
            c->side[s].include_dirs = &opts->include_dirs;
        if ((rc = kd_scan_file(files[s], labels[s], &c->side[s].kernels,
                               &c->side[s].annotations)) != KD_EXIT_OK)
            return rc;
    }
    kd_kernel_list lists[2] = {c->side[0].kernels, c->side[1].kernels};
    kd_selection sel;
    kd_strbuf error = {0};
    bool interactive = isatty(STDIN_FILENO) && isatty(STDERR_FILENO);
    if (kd_select_kernel(lists, files, opts->fn, interactive ? stdin : NULL, stderr, &sel,
                         &error) != 0) {
        fprintf(stderr, "kerndiff: %s\n", kd_sb_str(&error));
        kd_sb_free(&error);
        return KD_EXIT_INPUT;
    }
    for (int s = 0; s < 2; s++) {
        c->side[s].kernel = sel.name[s];
        sel.name[s] = NULL;
        char *base = kd_base_name(c->side[s].kernel);
        c->side[s].kernel_info = kd_kernel_find(&c->side[s].kernels, base);
        free(base);
    }
    c->selection_note = sel.note;
    sel.note = NULL;
    kd_selection_free(&sel);

    kd_trace("kernels chosen: %s / %s", c->side[0].kernel, c->side[1].kernel);
    kd_gpu_probe(&c->gpu);
    kd_trace("GPU probe: %s", c->gpu.present ? c->gpu.name : c->gpu.reason);
    if ((rc = choose_arch(opts, c)) != KD_EXIT_OK)
        return rc;
    for (int s = 0; s < 2; s++)
        if ((rc = build_side(opts, c, &c->side[s])) != KD_EXIT_OK)
            return rc;
        else
            kd_trace("%s built%s", c->side[s].label, c->side[s].build.from_cache ? " (cache)" : "");
    kd_describe_launches(opts, c);
    for (int s = 0; s < 2; s++)
        if ((rc = analyze_side(opts, c, &c->side[s])) != KD_EXIT_OK)
            return rc;
    if (kd_comparison_tabulate(c) != 0) {
        fprintf(stderr, "kerndiff: out of memory\n");
        return KD_EXIT_TOOL;
    }
    c->analysed = true;
    kd_trace("static analysis done");
    rc = kd_compare_runtime(opts, c);
    if (opts->fail_if_slower_pct >= 0)
        kd_gate_evaluate(&c->timing, c->timed, opts->fail_if_slower_pct, &c->gate);
    return rc;
}
