/* triton_capture.c — the launch the user's own code makes (scripts/kerndiff-triton.py capture):
 * the program run until it launches the kernel, the JIT's cubin and launch.json kept in the
 * side's private folder, cached with the tensors' data (each file checked on every read), and
 * both sides' captures started at once (the backend's prefetch). */
#include <errno.h>
#include <glob.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "backend/triton.h"
#include "compile/cache.h"
#include "launch/replay.h"
#include "util/env.h"
#include "util/fs.h"
#include "util/outcome.h"
#include "util/progress.h"
#include "util/text.h"
#include "util/tmpdir.h"
#include "util/xalloc.h"

enum { CAPTURE_TIMEOUT_S = 120 };

/* --launch FILE with a Triton section: the launch, its constexprs and autotune choice are the
 * captured program's (never the file's own launch, nor an autotuner run here). */
bool kd_triton_replayed(const kd_side *side) { return side->replay && side->replay->cap.triton; }

/* Whether a side's launch is taken from the user's code: the file launches the kernel itself
 * (the helper's list found `kernel[grid](...)`, `.warmup(...)` or `.run(...)`), or --run
 * names a program that does, and --no-capture does not say otherwise. */
bool kd_triton_captures(const kd_frontend_options *opts, json_t *kernel)
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
    if (kd_triton_version(opts, side, false, &version) != KD_OK) /* the build says why, if it comes to one */
        return false;
    kd_hash h;
    json_t *info = side->kernel_info->frontend_info ? json_loads(side->kernel_info->frontend_info, 0, NULL) : NULL;
    kd_triton_hash_inputs(&h, CAPTURE_RECIPE, opts, side, version, info);
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
    int rc = spec_text ? kd_triton_start_helper(opts, side->label, say,
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

/* Captures started by kd_triton_prefetch, one per side, each taken by that side's kd_triton_capture_launch. */
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
 * program is run again (how->recaptured says why). A capture that kd_triton_prefetch started
 * for the side is waited for instead of starting one. Returns 0, or -1 with why the launch
 * could not be taken in `why` (a clause: "the program ended without ..."). */
int kd_triton_capture_launch(const kd_frontend_options *opts, kd_side *side, kd_triton_capture_how *how, kd_strbuf *why)
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
 * than one after the other (each side's kd_triton_capture_launch then waits for its own). Only when
 * both sides are Triton sides whose launch is captured and neither is in the cache, nor
 * would be once the other's is (one file on both sides: v2 takes v1's capture from the
 * cache). A capture that cannot be started here is left to kd_triton_capture_launch, which says why. */
void kd_triton_prefetch(const kd_frontend_options *opts, const kd_build_target *target, kd_side *sides[2])
{
    (void)target; /* the capture comes before any build */
    for (int s = 0; s < 2; s++) {
        if (!sides[s]->kernel_info || sides[s]->frontend != sides[0]->frontend)
            return;
        json_t *info = sides[s]->kernel_info->frontend_info ? json_loads(sides[s]->kernel_info->frontend_info, 0, NULL)
                                                             : NULL;
        bool capture = !kd_triton_replayed(sides[s]) && kd_triton_captures(opts, info);
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
        kd_sb_free(&why); /* kd_triton_capture_launch tries again and says why */
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

/* --launch FILE of a Triton launch (format 2's section, docs/CAPTURE.md): the JIT's compiled
 * kernel of the program's launch, parsed (the caller decrefs), or NULL. */
json_t *kd_triton_replay_section(const kd_side *side)
{
    return side->replay && side->replay->cap.triton ? json_loads(side->replay->cap.triton, 0, NULL) : NULL;
}

void kd_triton_capture_digest(const char *folder, char key[65])
{
    kd_hash h;
    kd_hash_init(&h);
    for (size_t i = 0; i < N_CAPTURE_ARTIFACTS; i++) {
        char *path = kd_path_join(folder, capture_artifacts[i]);
        size_t len = 0;
        char *data = path ? kd_read_file(path, &len) : NULL;
        kd_hash_field(&h, data ? data : "", data ? len : 0);
        free(data);
        free(path);
    }
    kd_hash_hex(&h, key);
}
