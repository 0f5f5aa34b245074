/* The Triton backend: .py files. Kernels are found by the helper `kerndiff-triton.py list`
 * (Python's ast, no import), compiled ahead of time by `kerndiff-triton.py build` (Triton's
 * own compiler, no GPU, no torch) into PTX + cubin, and the cubin runs in kerndiff-harness
 * like any other: the same timer, L2 flush, placement moves and seeded inputs as CUDA.
 *
 * The compiled signature must match the launch, so the build specialises as Triton's JIT
 * does on the values the launch passes: an integer equal to 1 becomes a constexpr (and
 * leaves the argument list), integers divisible by 16 and every pointer (the harness's
 * allocations are 256-byte aligned) get tt.divisibility=16. Hence the order prepare →
 * describe the launch → build → describe it again (compare.c). */
#include "backend/registry.h"

#include <errno.h>
#include <glob.h>
#include <jansson.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "backend/backend_msgs.h"
#include "backend/triton_msgs.h"
#include "launch/replay.h"
#include "backend/triton_constexpr.h"
#include "util/env.h"
#include "util/outcome.h"
#include "compile/build.h"
#include "compile/cache.h"
#include "launch/dtype.h"
#include "launch/expr.h"
#include "source/pykernels.h"
#include "source/roles.h"
#include "util/fs.h"
#include "util/hash.h"
#include "util/spawn.h"
#include "util/text.h"
#include "util/progress.h"
#include "util/tmpdir.h"
#include "util/xalloc.h"
#include "wire/locate.h"

#define HELPER "kerndiff-triton.py"
#define RECIPE "kerndiff-triton-build-1"
enum { LIST_TIMEOUT_MS = 60000, BUILD_TIMEOUT_MS = 600000, DEFAULT_WARPS = 4, DEFAULT_STAGES = 3 };
/* The helper's exit statuses (scripts/kerndiff-triton.py). */
enum { HELPER_NO_TRITON = 3, HELPER_COMPILE = 4, HELPER_VERSION = 5, HELPER_INPUT = 6 };

static const char *const artifacts[] = {"kernel.ptx", "kernel.cubin", "metadata.json", "resources.txt"};
enum { N_ARTIFACTS = sizeof artifacts / sizeof *artifacts };

static bool claims_python(const char *path) { return kd_source_kind_of(path) == KD_SOURCE_TRITON; }

static int triton_harness(int side, kd_argv *argv, kd_strbuf *why)
{
    (void)side; /* the CUDA harness runs the cubin, alone or beside the other side */
    return kd_backend_find_harness("kerndiff-harness", argv, why);
}

/* The side a message concerns (util/diag.h), from its label "v1"/"v2"; none for NULL. */
static int side_no(const char *label) { return label && label[0] == 'v' ? label[1] - '0' : KD_DIAG_NO_SIDE; }

/* Starts the helper (python, scripts/kerndiff-triton.py) with up to 5 arguments, without waiting (job).
 * Returns KD_OK, or KD_FAIL_TOOL when it could not start: said, naming the side, when `say`. */
static int start_helper(const kd_frontend_options *opts, const char *side, bool say, const char *const args[5],
                        kd_spawn_job *job)
{
    char *script = kd_harness_path(HELPER);
    if (!script) {
        if (say)
            kd_say_sided(KD_MSG_TRITON_NO_HELPER, side, KD_S(HELPER));
        return KD_FAIL_TOOL;
    }
    const char *argv[8] = {kd_frontend_python(opts), script};
    for (int i = 0; i < 5 && args[i]; i++)
        argv[2 + i] = args[i];
    int rc = kd_spawn_start(argv, NULL, job);
    free(script);
    if (rc != 0) {
        if (say)
            kd_say_sided(KD_MSG_TRITON_NO_PYTHON, side, KD_S(kd_frontend_python(opts)), KD_S(strerror(errno)));
        return KD_FAIL_TOOL;
    }
    return KD_OK;
}

/* Runs the helper with up to 5 arguments. Returns 0 when it ran (whatever its status), else
 * prints why it could not start, naming the side, and returns KD_FAIL_TOOL. */
static int run_helper(const kd_frontend_options *opts, const char *side, const char *const args[5], int timeout_ms,
                      kd_spawn_result *r)
{
    kd_spawn_job job;
    int rc = start_helper(opts, side, true, args, &job);
    if (rc != KD_OK) {
        memset(r, 0, sizeof *r);
        return rc;
    }
    kd_spawn_wait(&job, timeout_ms, r);
    return KD_OK;
}

/* A helper that ran and failed: its message, with the side, and the exit code it means. */
static int helper_failed(const kd_spawn_result *r, const char *side, const char *doing, const kd_frontend_options *opts)
{
    /* what it said, less its last newline (the message ends the line) */
    char *said = kd_xstrndup(kd_sb_str(&r->err), strlen(kd_sb_str(&r->err)) -
                                                     (r->err.len && kd_sb_str(&r->err)[r->err.len - 1] == '\n'));
    int rc;
    if (r->timed_out || r->signal) {
        kd_say_sided(r->timed_out ? KD_MSG_TRITON_HELPER_TOOK_TOO_LONG : KD_MSG_TRITON_HELPER_CRASHED, side, KD_S(doing),
                     KD_S(kd_frontend_python(opts)));
        rc = KD_FAIL_TOOL;
    } else if (r->exit_code == HELPER_NO_TRITON || r->exit_code == HELPER_VERSION) {
        kd_say_sided(KD_MSG_TRITON_HELPER_NO_TRITON, side, KD_S(doing), KD_S(kd_frontend_python(opts)), KD_S(said));
        rc = KD_FAIL_TOOL;
    } else if (r->exit_code == HELPER_COMPILE) {
        kd_say_sided(KD_MSG_TRITON_HELPER_COMPILE, side, KD_S(doing), KD_S(said));
        rc = KD_FAIL_BUILD;
    } else if (r->exit_code == HELPER_INPUT) {
        kd_say_sided(KD_MSG_TRITON_HELPER_INPUT, side, KD_S(said));
        rc = KD_FAIL_INPUT;
    } else {
        kd_say_sided(KD_MSG_TRITON_HELPER_STATUS, side, KD_S(doing), KD_S(kd_frontend_python(opts)), KD_I(r->exit_code),
               KD_S(said));
        rc = KD_FAIL_TOOL;
    }
    free(said);
    return rc;
}

static int triton_scan(const kd_frontend_options *opts, const char *path, const char *side, kd_kernel_list *kernels,
                       kd_annotations *annotations)
{
    size_t len;
    char *text = kd_read_file(path, &len);
    if (!text) {
        kd_say_sided(KD_MSG_TRITON_CANNOT_READ, side, KD_S(path), KD_S(strerror(errno)));
        return KD_FAIL_INPUT;
    }
    if (annotations)
        kd_annotations_parse(text, len, annotations);
    free(text);
    kd_spawn_result r;
    int rc = run_helper(opts, side, (const char *const[5]){"list", path}, LIST_TIMEOUT_MS, &r);
    if (rc == KD_OK) {
        kd_strbuf why = {0};
        if (r.exit_code != 0 || r.signal)
            rc = helper_failed(&r, side, "listing the Triton kernels", opts);
        else if (kd_pykernels_parse(kd_sb_str(&r.out), kernels, &why) != 0) {
            kd_say(KD_MSG_TRITON_LIST_UNREADABLE, side_no(side), KD_S(kd_sb_str(&why)));
            rc = KD_FAIL_TOOL;
        }
        kd_sb_free(&why);
        kd_spawn_result_free(&r);
    }
    return rc;
}

/* --- the launch the user's own code makes (scripts/kerndiff-triton.py capture) ----------------- */

enum { CAPTURE_TIMEOUT_S = 120 };

static void read_abi(kd_side *side, const json_t *meta_json);

/* --launch FILE with a Triton section: the launch, its constexprs and autotune choice are the
 * captured program's (never the file's own launch, nor an autotuner run here). */
static bool replayed(const kd_side *side) { return side->replay && side->replay->cap.triton; }

/* Whether a side's launch is taken from the user's code: the file launches the kernel itself
 * (the helper's list found `kernel[grid](...)`, `.warmup(...)` or `.run(...)`), or --run
 * names a program that does, and --no-capture does not say otherwise. */
static bool captures(const kd_frontend_options *opts, json_t *kernel)
{
    return !opts->no_capture && (opts->run_command || json_array_size(json_object_get(kernel, "launches")) > 0);
}

/* "a x2, b x1": the kernels the program launched, from the capture's seen.json. */
static void describe_seen(json_t *seen, kd_strbuf *why)
{
    const char *name;
    json_t *count;
    const char *sep = "; it launched ";
    json_object_foreach(json_object_get(seen, "launched"), name, count) {
        kd_sb_printf(why, "%s%s x%lld", sep, name, (long long)json_integer_value(count));
        sep = ", ";
    }
    if (strcmp(sep, "; it launched ") == 0)
        kd_sb_puts(why, "; it launched no Triton kernel");
    const char *error = json_string_value(json_object_get(seen, "error"));
    if (error)
        kd_sb_printf(why, "; %s", error);
}

/* ": " and the last non-empty line of a program's stderr (its exception, usually). */
static void last_line(const char *text, kd_strbuf *out)
{
    size_t n;
    const char *line = kd_last_line(text, &n);
    if (n)
        kd_sb_printf(out, ": %.*s", (int)(n > 300 ? 300 : n), line);
}

static void hash_file(kd_hash *h, const char *path);
/* Triton's version from the helper (which also checks it is supported); with `say`, a
 * failure is printed, naming the side. */
static int triton_version(const kd_frontend_options *opts, const kd_side *side, bool say, char **version);
static void hash_inputs(kd_hash *h, const char *recipe, const kd_frontend_options *opts, const kd_side *side,
                        const char *version, json_t *kernel);

/* data.json: the captured tensors' data files (data/NAME.bin, kept beside in the cache entry)
 * with their sizes and SHA-256, checked whenever a cached capture is read. */
#define CAPTURE_DATA_LIST "data.json"
#define CAPTURE_DATA_MAX (1ULL << 30) /* bytes: the helper's DATA_CAP, all tensors together */
static const char *const capture_artifacts[] = {"kernel.ptx", "kernel.cubin", "metadata.json", "launch.json",
                                                CAPTURE_DATA_LIST};
enum { N_CAPTURE_ARTIFACTS = sizeof capture_artifacts / sizeof *capture_artifacts };
#define CAPTURE_RECIPE "kerndiff-triton-capture-1"

/* The GPUs the driver lists (their model lines) and which are visible: a captured launch
 * depends on the GPU (an occupancy-sized grid, the autotuner's choice). "" without a driver.
 * The simulated harness (KERNDIFF_SIMULATE, the documented test seam) stands for a GPU of its
 * own, so that a machine without one checks the capture's cache too. */
static void hash_gpus(kd_hash *h, bool *any)
{
    const char *simulated = kd_env_nonempty(KD_ENV_SIMULATE);
    kd_hash_str(h, simulated ? "the simulated harness" : "");
    *any = simulated != NULL;
    glob_t g;
    if (glob("/proc/driver/nvidia/gpus/*/information", 0, NULL, &g) == 0) {
        for (size_t i = 0; i < g.gl_pathc; i++) {
            size_t len = 0;
            char *text = kd_read_file(g.gl_pathv[i], &len);
            if (text) {
                kd_hash_field(h, text, len);
                *any = true;
            }
            free(text);
        }
        globfree(&g);
    }
    const char *visible = kd_env(KD_ENV_CUDA_VISIBLE_DEVICES);
    kd_hash_str(h, visible ? visible : "");
}

/* The capture's cache key, or false when a capture is not cached: --run (the program's own
 * files are not known), --no-cache, no GPU listed by the driver (nor the simulated harness),
 * or no Triton version. Keyed
 * by the recipe, the helper, the interpreter and Triton's version, the file and the local
 * modules it imports, the kernel, --nth, and the GPUs. */
static bool capture_key(const kd_frontend_options *opts, const kd_side *side, char key[65])
{
    if (opts->run_command || opts->no_cache)
        return false;
    char *version = NULL;
    if (triton_version(opts, side, false, &version) != KD_OK) /* the build says why, if it comes to one */
        return false;
    kd_hash h;
    json_t *info = side->kernel_info->frontend_info ? json_loads(side->kernel_info->frontend_info, 0, NULL) : NULL;
    hash_inputs(&h, CAPTURE_RECIPE, opts, side, version, info);
    json_decref(info);
    free(version);
    kd_hash_str(&h, side->kernel_info->name);
    char nth[16];
    snprintf(nth, sizeof nth, "%d", opts->capture_nth > 0 ? opts->capture_nth : 1);
    kd_hash_str(&h, nth);
    kd_hash_str(&h, opts->config ? opts->config : "");
    bool gpus;
    hash_gpus(&h, &gpus);
    kd_hash_hex(&h, key);
    return gpus;
}

/* A data file's name as launch.json gives it (args[].data.file): data/NAME inside the
 * capture's folder, nothing else. NULL when the argument has none or another. */
static const char *data_file_name(json_t *a)
{
    const char *file = json_string_value(json_object_get(json_object_get(a, "data"), "file"));
    return file && strncmp(file, "data/", 5) == 0 && !strchr(file + 5, '/') && !strstr(file, "..") ? file : NULL;
}

/* Writes dir/data.json: each data file dir/launch.json names, with its size and SHA-256, so
 * that the data of a cached capture is checked on every read (copy_capture). Returns 0, or -1
 * when one of them cannot be read (the capture is then not cached: a cached capture without
 * its data would time the kernel on random data). */
static int write_data_list(const char *dir)
{
    char *launch_path = kd_path_join(dir, "launch.json"), *list_path = kd_path_join(dir, CAPTURE_DATA_LIST);
    json_t *launch_json = launch_path ? json_load_file(launch_path, 0, NULL) : NULL;
    json_t *files = json_array();
    int rc = launch_json && list_path ? 0 : -1;
    size_t i;
    json_t *a;
    json_array_foreach(json_object_get(launch_json, "args"), i, a) {
        const char *file = data_file_name(a);
        char *path = file ? kd_path_join(dir, file) : NULL;
        unsigned long long size;
        char digest[65];
        kd_strbuf why = {0};
        if (path && kd_cache_file_digest(path, &size, digest, &why) == 0)
            json_array_append_new(files, json_pack("{s:s, s:I, s:s}", "file", file, "bytes", (json_int_t)size,
                                                   "sha256", digest));
        else if (file)
            rc = -1;
        kd_sb_free(&why);
        free(path);
    }
    json_t *list = json_pack("{s:o}", "files", files);
    if (rc == 0 && (!list || json_dump_file(list, list_path, JSON_COMPACT) != 0))
        rc = -1;
    json_decref(list);
    json_decref(launch_json);
    free(launch_path);
    free(list_path);
    return rc;
}

/* One data file launch.json names, from the cache entry into dir (linked or copied), checked
 * against the entry's data list (its size and SHA-256). Returns 0, or -1 with why in `why`. */
static int take_data_file(const char *entry, const char *dir, json_t *list, const char *file, kd_strbuf *why)
{
    json_t *listed = NULL, *f;
    size_t i;
    json_array_foreach(json_object_get(list, "files"), i, f)
        if (json_is_string(json_object_get(f, "file")) && strcmp(json_string_value(json_object_get(f, "file")), file) == 0)
            listed = f;
    const char *want = json_string_value(json_object_get(listed, "sha256"));
    if (!listed || !want) {
        kd_sb_printf(why, "%s is not in its data list", file);
        return -1;
    }
    char *from = kd_path_join(entry, file), *to = kd_path_join(dir, file), *to_dir = kd_path_join(dir, "data");
    unsigned long long size = 0;
    char digest[65];
    kd_strbuf what = {0};
    int rc = -1;
    if (kd_mkdir_p(to_dir) != 0 || kd_cache_link_or_copy(from, to) != 0)
        kd_sb_printf(why, "%s is missing or cannot be read", file);
    else if (kd_cache_file_digest(to, &size, digest, &what) != 0)
        kd_sb_printf(why, "%s %s", file, kd_sb_str(&what));
    else if ((json_int_t)size != json_integer_value(json_object_get(listed, "bytes")))
        kd_sb_printf(why, "%s has another size (%llu bytes, %lld kept)", file, size,
                     (long long)json_integer_value(json_object_get(listed, "bytes")));
    else if (strcmp(digest, want) != 0)
        kd_sb_printf(why, "%s does not match its checksum", file);
    else
        rc = 0;
    kd_sb_free(&what);
    free(from);
    free(to);
    free(to_dir);
    return rc;
}

/* The cached capture's files into dir (a private copy: the build writes beside them), with
 * the data of each tensor it kept, every data file checked against the entry's data list.
 * Returns the number of data files taken (0: the capture kept none), or -1 with why the entry
 * cannot be used in `why` (the caller captures again). */
static int copy_capture(const char *entry, const char *dir, kd_strbuf *why)
{
    for (size_t i = 0; i < N_CAPTURE_ARTIFACTS; i++) {
        char *from = kd_path_join(entry, capture_artifacts[i]), *to = kd_path_join(dir, capture_artifacts[i]);
        int rc = kd_cache_link_or_copy(from, to);
        free(from);
        free(to);
        if (rc != 0) {
            kd_sb_printf(why, "%s cannot be copied", capture_artifacts[i]);
            return -1;
        }
    }
    char *launch_path = kd_path_join(dir, "launch.json"), *list_path = kd_path_join(dir, CAPTURE_DATA_LIST);
    json_t *launch_json = launch_path ? json_load_file(launch_path, 0, NULL) : NULL;
    json_t *list = list_path ? json_load_file(list_path, 0, NULL) : NULL;
    free(launch_path);
    free(list_path);
    int taken = launch_json && list ? 0 : -1;
    if (taken < 0)
        kd_sb_puts(why, "its launch or data list cannot be read");
    size_t i;
    json_t *a;
    json_array_foreach(json_object_get(launch_json, "args"), i, a) {
        const char *file = data_file_name(a);
        if (taken < 0 || !file)
            continue;
        taken = take_data_file(entry, dir, list, file, why) == 0 ? taken + 1 : -1;
    }
    json_decref(launch_json);
    json_decref(list);
    return taken;
}

/* How a side's capture was had: from the cache (with data_files data files, each checked), or
 * run, and then, when recaptured is set, because the cached one's data did not verify. */
typedef struct capture_how {
    bool cached;
    int data_files;
    char *recaptured; /* why the cached capture was not used (malloc'd), or NULL */
} capture_how;

/* A capture of one side's launch under way: its private folder, the cache entry it is to be
 * kept in (NULL: not cached), and the helper running the user's code. */
typedef struct capture_run {
    char *dir;
    char *entry;
    int timeout_s;
    kd_spawn_job job;
} capture_run;

static void capture_run_free(capture_run *cr)
{
    kd_spawn_cancel(&cr->job); /* nothing when it was waited for */
    free(cr->dir);
    free(cr->entry);
    memset(cr, 0, sizeof *cr);
}

static const bool capture_required[N_CAPTURE_ARTIFACTS] = {true, true, true, true, true};
static const kd_cache_layout capture_layout = {capture_artifacts, capture_required, N_CAPTURE_ARTIFACTS};

/* The side's capture's cache entry (NULL: not cached) and its key; *usable when the entry
 * holds a capture that may be used. */
static char *capture_entry(const kd_frontend_options *opts, const kd_side *side, char key[65], bool *usable)
{
    char *entry = capture_key(opts, side, key) ? kd_cache_entry(key) : NULL;
    char *note = NULL;
    *usable = entry && kd_cache_usable(entry, key, &capture_layout, &note);
    free(note); /* a damaged entry is replaced by the capture */
    return entry;
}

/* The side's private capture folder, created; NULL with why. */
static char *capture_folder(const kd_side *side, kd_strbuf *why)
{
    const char *tmp = kd_tmpdir();
    char folder[64];
    snprintf(folder, sizeof folder, "%s-capture", side->label);
    char *dir = tmp ? kd_path_join(tmp, folder) : NULL;
    if (!dir || kd_mkdir_p(dir) != 0) {
        kd_sb_printf(why, "cannot create a private folder for it: %s", strerror(errno));
        free(dir);
        return NULL;
    }
    return dir;
}

/* Starts the helper's capture of the side's launch into cr->dir (cr->job). Returns KD_OK, or
 * KD_FAIL_TOOL when it could not be started: said, naming the side, when `say`. */
static int capture_start(const kd_frontend_options *opts, const kd_side *side, capture_run *cr, bool say)
{
    json_t *spec = json_pack("{s:i}", "nth", opts->capture_nth > 0 ? opts->capture_nth : 1);
    if (opts->run_command)
        json_object_set_new(spec, "run", json_string(opts->run_command));
    if (opts->config)
        json_object_set_new(spec, "config", json_string(opts->config));
    char *spec_text = json_dumps(spec, JSON_COMPACT);
    json_decref(spec);
    /* an earlier capture into this folder (a sweep prepares each point) must not pass for this one */
    static const char *const results[] = {"launch.json", "seen.json", "data"};
    for (size_t i = 0; i < sizeof results / sizeof *results; i++) {
        char *old = kd_path_join(cr->dir, results[i]);
        if (old)
            kd_remove_tree(old);
        free(old);
    }
    char *abs_path = realpath(side->path, NULL);
    cr->timeout_s = opts->capture_timeout_s > 0 ? opts->capture_timeout_s : CAPTURE_TIMEOUT_S;
    int rc = spec_text ? start_helper(opts, side->label, say,
                                      (const char *const[5]){"capture", abs_path ? abs_path : side->path,
                                                             side->kernel_info->name, spec_text, cr->dir},
                                      &cr->job)
                       : KD_FAIL_TOOL;
    free(abs_path);
    free(spec_text);
    return rc;
}

/* Waits for the capture cr->job and keeps its result: side->captured (cr->dir, taken), the
 * cache entry written. Returns 0, or -1 with why the launch could not be taken in `why`. */
static int capture_finish(const kd_frontend_options *opts, kd_side *side, capture_run *cr, kd_strbuf *why)
{
    const char *name = side->kernel_info->name;
    kd_spawn_result r;
    kd_spawn_wait(&cr->job, cr->timeout_s * 1000, &r);
    char *launch_path = kd_path_join(cr->dir, "launch.json"), *seen_path = kd_path_join(cr->dir, "seen.json");
    bool taken = launch_path && access(launch_path, R_OK) == 0;
    if (!taken) {
        const char *program = opts->run_command ? opts->run_command : side->path;
        json_t *seen = seen_path ? json_load_file(seen_path, 0, NULL) : NULL;
        if (r.timed_out)
            kd_sb_printf(why, "%s did not launch %s within %d s (--capture-timeout SECONDS)", program, name,
                         cr->timeout_s);
        else if (r.signal)
            kd_sb_printf(why, "%s was ended by signal %d before it launched %s", program, r.signal, name);
        else
            kd_sb_printf(why, "%s ended (exit status %d) without launching %s%s", program, r.exit_code, name,
                         opts->capture_nth > 1 ? " that many times" : "");
        if (seen)
            describe_seen(seen, why);
        if (!seen || !json_string_value(json_object_get(seen, "error")))
            last_line(kd_sb_str(&r.err), why);
        json_decref(seen);
    }
    kd_spawn_result_free(&r);
    free(launch_path);
    free(seen_path);
    if (!taken) {
        capture_run_free(cr);
        return -1;
    }
    /* kept with its data, or not at all */
    if (cr->entry && write_data_list(cr->dir) == 0)
        kd_cache_store_with_folder(cr->dir, cr->entry, &capture_layout, "data", CAPTURE_DATA_MAX);
    free(side->captured);
    side->captured = cr->dir;
    cr->dir = NULL;
    capture_run_free(cr);
    return 0;
}

/* Captures started by triton_prefetch, one per side, each taken by that side's capture_launch. */
static struct {
    const kd_side *side;
    char *kernel;
    capture_run run;
} prefetched[2];

/* The capture prefetch started for this side and kernel, moved into *cr; false if none. */
static bool take_prefetched(const kd_side *side, capture_run *cr)
{
    for (int s = 0; s < 2; s++) {
        if (prefetched[s].side != side || !prefetched[s].kernel)
            continue;
        bool same = side->kernel_info && strcmp(prefetched[s].kernel, side->kernel_info->name) == 0;
        if (same)
            *cr = prefetched[s].run;
        else
            capture_run_free(&prefetched[s].run); /* another kernel now: run again */
        memset(&prefetched[s].run, 0, sizeof prefetched[s].run);
        free(prefetched[s].kernel);
        prefetched[s].kernel = NULL;
        prefetched[s].side = NULL;
        return same;
    }
    return false;
}

/* Runs the user's code until it launches the side's kernel (the capture_nth-th launch) and
 * keeps what Triton's JIT made for it in a private folder (side->captured); a capture of the
 * same file, kernel and GPUs is taken from the build cache instead, with its tensors' data
 * (how->cached, how->data_files), unless that data is not there or does not verify: then the
 * program is run again (how->recaptured says why). A capture that triton_prefetch started
 * for the side is waited for instead of starting one. Returns 0, or -1 with why the launch
 * could not be taken in `why` (a clause: "the program ended without ..."). */
static int capture_launch(const kd_frontend_options *opts, kd_side *side, capture_how *how, kd_strbuf *why)
{
    memset(how, 0, sizeof *how);
    capture_run cr = {0};
    if (take_prefetched(side, &cr))
        return capture_finish(opts, side, &cr, why);
    if (!(cr.dir = capture_folder(side, why)))
        return -1;
    char key[65];
    bool usable;
    cr.entry = capture_entry(opts, side, key, &usable);
    if (usable) {
        kd_strbuf bad = {0};
        int files = copy_capture(cr.entry, cr.dir, &bad);
        if (files >= 0) {
            free(side->captured);
            side->captured = cr.dir;
            cr.dir = NULL;
            capture_run_free(&cr);
            how->cached = true;
            how->data_files = files;
            kd_sb_free(&bad);
            return 0;
        }
        how->recaptured = kd_sb_take(&bad); /* never timed on random data: captured again */
    }
    if (capture_start(opts, side, &cr, true) != KD_OK) {
        kd_sb_puts(why, "the program could not be started");
        capture_run_free(&cr);
        return -1;
    }
    return capture_finish(opts, side, &cr, why);
}

/* Both sides' captures started at once, so that the two programs run side by side rather
 * than one after the other (each side's capture_launch then waits for its own). Only when
 * both sides are Triton sides whose launch is captured and neither is in the cache, nor
 * would be once the other's is (one file on both sides: v2 takes v1's capture from the
 * cache). A capture that cannot be started here is left to capture_launch, which says why. */
static void triton_prefetch(const kd_frontend_options *opts, const kd_build_target *target, kd_side *sides[2])
{
    (void)target; /* the capture comes before any build */
    for (int s = 0; s < 2; s++) {
        if (!sides[s]->kernel_info || sides[s]->frontend != sides[0]->frontend)
            return;
        json_t *info = sides[s]->kernel_info->frontend_info ? json_loads(sides[s]->kernel_info->frontend_info, 0, NULL)
                                                             : NULL;
        bool capture = !replayed(sides[s]) && captures(opts, info);
        json_decref(info);
        if (!capture)
            return;
    }
    char key[2][65];
    char *entry[2] = {NULL, NULL};
    bool cached = false;
    for (int s = 0; s < 2 && !cached; s++) {
        bool usable;
        entry[s] = capture_entry(opts, sides[s], key[s], &usable);
        cached = usable;
    }
    if (cached || (entry[0] && entry[1] && strcmp(key[0], key[1]) == 0)) {
        free(entry[0]);
        free(entry[1]);
        return;
    }
    for (int s = 0; s < 2; s++) {
        kd_strbuf why = {0};
        capture_run cr = {.entry = entry[s], .dir = capture_folder(sides[s], &why)};
        kd_sb_free(&why); /* capture_launch tries again and says why */
        if (cr.dir && capture_start(opts, sides[s], &cr, false) == KD_OK) {
            prefetched[s].side = sides[s];
            prefetched[s].kernel = kd_xstrdup(sides[s]->kernel_info->name);
            prefetched[s].run = cr;
            kd_trace("%s: capture started beside the other side's", sides[s]->label);
        } else {
            capture_run_free(&cr);
        }
    }
}

/* The C type of a scalar of Triton's compiled signature ("i32" -> "int"); NULL: unsupported. */
static const char *scalar_c_type(const char *triton_type)
{
    static const struct { const char *triton, *c; } types[] = {
        {"i1", "int"}, {"i8", "int"}, {"i16", "int"}, {"i32", "int"}, {"u1", "int"}, {"u8", "unsigned int"},
        {"u16", "unsigned int"}, {"u32", "unsigned int"}, {"i64", "long long"}, {"u64", "unsigned long long"},
        {"fp32", "float"}, {"f32", "float"}, {"fp64", "double"}, {"f64", "double"},
    };
    for (size_t i = 0; i < sizeof types / sizeof *types; i++)
        if (strcmp(types[i].triton, triton_type) == 0)
            return types[i].c;
    return NULL;
}

/* line: the file's line of an annotation kept from the file; KD_ANNOTATION_CAPTURED for a
 * value of the captured launch (the launch line says "captured" for it). */
static void add_annotation(kd_annotations *a, const char *key, const char *value, int line)
{
    a->items = kd_xreallocarray(a->items, a->count + 1, sizeof *a->items);
    a->items[a->count++] = (kd_annotation){kd_xstrdup(key), kd_xstrdup(value), line};
}

/* The captured bytes of pointer argument `a` (launch.json's args[].data): the file the helper
 * names for it (data/NAME.bin in the capture's folder, nothing else), with exactly the
 * buffer's bytes (count x element size). Returns its path, or NULL with why not in `why`. */
static char *captured_data(const char *folder, json_t *a, const char *name, kd_strbuf *why)
{
    json_t *data = json_object_get(a, "data");
    const char *not_kept = json_string_value(json_object_get(data, "not_kept"));
    const char *file = json_string_value(json_object_get(data, "file"));
    long long count = json_integer_value(json_object_get(a, "count")),
              size = json_integer_value(json_object_get(a, "element_size")),
              bytes = json_integer_value(json_object_get(data, "bytes"));
    char expected[300];
    snprintf(expected, sizeof expected, "data/%s.bin", name);
    if (!json_is_object(data)) {
        kd_sb_puts(why, "the capture kept no data for it");
        return NULL;
    }
    if (not_kept) {
        kd_sb_puts(why, not_kept);
        return NULL;
    }
    if (!file || strcmp(file, expected) != 0 || !name[0] ||
        strspn(name, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_") != strlen(name)) {
        kd_sb_puts(why, "its data file is not the capture's own");
        return NULL;
    }
    if (count <= 0 || size <= 0 || count > LLONG_MAX / size || bytes != count * size) {
        kd_sb_printf(why, "its %lld bytes are not %lld elements of %lld bytes", bytes, count, size);
        return NULL;
    }
    char *path = kd_path_join(folder, file);
    struct stat st;
    if (!path || lstat(path, &st) != 0 || !S_ISREG(st.st_mode) || (long long)st.st_size != bytes) {
        kd_sb_puts(why, "its data file is missing or has another size");
        free(path);
        return NULL;
    }
    return path;
}

/* The side as the captured launch has it: the compiled kernel's arguments (constexprs and
 * values Triton specialised away are gone), Triton's block, shared memory, scratch and
 * constexprs, and the grid, buffer sizes and scalar values of the launch, which take the
 * place of the file's annotations (flags still override them). Prints why on failure. */
static int apply_capture(kd_side *side, json_t *launch_json)
{
    json_t *md = json_object_get(launch_json, "metadata");
    kd_kernel *compiled = kd_xcalloc(1, sizeof *compiled);
    compiled->name = kd_xstrdup(side->kernel_info->name);
    compiled->qualified = kd_xstrdup(side->kernel_info->qualified);
    compiled->line = side->kernel_info->line;
    compiled->frontend_info = side->kernel_info->frontend_info ? kd_xstrdup(side->kernel_info->frontend_info) : NULL;
    json_t *args = json_object_get(launch_json, "args");
    compiled->params = kd_xcalloc(json_array_size(args) + 1, sizeof *compiled->params);
    kd_annotations captured = {0};
    kd_strlist fill = {0}; /* per compiled parameter: the captured data file, or NULL */
    json_t *grid = json_object_get(launch_json, "grid");
    char text[128];
    snprintf(text, sizeof text, "%lld,%lld,%lld", (long long)json_integer_value(json_array_get(grid, 0)),
             (long long)json_integer_value(json_array_get(grid, 1)), (long long)json_integer_value(json_array_get(grid, 2)));
    add_annotation(&captured, "grid", text, KD_ANNOTATION_CAPTURED);
    size_t i;
    json_t *a;
    int rc = KD_OK;
    json_array_foreach(args, i, a) {
        const char *name = json_string_value(json_object_get(a, "name"));
        const char *kind = json_string_value(json_object_get(a, "kind"));
        if (!name || !kind) {
            rc = KD_FAIL_TOOL;
            break;
        }
        kd_param *p = &compiled->params[compiled->nparams++];
        p->name = kd_xstrdup(name);
        const kd_param *source = NULL;
        for (size_t j = 0; j < side->kernel_info->nparams; j++)
            if (strcmp(side->kernel_info->params[j].name, name) == 0)
                source = &side->kernel_info->params[j];
        if (strcmp(kind, "pointer") == 0) {
            const char *dtype = json_string_value(json_object_get(a, "dtype"));
            p->is_pointer = true;
            p->is_const = source ? source->is_const : false;
            p->pointee = kd_xstrdup("float");
            p->type = kd_xstrdup(p->is_const ? "const float *" : "float *");
            snprintf(text, sizeof text, "%s[%lld]", dtype ? dtype : "?",
                     (long long)json_integer_value(json_object_get(a, "count")));
            /* the program's own bytes seed it (its clocks follow its data); said per buffer */
            kd_strbuf not_kept = {0};
            char *path = side->captured ? captured_data(side->captured, a, name, &not_kept) : NULL;
            kd_strlist_push(&fill, path);
            json_object_set_new(a, "data", path ? json_pack("{s:b, s:I}", "captured", 1, "bytes",
                                                            json_integer_value(json_object_get(a, "count")) *
                                                                json_integer_value(json_object_get(a, "element_size")))
                                                : json_pack("{s:b, s:s}", "captured", 0, "why", kd_sb_str(&not_kept)));
            kd_sb_free(&not_kept);
        } else {
            kd_strlist_push(&fill, NULL);
            const char *type = scalar_c_type(json_string_value(json_object_get(a, "type")));
            if (!type) {
                kd_say(KD_MSG_TRITON_ARG_TYPE, side_no(side->label), KD_S(side->label), KD_S(name), KD_S(compiled->name),
                       KD_S(json_string_value(json_object_get(a, "type"))));
                rc = KD_FAIL_INPUT;
                break;
            }
            p->type = kd_xstrdup(type);
            json_t *v = json_object_get(a, "value");
            if (json_is_integer(v))
                snprintf(text, sizeof text, "%lld", (long long)json_integer_value(v));
            else if (json_is_boolean(v))
                snprintf(text, sizeof text, "%d", json_is_true(v));
            else
                snprintf(text, sizeof text, "%.17g", json_number_value(v));
        }
        add_annotation(&captured, name, text, KD_ANNOTATION_CAPTURED);
    }
    if (rc != KD_OK) {
        if (rc == KD_FAIL_TOOL)
            kd_say(KD_MSG_TRITON_CAPTURE_MALFORMED, side_no(side->label), KD_S(side->label), KD_S(compiled->name),
                   KD_S(side->captured));
        kd_kernel_free(compiled);
        free(compiled);
        kd_annotations_free(&captured);
        for (size_t j = 0; j < fill.count; j++)
            free(fill.items[j]);
        free(fill.items);
        return rc;
    }
    /* The file's own annotations stay where the launch says nothing (num_warps is Triton's) */
    for (size_t j = 0; j < side->annotations.count; j++)
        if (!kd_annotation_get(&captured, side->annotations.items[j].key))
            add_annotation(&captured, side->annotations.items[j].key, side->annotations.items[j].value,
                           side->annotations.items[j].line);
    kd_annotations_free(&side->annotations);
    side->annotations = captured;
    side->abi.fixed = true;
    for (size_t j = 0; j < side->abi.fill.count; j++)
        free(side->abi.fill.items[j]);
    free(side->abi.fill.items);
    side->abi.fill = fill;
    read_abi(side, md);
    const char *key;
    json_t *v;
    json_object_foreach(json_object_get(launch_json, "constexprs"), key, v)
        if (json_is_number(v) || json_is_boolean(v))
            kd_launch_abi_set(&side->abi, key, json_is_boolean(v) ? json_is_true(v) : json_number_value(v));
    kd_launch_abi_set(&side->abi, "num_warps", (double)json_integer_value(json_object_get(md, "num_warps")));
    kd_launch_abi_set(&side->abi, "num_stages", (double)json_integer_value(json_object_get(md, "num_stages")));
    free(side->abi.default_grid);
    side->abi.default_grid = NULL;
    side->compiled = compiled;
    side->kernel_info = compiled;
    return KD_OK;
}

/* side->launch_source for a captured launch: where it was taken, whether from the cache, the
 * grid, each argument (a tensor's dtype, shape, strides; a scalar's value), the constexprs,
 * the JIT's resources and the autotuner's choice. */
static char *capture_source(json_t *launch_json, const capture_how *how, const char *run_command)
{
    json_t *md = json_object_get(launch_json, "metadata");
    json_t *o = json_pack("{s:s, s:b, s:O*, s:O*, s:O*, s:O*, s:O*}", "from", run_command ? "captured from --run" : "captured",
                          "cached", how->cached, "where", json_object_get(launch_json, "where"), "grid",
                          json_object_get(launch_json, "grid"), "args", json_object_get(launch_json, "args"),
                          "constexprs", json_object_get(launch_json, "constexprs"), "autotune",
                          json_object_get(launch_json, "autotune"));
    if (o && md)
        json_object_set_new(o, "jit", json_pack("{s:O*, s:O*, s:O*, s:O*, s:O*, s:O*}", "n_regs",
                                                json_object_get(md, "n_regs"), "n_spills", json_object_get(md, "n_spills"),
                                                "shared", json_object_get(md, "shared"), "num_warps",
                                                json_object_get(md, "num_warps"), "num_stages",
                                                json_object_get(md, "num_stages"), "triton_version",
                                                json_object_get(md, "triton_version")));
    if (o && run_command)
        json_object_set_new(o, "run", json_string(run_command));
    if (o && how->recaptured)
        json_object_set_new(o, "recaptured", json_string(how->recaptured));
    char *text = o ? json_dumps(o, JSON_COMPACT) : NULL;
    json_decref(o);
    return text;
}

/* side->launch_source for a described launch, with why it was not taken (NULL: the file has
 * no launch of its own, or --no-capture). */
static char *described_source(const char *not_captured)
{
    json_t *o = json_pack("{s:s, s:s?}", "from", "described", "not_captured", not_captured);
    char *text = o ? json_dumps(o, JSON_COMPACT) : NULL;
    json_decref(o);
    return text;
}

/* "; data: the program's own (captured) for x, y; seeded at random: z (not kept: ...)": the
 * buffers' contents as apply_capture decided them (args[].data). */
static void describe_data(json_t *launch_json, kd_strbuf *sb)
{
    const char *sep = "; data: the program's own (captured) for ";
    size_t i;
    json_t *a;
    json_array_foreach(json_object_get(launch_json, "args"), i, a)
        if (json_is_true(json_object_get(json_object_get(a, "data"), "captured"))) {
            kd_sb_printf(sb, "%s%s", sep, json_string_value(json_object_get(a, "name")));
            sep = ", ";
        }
    sep = "; seeded at random: ";
    json_array_foreach(json_object_get(launch_json, "args"), i, a) {
        json_t *data = json_object_get(a, "data");
        if (json_is_false(json_object_get(data, "captured"))) {
            kd_sb_printf(sb, "%s%s (%s)", sep, json_string_value(json_object_get(a, "name")),
                         json_string_value(json_object_get(data, "why")));
            sep = ", ";
        }
    }
}

/* "Triton 3.6.0 JIT, the launch at softmax.py:212 (taken from the file's own call): grid
 * 132x1x1, num_warps=8 num_stages=4 shared=98336 B, 60 registers, 0 spills; BLOCK_SIZE=1024;
 * autotune: Triton chose config 2 of 4 (4 timed)" */
static char *describe_capture(const kd_frontend_options *opts, json_t *launch_json, const capture_how *how)
{
    kd_strbuf from = {0};
    kd_sb_puts(&from, opts->run_command ? "--run's program" : "the file's own call");
    if (how->cached)
        kd_sb_puts(&from, how->data_files ? "; cached capture, with its data" : "; cached capture");
    else if (how->recaptured)
        kd_sb_printf(&from, "; recaptured: the cached capture's data did not verify, %s", how->recaptured);
    json_t *md = json_object_get(launch_json, "metadata"), *where = json_object_get(launch_json, "where");
    json_t *grid = json_object_get(launch_json, "grid");
    kd_strbuf sb = {0};
    const char *file = json_string_value(json_object_get(where, "file"));
    const char *base = file ? strrchr(file, '/') : NULL;
    kd_sb_printf(&sb, "Triton %s JIT, the launch at %s:%lld (taken from %s): grid %lldx%lldx%lld, num_warps=%lld "
                 "num_stages=%lld shared=%lld B, %lld registers, %lld spills (the JIT's)",
                 json_string_value(json_object_get(md, "triton_version")), base ? base + 1 : file ? file : "?",
                 (long long)json_integer_value(json_object_get(where, "line")),
                 kd_sb_str(&from),
                 (long long)json_integer_value(json_array_get(grid, 0)), (long long)json_integer_value(json_array_get(grid, 1)),
                 (long long)json_integer_value(json_array_get(grid, 2)), (long long)json_integer_value(json_object_get(md, "num_warps")),
                 (long long)json_integer_value(json_object_get(md, "num_stages")), (long long)json_integer_value(json_object_get(md, "shared")),
                 (long long)json_integer_value(json_object_get(md, "n_regs")), (long long)json_integer_value(json_object_get(md, "n_spills")));
    const char *key, *sep = "; ";
    json_t *v;
    json_object_foreach(json_object_get(launch_json, "constexprs"), key, v) {
        char *t = json_dumps(v, JSON_ENCODE_ANY);
        kd_sb_printf(&sb, "%s%s=%s", sep, key, t ? t : "?");
        free(t);
        sep = " ";
    }
    describe_data(launch_json, &sb);
    kd_sb_free(&from);
    json_t *tune = json_object_get(launch_json, "autotune");
    if (tune && json_is_true(json_object_get(tune, "pinned")))
        kd_sb_printf(&sb, "; autotune: the config --config %s names, of %lld", opts->config ? opts->config : "?",
                     (long long)json_integer_value(json_object_get(tune, "configs")));
    else if (tune)
        kd_sb_printf(&sb, "; autotune: Triton's autotuner chose among %lld configs (%lld timed in this run)",
                     (long long)json_integer_value(json_object_get(tune, "configs")),
                     (long long)json_integer_value(json_object_get(tune, "tried")));
    return kd_sb_take(&sb);
}

/* --- settings: --call vN:NAME=V, then --arg NAME=V, then `# kerndiff: NAME=V` ---------------- */

/* The value of the last NAME=VALUE entry of `list` (later entries win), malloc'd. */
static char *from_list(const kd_strlist *list, const char *name)
{
    const char *found = NULL;
    size_t nlen = strlen(name);
    for (size_t i = 0; i < list->count; i++)
        if (strncmp(list->items[i], name, nlen) == 0 && list->items[i][nlen] == '=')
            found = list->items[i] + nlen + 1;
    return found ? kd_xstrdup(found) : NULL;
}

/* The text of a setting for this side, malloc'd; NULL when none is given. */
/* --launch FILE of a Triton launch (format 2's section, docs/CAPTURE.md): the JIT's compiled
 * kernel of the program's launch, parsed (the caller decrefs), or NULL. */
static json_t *replay_section(const kd_side *side)
{
    return side->replay && side->replay->cap.triton ? json_loads(side->replay->cap.triton, 0, NULL) : NULL;
}

/* A value the captured launch fixes (a constexpr, a specialised scalar, num_warps, num_stages),
 * as text meta_value reads, or NULL: it wins over flags and annotations, since the replay is of
 * the program's own kernel (issue 30: "compile each side with exactly those settings"). */
static char *captured_setting(const kd_side *side, const char *name)
{
    json_t *t = replay_section(side);
    json_t *v = json_object_get(json_object_get(t, "constexprs"), name);
    if (!v && (strcmp(name, "num_warps") == 0 || strcmp(name, "num_stages") == 0))
        v = json_object_get(t, name);
    char *text = NULL;
    if (json_is_boolean(v))
        text = kd_xstrdup(json_is_true(v) ? "True" : "False");
    else if (json_is_integer(v))
        text = kd_xasprintf("%lld", (long long)json_integer_value(v));
    else if (json_is_real(v))
        text = kd_xasprintf("%.17g", json_real_value(v));
    else if (json_is_string(v))
        text = kd_xasprintf("'%s'", json_string_value(v));
    json_decref(t);
    return text;
}

static char *setting_text(const kd_launch_options *launch, const kd_side *side, const char *name)
{
    int s = side->label[1] == '2'; /* "v1" / "v2" */
    char *captured = captured_setting(side, name);
    if (captured)
        return captured;
    char *text = from_list(&launch->call[s].params, name);
    if (!text)
        text = from_list(&launch->scalars, name);
    if (!text) {
        const char *a = kd_annotation_get(&side->annotations, name);
        text = a ? kd_xstrdup(a) : NULL;
    }
    return text;
}

/* --- the kernel's meta-parameters ----------------------------------------------------------- */

typedef struct meta {
    json_t *kernel;       /* the helper's description (frontend_info) */
    json_t *constexprs;   /* name -> value, for the build */
    int num_warps, num_stages;
    const char *warps_origin, *stages_origin; /* int_setting's *origin */
    bool heuristics_pending; /* constexprs left to @triton.heuristics (apply_heuristics) */
    json_t *computed;        /* what the heuristics computed, or NULL */
    /* constexprs whose value the build line must place: name -> the line of the file's call
     * that passes it (a number), or "assumed" (a block size nothing gives, static only) */
    json_t *origins;
} meta;

static void meta_free(meta *m)
{
    json_decref(m->kernel);
    json_decref(m->constexprs);
    json_decref(m->computed);
    json_decref(m->origins);
}

/* A constexpr's value: a number when the text reads as one (16K, 1<<10), else a string. */
static json_t *meta_value(const char *text)
{
    double v;
    if (strcmp(text, "True") == 0 || strcmp(text, "False") == 0)
        return json_boolean(text[0] == 'T');
    if (kd_expr_eval(text, &(kd_vars){NULL, 0}, &v, NULL, 0) != 0) {
        size_t n = strlen(text); /* a quoted Python string default: 'relu' */
        if (n >= 2 && (text[0] == '\'' || text[0] == '"') && text[n - 1] == text[0])
            return json_stringn(text + 1, n - 2);
        return json_string(text);
    }
    return v == floor(v) && fabs(v) < 9007199254740992.0 ? json_integer((json_int_t)v) : json_real(v);
}

/* The autotune config the given values (--arg, --call, annotations) select: the first
 * whose meta-parameters all agree with them; -1 when none is given or none agrees. */
static int given_config(const kd_launch_options *launch, const kd_side *side, json_t *configs)
{
    size_t i;
    json_t *cfg;
    json_array_foreach(configs, i, cfg) {
        const char *key;
        json_t *v;
        bool all = true, any = false;
        json_object_foreach(json_object_get(cfg, "meta"), key, v) {
            char *given = setting_text(launch, side, key);
            if (given) {
                json_t *g = meta_value(given);
                any = true;
                all = all && json_equal(g, v);
                json_decref(g);
            }
            free(given);
        }
        if (any && all)
            return (int)i;
    }
    return -1;
}

/* The config --config names: "K" (1-based) or "NAME=VALUE,..." matching its meta-parameters
 * and num_warps/num_stages/num_ctas; -1 when none does (the pipeline then chooses). */
static int pinned_config(const char *pin, json_t *configs)
{
    char *end;
    long k = strtol(pin, &end, 10);
    if (*pin && !*end)
        return k >= 1 && (size_t)k <= json_array_size(configs) ? (int)k - 1 : -1;
    if (!strchr(pin, '='))
        return -1; /* no NAME=VALUE at all (",,,"): it names nothing */
    size_t i;
    json_t *cfg;
    json_array_foreach(configs, i, cfg) {
        bool all = true;
        char *items = kd_xstrdup(pin), *save = NULL;
        for (char *item = strtok_r(items, ",", &save); item && all; item = strtok_r(NULL, ",", &save)) {
            char *eq = strchr(item, '=');
            if (!eq) {
                all = false;
                break;
            }
            *eq = '\0';
            json_t *have = json_object_get(json_object_get(cfg, "meta"), item);
            if (!have)
                have = json_object_get(cfg, item);
            json_t *want = meta_value(eq + 1);
            all = have && json_equal(have, want);
            json_decref(want);
        }
        free(items);
        if (all)
            return (int)i;
    }
    return -1;
}

/* "BLOCK=256, num_warps=8": a config's meta-parameters, then its options. */
static char *describe_config(json_t *cfg)
{
    kd_strbuf sb = {0};
    const char *key;
    json_t *v;
    json_object_foreach(json_object_get(cfg, "meta"), key, v) {
        char *text = json_dumps(v, JSON_ENCODE_ANY);
        kd_sb_printf(&sb, "%s%s=%s", sb.len ? ", " : "", key, text ? text : "?");
        free(text);
    }
    static const char *const options[] = {"num_warps", "num_stages", "num_ctas"};
    for (size_t i = 0; i < sizeof options / sizeof *options; i++)
        if (json_is_integer(json_object_get(cfg, options[i])))
            kd_sb_printf(&sb, "%s%s=%lld", sb.len ? ", " : "", options[i],
                         (long long)json_integer_value(json_object_get(cfg, options[i])));
    return kd_sb_take(&sb);
}

static void triton_configs(const kd_frontend_options *opts, const kd_launch_options *launch, const kd_side *side,
                          kd_strlist *out, int *given)
{
    *given = -1;
    const kd_kernel *k = side->kernel_info;
    json_t *info = k && k->frontend_info ? json_loads(k->frontend_info, 0, NULL) : NULL;
    /* A launch taken from the user's code carries Triton's own autotune choice. */
    json_t *configs = captures(opts, info) || replayed(side) ? NULL : json_object_get(info, "configs");
    size_t i;
    json_t *cfg;
    json_array_foreach(configs, i, cfg)
        kd_strlist_push(out, describe_config(cfg));
    *given = opts->config ? pinned_config(opts->config, configs) : given_config(launch, side, configs);
    json_decref(info);
}

/* The config to build: the pipeline's choice (side->config), else the given one, else the first. */
static json_t *choose_config(const kd_launch_options *launch, const kd_side *side, json_t *configs)
{
    int chosen = side->config >= 0 ? side->config : given_config(launch, side, configs);
    return json_array_get(configs, chosen >= 0 ? (size_t)chosen : 0);
}

/* An option's value (num_warps ...): given, else the autotune config's, else Triton's default;
 * *origin says which, for the build line (an assumed value is said, never silent). */
static int int_setting(const kd_launch_options *launch, const kd_side *side, const char *name, json_t *config, int fallback,
                       const char **origin)
{
    char *text = setting_text(launch, side, name), *captured = captured_setting(side, name);
    bool configured = json_is_integer(json_object_get(config, name));
    int v = text ? atoi(text) : configured ? (int)json_integer_value(json_object_get(config, name)) : fallback;
    *origin = captured ? "the captured launch's"
              : text   ? "given"
              : configured ? "the autotune config's"
                           : "Triton's default, nothing in the file or flags says otherwise";
    free(captured);
    free(text);
    return v;
}

/* Resolves every meta-parameter of the side's kernel. With static_only (nothing will be timed:
 * no GPU), a BLOCK constexpr that nothing gives is assumed (KD_TRITON_ASSUMED_BLOCK) and said; otherwise
 * it is refused. Prints the reason on failure. */
static int resolve_meta(const kd_launch_options *launch, const kd_side *side, bool static_only, meta *m)
{
    memset(m, 0, sizeof *m);
    const kd_kernel *k = side->kernel_info;
    m->kernel = k && k->frontend_info ? json_loads(k->frontend_info, 0, NULL) : NULL;
    m->constexprs = json_object();
    m->origins = json_object();
    if (!m->kernel) {
        kd_say(KD_MSG_TRITON_NO_DESCRIPTION, side_no(side->label), KD_S(side->label));
        return KD_FAIL_TOOL;
    }
    json_t *config = choose_config(launch, side, json_object_get(m->kernel, "configs"));
    m->num_warps = int_setting(launch, side, "num_warps", config, DEFAULT_WARPS, &m->warps_origin);
    m->num_stages = int_setting(launch, side, "num_stages", config, DEFAULT_STAGES, &m->stages_origin);
    if (m->num_warps < 1 || m->num_warps > 32 || (m->num_warps & (m->num_warps - 1)) || m->num_stages < 1) {
        kd_say(KD_MSG_TRITON_BAD_WARPS, side_no(side->label), KD_S(side->label), KD_I(m->num_warps), KD_I(m->num_stages));
        return KD_FAIL_INPUT;
    }
    size_t i, nmissing = 0, nassumed = 0;
    json_t *p;
    kd_strbuf missing = {0};
    const char *assumed[8];
    json_array_foreach(json_object_get(m->kernel, "params"), i, p) {
        if (strcmp(json_string_value(json_object_get(p, "kind")), "constexpr") != 0)
            continue;
        const char *name = json_string_value(json_object_get(p, "name"));
        char *text = setting_text(launch, side, name);
        json_t *value = NULL;
        switch (kd_triton_constexpr_from(m->kernel, p, config, text != NULL)) {
        case KD_CONSTEXPR_GIVEN:
            value = meta_value(text);
            break;
        case KD_CONSTEXPR_CONFIG:
            value = json_incref(json_object_get(json_object_get(config, "meta"), name));
            break;
        case KD_CONSTEXPR_DEFAULT:
            value = meta_value(json_string_value(json_object_get(p, "default")));
            break;
        case KD_CONSTEXPR_CALL: /* the value the file's own call passes (its launch could not be taken) */
            value = meta_value(json_string_value(json_object_get(p, "call_value")));
            json_object_set_new(m->origins, name, json_incref(json_array_get(json_object_get(m->kernel, "launches"), 0)));
            break;
        case KD_CONSTEXPR_LENGTH: { /* the element count, as an integer parameter of that name would be: --n */
            double count = 0;
            const char *n_text = launch->n ? launch->n : kd_annotation_get(&side->annotations, "n");
            if (kd_expr_eval(n_text ? n_text : "1M", &(kd_vars){NULL, 0}, &count, NULL, 0) == 0 && count >= 1)
                value = json_integer((json_int_t)count);
            break;
        }
        case KD_CONSTEXPR_HEURISTIC:
            m->heuristics_pending = true; /* computed at the build, from the launch's values */
            free(text);
            continue;
        case KD_CONSTEXPR_NONE:
            break;
        }
        free(text);
        if (!value && static_only && kd_pykernels_block_like(name)) {
            assumed[nassumed < 8 ? nassumed++ : 7] = name; /* sized below, once all are known */
            continue;
        }
        if (!value) { /* every one named, so that one run says all the user must give */
            kd_sb_printf(&missing, "%s%s", nmissing++ ? ", " : "", name);
            continue;
        }
        json_object_set_new(m->constexprs, name, value);
    }
    /* a tile of several assumed block sizes stays one block's size: BLOCK_M = BLOCK_N = 1024
       is a million-element tile that Triton compiles for minutes (tests/corpus: 32 x 32) */
    for (size_t a = 0; a < nassumed; a++) {
        json_object_set_new(m->constexprs, assumed[a], json_integer(kd_pykernels_assumed_block(nassumed)));
        json_object_set_new(m->origins, assumed[a], json_string("assumed"));
    }
    if (nmissing == 1)
        kd_say(KD_MSG_TRITON_CONSTEXPR_NEEDS_VALUE, side_no(side->label), KD_S(side->label), KD_S(kd_sb_str(&missing)),
               KD_S(k->name), KD_S(side->path));
    else if (nmissing > 1)
        kd_say(KD_MSG_TRITON_CONSTEXPRS_NEED_VALUES, side_no(side->label), KD_S(side->label), KD_S(kd_sb_str(&missing)),
               KD_S(k->name), KD_S(side->path));
    kd_sb_free(&missing);
    return nmissing ? KD_FAIL_INPUT : KD_OK;
}

/* A copy of the source kernel: the compiled one starts as it and loses folded parameters. */
static kd_kernel *copy_kernel(const kd_kernel *k)
{
    kd_kernel *c = kd_xcalloc(1, sizeof *c);
    c->name = kd_xstrdup(k->name);
    c->qualified = kd_xstrdup(k->qualified);
    c->line = k->line;
    c->frontend_info = k->frontend_info ? kd_xstrdup(k->frontend_info) : NULL;
    c->params = kd_xcalloc(k->nparams + 1, sizeof *c->params);
    for (size_t i = 0; i < k->nparams; i++) {
        const kd_param *p = &k->params[i];
        kd_param *q = &c->params[c->nparams++];
        *q = *p; /* then its own copies of the strings */
        q->name = kd_xstrdup(p->name);
        q->type = kd_xstrdup(p->type);
        q->pointee = p->pointee ? kd_xstrdup(p->pointee) : NULL;
        q->default_value = p->default_value ? kd_xstrdup(p->default_value) : NULL;
    }
    return c;
}

static void set_constants(kd_side *side, const meta *m)
{
    const char *key;
    json_t *v;
    kd_launch_abi_set(&side->abi, "num_warps", m->num_warps);
    kd_launch_abi_set(&side->abi, "num_stages", m->num_stages);
    const char *block_name = NULL;
    json_object_foreach(m->constexprs, key, v) {
        if (json_is_number(v))
            kd_launch_abi_set(&side->abi, key, json_number_value(v));
        if (json_is_number(v) && strstr(key, "BLOCK"))
            block_name = block_name ? "" : key; /* "": more than one, no default grid */
    }
    free(side->abi.default_grid);
    side->abi.default_grid = NULL;
    if (block_name && *block_name) {
        kd_strbuf grid = {0};
        kd_sb_printf(&grid, "cdiv(n,%s)", block_name);
        side->abi.default_grid = kd_sb_take(&grid);
    }
}

/* "the launch of K was not taken from the user's code: WHY ...", on stderr, once the build (or
 * the preparation) has said whether it refuses: a refusal comes first, since its first line
 * names the flag that fixes it (issue 27). The why is launch_source's "not_captured". */
static void say_not_captured(const kd_side *side)
{
    json_t *source = side->launch_source ? json_loads(side->launch_source, 0, NULL) : NULL;
    const char *why = json_string_value(json_object_get(source, "not_captured"));
    if (why && side->kernel_info)
        kd_say(KD_MSG_TRITON_NOT_CAPTURED, side_no(side->label), KD_S(side->label), KD_S(side->kernel_info->name),
               KD_S(why));
    json_decref(source);
}

/* Before the first launch description: the block (32 x num_warps), the constexprs as
 * constants, and scalar types from the values given (Triton types a scalar by its value). */
static int triton_prepare(const kd_frontend_options *opts, const kd_launch_options *launch, kd_side *side)
{
    if (!side->kernel_info)
        return KD_OK;
    json_t *info = side->kernel_info->frontend_info ? json_loads(side->kernel_info->frontend_info, 0, NULL) : NULL;
    bool capture = !replayed(side) && captures(opts, info);
    bool launched_by_file = json_array_size(json_object_get(info, "launches")) > 0;
    json_decref(info);
    if (capture) {
        kd_strbuf why = {0};
        capture_how how;
        if (capture_launch(opts, side, &how, &why) == 0) {
            char *path = kd_path_join(side->captured, "launch.json");
            json_t *launch_json = path ? json_load_file(path, 0, NULL) : NULL;
            free(path);
            int rc = json_is_object(launch_json) ? apply_capture(side, launch_json) : KD_FAIL_TOOL;
            if (rc == KD_OK) {
                free(side->build_note);
                side->build_note = describe_capture(opts, launch_json, &how);
                free(side->launch_source);
                side->launch_source = capture_source(launch_json, &how, opts->run_command);
            } else if (!launch_json) {
                kd_say(KD_MSG_TRITON_CAPTURE_UNREADABLE, side_no(side->label), KD_S(side->label), KD_S(side->captured));
            }
            json_decref(launch_json);
            kd_sb_free(&why);
            free(how.recaptured);
            return rc;
        }
        free(how.recaptured);
        if (opts->run_command) { /* the user asked for this program's launch: no guess instead */
            kd_say(KD_MSG_TRITON_RUN_NOT_TAKEN, side_no(side->label), KD_S(side->label), KD_S(opts->run_command),
                   KD_S(side->kernel_info->name), KD_S(kd_sb_str(&why)));
            kd_sb_free(&why);
            return KD_FAIL_INPUT;
        }
        /* Kept for the build's note, and said on stderr by the build (say_not_captured): the
         * launch is now an assumption. */
        free(side->build_note);
        free(side->launch_source);
        side->launch_source = described_source(kd_sb_str(&why));
        kd_strbuf note = {0};
        kd_sb_printf(&note, "launch described, not taken from the user's code (%s)", kd_sb_str(&why));
        side->build_note = kd_sb_take(&note);
        kd_sb_free(&why);
    } else {
        free(side->launch_source);
        side->launch_source = described_source(NULL);
    }
    meta m;
    int rc = resolve_meta(launch, side, true, &m); /* whether an assumed block may stay: the build's to say */
    free(side->unset_block);
    side->unset_block = NULL;
    const char *origin_name;
    json_t *origin;
    json_object_foreach(rc == KD_OK && !launched_by_file && !replayed(side) ? m.origins : NULL, origin_name, origin)
        if (!side->unset_block && json_is_string(origin) && strcmp(json_string_value(origin), "assumed") == 0) {
            side->unset_block = kd_xstrdup(origin_name);
            side->unset_block_value = (int)json_integer_value(json_object_get(m.constexprs, origin_name));
        }
    if (rc != KD_OK)
        say_not_captured(side); /* after the refusal: its first line names the flag that fixes it */
    json_t *configs = json_object_get(m.kernel, "configs");
    if (rc == KD_OK && opts->config && pinned_config(opts->config, configs) < 0) {
        kd_strbuf list = {0};
        size_t i;
        json_t *cfg;
        json_array_foreach(configs, i, cfg) {
            char *text = describe_config(cfg);
            kd_sb_printf(&list, "%s%zu: %s", i ? "; " : "", i + 1, text);
            free(text);
        }
        if (list.len)
            kd_say(KD_MSG_TRITON_CONFIG_NONE, side_no(side->label), KD_S(side->label), KD_S(opts->config),
                   KD_S(side->kernel_info->name), KD_S(kd_sb_str(&list)));
        else
            kd_say(KD_MSG_TRITON_CONFIG_NO_CONFIGS, side_no(side->label), KD_S(side->label), KD_S(opts->config),
                   KD_S(side->kernel_info->name));
        kd_sb_free(&list);
        rc = KD_FAIL_INPUT;
    }
    if (rc == KD_OK) {
        kd_kernel *compiled = copy_kernel(side->kernel_info);
        for (size_t i = 0; i < compiled->nparams; i++) {
            kd_param *p = &compiled->params[i];
            if (p->is_pointer || strcmp(p->type, KD_TYPE_TENSOR_DESCRIPTOR) == 0)
                continue;
            char *text = setting_text(launch, side, p->name);
            json_t *param = NULL;
            size_t j;
            json_t *q;
            json_array_foreach(json_object_get(m.kernel, "params"), j, q)
                if (strcmp(json_string_value(json_object_get(q, "name")), p->name) == 0)
                    param = q;
            const char *type = kd_pykernels_scalar_type(json_string_value(json_object_get(param, "annotation")),
                                                        text ? text : p->default_value);
            free(text);
            free(p->type);
            p->type = kd_xstrdup(type);
        }
        side->abi.fixed = true;
        side->abi.block_threads = 32u * (unsigned)m.num_warps;
        /* A heuristic may compute the BLOCK the grid divides by. The first description
         * only feeds the build (values, dtypes), so a one-program grid stands in; the
         * build sets the real default once the heuristics are known. */
        bool stand_in = m.heuristics_pending && !side->abi.default_grid;
        set_constants(side, &m);
        if (stand_in) { /* over the cdiv(n,BLOCK) set_constants may have made of a BLOCK the heuristics may change */
            free(side->abi.default_grid);
            side->abi.default_grid = kd_xstrdup("1");
        }
        side->compiled = compiled;
        side->kernel_info = compiled;
    }
    meta_free(&m);
    return rc;
}

/* --- the build ------------------------------------------------------------------------------ */

static const kd_launch_arg *launch_arg(const kd_side *side, const char *name);

/* @triton.heuristics: the meta-parameters its lambdas compute, evaluated by the helper (no
 * import, only safe forms) against what is known of this launch: its scalars, the
 * constexprs, and the values given. A value given (--arg, annotation) wins, as an explicit
 * choice. The results join the constexprs, and the launch's constants for its grid. */
static int apply_heuristics(const kd_frontend_options *opts, const kd_launch_options *launch, kd_side *side,
                            meta *m)
{
    if (!m->heuristics_pending)
        return KD_OK;
    json_t *pending = json_array(), *values = json_deep_copy(m->constexprs);
    size_t i;
    json_t *h;
    json_array_foreach(json_object_get(m->kernel, "heuristics"), i, h)
        if (!json_object_get(m->constexprs, json_string_value(json_object_get(h, "name"))))
            json_array_append(pending, h);
    json_t *p;
    json_array_foreach(json_object_get(m->kernel, "params"), i, p) {
        const char *name = json_string_value(json_object_get(p, "name"));
        const kd_launch_arg *a = launch_arg(side, name);
        char *text = a ? NULL : setting_text(launch, side, name);
        if (a && (a->role == KD_ROLE_LENGTH || a->role == KD_ROLE_SCALAR))
            json_object_set_new(values, name, a->value == floor(a->value) ? json_integer((json_int_t)a->value)
                                                                          : json_real(a->value));
        else if (text && strcmp(json_string_value(json_object_get(p, "kind")), "pointer") != 0)
            json_object_set_new(values, name, meta_value(text));
        free(text);
    }
    int rc = KD_OK;
    json_t *spec = json_pack("{s:s, s:O, s:O}", "kernel", side->kernel_info->name, "heuristics", pending, "values", values);
    char *text = spec ? json_dumps(spec, JSON_COMPACT) : NULL;
    json_decref(spec);
    json_decref(values);
    kd_spawn_result r;
    if (!text) {
        kd_say0(KD_MSG_TRITON_OUT_OF_MEMORY, KD_DIAG_NO_SIDE);
        rc = KD_FAIL_TOOL;
    } else if ((rc = run_helper(opts, side->label, (const char *const[5]){"heuristics", text}, LIST_TIMEOUT_MS, &r)) ==
                    KD_OK) {
        json_t *computed = r.exit_code == 0 && !r.signal ? json_loads(kd_sb_str(&r.out), 0, NULL) : NULL;
        if (r.exit_code != 0 || r.signal)
            rc = helper_failed(&r, side->label, "@triton.heuristics", opts);
        else if (!json_is_object(computed)) {
            kd_say(KD_MSG_TRITON_HEURISTICS_NOT_JSON, side_no(side->label), KD_S(side->label), KD_S(kd_sb_str(&r.out)));
            rc = KD_FAIL_TOOL;
        } else {
            json_object_update(m->constexprs, computed);
            m->computed = json_incref(computed);
            set_constants(side, m);
        }
        json_decref(computed);
        kd_spawn_result_free(&r);
    }
    json_decref(pending);
    free(text);
    return rc;
}

static const kd_launch_arg *launch_arg(const kd_side *side, const char *name)
{
    for (size_t i = 0; !side->launch_error && i < side->launch.nargs; i++)
        if (strcmp(side->launch.args[i].name, name) == 0)
            return &side->launch.args[i];
    return NULL;
}

/* The signature Triton's JIT would make for this launch (see the top of the file). Integers
 * equal to 1 are folded into constexprs and listed in `folded`. */
static json_t *make_spec(const kd_build_target *c, const kd_side *side, const meta *m, kd_strlist *folded)
{
    json_t *sig = json_object(), *divisible = json_array(), *constexprs = json_deep_copy(m->constexprs);
    size_t i;
    json_t *p;
    json_array_foreach(json_object_get(m->kernel, "params"), i, p) {
        const char *name = json_string_value(json_object_get(p, "name"));
        const char *kind = json_string_value(json_object_get(p, "kind"));
        const kd_launch_arg *a = launch_arg(side, name);
        const kd_param *param = NULL;
        for (size_t j = 0; j < side->kernel_info->nparams; j++)
            if (strcmp(side->kernel_info->params[j].name, name) == 0)
                param = &side->kernel_info->params[j];
        if (strcmp(kind, "constexpr") == 0) {
            json_object_set_new(sig, name, json_string("constexpr"));
        } else if (strcmp(kind, "pointer") == 0) {
            /* no launch (a value missing, no GPU): the element type the source implies (an
               index buffer's int), else Triton's float32 */
            kd_type_info pointee = {.base = KD_DT_F32};
            if (!a && param && param->pointee && !kd_type_parse(param->pointee, &pointee))
                pointee.base = KD_DT_F32;
            kd_dtype t = a ? a->type.base : pointee.base;
            char text[16];
            snprintf(text, sizeof text, "*%s", kd_dtype_triton_name(t));
            json_object_set_new(sig, name, json_string(text));
            json_array_append_new(divisible, json_string(name));
        } else if (param && strcmp(param->type, "float") == 0) {
            json_object_set_new(sig, name, json_string("fp32"));
        } else if (a && a->value == 1) {
            json_object_set_new(sig, name, json_string("constexpr"));
            json_object_set_new(constexprs, name, json_integer(1));
            kd_strlist_push(folded, name);
        } else {
            bool wide = (param && strcmp(param->type, "long long") == 0) ||
                        (a && (a->value > 2147483647.0 || a->value < -2147483648.0));
            json_object_set_new(sig, name, json_string(wide ? "i64" : "i32"));
            if (a && fmod(a->value, 16) == 0)
                json_array_append_new(divisible, json_string(name));
        }
    }
    return json_pack("{s:o, s:o, s:o, s:i, s:i, s:i}", "signature", sig, "constexprs", constexprs, "divisible",
                     divisible, "arch", atoi(c->arch + 3), "num_warps", m->num_warps, "num_stages", m->num_stages);
}

static void hash_file(kd_hash *h, const char *path)
{
    size_t len = 0;
    char *text = kd_read_file(path, &len);
    kd_hash_str(h, path);
    kd_hash_field(h, text ? text : "", text ? len : 0);
    free(text);
}

/* What every Triton cache key starts with: the recipe, the helper, the interpreter and
 * Triton's version, the source and the local modules it imports (the kernel's description's
 * "imports"). */
static void hash_inputs(kd_hash *h, const char *recipe, const kd_frontend_options *opts, const kd_side *side,
                        const char *version, json_t *kernel)
{
    kd_hash_init(h);
    kd_hash_str(h, recipe);
    char *script = kd_harness_path(HELPER);
    if (script)
        hash_file(h, script);
    free(script);
    kd_hash_str(h, kd_frontend_python(opts));
    kd_hash_str(h, version);
    hash_file(h, side->path);
    size_t i;
    json_t *imp;
    json_array_foreach(json_object_get(kernel, "imports"), i, imp)
        hash_file(h, json_string_value(imp));
}

/* The cache key: the recipe, the helper, the interpreter and Triton's version, the source
 * and the local modules it imports, the kernel and the full compile spec. */
static void compute_key(const kd_frontend_options *opts, const kd_side *side, const meta *m, const char *version,
                        const char *spec, char key[65])
{
    kd_hash h;
    hash_inputs(&h, RECIPE, opts, side, version, m->kernel);
    kd_hash_str(&h, side->kernel_info->name);
    kd_hash_str(&h, spec);
    kd_hash_hex(&h, key);
}

static int dump_resources(const kd_frontend_options *opts, const kd_side *side, const char *dir);

/* Runs the helper's build into dir, then cuobjdump for the resources. */
static int compile_into(const kd_frontend_options *opts, const kd_side *side, const char *spec, const char *dir)
{
    char *abs_path = realpath(side->path, NULL);
    kd_spawn_result r;
    int rc = run_helper(opts, side->label,
                        (const char *const[5]){"build", abs_path ? abs_path : side->path, side->kernel_info->name,
                                               spec, dir},
                        BUILD_TIMEOUT_MS, &r);
    free(abs_path);
    if (rc != KD_OK)
        return rc;
    if (r.exit_code != 0 || r.signal) {
        kd_strbuf doing = {0};
        kd_sb_printf(&doing, "Triton's compile of %s (%s)", side->kernel_info->name, side->path);
        rc = helper_failed(&r, side->label, kd_sb_str(&doing), opts);
        kd_sb_free(&doing);
    }
    kd_spawn_result_free(&r);
    if (rc != KD_OK)
        return rc;
    return dump_resources(opts, side, dir);
}

/* dir/resources.txt: cuobjdump's resource usage of dir/kernel.cubin (Triton's n_regs needs a
 * GPU; the cubin says the same without one). */
static int dump_resources(const kd_frontend_options *opts, const kd_side *side, const char *dir)
{
    int rc = KD_OK;
    kd_spawn_result r;
    char *cubin = kd_path_join(dir, "kernel.cubin"), *resources = kd_path_join(dir, "resources.txt");
    const char *cuobjdump = kd_find_cuobjdump(kd_find_nvcc(opts->nvcc));
    const char *argv[] = {cuobjdump, "--dump-resource-usage", cubin, NULL};
    /* Without cuobjdump the resources are missing (the report says so), not the build. */
    bool dumped = cuobjdump && cubin && kd_spawn(argv, NULL, LIST_TIMEOUT_MS, &r) == 0;
    const char *text = dumped && r.exit_code == 0 ? kd_sb_str(&r.out) : "";
    if (!resources || kd_write_file(resources, text, strlen(text)) != 0) {
        kd_say(KD_MSG_TRITON_CANNOT_WRITE, side_no(side->label), KD_S(side->label), KD_S(resources ? resources : dir),
               KD_S(strerror(errno)));
        rc = KD_FAIL_TOOL;
    }
    if (dumped)
        kd_spawn_result_free(&r);
    free(cubin);
    free(resources);
    return rc;
}

/* The build's artifacts from dir into b, and its metadata.json into *meta_out (owned). */
static int load_artifacts(kd_build *b, const char *dir, bool from_cache, json_t **meta_out)
{
    b->dir = kd_xstrdup(dir);
    b->from_cache = from_cache;
    char *ptx = kd_path_join(dir, "kernel.ptx"), *res = kd_path_join(dir, "resources.txt"),
         *md = kd_path_join(dir, "metadata.json");
    b->cubin_path = kd_path_join(dir, "kernel.cubin");
    b->ptx = ptx ? kd_read_file(ptx, NULL) : NULL;
    b->ptxas_log = res ? kd_read_file(res, NULL) : NULL;
    json_t *meta_json = md ? json_load_file(md, 0, NULL) : NULL;
    free(ptx);
    free(res);
    free(md);
    if (!b->dir || !b->cubin_path || !b->ptx || !b->ptxas_log || !json_is_object(meta_json)) {
        json_decref(meta_json);
        return -1;
    }
    const char *entry = json_string_value(json_object_get(meta_json, "name"));
    b->entry = entry ? kd_xstrdup(entry) : NULL;
    *meta_out = meta_json;
    return 0;
}

/* The launch facts the metadata fixes. */
static void read_abi(kd_side *side, const json_t *meta_json)
{
    side->abi.dynamic_smem = (unsigned long long)json_integer_value(json_object_get(meta_json, "shared"));
    side->abi.nscratch = (unsigned)json_integer_value(json_object_get(meta_json, "scratch_pointers"));
    side->abi.scratch_bytes[0] = (unsigned long long)json_integer_value(json_object_get(meta_json, "global_scratch_size"));
    side->abi.scratch_bytes[1] = (unsigned long long)json_integer_value(json_object_get(meta_json, "profile_scratch_size"));
    side->abi.block_threads = 32u * (unsigned)json_integer_value(json_object_get(meta_json, "num_warps"));
    /* a replayed launch (launch/replay.h) sizes this side's scratch and shared memory from its
     * compiled kernel: v2's body may need more (or other) than the program's kernel did */
    json_t *info = replayed(side) && side->compiled && side->compiled->frontend_info
                       ? json_loads(side->compiled->frontend_info, 0, NULL)
                       : NULL;
    if (json_is_object(info)) {
        json_object_set_new(info, "compiled_scratch",
                            json_pack("[I,I]", (json_int_t)side->abi.scratch_bytes[0], (json_int_t)side->abi.scratch_bytes[1]));
        json_object_set_new(info, "compiled_shared", json_integer((json_int_t)side->abi.dynamic_smem));
        char *text = json_dumps(info, JSON_COMPACT);
        if (text) {
            free(side->compiled->frontend_info);
            side->compiled->frontend_info = text;
        }
    }
    json_decref(info);
}

/* "Triton 3.6.0: num_warps=4 num_stages=3 shared=2048 B; BLOCK=1024; specialised stride=1" */
static char *describe_build(const char *version, const meta *m, const kd_side *side, const kd_strlist *folded,
                            bool gpu)
{
    kd_strbuf sb = {0};
    json_t *section = replay_section(side);
    kd_sb_printf(&sb, "Triton %s %s: num_warps=%d (%s) num_stages=%d (%s) shared=%llu B", version,
                 section ? "as its JIT compiled the captured launch (its specialization and options)" : "ahead of time",
                 m->num_warps, m->warps_origin, m->num_stages, m->stages_origin, side->abi.dynamic_smem);
    json_decref(section);
    const char *key;
    json_t *v;
    json_object_foreach(m->constexprs, key, v) {
        char *text = json_dumps(v, JSON_ENCODE_ANY);
        json_t *origin = json_object_get(m->origins, key);
        kd_sb_printf(&sb, " %s=%s", key, text ? text : "?");
        if (json_is_integer(origin))
            kd_sb_printf(&sb, " (from the file's call at line %lld%s)", (long long)json_integer_value(origin),
                         gpu ? "" : "; not captured: no GPU");
        else if (origin)
            kd_sb_printf(&sb, " (assumed: the file gives no value kerndiff can read, and no launch was captured (no "
                         "GPU); the static diff is of this build: --arg %s=VALUE for your code's)", key);
        free(text);
    }
    const char *sep = "; from @triton.heuristics: ";
    json_object_foreach(m->computed, key, v) {
        kd_sb_printf(&sb, "%s%s", sep, key);
        sep = ", ";
    }
    for (size_t i = 0; i < folded->count; i++)
        kd_sb_printf(&sb, "%s%s=1", i ? ", " : "; specialised as constexpr: ", folded->items[i]);
    return kd_sb_take(&sb);
}

/* JSON launch_source.constexpr_origins of a described launch: each constexpr whose value came from
 * the file's call ({"value", "from": "the file's call", "line"}) or was assumed ({"value",
 * "from": "assumed"}), as the build line says them. */
static void note_origins(kd_side *side, const meta *m)
{
    if (!json_object_size(m->origins) || !side->launch_source)
        return;
    json_t *source = json_loads(side->launch_source, 0, NULL), *out = json_object();
    const char *key;
    json_t *origin;
    json_object_foreach(m->origins, key, origin) {
        json_t *v = json_object_get(m->constexprs, key);
        json_object_set_new(out, key, json_is_integer(origin)
                                          ? json_pack("{s:O*, s:s, s:O}", "value", v, "from", "the file's call", "line", origin)
                                          : json_pack("{s:O*, s:s}", "value", v, "from", "assumed"));
    }
    char *text = NULL;
    if (json_is_object(source) && json_object_set_new(source, "constexpr_origins", out) == 0)
        text = json_dumps(source, JSON_COMPACT);
    else
        json_decref(out);
    json_decref(source);
    if (text) {
        free(side->launch_source);
        side->launch_source = text;
    }
}

/* The Triton version, which also checks that the interpreter has a supported one. */
static int triton_version(const kd_frontend_options *opts, const kd_side *side, bool say, char **version)
{
    kd_spawn_result r;
    int rc = run_helper(opts, side->label, (const char *const[5]){"version"}, LIST_TIMEOUT_MS, &r);
    if (rc != KD_OK)
        return rc;
    if ((r.exit_code != 0 || r.signal) && !say)
        rc = KD_FAIL_TOOL;
    else if (r.exit_code != 0 || r.signal)
        rc = helper_failed(&r, side->label, "looking for Triton", opts);
    else
        *version = kd_xstrndup(kd_sb_str(&r.out), strcspn(kd_sb_str(&r.out), "\n"));
    kd_spawn_result_free(&r);
    return rc;
}

/* The compiled kernel loses the parameters folded into constexprs. */
static void drop_folded(kd_kernel *k, const kd_strlist *folded)
{
    size_t kept = 0;
    for (size_t i = 0; i < k->nparams; i++) {
        bool gone = false;
        for (size_t j = 0; j < folded->count && !gone; j++)
            gone = strcmp(k->params[i].name, folded->items[j]) == 0;
        if (!gone) {
            k->params[kept++] = k->params[i];
            continue;
        }
        free(k->params[i].name);
        free(k->params[i].type);
        free(k->params[i].pointee);
        free(k->params[i].default_value);
    }
    k->nparams = kept;
}

/* What both builds start from: Triton's version, the meta-parameters and the compile spec
 * Triton's JIT would make for this launch. */
typedef struct compile_plan {
    char *version;
    meta m;
    kd_strlist folded; /* parameters Triton specialised as constexprs */
    json_t *spec;
    json_t *meta_json; /* the build's metadata, once built */
} compile_plan;

/* Fills *p (to be freed with plan_free whatever it returns); prints why it fails. */
static int plan_build(const kd_frontend_options *opts, const kd_launch_options *launch, const kd_build_target *c,
                      kd_side *side, compile_plan *p)
{
    *p = (compile_plan){0};
    int rc = triton_version(opts, side, true, &p->version);
    if (rc == KD_OK)
        rc = resolve_meta(launch, side, !c->times, &p->m); /* times: a GPU, or the simulated harness */
    if (rc == KD_OK)
        rc = apply_heuristics(opts, launch, side, &p->m);
    if (rc == KD_OK)
        p->spec = make_spec(c, side, &p->m, &p->folded);
    json_t *section = p->spec ? replay_section(side) : NULL;
    if (section) /* the JIT's own specialization: the helper compiles exactly what the program ran */
        json_object_set(p->spec, "specialization", json_object_get(section, "specialization"));
    json_decref(section);
    return rc;
}

static void plan_free(compile_plan *p)
{
    json_decref(p->spec);
    json_decref(p->meta_json);
    meta_free(&p->m);
    free(p->folded.items);
    free(p->version);
}

/* The build of p's spec: from the cache, or compiled into a new folder of its own named after `folder`
 * (kd_build_folder: a later build in the process keeps off it), its artifacts into b and its metadata into p->meta_json. */
static int build_spec(const kd_frontend_options *opts, const kd_side *side, compile_plan *p, const char *folder,
                      kd_build *b)
{
    char *spec_text = p->spec ? json_dumps(p->spec, JSON_COMPACT | JSON_SORT_KEYS) : NULL, *entry = NULL, *dir = NULL;
    if (!spec_text) {
        kd_say0(KD_MSG_TRITON_OUT_OF_MEMORY, KD_DIAG_NO_SIDE);
        return KD_FAIL_TOOL;
    }
    compute_key(opts, side, &p->m, p->version, spec_text, b->key);
    entry = kd_cache_entry(b->key);
    static const bool required[N_ARTIFACTS] = {true, true, true, true};
    const kd_cache_layout layout = {artifacts, required, N_ARTIFACTS};
    bool cached = !opts->no_cache && kd_cache_usable(entry, b->key, &layout, &b->note);
    int rc = KD_OK;
    if (!cached) {
        dir = kd_build_folder(folder); /* its own: a later build in the process keeps off it */
        if (!dir) {
            kd_say(KD_MSG_TRITON_NO_BUILD_FOLDER, side_no(side->label), KD_S(side->label), KD_S(strerror(errno)));
            rc = KD_FAIL_TOOL;
        } else if ((rc = compile_into(opts, side, spec_text, dir)) == KD_OK && entry) {
            kd_cache_store(dir, entry, &layout);
        }
    }
    if (rc == KD_OK && load_artifacts(b, cached ? entry : dir, cached, &p->meta_json) != 0) {
        kd_say(KD_MSG_TRITON_BUILD_LEFT_NOTHING, side_no(side->label), KD_S(side->label), KD_S(cached ? entry : dir));
        rc = KD_FAIL_TOOL;
    }
    free(spec_text);
    free(entry);
    free(dir);
    return rc;
}

/* The build of a captured launch: the JIT's own cubin and PTX, and cuobjdump's resources. */
static int captured_build(const kd_frontend_options *opts, kd_side *side)
{
    int rc = dump_resources(opts, side, side->captured);
    json_t *meta_json = NULL;
    if (rc == KD_OK && load_artifacts(&side->build, side->captured, false, &meta_json) != 0) {
        kd_say(KD_MSG_TRITON_CAPTURE_LEFT_NOTHING, side_no(side->label), KD_S(side->label), KD_S(side->captured));
        rc = KD_FAIL_TOOL;
    }
    json_decref(meta_json);
    if (rc == KD_OK) {
        /* The build's key: its content (the JIT's cubin and the launch it was taken with). */
        kd_hash h;
        kd_hash_init(&h);
        for (size_t i = 0; i < N_CAPTURE_ARTIFACTS; i++) {
            char *path = kd_path_join(side->captured, capture_artifacts[i]);
            size_t len = 0;
            char *data = path ? kd_read_file(path, &len) : NULL;
            kd_hash_field(&h, data ? data : "", data ? len : 0);
            free(data);
            free(path);
        }
        kd_hash_hex(&h, side->build.key);
        kd_build_disassemble(kd_find_cuobjdump(kd_find_nvcc(opts->nvcc)), &side->build);
    }
    return rc;
}

/* Whether the kernel takes tensor descriptors, said when it does: a build ahead of time
 * would need each one's block shape and element type, which only the caller's launch fixes
 * (Triton's signature "tensordesc<fp16[64, 64]>"). */
static bool takes_descriptors(const kd_side *side)
{
    if (!kd_kernel_takes_descriptors(side->kernel_info))
        return false;
    kd_strbuf names = {0};
    for (size_t i = 0; i < side->kernel_info->nparams; i++)
        if (strcmp(side->kernel_info->params[i].type, KD_TYPE_TENSOR_DESCRIPTOR) == 0)
            kd_sb_printf(&names, "%s%s", names.len ? ", " : "", side->kernel_info->params[i].name);
    kd_say(KD_MSG_TRITON_DESCRIPTOR, side_no(side->label), KD_S(side->label), KD_S(side->kernel_info->name),
           KD_S(kd_sb_str(&names)));
    kd_sb_free(&names);
    return true;
}

static int triton_build(const kd_frontend_options *opts, const kd_launch_options *launch, const kd_build_target *c,
                        kd_side *side)
{
    if (side->captured)
        return captured_build(opts, side);
    if (takes_descriptors(side))
        return KD_FAIL_INPUT;
    compile_plan p;
    int rc = plan_build(opts, launch, c, side, &p);
    if (rc == KD_OK)
        rc = build_spec(opts, side, &p, side->label, &side->build);
    say_not_captured(side);
    if (rc == KD_OK) {
        read_abi(side, p.meta_json);
        for (size_t i = 0; i < p.folded.count; i++)
            kd_launch_abi_set(&side->abi, p.folded.items[i], 1);
        drop_folded(side->compiled, &p.folded);
        char *described = describe_build(p.version, &p.m, side, &p.folded, c->gpu);
        if (side->build_note) { /* why the launch was not taken from the user's code */
            kd_strbuf both = {0};
            kd_sb_printf(&both, "%s; %s", described, side->build_note);
            free(described);
            described = kd_sb_take(&both);
        }
        free(side->build_note);
        side->build_note = described;
        note_origins(side, &p.m);
        /* Triton's cache entry holds no disassembly: cuobjdump runs here, every time. */
        kd_build_disassemble(kd_find_cuobjdump(kd_find_nvcc(opts->nvcc)), &side->build);
    }
    plan_free(&p);
    return rc;
}

/* --regions: the same compile with Proton's instrumentation on (scripts/kerndiff-triton.py
 * build, "instrument"): the kernel's triton.profiler.language scopes record into per-warp
 * buffers that the harness reads back (regions/proton.h). The names come from the build, by
 * Proton's scope id; the launch differs by Proton's shared memory and profile scratch. */
static int triton_build_instrumented(const kd_instrumented_build *b)
{
    const kd_frontend_options *opts = b->opts;
    const kd_build_target *c = b->target;
    kd_side *side = b->side;
    compile_plan p;
    int rc = plan_build(opts, b->launch, c, side, &p);
    if (p.spec) {
        /* Proton sizes its buffers from the shared memory a block may opt into (48 KiB: any GPU). */
        json_object_set_new(p.spec, "instrument", json_true());
        json_object_set_new(p.spec, "max_shared", json_integer(c->limits ? c->limits->max_smem_per_block : 48 * 1024));
    }
    if (rc == KD_OK)
        rc = build_spec(opts, side, &p, b->folder, b->out);
    if (rc == KD_OK && !json_is_true(json_object_get(p.meta_json, "proton"))) {
        kd_note_set(b->skip, KD_REGIONS_NO_PROTON, KD_NOTE_NO_SIDE, p.version, NULL, NULL);
    } else if (rc == KD_OK) {
        size_t i;
        json_t *name;
        json_array_foreach(json_object_get(p.meta_json, "scopes"), i, name)
            kd_strlist_push(&b->regions->regions, kd_xstrdup(json_string_value(name)));
        side->regions_smem = (unsigned long long)json_integer_value(json_object_get(p.meta_json, "shared"));
        side->regions_profile_scratch =
            (unsigned long long)json_integer_value(json_object_get(p.meta_json, "profile_scratch_size"));
        if (!b->regions->regions.count)
            kd_note_set(b->skip, KD_REGIONS_NO_SCOPES, KD_NOTE_NO_SIDE, NULL, NULL, NULL);
    }
    plan_free(&p);
    return rc;
}

const kd_backend kd_backend_triton = {
    .name = "triton",
    .needs_gpu = true,
    .claims = claims_python,
    .harness = triton_harness,
    .scan = triton_scan,
    .configs = triton_configs,
    .prefetch = triton_prefetch,
    .prepare = triton_prepare,
    .build = triton_build,
    .build_instrumented = triton_build_instrumented,
};
