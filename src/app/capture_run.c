/* `kerndiff capture`: the program run with the injection library in capture mode, its raw
 * folder packed (app/capture_run.h). */
#include "app/capture_run.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "app/capture_msgs.h"
#include "app/command.h"
#include "capture/capture_msgs.h"
#include "capture/file.h"
#include "gpu/probe.h"
#include "util/child_env.h"
#include "util/env.h"
#include "util/fs.h"
#include "util/spawn.h"
#include "util/strlist.h"
#include "util/tmpdir.h"
#include "util/xalloc.h"
#include "wire/locate.h"

/* Ours, with the capture's variables set (and any the user had of them replaced). */
/* A Python program's Triton launches (issue 30): the driver launch the injection library
 * captures carries no constexprs, num_warps or specialization, so a sitecustomize.py put first
 * on PYTHONPATH installs Triton's jit_post_compile_hook once (and only if) the program imports
 * Triton, and appends one line to DIR/triton.jsonl per compiled kernel: its name, Triton's own
 * specialization data (what JITFunction.preload recompiles it from), the options, constexprs,
 * the parameters and the scratch pointers Triton appends. kd_capture_pack keeps the captured
 * kernel's line as the capture file's Triton section (docs/CAPTURE.md). The user's own
 * sitecustomize, which this one shadows, still runs; a failure in the hook never reaches the
 * program. */
static const char TRITON_SITE[] =
    "# written by kerndiff capture: records the Triton JIT's compiled kernels (docs/CAPTURE.md)\n"
    "import os as _os, sys as _sys\n"
    "def _kd_chain():\n"
    "    here = _os.path.dirname(_os.path.abspath(__file__))\n"
    "    saved, ours = list(_sys.path), _sys.modules.get('sitecustomize')\n"
    "    _sys.path[:] = [p for p in _sys.path if _os.path.abspath(p or '.') != here]\n"
    "    _sys.modules.pop('sitecustomize', None)\n"
    "    try:\n"
    "        import sitecustomize  # noqa: F401\n"
    "    except Exception:\n"
    "        pass\n"
    "    finally:\n"
    "        _sys.path[:] = saved\n"
    "        _sys.modules['sitecustomize'] = ours\n"
    "def _kd_plain(v):\n"
    "    if isinstance(v, (bool, int, float, str)) or v is None:\n"
    "        return v\n"
    "    return int(v) if hasattr(v, '__index__') else str(v)\n"
    "def _kd_install():\n"
    "    import json, triton\n"
    "    from triton import knobs\n"
    "    out = _os.path.join(_os.environ['KERNDIFF_CAPTURE_DIR'], 'triton.jsonl')\n"
    "    prev = knobs.runtime.jit_post_compile_hook\n"
    "    def hook(*a, **kw):\n"
    "        try:\n"
    "            c, fn = kw['compile'], kw['fn'].jit_function\n"
    "            ck = fn.device_caches[c['device']][0].get(kw['key'])\n"
    "            md, sig, consts = ck.metadata, c['signature'], c['constants']\n"
    "            params = [{'name': p.name, 'type': sig.get(p.name) if isinstance(sig.get(p.name), str)\n"
    "                       else str(sig.get(p.name)), 'constexpr': bool(p.is_constexpr)} for p in fn.params]\n"
    "            cx = {p.name: _kd_plain(consts[(i,)]) for i, p in enumerate(fn.params) if (i,) in consts}\n"
    "            rec = {'section': 1, 'kernel': md.name, 'fn': fn.fn.__name__,\n"
    "                   'specialization': c['specialization_data'], 'num_warps': md.num_warps,\n"
    "                   'num_stages': md.num_stages, 'num_ctas': md.num_ctas,\n"
    "                   'maxnreg': getattr(md, 'maxnreg', None), 'shared': md.shared, 'constexprs': cx,\n"
    "                   'params': params, 'scratch_pointers': 2 if hasattr(md, 'profile_scratch_size') else 1,\n"
    "                   'scratch_sizes': [getattr(md, 'global_scratch_size', 0),\n"
    "                                     getattr(md, 'profile_scratch_size', 0)],\n"
    "                   'triton_version': triton.__version__}\n"
    "            with open(out, 'a') as f:\n"
    "                f.write(json.dumps(rec) + '\\n')\n"
    "        except Exception:\n"
    "            pass\n"
    "        return prev(*a, **kw) if prev else None\n"
    "    knobs.runtime.jit_post_compile_hook = hook\n"
    "class _KdFinder:\n"
    "    def find_spec(self, name, path=None, target=None):\n"
    "        if name != 'triton':\n"
    "            return None\n"
    "        _sys.meta_path.remove(self)\n"
    "        import importlib.util\n"
    "        spec = importlib.util.find_spec(name)\n"
    "        if spec is None or spec.loader is None:\n"
    "            return spec\n"
    "        run = spec.loader.exec_module\n"
    "        def exec_module(module):\n"
    "            run(module)\n"
    "            try:\n"
    "                _kd_install()\n"
    "            except Exception:\n"
    "                pass\n"
    "        spec.loader.exec_module = exec_module\n"
    "        return spec\n"
    "_kd_chain()\n"
    "if _os.environ.get('KERNDIFF_CAPTURE_DIR'):\n"
    "    _sys.meta_path.insert(0, _KdFinder())\n";

/* DIR/site/sitecustomize.py (TRITON_SITE); "" when it cannot be written (no Triton section then). */
static char *triton_site(const char *dir)
{
    char *site = kd_path_join(dir, "site");
    char *file = site ? kd_path_join(site, "sitecustomize.py") : NULL;
    int ok = site && file && mkdir(site, 0700) == 0 && kd_write_file(file, TRITON_SITE, sizeof TRITON_SITE - 1) == 0;
    free(file);
    if (!ok) {
        free(site);
        return kd_xstrdup("");
    }
    return site;
}

static char **capture_environment(const char *inject, const char *dir, const kd_capture_run_request *req)
{
    static const char *const ours[] = {"CUDA_INJECTION64_PATH", "KERNDIFF_CAPTURE_DIR", "KERNDIFF_CAPTURE_FN",
                                       "KERNDIFF_CAPTURE_NTH", "KERNDIFF_CAPTURE_CONTINUE", "PYTHONPATH", NULL};
    char *set[7] = {0};
    size_t k = 0;
    char *site = triton_site(dir);
    const char *user_path = getenv("PYTHONPATH");
    if (*site)
        set[k++] = user_path && *user_path ? kd_xasprintf("PYTHONPATH=%s:%s", site, user_path)
                                           : kd_xasprintf("PYTHONPATH=%s", site);
    else if (user_path)
        set[k++] = kd_xasprintf("PYTHONPATH=%s", user_path);
    free(site);
    set[k++] = kd_xasprintf("CUDA_INJECTION64_PATH=%s", inject);
    set[k++] = kd_xasprintf("KERNDIFF_CAPTURE_DIR=%s", dir);
    set[k++] = kd_xasprintf("KERNDIFF_CAPTURE_FN=%s", req->fn ? req->fn : "");
    set[k++] = kd_xasprintf("KERNDIFF_CAPTURE_NTH=%llu", req->nth ? req->nth : 1);
    if (req->keep_going)
        set[k++] = kd_xstrdup("KERNDIFF_CAPTURE_CONTINUE=1");
    return kd_child_env(ours, set);
}

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* Runs argv with env, its stdout onto our stderr (our stdout is for reports), in a process
 * group of its own (ended with kerndiff, and whole on the timeout). 0 when it ended by
 * itself; -1 with *err set when it could not start or ran past the timeout. */
static int run_program(const char *const *argv, const char *cwd, char **env, int timeout_s, int *status_out,
                       kd_diag *err)
{
    posix_spawn_file_actions_t fa;
    posix_spawn_file_actions_init(&fa);
    if (cwd)
        posix_spawn_file_actions_addchdir_np(&fa, cwd);
    posix_spawn_file_actions_addopen(&fa, STDIN_FILENO, "/dev/null", O_RDONLY, 0);
    posix_spawn_file_actions_adddup2(&fa, STDERR_FILENO, STDOUT_FILENO);
    posix_spawnattr_t attr;
    posix_spawnattr_init(&attr);
    posix_spawnattr_setflags(&attr, POSIX_SPAWN_SETPGROUP);
    posix_spawnattr_setpgroup(&attr, 0);
    pid_t pid;
    int spawned = posix_spawnp(&pid, argv[0], &fa, &attr, (char *const *)argv, env);
    posix_spawn_file_actions_destroy(&fa);
    posix_spawnattr_destroy(&attr);
    if (spawned != 0) {
        kd_diag_set(err, KD_MSG_CAPTURE_RUN_CANNOT_START, KD_DIAG_NO_SIDE, KD_S(argv[0]), KD_S(strerror(spawned)));
        return -1;
    }
    kd_spawn_track_group(pid);
    double deadline = timeout_s > 0 ? now_s() + timeout_s : 0;
    int status = 0;
    pid_t done;
    while ((done = waitpid(pid, &status, WNOHANG)) == 0 && (!deadline || now_s() < deadline))
        usleep(20000);
    if (done == 0) { /* past the timeout: the whole group, then its leader reaped */
        kill(-pid, SIGKILL);
        waitpid(pid, &status, 0);
        kd_spawn_untrack_group(pid);
        kd_diag_set(err, KD_MSG_CAPTURE_RUN_TIMED_OUT, KD_DIAG_NO_SIDE, KD_S(argv[0]), KD_I(timeout_s));
        return -1;
    }
    kd_spawn_untrack_group(pid);
    *status_out = status;
    return 0;
}

/* A record with no launch in it from a program that failed: the program's failure is what to
 * say (a test that could not import its package, a script's typo), not the injection library's.
 * err keeps the record's own words otherwise. */
static void say_program_failed(const char *program, int status, kd_diag *err)
{
    bool no_launch = err->id == KD_MSG_CAPTURE_RAW_NO_MANIFEST || err->id == KD_MSG_CAPTURE_RAW_NOT_FOUND_NONE;
    if (!no_launch || (WIFEXITED(status) && WEXITSTATUS(status) == 0))
        return;
    kd_diag_free(err);
    if (WIFSIGNALED(status))
        kd_diag_set(err, KD_MSG_CAPTURE_RUN_SIGNALLED, KD_DIAG_NO_SIDE, KD_S(program), KD_I(WTERMSIG(status)));
    else
        kd_diag_set(err, KD_MSG_CAPTURE_RUN_EXITED, KD_DIAG_NO_SIDE, KD_S(program), KD_I(WEXITSTATUS(status)));
}

int kd_capture_run(const kd_capture_run_request *req, kd_diag *err)
{
    kd_gpu_info gpu;
    kd_gpu_probe(&gpu);
    if (!gpu.present) {
        kd_diag_set(err, KD_MSG_CAPTURE_RUN_NO_GPU, KD_DIAG_NO_SIDE, KD_S(gpu.reason));
        return -1;
    }
    const char *env_inject = kd_env_nonempty(KD_ENV_INJECT_LIBRARY);
    char *inject = env_inject ? kd_xstrdup(env_inject) : kd_harness_path("libkerndiff-inject.so");
    if (!inject) {
        kd_diag_set0(err, KD_MSG_CAPTURE_RUN_NO_LIBRARY, KD_DIAG_NO_SIDE);
        return -1;
    }
    kd_strlist words = {0};
    char *storage = NULL;
    const char *const *argv = req->argv;
    if (!argv && req->command) {
        kd_strbuf why = {0};
        if (kd_app_split_words(req->command, &storage, &words, &why) != 0) {
            kd_diag_set(err, KD_MSG_CAPTURE_RUN_SPLIT, KD_DIAG_NO_SIDE, KD_S(req->command), KD_S(kd_sb_str(&why)));
            kd_sb_free(&why);
            free(storage);
            free(words.items);
            free(inject);
            return -1;
        }
        kd_strlist_push(&words, NULL);
        argv = (const char *const *)words.items;
    }
    int rc = -1;
    char *dir = NULL;
    if (!argv || !argv[0]) {
        kd_diag_set0(err, KD_MSG_CAPTURE_RUN_NO_COMMAND, KD_DIAG_NO_SIDE);
        goto out;
    }
    const char *tmp = kd_tmpdir();
    dir = tmp ? kd_path_join(tmp, "capture-raw.XXXXXX") : NULL;
    if (!dir || !mkdtemp(dir)) {
        kd_diag_set(err, KD_MSG_CAPTURE_RUN_NO_FOLDER, KD_DIAG_NO_SIDE, KD_S(strerror(errno)));
        free(dir);
        dir = NULL;
        goto out;
    }
    char **env = capture_environment(inject, dir, req);
    int status = 0;
    rc = run_program(argv, req->cwd, env, req->timeout_s, &status, err);
    kd_child_env_free(env);
    /* whatever the program's status: the raw folder says whether the launch was captured (a
     * program may launch, then fail); one with no launch in it says how the program ended */
    if (rc == 0 && (rc = kd_capture_pack(dir, req->out_path, err)) != 0)
        say_program_failed(argv[0], status, err);
out:
    if (dir)
        kd_remove_tree(dir);
    free(dir);
    free(storage);
    free(words.items);
    free(inject);
    return rc;
}

/* What a failure is, for the exit status (cli/status.c): the program or its kernel is the
 * user's input; a missing library or an output not written is kerndiff's (as the diff's
 * lost report); the rest happened at run time. */
kd_outcome kd_capture_run_outcome(int id)
{
    switch (id) {
    case KD_MSG_CAPTURE_RUN_NO_LIBRARY:
    case KD_MSG_CAPTURE_RUN_NO_FOLDER:
    case KD_MSG_CAPTURE_CANNOT_WRITE: /* the file -o names not written: an output lost, as the diff's (7) */
        return KD_FAIL_TOOL;
    case KD_MSG_CAPTURE_RUN_CANNOT_START:
    case KD_MSG_CAPTURE_RUN_EXITED:
    case KD_MSG_CAPTURE_RUN_SIGNALLED:
    case KD_MSG_CAPTURE_RUN_NO_COMMAND:
    case KD_MSG_CAPTURE_RUN_SPLIT:
    case KD_MSG_CAPTURE_RAW_NOT_FOUND:
    case KD_MSG_CAPTURE_RAW_NOT_FOUND_NONE:
    case KD_MSG_CAPTURE_RAW_NOT_FOUND_SAID:
    case KD_MSG_CAPTURE_RAW_NOT_FOUND_SAID_SEEN:
    case KD_MSG_CAPTURE_RAW_GRAPH:
        return KD_FAIL_INPUT;
    default:
        return KD_FAIL_RUNTIME;
    }
}
