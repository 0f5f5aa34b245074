#include "diff/pipeline.h"

#include <errno.h>
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "backend/backend.h"
#include "backend/triton_msgs.h"
#include "compile/build.h"
#include "compile/deps.h"
#include "diff/autotune.h"
#include "diff/build_target.h"
#include "diff/diff_msgs.h"
#include "diff/markers.h"
#include "diff/runtime.h"
#include "app/capture_run.h"
#include "gpu/probe.h"
#include "launch/replay.h"
#include "regions/instrument.h"
#include "wire/locate.h"
#include "util/outcome.h"
#include "source/callers.h"
#include "source/compiled.h"
#include "source/pykernels.h"
#include "source/select.h"
#include "util/fs.h"
#include "util/text.h"
#include "util/tmpdir.h"
#include "util/progress.h"
#include "util/xalloc.h"

int kd_scan_file(const kd_frontend_options *opts, const char *path, const char *side, kd_kernel_list *kernels,
                 kd_annotations *annotations)
{
    return kd_frontend_for(path)->scan(opts, path, side, kernels, annotations);
}

/* --arch, else the GPU's own, else sm_90 (the lent and most common data-centre part). */
static int choose_arch(const kd_diff_options *opts, kd_comparison *c)
{
    if (opts->arch) {
        if (kd_arch_parse(opts->arch) < 0) {
            kd_say(KD_MSG_DIFF_ARCH_WANTS_SM, KD_DIAG_NO_SIDE, KD_S(opts->arch));
            return KD_FAIL_USAGE;
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
    return KD_OK;
}

/* The side's front end builds it; a front end that fixes part of the launch (Triton) is
 * prepared first, and the build may specialise on the launch described so far. */
static int build_side(const kd_diff_options *opts, const kd_comparison *c, kd_side *side)
{
    kd_build_target target = kd_build_target_of(c);
    return side->frontend->build(&opts->frontend, &opts->launch, &target, side);
}

/* The kernels that the files `path` includes declare (those the preprocessor finds from its
 * folder and the -I folders), each marked with its header: what the compiled code defines
 * beyond the file's own kernels is named from there. */
static void header_kernels(const kd_side *side, kd_kernel_list *out)
{
    *out = (kd_kernel_list){0};
    kd_include_set files = {0};
    kd_strbuf error = {0};
    if (kd_include_walk_disk(side->path, side->include_dirs, &files, &error) == KD_INCLUDE_FOUND) {
        for (size_t f = 1; f < files.count; f++) { /* files[0] is the source itself */
            kd_kernel_list found;
            kd_scan_source(files.files[f].text, files.files[f].len, &found);
            for (size_t i = 0; i < found.count; i++) {
                found.items[i].header = kd_xstrdup(files.files[f].path);
                out->items = kd_xreallocarray(out->items, out->count + 1, sizeof *out->items);
                out->items[out->count++] = found.items[i];
                found.items[i] = (kd_kernel){0};
            }
            kd_kernel_list_free(&found);
        }
    }
    kd_include_set_free(&files);
    kd_sb_free(&error);
}

/* What the compiled code adds to a side's scanned kernels: the kernels of its headers and
 * those declared through macros (compiled.h). */
static void add_from_build(kd_side *side)
{
    kd_kernel_list headers;
    header_kernels(side, &headers);
    kd_compiled_kernels_add(&side->kernels, &headers, side->build.ptx);
    kd_kernel_list_free(&headers);
}

/* Kernels the scan cannot see (declared through a macro, or in an included header) are read
 * from the compiled entries when the file may have some (a directive mentions __global__) or
 * --fn (`fn`) names one the scan did not find. The build is the one the diff makes anyway:
 * after the choice it comes from the cache. */
static int add_compiled_kernels(const kd_diff_options *opts, const kd_comparison *c, kd_side *side, const char *fn)
{
    char *base = fn ? kd_base_name(fn) : NULL;
    bool unseen = base && !kd_kernel_find(&side->kernels, base) && !kd_kernel_find(&side->kernels, fn);
    free(base);
    bool none = side->kernels.count == 0; /* a file that includes its kernels from a header */
    if (!side->frontend->scan_misses_macros || !(side->kernels.macro_kernels || unseen || none))
        return KD_OK;
    kd_trace("%s: looking for kernels in the compiled code", side->label);
    int rc = build_side(opts, c, side);
    if (rc == KD_OK)
        add_from_build(side);
    kd_build_free(&side->build);
    side->build = (kd_build){0};
    return rc;
}

/* A side whose instrumented build launches differently (Triton: Proton's shared memory
 * and profile scratch) gets that launch described beside its plain one. */
static void describe_regions_launch(const kd_diff_options *opts, kd_comparison *c, int s)
{
    kd_side *side = &c->side[s];
    if (!side->abi.fixed || !side->regions_profile_scratch)
        return;
    kd_launch_abi abi = side->abi; /* borrowed: only read */
    abi.dynamic_smem = side->regions_smem;
    abi.scratch_bytes[1] = side->regions_profile_scratch;
    kd_launch_request req = kd_side_launch_request(&opts->launch, side, s);
    req.abi = &abi;
    kd_strbuf error = {0};
    if (kd_launch_spec_build(&req, &side->regions_launch, &error) != 0) /* the plain launch was described */
        kd_note_set(&c->regions_note, KD_REGIONS_FAILED, KD_NOTE_SIDE(s), NULL, NULL, kd_sb_str(&error));
    kd_sb_free(&error);
}

/* The KD_REGION marker names of a side's file into side->region_names. Returns KD_OK, or
 * KD_FAIL_INPUT after saying why (a name that is not an identifier, the file gone). */
static int scan_markers(kd_side *side)
{
    char *text = kd_read_file(side->path, NULL);
    kd_diag why = {0};
    if (!text)
        kd_say(KD_MSG_DIFF_CANNOT_READ_AGAIN, KD_DIAG_NO_SIDE, KD_S(side->label), KD_S(side->path));
    int rc = text && kd_regions_scan(text, side->label, &side->region_names, &why) == 0 ? KD_OK : KD_FAIL_INPUT;
    if (rc != KD_OK && text)
        kd_diag_say(&why);
    free(text);
    kd_diag_free(&why);
    return rc;
}

/* --regions: each side's region names, then its instrumented build. A side without regions
 * (no markers, a launcher, a language without them) leaves the pass out, with a note; a
 * marker name that is not an identifier is an input error. Where the compiler assigns the
 * ids (Triton), the names come from the instrumented build. */
static int build_instrumented(const kd_diff_options *opts, kd_comparison *c)
{
    for (int s = 0; s < 2; s++) {
        kd_side *side = &c->side[s];
        const kd_backend *frontend = side->frontend;
        int rc = frontend->build_instrumented && frontend->region_markers ? scan_markers(side) : KD_OK;
        if (rc != KD_OK)
            return rc;
        kd_note_id left_out = !frontend->build_instrumented                                       ? KD_REGIONS_NOT_CUDA
                              : frontend->region_markers && side->region_names.regions.count == 0 ? KD_REGIONS_NO_MARKERS
                              : side->kernel_info && side->kernel_info->is_launcher               ? KD_REGIONS_LAUNCHER
                                                                                                  : KD_NOTE_NONE;
        if (!c->regions_note.present && left_out != KD_NOTE_NONE)
            kd_note_set(&c->regions_note, left_out, KD_NOTE_SIDE(s), NULL, NULL, NULL);
    }
    for (int s = 0; s < 2 && !c->regions_note.present; s++) {
        kd_side *side = &c->side[s];
        char folder[32];
        snprintf(folder, sizeof folder, "%s-regions", side->label);
        kd_note skip = {0};
        kd_build_target target = kd_build_target_of(c);
        kd_instrumented_build b = {.opts = &opts->frontend, .launch = &opts->launch, .target = &target, .side = side,
                                   .regions = &side->region_names, .folder = folder, .out = &side->regions_build,
                                   .skip = &skip};
        int rc = side->frontend->build_instrumented(&b);
        if (rc != KD_OK)
            return rc;
        if (skip.present) {
            skip.sides = KD_NOTE_SIDE(s);
            c->regions_note = skip;
            break;
        }
        if ((rc = kd_markers_keep_occupancy(opts, c, side)) != KD_OK)
            return rc;
        describe_regions_launch(opts, c, s);
        kd_trace("%s instrumented build%s", side->label, side->regions_build.from_cache ? " (cache)" : "");
    }
    return KD_OK;
}

/* --block or --smem as a plain number up to `max`, for the occupancy estimate when no
 * launch could be described; 0 otherwise. */
static unsigned long long plain_number(const char *text, unsigned long long max)
{
    char *end;
    unsigned long long v = text && *text != '-' ? strtoull(text, &end, 10) : 0;
    return text && v && !*end && v <= max ? v : 0;
}

static int analyze_side(const kd_diff_options *opts, kd_comparison *c, kd_side *side)
{
    kd_static_request req = {
        .build = &side->build,
        .kernel = side->kernel,
        .launch_bounds = side->kernel_info ? side->kernel_info->launch_bounds : NULL,
        .annotated_block = kd_annotation_get(&side->annotations, "block"),
        .block_threads = side->launch_error ? (int)plain_number(opts->launch.block, 1024)
                                            : (int)(side->launch.block[0] * side->launch.block[1] * side->launch.block[2]),
        .block_origin = side->launch_error ? "--block" : "launch",
        .dynamic_smem = side->launch_error ? plain_number(opts->launch.smem, ~0ULL) : side->launch.dynamic_smem,
        .limits = c->limits,
        .cuobjdump = kd_find_cuobjdump(kd_find_nvcc(opts->frontend.nvcc)),
        .launcher = side->kernel_info && side->kernel_info->is_launcher,
    };
    kd_strbuf error = {0};
    int rc = kd_static_analyze(&req, &side->stat, &error);
    if (rc != 0)
        kd_say(KD_MSG_DIFF_STATIC_FAILED, KD_DIAG_NO_SIDE, KD_S(side->label), KD_S(side->path), KD_S(kd_sb_str(&error)));
    kd_sb_free(&error);
    /* The first side without SASS says why. */
    kd_note_sides which = KD_NOTE_SIDE(side == &c->side[1]);
    if (rc == 0 && !side->stat.sass_present && !c->sass_note.present) {
        if (!req.cuobjdump)
            kd_note_set(&c->sass_note, KD_SASS_NO_CUOBJDUMP, KD_NOTE_NO_SIDE, NULL, NULL, NULL);
        else if (!side->build.sass)
            kd_note_set(&c->sass_note, KD_SASS_NOT_IN_BUILD, which, NULL, NULL, side->build.sass_problem);
        else
            kd_note_set(&c->sass_note, KD_SASS_NO_FUNCTION, which, req.cuobjdump, side->stat.sass_missing_function,
                        NULL);
    }
    return rc == 0 ? KD_OK : KD_FAIL_INPUT;
}

/* One side from its chosen kernel to its static analysis. A front end that fixes part of
 * the launch (Triton) is prepared first; the build may specialise on the launch described
 * so far, and the launch is described again with what the build fixed (Triton's shared
 * memory, scratch, specialised values). Also the autotune pass's trial of each config. */
static int make_side(const kd_diff_options *opts, kd_comparison *c, kd_side *side, int s)
{
    int rc = kd_resolve_launch(&opts->frontend, &opts->launch, side, s);
    if (rc != KD_OK)
        return rc;
    if ((rc = build_side(opts, c, side)) != KD_OK)
        return rc;
    kd_trace("%s built%s", side->label, side->build.from_cache ? " (cache)" : "");
    kd_launch_spec_free(&side->launch);
    free(side->launch_error);
    side->launch_error = NULL;
    kd_describe_launch(&opts->launch, side, s);
    return analyze_side(opts, c, side);
}

/* Git mode: the two sides are revisions of one file, written out with their includes. */
static int resolve_git(const kd_diff_options *opts, kd_comparison *c, const char *files[2])
{
    /* One file: git mode. A file that is not there is a typo more often than a question
     * about git: say that first (`kerndiff helpp`, `kerndiff kernl.cu`). */
    if (access(opts->git_file, F_OK) != 0) {
        kd_say(KD_MSG_DIFF_GIT_NO_FILE, KD_DIAG_NO_SIDE, KD_S(opts->git_file), KD_S(strerror(errno)));
        return KD_FAIL_INPUT;
    }
    const char *tmp = kd_tmpdir();
    char *workdir = tmp ? kd_path_join(tmp, "git") : NULL;
    kd_git_request req = {.file = opts->git_file, .at = opts->at, .workdir = workdir,
                          .include_dirs = &opts->frontend.include_dirs};
    kd_diag error = {0};
    /* No temporary folder or no git: the tool, not the input, is at fault (exit 7). */
    int resolved = workdir ? kd_git_resolve(&req, &c->git, &error) : -2;
    int rc = resolved == 0 ? KD_OK : resolved == -2 ? KD_FAIL_TOOL : KD_FAIL_INPUT;
    if (rc != KD_OK && workdir)
        kd_diag_say(&error);
    else if (rc != KD_OK)
        kd_say0(KD_MSG_DIFF_NO_TMPDIR, KD_DIAG_NO_SIDE);
    for (int s = 0; s < 2 && rc == KD_OK; s++) {
        files[s] = c->git.side[s].path;
        kd_strbuf origin = {0};
        kd_sb_printf(&origin, "%s @ %s", opts->git_file, c->git.side[s].label);
        c->side[s].origin = kd_sb_take(&origin);
        c->side[s].include_dirs = &c->git.side[s].include_dirs;
    }
    if (rc == KD_OK && c->git.identical) {
        kd_note_set(&c->git_note, KD_GIT_IDENTICAL, KD_NOTE_NO_SIDE, c->git.side[0].label, c->git.side[1].label,
                    NULL);
    }
    kd_diag_free(&error);
    free(workdir);
    return rc;
}

/* The kernel `side->kernel` names: as named ("tk<float>" may be a compiled kernel of its
 * own: a .ptx's instance), else the template it instantiates. */
static void find_kernel_info(kd_side *side)
{
    side->kernel_info = kd_kernel_find(&side->kernels, side->kernel);
    char *base = kd_base_name(side->kernel);
    if (!side->kernel_info)
        side->kernel_info = kd_kernel_find(&side->kernels, base);
    free(base);
}

/* The names a side's kernels are compared under, copies pushed to `names`: a kernel's
 * qualified name; a template's compiled instances ("reduce0<float>", "reduce4<float, 256u>"),
 * read from the side's build (the one the diff makes anyway: from the cache after). A
 * template without a compiled instance keeps its name (choosing it says what is missing),
 * unless the side has kernels that were compiled: then it is left out, said in one line,
 * and the others are compared (a file's unused template must not stop its kernels' diff). */
/* Kernels that cannot be compared ahead of time (`why`: a template never instantiated, a
 * kernel that takes tensor descriptors): with others to compare, each is said and left out;
 * without, they are the names (choosing one says why). Frees `list`. */
static void leave_out(const kd_side *side, kd_strlist *list, int why, kd_strlist *names, bool *left_out)
{
    bool others = names->count > 0;
    for (size_t i = 0; i < list->count; i++) {
        if (others) {
            kd_say(why, KD_DIAG_NO_SIDE, KD_S(side->label), KD_S(side->path), KD_S(list->items[i]));
            *left_out = true;
            free(list->items[i]);
        } else {
            kd_strlist_push(names, list->items[i]);
        }
    }
    free(list->items);
    *list = (kd_strlist){0};
}

static int compared_names(const kd_diff_options *opts, const kd_comparison *c, kd_side *side, kd_strlist *names,
                          bool *left_out)
{
    bool templates = false;
    for (size_t i = 0; i < side->kernels.count; i++)
        templates |= side->kernels.items[i].is_template;
    int rc = KD_OK;
    if (templates && side->frontend->scan_misses_macros) {
        kd_trace("%s: reading the template instances from the compiled code", side->label);
        rc = build_side(opts, c, side);
    }
    const char *ptx = rc == KD_OK ? side->build.ptx : NULL;
    kd_strlist uninstantiated = {0}, descriptors = {0};
    for (size_t i = 0; rc == KD_OK && i < side->kernels.count; i++) {
        const kd_kernel *k = &side->kernels.items[i];
        kd_kernel_list instances = {0};
        if (k->is_template && ptx)
            kd_compiled_instances(k, ptx, &instances);
        for (size_t j = 0; j < instances.count; j++)
            kd_strlist_push(names, kd_xstrdup(instances.items[j].qualified));
        if (instances.count == 0 && kd_kernel_takes_descriptors(k))
            kd_strlist_push(&descriptors, kd_xstrdup(k->qualified));
        else if (instances.count == 0)
            kd_strlist_push(k->is_template && ptx ? &uninstantiated : names, kd_xstrdup(k->qualified));
        kd_kernel_list_free(&instances);
    }
    leave_out(side, &descriptors, KD_MSG_DIFF_DESCRIPTOR_NOT_COMPARED, names, left_out);
    leave_out(side, &uninstantiated, KD_MSG_DIFF_TEMPLATE_NOT_INSTANTIATED, names, left_out);
    kd_build_free(&side->build);
    side->build = (kd_build){0};
    return rc;
}

/* No --fn: the kernels (template instances) the two sides share, and those only one has. */
static int match_sides(const kd_diff_options *opts, const kd_comparison *c, kd_kernel_match *match, bool *left_out)
{
    kd_strlist names[2] = {{0}, {0}};
    int rc = KD_OK;
    for (int s = 0; s < 2 && rc == KD_OK; s++)
        rc = compared_names(opts, c, (kd_side *)&c->side[s], &names[s], left_out);
    if (rc == KD_OK)
        kd_match_kernels(names, match);
    for (int s = 0; s < 2; s++) {
        for (size_t i = 0; i < names[s].count; i++)
            free(names[s].items[i]);
        free(names[s].items);
    }
    return rc;
}

/* The static comparison of the kernel `name` that both sides of `c` define, into `k`: each
 * side read again, built (from the cache) and analysed as the main comparison's are. */
static int compare_one(const kd_diff_options *opts, const kd_comparison *c, const char *name, kd_comparison *k)
{
    memset(k, 0, sizeof *k);
    k->started = c->started;
    memcpy(k->arch, c->arch, sizeof k->arch);
    k->arch_origin = c->arch_origin;
    k->limits = c->limits;
    k->gpu = c->gpu;
    /* Both sides' paths first: building v1 asks which backend runs the pair (kd_build_target_of
       reads both paths; a NULL v2 crashed multi-kernel .ptx files). */
    for (int s = 0; s < 2; s++) {
        const kd_side *from = &c->side[s];
        kd_side *side = &k->side[s];
        side->label = from->label;
        side->path = from->path;
        side->include_dirs = from->include_dirs;
        side->frontend = from->frontend;
        side->origin = from->origin ? kd_xstrdup(from->origin) : NULL;
        side->config = -1; /* no autotune pass: the backend's own config */
    }
    for (int s = 0; s < 2; s++) {
        kd_side *side = &k->side[s];
        int rc = kd_scan_file(&opts->frontend, side->path, side->label, &side->kernels, &side->annotations);
        if (rc == KD_OK)
            rc = add_compiled_kernels(opts, k, side, name);
        if (rc != KD_OK)
            return rc;
        side->kernel = kd_xstrdup(name);
        find_kernel_info(side);
        if ((rc = make_side(opts, k, side, s)) != KD_OK)
            return rc;
    }
    kd_comparison_tabulate(k);
    k->analysed = true;
    return KD_OK;
}

/* Several kernels shared and no --fn: every shared one compared statically (c->kernels), the
 * others listed. Timing needs one kernel: asked (no --no-run), it did not happen: the status
 * of a launch that could not be described, with or without a GPU (a machine without one
 * catches the missing --fn as one with a GPU does); --no-run asks for the static diff alone. */
static int compare_several(const kd_diff_options *opts, kd_comparison *c, kd_kernel_match *match)
{
    c->kernels = kd_xcalloc(match->nshared, sizeof *c->kernels);
    for (size_t i = 0; i < match->nshared; i++) {
        int rc = compare_one(opts, c, match->shared[i], &c->kernels[c->kernel_count]);
        c->kernel_count++; /* freed with c, done or not */
        if (rc != KD_OK)
            return rc;
    }
    for (int s = 0; s < 2; s++) {
        c->only[s] = match->only[s];
        c->only_count[s] = match->nonly[s];
        match->only[s] = NULL;
        match->nonly[s] = 0;
    }
    c->kernels_untimed = !opts->no_run;
    kd_note why = {0};
    bool could_time = !opts->no_run && (kd_runtime_backend(opts, c, &why) || why.id == KD_RUNTIME_NO_GPU);
    kd_note_free(&why);
    kd_trace("%zu kernels compared statically", c->kernel_count);
    if (!could_time)
        return KD_OK;
    /* the exit status's reason where every other one is said (the report has it too), with
       the scalars the kernels' launches still need: one line names every flag to give */
    kd_strbuf names = {0};
    kd_launch_needs_line needs = {0};
    for (size_t i = 0; i < c->kernel_count; i++) {
        kd_sb_printf(&names, "%s%s", i ? ", " : "", c->kernels[i].side[0].kernel);
        kd_launch_needs_add(&needs, c->kernels[i].side[0].kernel, &c->kernels[i].side[0].launch,
                            &c->kernels[i].side[1].launch);
    }
    if (!needs.names.len)
        kd_say(KD_MSG_DIFF_NEEDS_ONE_KERNEL, KD_DIAG_NO_SIDE, KD_S(kd_sb_str(&names)));
    else
        kd_say(needs.differ ? KD_MSG_DIFF_NEEDS_ONE_KERNEL_EACH : KD_MSG_DIFF_NEEDS_ONE_KERNEL_ARGS, KD_DIAG_NO_SIDE,
               KD_S(kd_sb_str(&names)), KD_S(kd_sb_str(needs.differ ? &needs.each : &needs.flags)),
               KD_S(kd_sb_str(&needs.names)));
    kd_sb_free(&names);
    kd_launch_needs_line_free(&needs);
    return KD_FAIL_INPUT;
}

/* --- the project's callers (issue 45 item 1) ------------------------------------------------- */

/* The size of the array `key` in a kernel's front-end information ("launches": the file's own
 * launches of it that running the file reaches; "jax_launches": jax_triton.triton_call lines),
 * -1 when it has none (not a Triton kernel); *first: its first integer, or 0. */
static long long info_array(const kd_kernel *k, const char *key, long long *first)
{
    if (first)
        *first = 0;
    if (!k->frontend_info)
        return -1;
    json_t *info = json_loads(k->frontend_info, 0, NULL);
    json_t *a = json_object_get(info, key);
    long long n = json_is_array(a) ? (long long)json_array_size(a) : -1;
    if (first && n > 0)
        *first = json_integer_value(json_array_get(a, 0));
    json_decref(info);
    return n;
}

/* The Triton kernel the diff compares, when it is plain before anything is built (--fn, else
 * the only kernel of v1's file), whose file does not launch it (the helper's list found no
 * launch that running the file reaches); NULL otherwise. *several: the file has more than one kernel, no --fn chose one, and
 * it launches none of them (issue 45: their callers are looked for, and a caller's launch
 * chooses the kernel). */
static const kd_kernel *unlaunched_kernel(const kd_comparison *c, const char *fn[2], bool *several)
{
    const kd_kernel_list *l = &c->side[0].kernels;
    const char *want = fn[0] ? fn[0] : fn[1];
    const kd_kernel *k = NULL;
    *several = false;
    if (!want && l->count > 1) {
        for (size_t i = 0; i < l->count; i++)
            if (info_array(&l->items[i], "launches", NULL) != 0)
                return NULL;
        *several = true;
        return NULL;
    }
    for (size_t i = 0; i < l->count; i++)
        if (want ? strcmp(l->items[i].name, want) == 0 : l->count == 1)
            k = &l->items[i];
    return k && info_array(k, "launches", NULL) == 0 ? k : NULL;
}

/* The kernel a caller's launch is taken of: the first of the file's kernels (in the file's
 * order) that the caller reaches, else the file's first. */
static const char *caller_kernel(const kd_kernel_list *l, const kd_caller *caller)
{
    for (size_t i = 0; i < l->count; i++)
        for (size_t j = 0; j < caller->kernels.count; j++)
            if (strcmp(l->items[i].name, caller->kernels.items[j]) == 0)
                return l->items[i].name;
    return l->count ? l->items[0].name : "";
}

/* The first flag that describes the launch (a found caller's capture would replace it), or NULL. */
static const char *launch_flag(const kd_diff_options *opts)
{
    const kd_launch_options *l = &opts->launch;
    bool call = false;
    for (int i = 0; i < 2; i++)
        call = call || l->call[i].n || l->call[i].grid || l->call[i].block || l->call[i].smem || l->call[i].params.count;
    return l->n ? "--n" : l->grid ? "--grid" : l->block ? "--block" : l->smem ? "--smem" : l->buffers.count ? "--buf"
           : l->scalars.count ? "--arg" : call ? "--call" : NULL;
}

/* A caller's words: the --from argument (its command quoted as one shell word) and how it reaches the kernel. */
static char *from_argument(const kd_caller *k)
{
    kd_strbuf q = {0};
    kd_caller_quote(k->command, &q);
    return kd_sb_take(&q);
}

static void how_reaches(const kd_caller *k, kd_diag *how)
{
    if (k->via && *k->via)
        kd_diag_set(how, KD_MSG_DIFF_CALLER_CALLS, KD_DIAG_NO_SIDE, KD_S(k->via));
    else
        kd_diag_set0(how, KD_MSG_DIFF_CALLER_IMPORTS, KD_DIAG_NO_SIDE);
}

/* found: a caller kerndiff found (find_callers), run as --from runs its command, in the
 * project's root; a failure of its capture is said and the launch is described instead. */
enum { CALLERS_SAID = 3 }; /* callers said one line each, after the line that heads them */

typedef struct found_caller {
    char *command, *name, *cwd, *via;
    const char *kernel;
    /* The lines that say what was found (or that nothing was), said once the diff has made or
     * failed its launch (kd_compare_files): a described launch that needs a value says so on
     * the first line, naming the flag, and these follow as the other way to have the launch. */
    kd_diag said[1 + CALLERS_SAID];
    size_t nsaid;
} found_caller;

static kd_diag *found_line(found_caller *out) { return &out->said[out->nsaid++]; }

static void found_caller_free(found_caller *f)
{
    free(f->command);
    free(f->name);
    free(f->cwd);
    free(f->via);
    for (size_t i = 0; i < f->nsaid; i++)
        kd_diag_free(&f->said[i]);
    memset(f, 0, sizeof *f);
}

/* A kernel launched through jax_triton.triton_call (k, or with several, the first such): said in
 * one line instead of callers (a JAX launch is not one kerndiff captures). Returns whether said. */
static bool said_jax(const kd_comparison *c, const kd_kernel *k, const char *file, found_caller *out)
{
    const kd_kernel_list *l = &c->side[0].kernels;
    for (size_t i = 0; i < l->count; i++) {
        const kd_kernel *j = k ? k : &l->items[i];
        long long line;
        if (info_array(j, "jax_launches", &line) > 0) {
            kd_diag_set(found_line(out), KD_MSG_DIFF_CALLER_JAX, KD_DIAG_NO_SIDE, KD_S(j->name), KD_S(file),
                        KD_I(line));
            return true;
        }
        if (k)
            break;
    }
    return false;
}

/* When the compared Triton kernel's file does not launch it (or, no --fn given, a file of several
 * kernels launches none of them: the kernel is then the one the best caller's launch gives)
 * and no launch was asked for (no
 * --launch, --from, --run, --no-capture): the project's tests, benchmarks and scripts that
 * reach it are found (source/callers.h, static) and said, one line each, with the --from that
 * runs them; none found, one line says so (out->said: said after the launch was made or
 * refused, so that a refusal's line, which names the flag, is the first). On a GPU, with no flag describing the launch and
 * no --no-run, the best one is run with capture as --from runs its command (in the project's
 * root), and *from / *caller / *cwd are set for open_replay (malloc'd). Never fails the diff. */
static void find_callers(const kd_diff_options *opts, const kd_comparison *c, const char *fn[2], found_caller *out)
{
    if (opts->capture || opts->capture_from || opts->frontend.run_command || opts->frontend.no_capture)
        return;
    bool several;
    const kd_kernel *k = unlaunched_kernel(c, fn, &several);
    if (!k && !several)
        return;
    const char *file = opts->git_file ? opts->git_file : opts->files[0];
    if (said_jax(c, k, file, out))
        return;
    char *python = opts->frontend.python ? kd_xstrdup(opts->frontend.python) : kd_python_path();
    kd_callers found;
    kd_strbuf why = {0};
    int rc = kd_callers_find(python, file, k ? k->name : NULL, &found, &why);
    free(python);
    if (rc != 0) {
        kd_trace("callers of %s not looked for: %s", k ? k->name : file, kd_sb_str(&why));
        kd_sb_free(&why);
        return;
    }
    kd_sb_free(&why);
    if (!found.count) {
        kd_diag capped = {0}, nearest = {0};
        if (found.capped)
            kd_diag_set(&capped, KD_MSG_DIFF_CALLERS_CAPPED, KD_DIAG_NO_SIDE, KD_S(found.capped));
        else
            kd_diag_set0(&capped, KD_MSG_DIFF_CALLER_NOTHING, KD_DIAG_NO_SIDE);
        if (found.elsewhere && *found.elsewhere) /* the why before the files that do not import it */
            kd_diag_set(&nearest, KD_MSG_DIFF_CALLERS_ELSEWHERE, KD_DIAG_NO_SIDE, KD_S(found.elsewhere));
        else if (k && found.nearest && *found.nearest)
            kd_diag_set(&nearest, KD_MSG_DIFF_CALLERS_NEAREST, KD_DIAG_NO_SIDE, KD_S(found.nearest));
        else
            kd_diag_set0(&nearest, KD_MSG_DIFF_CALLER_NOTHING, KD_DIAG_NO_SIDE);
        if (k)
            kd_diag_set(found_line(out), KD_MSG_DIFF_CALLERS_NONE, KD_DIAG_NO_SIDE, KD_S(k->name), KD_S(file),
                        KD_S(found.root), KD_I(found.scanned), KD_M(&capped), KD_M(&nearest), KD_S(k->name));
        else
            kd_diag_set(found_line(out), KD_MSG_DIFF_CALLERS_NONE_ANY, KD_DIAG_NO_SIDE, KD_S(file), KD_S(found.root),
                        KD_I(found.scanned), KD_M(&capped), KD_M(&nearest));
        kd_diag_free(&capped);
        kd_diag_free(&nearest);
        kd_callers_free(&found);
        return;
    }
    kd_gpu_info gpu;
    kd_gpu_probe(&gpu);
    const char *flag = launch_flag(opts);
    bool run = gpu.present && !opts->no_run && !flag;
    kd_diag whynot = {0}, wrappers = {0};
    if (flag) /* what the user asked for first: a guessed launch never replaces a described one */
        kd_diag_set(&whynot, KD_MSG_DIFF_CALLER_WHY_FLAGS, KD_DIAG_NO_SIDE, KD_S(flag));
    else if (opts->no_run)
        kd_diag_set0(&whynot, KD_MSG_DIFF_CALLER_WHY_NO_RUN, KD_DIAG_NO_SIDE);
    else if (!gpu.present)
        kd_diag_set(&whynot, KD_MSG_DIFF_CALLER_WHY_NO_GPU, KD_DIAG_NO_SIDE, KD_S(gpu.reason));
    if (*found.wrappers)
        kd_diag_set(&wrappers, KD_MSG_DIFF_CALLER_WRAPPERS, KD_DIAG_NO_SIDE, KD_S(found.wrappers));
    else
        kd_diag_set0(&wrappers, KD_MSG_DIFF_CALLER_NOTHING, KD_DIAG_NO_SIDE);
    const kd_kernel_list *kernels = &c->side[0].kernels;
    if (!run) {
        if (k)
            kd_diag_set(found_line(out), KD_MSG_DIFF_CALLERS_FOUND, KD_DIAG_NO_SIDE, KD_S(k->name), KD_S(file),
                        KD_M(&wrappers), KD_S(found.root), KD_M(&whynot));
        else
            kd_diag_set(found_line(out), KD_MSG_DIFF_CALLERS_FOUND_ANY, KD_DIAG_NO_SIDE, KD_S(file), KD_M(&wrappers),
                        KD_S(found.root), KD_M(&whynot));
        for (size_t i = 0; i < found.count && i < CALLERS_SAID; i++) {
            char *arg = from_argument(&found.items[i]);
            kd_diag how = {0};
            how_reaches(&found.items[i], &how);
            kd_diag_set(found_line(out), KD_MSG_DIFF_CALLER, KD_DIAG_NO_SIDE, KD_I(i + 1), KD_S(found.items[i].name),
                        KD_M(&how), KD_S(arg), KD_S(k ? k->name : caller_kernel(kernels, &found.items[i])));
            kd_diag_free(&how);
            free(arg);
        }
    } else {
        out->command = kd_xstrdup(found.items[0].command);
        out->name = kd_xstrdup(found.items[0].name);
        out->cwd = kd_xstrdup(found.root);
        out->via = kd_xstrdup(found.items[0].via ? found.items[0].via : "");
        out->kernel = k ? k->name : caller_kernel(kernels, &found.items[0]);
    }
    kd_diag_free(&whynot);
    kd_diag_free(&wrappers);
    kd_callers_free(&found);
}

/* --launch FILE (or --from 'CMD'): the capture opened once for both sides (launch/replay.h);
 * its kernel is the one compared unless --fn says otherwise. */
static int open_replay(const kd_diff_options *opts, kd_comparison *c, const char *fn[2], const found_caller *found)
{
    const char *dir = kd_tmpdir();
    if (!dir)
        return KD_FAIL_TOOL;
    const char *path = opts->capture;
    char *made = NULL;
    kd_diag err = {0};
    const char *from = found ? found->command : opts->capture_from;
    if (from) {
        made = kd_path_join(dir, "from.kdcap");
        kd_capture_run_request req = {.command = from, .fn = found ? found->kernel : fn[0] ? fn[0] : fn[1], .nth = 1,
                                      .out_path = made, .cwd = found ? found->cwd : NULL,
                                      .timeout_s = opts->frontend.capture_timeout_s > 0 ? opts->frontend.capture_timeout_s : 600};
        if (kd_capture_run(&req, &err) != 0) {
            if (found) {
                kd_strbuf q = {0};
                kd_caller_quote(found->command, &q);
                kd_say(KD_MSG_DIFF_CALLER_FAILED, KD_DIAG_NO_SIDE, KD_S(found->kernel), KD_S(found->name), KD_M(&err),
                       KD_S(kd_sb_str(&q)));
                kd_sb_free(&q);
                kd_diag_free(&err);
                free(made);
                return KD_OK; /* a guessed caller that fails: the launch is described, as before */
            }
            kd_diag_say(&err);
            kd_outcome outcome = kd_capture_run_outcome(err.id);
            kd_diag_free(&err);
            free(made);
            return outcome;
        }
        path = made;
    }
    kd_replay *r = kd_xcalloc(1, sizeof *r);
    if (kd_replay_open(path, dir, r, &err) != 0) {
        kd_diag_say(&err);
        kd_diag_free(&err);
        free(r);
        free(made);
        return KD_FAIL_INPUT;
    }
    c->replay.capture = r;
    c->replay.path = made ? made : kd_xstrdup(path);
    if (found) {
        c->replay.caller = kd_xstrdup(found->name);
        kd_strbuf q = {0};
        kd_diag how = {0};
        kd_caller_quote(found->command, &q);
        if (*found->via)
            kd_diag_set(&how, KD_MSG_DIFF_CALLER_CALLS, KD_DIAG_NO_SIDE, KD_S(found->via));
        else
            kd_diag_set0(&how, KD_MSG_DIFF_CALLER_IMPORTS, KD_DIAG_NO_SIDE);
        kd_say(KD_MSG_DIFF_CALLER_TAKEN, KD_DIAG_NO_SIDE, KD_S(found->kernel), KD_S(found->name), KD_M(&how),
               KD_S(kd_sb_str(&q)));
        kd_diag_free(&how);
        kd_sb_free(&q);
    }
    for (int s = 0; s < 2; s++) {
        c->side[s].replay = r;
        if (!fn[s])
            fn[s] = r->kernel_name;
    }
    return KD_OK;
}

/* --launch: side s's kernel takes the captured parameter buffer as it is, else an error that
 * names the side and the parameter (launch/replay.h), before anything is built. */
static int check_replay_layout(const kd_comparison *c, int s)
{
    if (!c->side[s].kernel_info)
        return KD_OK; /* no signature: said when the launch is described */
    kd_launch_spec spec;
    kd_diag why = {0};
    if (kd_replay_spec(c->replay.capture, c->side[s].kernel_info, s + 1, &spec, &why) != 0) {
        kd_diag_say(&why);
        kd_diag_free(&why);
        return KD_FAIL_INPUT;
    }
    kd_launch_spec_free(&spec);
    return KD_OK;
}

static int compare_files(const kd_diff_options *opts, kd_comparison *c, found_caller *found);

int kd_compare_files(const kd_diff_options *opts, kd_comparison *c)
{
    found_caller found = {0};
    int rc = compare_files(opts, c, &found);
    for (size_t i = 0; i < found.nsaid; i++)
        kd_diag_say(&found.said[i]);
    found_caller_free(&found);
    return rc;
}

static int compare_files(const kd_diff_options *opts, kd_comparison *c, found_caller *found)
{
    memset(c, 0, sizeof *c);
    c->started = (long long)time(NULL);
    c->stage_mark = kd_clock_s();
    static const char *const labels[2] = {"v1", "v2"};
    const char *files[2] = {opts->files[0], opts->files[1]};
    int rc;
    if (opts->git_file && (rc = resolve_git(opts, c, files)) != KD_OK)
        return rc;
    for (int s = 0; s < 2; s++) {
        c->side[s].label = labels[s];
        c->side[s].path = files[s];
        if (!c->side[s].include_dirs)
            c->side[s].include_dirs = &opts->frontend.include_dirs;
        c->side[s].frontend = kd_frontend_for(files[s]);
        if ((rc = kd_scan_file(&opts->frontend, files[s], labels[s], &c->side[s].kernels,
                               &c->side[s].annotations)) != KD_OK)
            return rc;
    }
    const char *fn[2] = {opts->fn[0], opts->fn[1]};
    find_callers(opts, c, fn, found);
    rc = KD_OK;
    if (found->command || opts->capture || opts->capture_from)
        rc = open_replay(opts, c, fn, found->command ? found : NULL);
    if (rc != KD_OK)
        return rc;
    kd_gpu_probe(&c->gpu);
    kd_trace("GPU probe: %s", c->gpu.present ? c->gpu.name : c->gpu.reason);
    if ((rc = choose_arch(opts, c)) != KD_OK)
        return rc;
    for (int s = 0; s < 2; s++)
        if ((rc = add_compiled_kernels(opts, c, &c->side[s], fn[s])) != KD_OK)
            return rc;
    kd_kernel_list lists[2] = {c->side[0].kernels, c->side[1].kernels};
    kd_selection sel = {0};
    kd_kernel_match match = {0};
    bool left_out = false; /* kernels said not compared (a template never instantiated, descriptors) */
    if (!fn[0] && !fn[1] && (rc = match_sides(opts, c, &match, &left_out)) != KD_OK)
        return rc;
    /* Several shared (kernels or a template's instances): each compared statically; the
     * first one is the comparison's own. One shared instance of a template, or the one kernel
     * left when the others were left out: that one. */
    bool several = match.nshared > 1;
    if (several || (match.nshared == 1 && (strchr(match.shared[0], '<') || left_out))) {
        sel.name[0] = kd_xstrdup(match.shared[0]);
        sel.name[1] = kd_xstrdup(match.shared[0]);
    } else {
        kd_diag error = {0};
        if (kd_select_kernel(lists, files, fn, &sel, &error) != 0) {
            kd_diag_say(&error);
            kd_diag_free(&error);
            kd_kernel_match_free(&match);
            return KD_FAIL_INPUT;
        }
    }
    for (int s = 0; s < 2; s++) {
        c->side[s].kernel = sel.name[s];
        sel.name[s] = NULL;
        find_kernel_info(&c->side[s]);
    }
    if (sel.one_kernel_each)
        kd_note_set(&c->selection_note, KD_SELECTION_ONE_KERNEL_EACH, KD_NOTE_NO_SIDE, c->side[0].kernel,
                    c->side[1].kernel, NULL);
    kd_selection_free(&sel);
    for (int s = 0; s < 2 && c->replay.capture && rc == KD_OK; s++)
        rc = check_replay_layout(c, s);
    if (rc != KD_OK) {
        kd_kernel_match_free(&match);
        return rc;
    }

    kd_trace("kernels chosen: %s / %s", c->side[0].kernel, c->side[1].kernel);
    kd_comparison_stage(c, "kernels chosen");
    /* work for both sides that may run at once (Triton's two captures), before either is prepared */
    const kd_backend *fe = c->side[0].frontend;
    if (fe == c->side[1].frontend && fe->prefetch) {
        kd_build_target target = kd_build_target_of(c);
        fe->prefetch(&opts->frontend, &target, (kd_side *[2]){&c->side[0], &c->side[1]});
    }
    for (int s = 0; s < 2 && rc == KD_OK; s++)
        if ((rc = kd_autotune_side(opts, c, s, make_side)) == KD_OK)
            rc = make_side(opts, c, &c->side[s], s);
    if (rc == KD_OK && opts->regions_on)
        rc = build_instrumented(opts, c);
    if (rc == KD_OK)
        kd_comparison_tabulate(c);
    if (rc == KD_OK && several) {
        rc = compare_several(opts, c, &match);
        kd_comparison_stage(c, "built and analysed");
        c->analysed = rc == KD_OK || c->kernels_untimed; /* untimed: the report is complete */
        kd_kernel_match_free(&match);
        kd_gate_evaluate(&c->timing, false, kd_outputs_of(&c->timing, false), &opts->gate, &c->gate);
        return rc;
    }
    kd_kernel_match_free(&match);
    if (rc != KD_OK)
        return rc;
    c->analysed = true;
    kd_trace("static analysis done");
    kd_comparison_stage(c, "built and analysed");
    rc = kd_compare_runtime(opts, c);
    kd_gate_evaluate(&c->timing, c->timed, kd_outputs_of(&c->timing, c->timed), &opts->gate, &c->gate);
    return rc;
}

int kd_list_file(const kd_diff_options *opts, const char *path, kd_kernel_list *kernels, kd_annotations *annotations,
                 char **ptx)
{
    *ptx = NULL;
    kd_comparison *c = kd_xcalloc(1, sizeof *c);
    kd_side *side = &c->side[0];
    side->label = "list";
    side->path = path;
    side->include_dirs = &opts->frontend.include_dirs;
    side->frontend = kd_frontend_for(path);
    int rc = kd_scan_file(&opts->frontend, path, NULL, &side->kernels, &side->annotations);
    /* What the compiler knows comes first: instances, typedefs resolved, header and macro
       kernels, which buffers are written. A file that does not build is listed as scanned. */
    if (rc == KD_OK && side->frontend->scan_misses_macros) {
        kd_gpu_probe(&c->gpu);
        if ((rc = choose_arch(opts, c)) == KD_OK && build_side(opts, c, side) == KD_OK) {
            kd_compiled_refine(&side->kernels, side->build.ptx);
            add_from_build(side);
            *ptx = side->build.ptx;
            side->build.ptx = NULL;
        } else if (rc == KD_OK && side->kernels.count == 0) {
            /* A file that instantiates its kernels from a project header (the corpus's item 9:
               mamba's selective_scan_fwd_fp32.cu) and did not build: the kernels its headers
               define, as read (each with its header). */
            kd_kernel_list headers;
            header_kernels(side, &headers);
            headers.macro_kernels = side->kernels.macro_kernels;
            kd_kernel_list_free(&side->kernels);
            side->kernels = headers;
        }
    }
    *kernels = side->kernels;
    *annotations = side->annotations;
    side->kernels = (kd_kernel_list){0};
    side->annotations = (kd_annotations){0};
    kd_comparison_free(c);
    free(c);
    return rc;
}

/* The first message the preparation says: the listed launch's refusal, kept, not printed. */
static void keep_first(const kd_diag *d, void *ctx)
{
    kd_diag *first = ctx;
    if (!first->id)
        kd_diag_copy(first, d);
}

int kd_list_launch(const kd_diff_options *opts, const char *path, const kd_kernel *k, const kd_annotations *notes,
                   kd_listed_launch *out)
{
    memset(out, 0, sizeof *out);
    kd_side side = {.label = "list", .path = path, .include_dirs = &opts->frontend.include_dirs,
                    .frontend = kd_frontend_for(path), .kernel_info = k, .config = -1};
    if (notes)
        side.annotations = *notes; /* borrowed: given back below */
    kd_frontend_options fopts = opts->frontend;
    fopts.no_capture = true; /* list runs nothing: the launch is described, as without a GPU */
    fopts.run_command = NULL;
    kd_diag_sink sink;
    void *sink_ctx;
    kd_diag_get_sink(&sink, &sink_ctx);
    kd_diag_set_sink(keep_first, &out->refused);
    int rc = kd_resolve_launch(&fopts, &opts->launch, &side, 0);
    kd_diag_set_sink(sink, sink_ctx);
    if (rc == KD_OK && out->refused.id) /* a note the preparation said, not a refusal */
        kd_diag_free(&out->refused);
    bool several = out->refused.id == KD_MSG_TRITON_CONSTEXPRS_NEED_VALUES;
    if ((several || out->refused.id == KD_MSG_TRITON_CONSTEXPR_NEEDS_VALUE) && out->refused.nargs == 4) {
        kd_diag said = out->refused; /* the diff's words name its side: list has none */
        out->refused = (kd_diag){0};
        kd_diag_set(&out->refused, several ? KD_MSG_TRITON_LIST_NEED_VALUES : KD_MSG_TRITON_LIST_NEEDS_VALUE,
                    KD_DIAG_NO_SIDE, said.args[1], said.args[2], said.args[3]);
        kd_diag_free(&said);
    }
    if (rc == KD_OK && side.unset_block) /* assumed by the static preparation: a timed diff refuses it */
        kd_diag_set(&out->refused, KD_MSG_TRITON_LIST_NEEDS_BLOCK, KD_DIAG_NO_SIDE, KD_S(side.unset_block),
                    KD_S(k->name), KD_S(path), KD_I(side.unset_block_value));
    if (rc != KD_OK && !out->refused.id)
        kd_diag_set(&out->refused, KD_MSG_DIFF_LIST_NOT_PREPARED, KD_DIAG_NO_SIDE, KD_S(k->name));
    out->described = rc == KD_OK && !side.launch_error && !out->refused.id;
    out->spec = side.launch;
    side.launch = (kd_launch_spec){0};
    out->launch_error = side.launch_error;
    side.launch_error = NULL;
    out->kernel = side.compiled;
    side.compiled = NULL;
    out->abi = side.abi;
    side.abi = (kd_launch_abi){0};
    side.annotations = (kd_annotations){0};
    kd_side_release_built(&side);
    return rc;
}

void kd_listed_launch_free(kd_listed_launch *l)
{
    kd_launch_spec_free(&l->spec);
    free(l->launch_error);
    kd_diag_free(&l->refused);
    kd_launch_abi_free(&l->abi);
    if (l->kernel)
        kd_kernel_free(l->kernel);
    free(l->kernel);
    memset(l, 0, sizeof *l);
}
