/* triton_helper.c — the Triton backend's helper, scripts/kerndiff-triton.py, run from an argument
 * vector in the side's Python: starting it, turning its exit status into a said message and an
 * exit code, Triton's version, and what every Triton cache key starts with (the helper and the
 * interpreter among them). */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "backend/backend_msgs.h"
#include "backend/triton.h"
#include "backend/triton_msgs.h"
#include "util/fs.h"
#include "util/outcome.h"
#include "util/xalloc.h"
#include "wire/locate.h"

#define HELPER "kerndiff-triton.py"

/* The helper's exit statuses (scripts/kerndiff-triton.py). */
enum { HELPER_NO_TRITON = 3, HELPER_COMPILE = 4, HELPER_VERSION = 5, HELPER_INPUT = 6 };

/* The side a message concerns (util/diag.h), from its label "v1"/"v2"; none for NULL. */
int kd_triton_side_no(const char *label) { return label && label[0] == 'v' ? label[1] - '0' : KD_DIAG_NO_SIDE; }

/* Starts the helper (python, scripts/kerndiff-triton.py) with up to 5 arguments, without waiting (job).
 * Returns KD_OK, or KD_FAIL_TOOL when it could not start: said, naming the side, when `say`. */
int kd_triton_start_helper(const kd_frontend_options *opts, const char *side, bool say, const char *const args[5],
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
int kd_triton_run_helper(const kd_frontend_options *opts, const char *side, const char *const args[5], int timeout_ms,
                         kd_spawn_result *r)
{
    kd_spawn_job job;
    int rc = kd_triton_start_helper(opts, side, true, args, &job);
    if (rc != KD_OK) {
        memset(r, 0, sizeof *r);
        return rc;
    }
    kd_spawn_wait(&job, timeout_ms, r);
    return KD_OK;
}

/* A helper that ran and failed: its message, with the side, and the exit code it means. */
int kd_triton_helper_failed(const kd_spawn_result *r, const char *side, const char *doing,
                            const kd_frontend_options *opts)
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

/* The Triton version, which also checks that the interpreter has a supported one. */
int kd_triton_version(const kd_frontend_options *opts, const kd_side *side, bool say, char **version)
{
    kd_spawn_result r;
    int rc = kd_triton_run_helper(opts, side->label, (const char *const[5]){"version"}, KD_TRITON_LIST_TIMEOUT_MS, &r);
    if (rc != KD_OK)
        return rc;
    if ((r.exit_code != 0 || r.signal) && !say)
        rc = KD_FAIL_TOOL;
    else if (r.exit_code != 0 || r.signal)
        rc = kd_triton_helper_failed(&r, side->label, "looking for Triton", opts);
    else
        *version = kd_xstrndup(kd_sb_str(&r.out), strcspn(kd_sb_str(&r.out), "\n"));
    kd_spawn_result_free(&r);
    return rc;
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
void kd_triton_hash_inputs(kd_hash *h, const char *recipe, const kd_frontend_options *opts, const kd_side *side,
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
