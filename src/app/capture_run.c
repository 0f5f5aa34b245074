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
static char **capture_environment(const char *inject, const char *dir, const kd_capture_run_request *req)
{
    static const char *const ours[] = {"CUDA_INJECTION64_PATH", "KERNDIFF_CAPTURE_DIR", "KERNDIFF_CAPTURE_FN",
                                       "KERNDIFF_CAPTURE_NTH", "KERNDIFF_CAPTURE_CONTINUE", NULL};
    char *set[6] = {0};
    size_t k = 0;
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
static int run_program(const char *const *argv, char **env, int timeout_s, kd_diag *err)
{
    posix_spawn_file_actions_t fa;
    posix_spawn_file_actions_init(&fa);
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
    return 0;
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
    rc = run_program(argv, env, req->timeout_s, err);
    kd_child_env_free(env);
    /* whatever the program's status: the raw folder says whether the launch was captured */
    if (rc == 0)
        rc = kd_capture_pack(dir, req->out_path, err);
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
 * user's input; a missing library is kerndiff's; the rest happened at run time. */
kd_outcome kd_capture_run_outcome(int id)
{
    switch (id) {
    case KD_MSG_CAPTURE_RUN_NO_LIBRARY:
    case KD_MSG_CAPTURE_RUN_NO_FOLDER:
        return KD_FAIL_TOOL;
    case KD_MSG_CAPTURE_RUN_CANNOT_START:
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
