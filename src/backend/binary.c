/* The binary backend: .ptx and .cubin files that another compiler made (Triton's cache,
 * CuTe DSL, hand-written PTX). Kernels are the entry symbols; a .ptx is assembled with
 * ptxas (whose -v report gives the resources, as for nvcc builds), a .cubin is used as it
 * is (cuobjdump gives its functions and resources; no PTX, so no PTX histogram). What PTX
 * cannot say (element types, which buffers are inputs; everything, for a cubin) comes from
 * `// kerndiff:` lines in the .ptx or from a sidecar file FILE.kerndiff beside the input
 * (`# kerndiff: signature=x:f32*,n:i32 inputs=x grid=... block=...`), see ptxentry.h. */
#include "backend/registry.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "backend/backend_msgs.h"
#include "util/outcome.h"
#include "compile/build.h"
#include "compile/cache.h"
#include "source/ptxentry.h"
#include "static/cubin.h"
#include "util/fs.h"
#include "util/hash.h"
#include "util/spawn.h"
#include "util/text.h"
#include "util/xalloc.h"

#define RECIPE "kerndiff-ptxas-1"
enum { TOOL_TIMEOUT_MS = 120000 };

static bool is_cubin(const char *path) { return kd_source_kind_of(path) == KD_SOURCE_CUBIN; }

static bool claims_binary(const char *path)
{
    return kd_source_kind_of(path) == KD_SOURCE_PTX || is_cubin(path);
}

static int binary_harness(int side, kd_argv *argv, kd_strbuf *why)
{
    (void)side;
    return kd_backend_find_harness("kerndiff-harness", argv, why);
}

/* cuobjdump --dump-resource-usage of a cubin (functions and resources), malloc'd, or NULL
 * with the reason printed. */
static char *resource_usage(const kd_frontend_options *opts, const char *side, const char *cubin)
{
    const char *cuobjdump = kd_find_cuobjdump(kd_find_nvcc(opts->nvcc));
    const char *argv[] = {cuobjdump, "--dump-resource-usage", cubin, NULL};
    kd_spawn_result r;
    if (!cuobjdump || kd_spawn(argv, NULL, TOOL_TIMEOUT_MS, &r) != 0) {
        kd_say_sided_args(KD_MSG_BACKEND_NEEDS_CUOBJDUMP, side, NULL, 0);
        return NULL;
    }
    char *text = NULL;
    if (r.exit_code == 0 && !r.signal)
        text = kd_sb_take(&r.out);
    else
        kd_say_sided(KD_MSG_BACKEND_CUOBJDUMP_FAILED, side, KD_S(cuobjdump), KD_S(cubin), KD_S(kd_sb_str(&r.err)));
    kd_spawn_result_free(&r);
    return text;
}

/* The functions cuobjdump lists ("Function NAME:"). */
static void cubin_functions(const char *usage, kd_kernel_list *out)
{
    kd_strlist names = {0};
    kd_cubin_function_names(usage, &names);
    kd_ptx_kernels_named(names.items, names.count, out);
    for (size_t i = 0; i < names.count; i++)
        free(names.items[i]);
    free(names.items);
}

static int binary_scan(const kd_frontend_options *opts, const char *path, const char *side, kd_kernel_list *kernels,
                       kd_annotations *annotations)
{
    bool cubin = is_cubin(path);
    size_t len = 0;
    char *text = cubin ? resource_usage(opts, side, path) : kd_read_file(path, &len);
    if (!text) {
        if (!cubin)
            kd_say_sided(KD_MSG_BACKEND_CANNOT_READ, side, KD_S(path), KD_S(kd_read_error(errno)));
        return cubin ? KD_FAIL_TOOL : KD_FAIL_INPUT;
    }
    /* The file's own annotations (PTX comments), then the sidecar's, which win. */
    kd_strbuf notes = {0};
    if (!cubin)
        kd_sb_puts(&notes, text);
    kd_strbuf sidecar_path = {0};
    kd_sb_printf(&sidecar_path, "%s.kerndiff", path);
    char *sidecar = kd_read_file(kd_sb_str(&sidecar_path), NULL);
    if (!sidecar && errno != ENOENT) {
        /* A sidecar that is there but cannot be used (a FIFO, a folder, too large) is said,
         * never skipped: its annotations would silently be missing. */
        kd_say_sided(KD_MSG_BACKEND_CANNOT_READ, side, KD_S(kd_sb_str(&sidecar_path)), KD_S(kd_read_error(errno)));
        kd_sb_free(&notes);
        kd_sb_free(&sidecar_path);
        free(text);
        return KD_FAIL_INPUT;
    }
    if (sidecar)
        kd_sb_printf(&notes, "\n%s", sidecar);
    kd_annotations local = {0};
    kd_annotations *a = annotations ? annotations : &local;
    kd_strbuf why = {0};
    kd_annotations_parse(kd_sb_str(&notes), notes.len, a);
    if (cubin)
        cubin_functions(text, kernels);
    else
        kd_ptx_kernels(text, kernels);
    int rc = KD_OK;
    if (kd_ptx_kernels_annotate(kernels, a, &why) != 0) {
        kd_say_sided(KD_MSG_BACKEND_ANNOTATIONS, side, KD_S(sidecar ? kd_sb_str(&sidecar_path) : path), KD_S(kd_sb_str(&why)));
        rc = KD_FAIL_INPUT;
    }
    kd_annotations_free(&local);
    kd_sb_free(&why);
    kd_sb_free(&notes);
    kd_sb_free(&sidecar_path);
    free(sidecar);
    free(text);
    return rc;
}

/* ptxas beside nvcc, else on PATH. */
static char *find_ptxas(const kd_frontend_options *opts)
{
    const char *nvcc = kd_find_nvcc(opts->nvcc);
    char *dir = strchr(nvcc, '/') ? kd_dirname(nvcc) : NULL;
    char *beside = dir ? kd_path_join(dir, "ptxas") : NULL;
    free(dir);
    if (beside && kd_program_exists(beside))
        return beside;
    free(beside);
    return kd_xstrdup("ptxas");
}

/* `ptxas --version`, part of the cache key ("" when it will not say). */
static char *ptxas_version(const char *ptxas)
{
    const char *argv[] = {ptxas, "--version", NULL};
    kd_spawn_result r;
    if (kd_spawn(argv, NULL, TOOL_TIMEOUT_MS, &r) != 0)
        return kd_xstrdup("");
    char *version = r.exit_code == 0 ? kd_sb_take(&r.out) : kd_xstrdup("");
    kd_spawn_result_free(&r);
    return version;
}

/* ptxas -v into dir: the cubin, and its resource report as ptxas.log. */
static int run_ptxas(const char *ptxas, const kd_build_target *c, const kd_side *side, const char *dir)
{
    char *cubin = kd_path_join(dir, "kernel.cubin"), *log = kd_path_join(dir, "ptxas.log");
    const char *argv[] = {ptxas, "-v", "-arch", c->arch, "-o", cubin, side->path, NULL};
    kd_spawn_result r;
    int rc = KD_OK;
    if (!cubin || !log || kd_spawn(argv, NULL, TOOL_TIMEOUT_MS, &r) != 0) {
        kd_say(KD_MSG_BACKEND_NO_PTXAS, KD_DIAG_NO_SIDE, KD_S(side->label), KD_S(ptxas), KD_S(side->path));
        rc = KD_FAIL_TOOL;
    } else {
        if (r.exit_code != 0 || r.signal) {
            kd_say(KD_MSG_BACKEND_PTXAS_FAILED, KD_DIAG_NO_SIDE, KD_S(side->label), KD_S(c->arch), KD_S(side->path),
                   KD_S(kd_sb_str(&r.err)));
            rc = KD_FAIL_BUILD;
        } else if (kd_write_file(log, kd_sb_str(&r.err), r.err.len) != 0) {
            kd_say(KD_MSG_BACKEND_CANNOT_WRITE, KD_DIAG_NO_SIDE, KD_S(side->label), KD_S(log), KD_S(strerror(errno)));
            rc = KD_FAIL_TOOL;
        }
        kd_spawn_result_free(&r);
    }
    free(cubin);
    free(log);
    return rc;
}

/* A .ptx is assembled by ptxas -v (cubin and resource report in one run), cached like
 * every build: the key is the PTX, the arch and ptxas's version. */
static int assemble(const kd_frontend_options *opts, const kd_build_target *c, kd_side *side)
{
    static const char *const names[] = {"kernel.cubin", "ptxas.log"};
    static const bool required[] = {true, true};
    const kd_cache_layout layout = {names, required, 2};
    kd_build *b = &side->build;
    size_t len = 0;
    b->ptx = kd_read_file(side->path, &len);
    if (!b->ptx) {
        kd_say(KD_MSG_BACKEND_CANNOT_READ, KD_DIAG_NO_SIDE, KD_S(side->label), KD_S(side->path), KD_S(kd_read_error(errno)));
        return KD_FAIL_INPUT;
    }
    char *ptxas = find_ptxas(opts), *version = ptxas_version(ptxas);
    kd_hash h;
    kd_hash_init(&h);
    kd_hash_str(&h, RECIPE);
    kd_hash_str(&h, version);
    kd_hash_str(&h, c->arch);
    kd_hash_field(&h, b->ptx, len);
    kd_hash_hex(&h, b->key);
    free(version);
    char *entry = kd_cache_entry(b->key);
    int rc = KD_OK;
    b->from_cache = !opts->no_cache && kd_cache_usable(entry, b->key, &layout, &b->note);
    if (!b->from_cache) {
        char *dir = kd_build_folder(side->label); /* its own: a later build in the process keeps off it */
        if (!dir) {
            kd_say(KD_MSG_BACKEND_NO_BUILD_FOLDER, KD_DIAG_NO_SIDE, KD_S(side->label), KD_S(strerror(errno)));
            rc = KD_FAIL_TOOL;
        } else if ((rc = run_ptxas(ptxas, c, side, dir)) == KD_OK && entry) {
            kd_cache_store(dir, entry, &layout);
        }
        b->dir = dir;
    } else {
        b->dir = entry;
        entry = NULL;
    }
    free(entry);
    free(ptxas);
    char *log = rc == KD_OK ? kd_path_join(b->dir, "ptxas.log") : NULL;
    b->cubin_path = rc == KD_OK ? kd_path_join(b->dir, "kernel.cubin") : NULL;
    b->ptxas_log = log ? kd_read_output(log, NULL) : NULL;
    free(log);
    if (rc == KD_OK && (!b->cubin_path || !b->ptxas_log)) {
        kd_say(KD_MSG_BACKEND_ASSEMBLY_LEFT_NOTHING, KD_DIAG_NO_SIDE, KD_S(side->label), KD_S(side->path), KD_S(b->dir));
        rc = KD_FAIL_TOOL;
    }
    return rc;
}

/* A .cubin is used as it is: no PTX, resources from cuobjdump. */
static int use_cubin(const kd_frontend_options *opts, kd_side *side)
{
    kd_build *b = &side->build;
    b->cubin_path = realpath(side->path, NULL);
    b->dir = b->cubin_path ? kd_dirname(b->cubin_path) : NULL;
    b->ptx = kd_xstrdup("");
    b->ptxas_log = b->cubin_path ? resource_usage(opts, side->label, b->cubin_path) : NULL;
    if (!b->cubin_path)
        kd_say(KD_MSG_BACKEND_CANNOT_READ, KD_DIAG_NO_SIDE, KD_S(side->label), KD_S(side->path), KD_S(kd_read_error(errno)));
    return b->cubin_path && b->ptxas_log ? KD_OK : b->cubin_path ? KD_FAIL_TOOL : KD_FAIL_INPUT;
}

/* A cubin carries no parameter list: without a `signature=` its launch cannot be described
 * (the static diff still runs). */
static int binary_prepare(const kd_frontend_options *opts, const kd_launch_options *launch, kd_side *side)
{
    (void)opts;
    (void)launch;
    if (is_cubin(side->path) && !kd_annotation_get(&side->annotations, "signature") &&
        !(side->kernel_info && side->kernel_info->signature)) /* typed from the mangled name */
        side->kernel_info = NULL;
    return KD_OK;
}

static int binary_build(const kd_frontend_options *opts, const kd_launch_options *launch, const kd_build_target *c,
                        kd_side *side)
{
    (void)launch; /* ptxas and a cubin do not specialise on the launch */
    int rc = is_cubin(side->path) ? use_cubin(opts, side) : assemble(opts, c, side);
    if (rc == KD_OK) /* ptxas made the cubin: no cache entry holds its SASS */
        kd_build_disassemble(kd_find_cuobjdump(kd_find_nvcc(opts->nvcc)), &side->build);
    return rc;
}

const kd_backend kd_backend_binary = {
    .name = "binary",
    .needs_gpu = true,
    .claims = claims_binary,
    .harness = binary_harness,
    .scan = binary_scan,
    .prepare = binary_prepare,
    .build = binary_build,
};
