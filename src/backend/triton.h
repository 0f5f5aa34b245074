/* triton.h — for the Triton backend's files only (backend/triton*.c): what they share.
 *   triton.c          the backend row: claims .py files, lists their kernels, names the harness
 *   triton_helper.c   running scripts/kerndiff-triton.py, its version, what every key starts with
 *   triton_capture.c  the launch the user's code makes: captured, cached with its data, prefetched
 *   triton_prepare.c  a side prepared: the captured launch applied, or the launch described
 *   triton_meta.c     settings, autotune configs, constexprs and @triton.heuristics
 *   triton_build.c    the build: the JIT's specialisation, the cached compile, the instrumented one
 *   triton_constexpr.c  where a constexpr takes its value (shared with `kerndiff list`) */
#ifndef KD_BACKEND_TRITON_H
#define KD_BACKEND_TRITON_H

#include <jansson.h>
#include <stdbool.h>

#include "backend/backend.h"
#include "util/hash.h"
#include "util/spawn.h"

/* How long the helper may take to list, version, evaluate heuristics, and cuobjdump a cubin. */
enum { KD_TRITON_LIST_TIMEOUT_MS = 60000 };

/* --- triton_helper.c ------------------------------------------------------------------------ */

/* The side a message concerns (util/diag.h), from its label "v1"/"v2"; none for NULL. */
int kd_triton_side_no(const char *label);
/* Starts the helper (python, scripts/kerndiff-triton.py) with up to 5 arguments, without waiting (job).
 * Returns KD_OK, or KD_FAIL_TOOL when it could not start: said, naming the side, when `say`. */
int kd_triton_start_helper(const kd_frontend_options *opts, const char *side, bool say, const char *const args[5],
                           kd_spawn_job *job);
/* Runs the helper with up to 5 arguments. Returns 0 when it ran (whatever its status), else
 * prints why it could not start, naming the side, and returns KD_FAIL_TOOL. */
int kd_triton_run_helper(const kd_frontend_options *opts, const char *side, const char *const args[5], int timeout_ms,
                         kd_spawn_result *r);
/* A helper that ran and failed: its message, with the side, and the exit code it means. */
int kd_triton_helper_failed(const kd_spawn_result *r, const char *side, const char *doing,
                            const kd_frontend_options *opts);
/* Triton's version from the helper (which also checks it is supported); with `say`, a
 * failure is printed, naming the side. */
int kd_triton_version(const kd_frontend_options *opts, const kd_side *side, bool say, char **version);
/* What every Triton cache key starts with (h initialised here): the recipe, the helper, the
 * interpreter and Triton's version, the source and the local modules it imports. */
void kd_triton_hash_inputs(kd_hash *h, const char *recipe, const kd_frontend_options *opts, const kd_side *side,
                           const char *version, json_t *kernel);

/* --- triton_capture.c ----------------------------------------------------------------------- */

/* --launch FILE with a Triton section: the launch, its constexprs and autotune choice are the
 * captured program's (never the file's own launch, nor an autotuner run here). */
bool kd_triton_replayed(const kd_side *side);
/* Whether a side's launch is taken from the user's code (kernel: the helper's description). */
bool kd_triton_captures(const kd_frontend_options *opts, json_t *kernel);
/* --launch FILE of a Triton launch: the JIT's compiled kernel of the program's launch, parsed
 * (the caller decrefs), or NULL. */
json_t *kd_triton_replay_section(const kd_side *side);

/* How a side's capture was had: from the cache (with data_files data files, each checked), or
 * run, and then, when recaptured is set, because the cached one's data did not verify. */
typedef struct kd_triton_capture_how {
    bool cached;
    int data_files;
    char *recaptured; /* why the cached capture was not used (malloc'd), or NULL */
} kd_triton_capture_how;

/* The side's launch captured into side->captured (see triton_capture.c). Returns 0, or -1
 * with why the launch could not be taken in `why` (a clause). */
int kd_triton_capture_launch(const kd_frontend_options *opts, kd_side *side, kd_triton_capture_how *how,
                             kd_strbuf *why);
/* The backend's prefetch: both sides' captures started at once. */
void kd_triton_prefetch(const kd_frontend_options *opts, const kd_build_target *target, kd_side *sides[2]);
/* The key of a captured build: the content of the capture's files in folder. */
void kd_triton_capture_digest(const char *folder, char key[65]);

/* --- triton_prepare.c ----------------------------------------------------------------------- */

/* The backend's prepare: the launch captured and applied, or described; the compiled kernel. */
int kd_triton_prepare(const kd_frontend_options *opts, const kd_launch_options *launch, kd_side *side);
/* "the launch of K was not taken from the user's code: WHY ...", on stderr (once a refusal is said). */
void kd_triton_say_not_captured(const kd_side *side);

/* --- triton_meta.c -------------------------------------------------------------------------- */

/* A side's kernel's meta-parameters, resolved. */
typedef struct kd_triton_meta {
    json_t *kernel;       /* the helper's description (frontend_info) */
    json_t *constexprs;   /* name -> value, for the build */
    int num_warps, num_stages;
    const char *warps_origin, *stages_origin; /* int_setting's *origin */
    bool heuristics_pending; /* constexprs left to @triton.heuristics (kd_triton_apply_heuristics) */
    json_t *computed;        /* what the heuristics computed, or NULL */
    /* constexprs whose value the build line must place: name -> the line of the file's call
     * that passes it (a number), or "assumed" (a block size nothing gives, static only) */
    json_t *origins;
} kd_triton_meta;

void kd_triton_meta_free(kd_triton_meta *m);
/* The text of a setting for this side (--call vN:NAME=V, then --arg NAME=V, then `# kerndiff:
 * NAME=V`; a replayed launch's value first), malloc'd; NULL when none is given. */
char *kd_triton_setting_text(const kd_launch_options *launch, const kd_side *side, const char *name);
/* The config --config names (0-based), or -1 when none does. */
int kd_triton_pinned_config(const char *pin, json_t *configs);
/* "BLOCK=256, num_warps=8": a config's meta-parameters, then its options (malloc'd). */
char *kd_triton_describe_config(json_t *cfg);
/* The backend's configs: the autotune configs described, and the one given (-1: none). */
void kd_triton_configs(const kd_frontend_options *opts, const kd_launch_options *launch, const kd_side *side,
                       kd_strlist *out, int *given);
/* Resolves every meta-parameter of the side's kernel into *m (kd_triton_meta_free whatever
 * it returns); prints the reason on failure. */
int kd_triton_resolve_meta(const kd_launch_options *launch, const kd_side *side, bool static_only, kd_triton_meta *m);
/* num_warps, num_stages and the numeric constexprs as the launch's constants; the default grid. */
void kd_triton_set_constants(kd_side *side, const kd_triton_meta *m);
/* @triton.heuristics computed by the helper into m->constexprs (nothing when none is pending). */
int kd_triton_apply_heuristics(const kd_frontend_options *opts, const kd_launch_options *launch, kd_side *side,
                               kd_triton_meta *m);
/* The described launch's argument of that name, or NULL. */
const kd_launch_arg *kd_triton_launch_arg(const kd_side *side, const char *name);

/* --- triton_build.c ------------------------------------------------------------------------- */

/* The launch facts a build's metadata.json fixes (shared memory, scratch, block). */
void kd_triton_read_abi(kd_side *side, const json_t *meta_json);
/* The backend's build and instrumented build. */
int kd_triton_build(const kd_frontend_options *opts, const kd_launch_options *launch, const kd_build_target *c,
                    kd_side *side);
int kd_triton_build_instrumented(const kd_instrumented_build *b);

#endif
