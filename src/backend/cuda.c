/* The CUDA C++ backend: .cu (and .cuh, .cpp) files, scanned by source/scan, built by nvcc
 * (compile/build), run by kerndiff-harness. */
#include "backend/registry.h"

#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "backend/backend_msgs.h"
#include "compile/includes.h"
#include "compile/torch.h"
#include "util/outcome.h"
#include "source/compiled.h"
#include "static/symbols.h"
#include "util/cleanup.h"
#include "util/fs.h"
#include "util/progress.h"
#include "util/spawn.h"
#include "util/text.h"
#include "util/tmpdir.h"
#include "util/xalloc.h"
#include "wire/locate.h"

static bool claims_cuda(const char *path)
{
    (void)path; /* nvcc decides what it can compile; the CUDA backend is the fallback */
    return true;
}

static int cuda_harness(int side, kd_argv *argv, kd_strbuf *why)
{
    (void)side; /* one program holds one side or both */
    return kd_backend_find_harness("kerndiff-harness", argv, why);
}

/* A file's text as every later message shows it: lines, and no terminal control sequences. */
static char *read_source(const char *path, size_t *len, kd_strbuf *safe)
{
    char *text = kd_read_file(path, len);
    if (!text)
        return NULL;
    *len = kd_normalize_newlines(text, *len);
    kd_escape_controls(text, *len, safe);
    free(text);
    return (char *)kd_sb_str(safe);
}

enum { INCLUDE_DEPTH = 4 }; /* headers that include headers; a cycle stops here */

/* What the code of kernels defined in the file's quoted includes (`#include "ops.cuh"`, found
 * beside the including file, then in each -I folder) says about their launch: the same
 * __launch_bounds__, extern __shared__ memory and indexing an inline copy gets (issue 45: a
 * kernel from a .cuh was launched with block 256 and no dynamic shared memory). The file's
 * own kernels come first; a header that cannot be read is skipped (nvcc says so). */
static void read_included_geometry(const kd_frontend_options *opts, const char *path, const char *text, size_t len,
                                   kd_file_geometry *into, int depth)
{
    char *folder = kd_dirname(path);
    for (const char *p = text, *end = text + len; p < end && depth < INCLUDE_DEPTH;) {
        const char *eol = memchr(p, '\n', (size_t)(end - p));
        if (!eol)
            eol = end;
        const char *q = p;
        while (q < eol && (*q == ' ' || *q == '\t'))
            q++;
        if (q < eol && *q == '#') {
            q++;
            while (q < eol && (*q == ' ' || *q == '\t'))
                q++;
            size_t word = strlen("include");
            const char *open = (size_t)(eol - q) > word && memcmp(q, "include", word) == 0
                                   ? memchr(q + word, '"', (size_t)(eol - q - word)) : NULL;
            const char *close = open ? memchr(open + 1, '"', (size_t)(eol - open - 1)) : NULL;
            if (close && close > open + 1) {
                char *name = kd_xstrndup(open + 1, (size_t)(close - open - 1));
                char *found = kd_path_join(folder, name);
                bool readable = kd_check_input(found) == 0;
                for (size_t i = 0; !readable && i < opts->include_dirs.count; i++) {
                    free(found);
                    found = kd_path_join(opts->include_dirs.items[i], name);
                    readable = kd_check_input(found) == 0;
                }
                kd_strbuf safe = {0};
                size_t header_len = 0;
                const char *header = readable ? read_source(found, &header_len, &safe) : NULL;
                if (header) {
                    kd_file_geometry more = {0};
                    kd_geometry_read(header, header_len, &more);
                    kd_geometry_merge(into, &more);
                    read_included_geometry(opts, found, header, header_len, into, depth + 1);
                }
                kd_sb_free(&safe);
                free(found);
                free(name);
            }
        }
        p = eol + 1;
    }
    free(folder);
}

static int cuda_scan(const kd_frontend_options *opts, const char *path, const char *side, kd_kernel_list *kernels,
                     kd_annotations *annotations)
{
    size_t len;
    /* Every name, type and annotation shown later comes from this text: it is made to
     * read as lines and to carry no terminal control sequences here, once. */
    kd_strbuf safe = {0};
    if (!read_source(path, &len, &safe)) {
        if (errno == EISDIR)
            kd_say_sided(KD_MSG_BACKEND_IS_FOLDER, side, KD_S(path));
        else
            kd_say_sided(KD_MSG_BACKEND_CANNOT_READ, side, KD_S(path), KD_S(kd_read_error(errno)));
        kd_sb_free(&safe);
        return KD_FAIL_INPUT;
    }
    kd_scan_source(kd_sb_str(&safe), safe.len, kernels);
    if (annotations) {
        kd_annotations_parse(kd_sb_str(&safe), safe.len, annotations);
        read_included_geometry(opts, path, kd_sb_str(&safe), safe.len, &annotations->geometry, 0);
    }
    kd_sb_free(&safe);
    return KD_OK;
}

/* `libs=cublas,cublasLt` in a launcher's annotations: libraries to link (owned by side). */
static void read_libs(kd_side *side)
{
    const char *libs = kd_annotation_get(&side->annotations, "libs");
    if (!libs)
        return;
    side->libs_text = kd_xstrdup(libs);
    for (char *save = NULL, *lib = strtok_r(side->libs_text, ",", &save); lib; lib = strtok_r(NULL, ",", &save))
        kd_strlist_push(&side->libs, lib);
}

/* A PyTorch extension file (compile/torch.h) is built with the flags its torch reports, asked
 * of the side's Python. KD_OK with *flags filled (left empty for any other file, and where the
 * user's -I folders hold torch's headers: then the build is theirs to describe) and *torch
 * the answer (NULL then); else the failure is said, in one line, as a build's input. */
static int torch_flags(const kd_frontend_options *opts, const kd_side *side, const kd_strlist *include_dirs,
                       kd_torch_flags *flags, const kd_torch_info **torch)
{
    char *header = NULL;
    bool theirs = false;
    memset(flags, 0, sizeof *flags);
    *torch = NULL;
    if (!kd_torch_extension(side->path, include_dirs, &header, &theirs) || theirs) {
        free(header);
        return KD_OK;
    }
    const char *python = kd_frontend_python(opts);
    kd_strbuf detail = {0};
    kd_torch_status st = kd_torch_query(python, torch, &detail);
    if (st == KD_TORCH_OK) {
        kd_torch_flags_for(*torch, side->path, &opts->defines, &opts->nvcc_flags, flags);
        kd_trace("%s: a PyTorch extension (%s): torch %s of %s", side->label, header, (*torch)->version, python);
    } else {
        int id = st == KD_TORCH_NO_PYTHON      ? KD_MSG_BACKEND_TORCH_NO_PYTHON
                 : st == KD_TORCH_NOT_INSTALLED ? KD_MSG_BACKEND_TORCH_NOT_INSTALLED
                 : st == KD_TORCH_UNSAFE_PATH   ? KD_MSG_BACKEND_TORCH_UNSAFE_PATH
                 : st == KD_TORCH_QUERY_TIMEOUT ? KD_MSG_BACKEND_TORCH_QUERY_TIMEOUT
                 : detail.len                   ? KD_MSG_BACKEND_TORCH_QUERY_FAILED
                                                : KD_MSG_BACKEND_TORCH_QUERY_SILENT;
        if (st == KD_TORCH_QUERY_TIMEOUT)
            kd_say(id, KD_DIAG_NO_SIDE, KD_S(side->label), KD_S(side->path), KD_S(header), KD_S(python),
                   KD_I(kd_torch_query_timeout_s()));
        else
            kd_say(id, KD_DIAG_NO_SIDE, KD_S(side->label), KD_S(side->path), KD_S(header), KD_S(python),
                   KD_S(kd_sb_str(&detail)));
    }
    kd_sb_free(&detail);
    free(header);
    return st == KD_TORCH_OK ? KD_OK : KD_FAIL_BUILD;
}

/* Two lists made one (borrowed strings): the user's, then what kerndiff adds. */
static void join_lists(const kd_strlist *a, const kd_strlist *b, kd_strlist *out)
{
    for (size_t i = 0; i < a->count; i++)
        kd_strlist_push(out, a->items[i]);
    for (size_t i = 0; i < b->count; i++)
        kd_strlist_push(out, b->items[i]);
}

/* Headers found near the file and added as -I, at most, before the build's failure is said. */
enum { KD_INCLUDES_ADDED_MAX = 4 };

static bool listed(const kd_strlist *l, const char *s)
{
    for (size_t i = 0; i < l->count; i++)
        if (strcmp(l->items[i], s) == 0)
            return true;
    return false;
}

/* The plain build (regions NULL) or the instrumented one, in the build folder `folder`. */
static int build_variant(const kd_frontend_options *opts, const kd_build_target *c, kd_side *side,
                         const kd_region_names *regions, const char *folder, kd_build *out)
{
    /* <kerndiff/launcher.h> must resolve for launcher files: its folder comes last. */
    kd_strlist include_dirs = {0};
    for (size_t i = 0; i < side->include_dirs->count; i++)
        kd_strlist_push(&include_dirs, side->include_dirs->items[i]);
    char *public_headers = kd_include_dir();
    if (public_headers)
        kd_strlist_push(&include_dirs, public_headers);
    kd_torch_flags torch = {0};
    const kd_torch_info *torch_info = NULL;
    int torch_rc = torch_flags(opts, side, side->include_dirs, &torch, &torch_info);
    if (torch_rc != KD_OK) {
        free(include_dirs.items);
        free(public_headers);
        return torch_rc;
    }
    kd_strlist defines = {0}, nvcc_flags = {0};
    join_lists(&opts->defines, &torch.defines, &defines);
    join_lists(&opts->nvcc_flags, &torch.flags, &nvcc_flags);
    bool launcher = side->kernel_info && side->kernel_info->is_launcher;
    if (launcher)
        read_libs(side);
    kd_build_config cfg = {
        .nvcc = kd_find_nvcc(opts->nvcc),
        .arch = c->arch,
        .include_dirs = &include_dirs,
        .defines = &defines,
        .nvcc_flags = &nvcc_flags,
        .use_cache = !opts->no_cache,
        .only_new = opts->building_ahead,
        .launcher = launcher ? side->kernel_info : NULL,
        .libs = &side->libs,
        .regions = regions,
        .region_markers = opts->regions_every_block ? KD_MARKERS_EVERY_BLOCK
                          : side->regions_branched  ? KD_MARKERS_BRANCHED
                                                    : KD_MARKERS_PREDICATED,
        .cuobjdump = kd_find_cuobjdump(kd_find_nvcc(opts->nvcc)),
        .key_extra = torch_info ? torch_info->version : NULL,
    };
    kd_strbuf why = {0};
    kd_build_status st = kd_build_source(&cfg, side->path, folder, out, &why);
    /* A header the file includes that no -I reaches, lying near it (compile/includes.h): built
       again with its folder added, as the project's own build adds it (LeetCUDA's utils/,
       cuda_hgemm's src/common), and said; a few at most, the user's -I first. */
    kd_strlist added = {0};
    for (int tries = 0; st == KD_BUILD_FAILED && tries < KD_INCLUDES_ADDED_MAX; tries++) {
        char *header = NULL, *dir = NULL;
        kd_strbuf unsafe = {0}; /* a folder nvcc's shell would split is left to the user (the hint) */
        bool near = kd_missing_include(kd_sb_str(&why), &header) && kd_suggest_include(side->path, header, &dir) == 0 &&
                    !listed(&include_dirs, dir) && kd_build_check_flag("-I", dir, &unsafe) == 0;
        kd_sb_free(&unsafe);
        if (near) {
            kd_say(KD_MSG_BACKEND_INCLUDE_ADDED, KD_DIAG_NO_SIDE, KD_S(side->label), KD_S(side->path), KD_S(header),
                   KD_S(dir));
            kd_strlist_push(&added, dir);
            kd_strlist_push(&include_dirs, dir);
            kd_build_free(out);
            kd_sb_free(&why);
            st = kd_build_source(&cfg, side->path, folder, out, &why);
        } else {
            free(dir);
        }
        free(header);
        if (!near)
            break;
    }
    int rc = KD_OK;
    switch (st) {
    case KD_BUILD_OK:
        break;
    case KD_BUILD_NO_SOURCE:
        kd_say(KD_MSG_BACKEND_SIDE_SAYS, KD_DIAG_NO_SIDE, KD_S(side->label), KD_S(kd_sb_str(&why)));
        rc = KD_FAIL_INPUT;
        break;
    case KD_BUILD_NO_COMPILER:
        kd_say(KD_MSG_BACKEND_SAYS, KD_DIAG_NO_SIDE, KD_S(kd_sb_str(&why)));
        rc = KD_FAIL_TOOL;
        break;
    case KD_BUILD_FAILED: {
        /* nvcc quotes source lines: the sink writes their control sequences out. */
        kd_diag hint = {0}; /* a missing header that lies near the file: "add -I DIR"; a flag nvcc asks for */
        bool first = kd_build_failure_hint(kd_sb_str(&why), side->path, &hint);
        kd_say(first ? KD_MSG_BACKEND_BUILD_FAILED_HINT : KD_MSG_BACKEND_BUILD_FAILED, KD_DIAG_NO_SIDE,
               KD_S(side->label), KD_S(side->path), KD_S(c->arch), KD_S(kd_sb_str(&why)), KD_M(&hint));
        kd_diag_free(&hint);
        rc = KD_FAIL_BUILD;
        break;
    }
    case KD_BUILD_SYSTEM:
        kd_say(KD_MSG_BACKEND_SIDE_SAYS, KD_DIAG_NO_SIDE, KD_S(side->label), KD_S(kd_sb_str(&why)));
        rc = KD_FAIL_TOOL;
        break;
    }
    kd_sb_free(&why);
    for (size_t i = 0; i < added.count; i++)
        free(added.items[i]);
    free(added.items);
    free(include_dirs.items);
    free(defines.items);
    free(nvcc_flags.items);
    kd_torch_flags_free(&torch);
    free(public_headers);
    return rc;
}

/* The chosen kernel as compiled (source/compiled.h): a template's parameter types are its
 * instance's (`const T *in` of copy<float> is a `float const*` in the entry the chosen name
 * picks: "copy<float>", or "copy" when there is one instance), a typedef'd parameter has its
 * compiled type (`uint` is `unsigned int`), and each pointer's use is read from the code.
 * No entry, or several: the static analysis says which to pick. */
static void use_compiled(kd_side *side)
{
    kd_kernel k;
    if (kd_compiled_kernel(side->kernel_info, side->kernel, side->build.ptx, &k) != 0)
        return;
    side->compiled = kd_xmalloc(sizeof *side->compiled);
    *side->compiled = k;
    side->kernel_info = side->compiled;
}

/* v2's build, started by cuda_prefetch in a child of its own: the side it is for and the
 * child (its process group's leader: nvcc and ptxas are in the group). */
static struct {
    const kd_side *side;
    pid_t pid;
} ahead;

/* The child's exit status says what it did. */
enum { AHEAD_COMPILED = 0, AHEAD_FOUND = 1, AHEAD_FAILED = 2 };

/* Waits for the build ahead; true when it compiled the side (not: found it in the cache,
 * failed, or was killed). */
static bool reap_ahead(void)
{
    int status = kd_wait_child(ahead.pid);
    ahead.pid = 0;
    ahead.side = NULL;
    return status == AHEAD_COMPILED;
}

/* At exit (a failed v1 build, a signal): the build ahead is not left running. */
static void stop_ahead(void)
{
    if (!ahead.pid)
        return;
    kill(-ahead.pid, SIGTERM);
    (void)reap_ahead();
}

/* Whether two files hold the same bytes (or cannot be read): one build key, which the two
 * builds would write over each other in the cache. */
static bool same_text(const char *a, const char *b)
{
    size_t la = 0, lb = 0;
    char *ta = kd_read_file(a, &la), *tb = kd_read_file(b, &lb);
    bool same = !ta || !tb || (la == lb && memcmp(ta, tb, la) == 0);
    free(ta);
    free(tb);
    return same;
}

/* A cold diff builds both sides with nvcc, one after the other (0.9 s and 0.8 s on the H100
 * host of bench/full_diff.txt). v2's build starts here in a forked child that only fills the
 * build cache while v1 builds in kerndiff; v2's own build waits for it, then finds its entry
 * (or, where the child failed, builds as before and says why). The child builds only where
 * nothing is at the entry's place (a damaged entry is left to v2's own build, which says
 * so: the child's words would be lost). The child is a worker (util/spawn.h: silent, in a
 * process group of its own, ending its nvcc on a signal). Not with
 * --no-cache (its work would be lost), nor for two files of the same text (one key). */
static void cuda_prefetch(const kd_frontend_options *opts, const kd_build_target *target, kd_side *sides[2])
{
    if (opts->no_cache || opts->no_build_ahead || ahead.pid || !kd_tmpdir() ||
        same_text(sides[0]->path, sides[1]->path))
        return;
    static bool registered;
    if (!registered && kd_on_exit(stop_ahead) != 0)
        return;
    registered = true;
    /* torch's flags are asked once per run (compile/torch.h): before the fork, so the child
     * and v1's build share the answer. A failure is v2's own build's to say. */
    char *header = NULL;
    bool theirs = false;
    if (kd_torch_extension(sides[1]->path, sides[1]->include_dirs, &header, &theirs) && !theirs) {
        const kd_torch_info *info;
        kd_strbuf ignored = {0};
        (void)kd_torch_query(kd_frontend_python(opts), &info, &ignored);
        kd_sb_free(&ignored);
    }
    free(header);
    pid_t pid = kd_fork_worker(true);
    if (pid == 0) {
        kd_build build;
        kd_frontend_options ahead_opts = *opts;
        ahead_opts.building_ahead = true;
        int rc = build_variant(&ahead_opts, target, sides[1], NULL, sides[1]->label, &build);
        _exit(rc != KD_OK ? AHEAD_FAILED : build.from_cache ? AHEAD_FOUND : AHEAD_COMPILED);
    }
    if (pid < 0)
        return;
    ahead.side = sides[1];
    ahead.pid = pid;
    kd_trace("%s: build started beside %s's", sides[1]->label, sides[0]->label);
}

static int cuda_build(const kd_frontend_options *opts, const kd_launch_options *launch, const kd_build_target *c,
                      kd_side *side)
{
    (void)launch; /* nvcc does not specialise on the launch */
    bool compiled_ahead = ahead.pid && ahead.side == side && reap_ahead();
    int rc = build_variant(opts, c, side, NULL, side->label, &side->build);
    if (rc == KD_OK && compiled_ahead)
        side->build.from_cache = false; /* compiled in this run, beside the other side */
    if (rc == KD_OK && side->kernel_info && !side->compiled)
        use_compiled(side);
    return rc;
}

static int cuda_build_instrumented(const kd_instrumented_build *b)
{
    /* nvcc does not specialise on the launch; the scan decided: markers were found (no skip) */
    return build_variant(b->opts, b->target, b->side, b->regions, b->folder, b->out);
}

const kd_backend kd_backend_cuda = {
    .name = "cuda",
    .needs_gpu = true,
    .scan_misses_macros = true,
    .claims = claims_cuda,
    .harness = cuda_harness,
    .scan = cuda_scan,
    .prefetch = cuda_prefetch,
    .build = cuda_build,
    .build_instrumented = cuda_build_instrumented,
    .region_markers = true,
};
