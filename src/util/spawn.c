#include "util/spawn.h"

#include "util/cleanup.h"
#include "util/env.h"
#include "util/xalloc.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

extern char **environ;

static long now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec * 1000L + ts.tv_nsec / 1000000L;
}

/* Drains both pipes until the child closes them or the deadline passes. Reading both
 * at once matters: a child that fills one pipe while we block on the other deadlocks.
 * Past the deadline what is already there is still read (a started job waited for late may
 * have ended in time, its output waiting in the pipes): only a child that has not closed them
 * once they are empty, or that keeps writing (LATE_READS), has run out of time. */
enum { LATE_READS = 1024 };
static bool drain(int out_fd, int err_fd, kd_spawn_result *res, long deadline)
{
    struct pollfd fds[2] = {{.fd = out_fd, .events = POLLIN}, {.fd = err_fd, .events = POLLIN}};
    kd_strbuf *bufs[2] = {&res->out, &res->err};
    int open_fds = 2, late_reads = 0;
    char chunk[8192];
    while (open_fds > 0) {
        int wait = -1;
        if (deadline) {
            long left = deadline - now_ms();
            if (left <= 0 && ++late_reads > LATE_READS)
                return false;
            wait = left > 0 ? (int)left : 0;
        }
        int r = poll(fds, 2, wait);
        if (r < 0 && errno == EINTR)
            continue;
        if (r <= 0)
            return r < 0; /* 0: timeout (nothing more came by the deadline) */
        for (int i = 0; i < 2; i++) {
            if (fds[i].fd < 0 || !(fds[i].revents & (POLLIN | POLLHUP | POLLERR)))
                continue;
            ssize_t n = read(fds[i].fd, chunk, sizeof chunk);
            if (n > 0) {
                kd_sb_append(bufs[i], chunk, (size_t)n);
            } else if (n == 0 || errno != EINTR) {
                fds[i].fd = -1;
                open_fds--;
            }
        }
    }
    return true;
}

/* Process groups of the tools running now, so that a timeout or SIGINT/SIGTERM/SIGHUP
 * (util/cleanup) ends each tool with everything it started (nvcc runs cicc, ptxas ...). */
enum { MAX_RUNNING = 8 };
static volatile sig_atomic_t running[MAX_RUNNING];

/* Runs from a signal handler too: only async-signal-safe calls. */
static void end_running_groups(void)
{
    for (int i = 0; i < MAX_RUNNING; i++)
        if (running[i] > 0)
            kill(-(pid_t)running[i], SIGKILL);
}

/* A worker's handler: its tools end with it (async-signal-safe calls only). */
static void worker_on_signal(int sig)
{
    end_running_groups();
    _exit(128 + sig);
}

pid_t kd_fork_worker(bool own_group)
{
    fflush(NULL); /* nothing buffered is written twice */
    pid_t pid = fork();
    if (pid > 0 && own_group)
        setpgid(pid, pid); /* as the worker does: whichever runs first */
    if (pid != 0)
        return pid;
    if (own_group)
        setpgid(0, 0);
    const int signals[] = {SIGINT, SIGTERM, SIGHUP};
    for (size_t i = 0; i < sizeof signals / sizeof *signals; i++)
        signal(signals[i], worker_on_signal);
    int null = open("/dev/null", O_RDWR);
    if (null >= 0) {
        dup2(null, STDIN_FILENO);
        dup2(null, STDOUT_FILENO);
        dup2(null, STDERR_FILENO);
        if (null > STDERR_FILENO)
            close(null);
    }
    return 0;
}

int kd_wait_child(pid_t pid)
{
    int status = 0;
    pid_t got;
    while ((got = waitpid(pid, &status, 0)) < 0 && errno == EINTR)
        ;
    return got > 0 && WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

void kd_spawn_track_group(pid_t group)
{
    static bool registered;
    if (!registered)
        registered = kd_on_exit(end_running_groups) == 0;
    for (int i = 0; i < MAX_RUNNING; i++)
        if (running[i] == 0) {
            running[i] = group;
            return;
        }
}

void kd_spawn_untrack_group(pid_t group)
{
    for (int i = 0; i < MAX_RUNNING; i++)
        if (running[i] == group)
            running[i] = 0;
}

/* posix_spawnp in a process group of its own (its id is the child's pid), with env (NULL:
 * ours). */
static int spawn_in_group(pid_t *pid, const char *const argv[], posix_spawn_file_actions_t *fa, char *const env[])
{
    posix_spawnattr_t attr;
    posix_spawnattr_init(&attr);
    posix_spawnattr_setflags(&attr, POSIX_SPAWN_SETPGROUP);
    posix_spawnattr_setpgroup(&attr, 0);
    int rc = posix_spawnp(pid, argv[0], fa, &attr, (char *const *)argv, env ? env : environ);
    posix_spawnattr_destroy(&attr);
    if (rc == 0)
        kd_spawn_track_group(*pid);
    return rc;
}

/* A pipe whose buffer holds more than the default 64 KiB: a started job's output waits
 * there while another job is waited for. Best effort (the system's pipe-max-size). */
static void enlarge_pipe(int fd)
{
#ifdef F_SETPIPE_SZ
    (void)fcntl(fd, F_SETPIPE_SZ, 1 << 20);
#else
    (void)fd;
#endif
}

static int start_in_env(const char *const argv[], const char *cwd, char *const env[], kd_spawn_job *job)
{
    memset(job, 0, sizeof *job);
    int out_pipe[2], err_pipe[2];
    if (pipe2(out_pipe, O_CLOEXEC) != 0)
        return -1;
    if (pipe2(err_pipe, O_CLOEXEC) != 0) {
        close(out_pipe[0]);
        close(out_pipe[1]);
        return -1;
    }
    enlarge_pipe(out_pipe[0]);
    enlarge_pipe(err_pipe[0]);
    posix_spawn_file_actions_t fa;
    posix_spawn_file_actions_init(&fa);
    posix_spawn_file_actions_adddup2(&fa, out_pipe[1], STDOUT_FILENO);
    posix_spawn_file_actions_adddup2(&fa, err_pipe[1], STDERR_FILENO);
    posix_spawn_file_actions_addopen(&fa, STDIN_FILENO, "/dev/null", O_RDONLY, 0);
    if (cwd)
        posix_spawn_file_actions_addchdir_np(&fa, cwd);
    pid_t pid;
    int rc = spawn_in_group(&pid, argv, &fa, env);
    posix_spawn_file_actions_destroy(&fa);
    close(out_pipe[1]);
    close(err_pipe[1]);
    if (rc != 0) {
        close(out_pipe[0]);
        close(err_pipe[0]);
        errno = rc;
        return -1;
    }
    job->pid = pid;
    job->out_fd = out_pipe[0];
    job->err_fd = err_pipe[0];
    job->started_ms = now_ms();
    return 0;
}

/* The job's leader reaped (only now: until then the group's id cannot be reused), the group
 * no longer tracked, the job emptied; its status into res when res is given. */
static void reap(kd_spawn_job *job, kd_spawn_result *res)
{
    close(job->out_fd);
    close(job->err_fd);
    int status = 0;
    while (waitpid(job->pid, &status, 0) < 0 && errno == EINTR)
        ;
    kd_spawn_untrack_group(job->pid);
    if (res && WIFSIGNALED(status))
        res->signal = WTERMSIG(status);
    else if (res)
        res->exit_code = WEXITSTATUS(status);
    memset(job, 0, sizeof *job);
}

int kd_spawn_wait(kd_spawn_job *job, int timeout_ms, kd_spawn_result *res)
{
    memset(res, 0, sizeof *res);
    if (job->pid <= 0)
        return -1;
    long deadline = timeout_ms > 0 ? job->started_ms + timeout_ms : 0;
    if (!drain(job->out_fd, job->err_fd, res, deadline)) {
        kill(-job->pid, SIGKILL);
        res->timed_out = true;
    }
    reap(job, res);
    return 0;
}

void kd_spawn_cancel(kd_spawn_job *job)
{
    if (job->pid <= 0)
        return;
    kill(-job->pid, SIGKILL);
    reap(job, NULL);
}

int kd_spawn_start(const char *const argv[], const char *cwd, kd_spawn_job *job)
{
    return start_in_env(argv, cwd, NULL, job);
}

int kd_spawn(const char *const argv[], const char *cwd, int timeout_ms, kd_spawn_result *res)
{
    return kd_spawn_env(argv, cwd, NULL, timeout_ms, res);
}

int kd_spawn_env(const char *const argv[], const char *cwd, char *const env[], int timeout_ms, kd_spawn_result *res)
{
    kd_spawn_job job;
    if (start_in_env(argv, cwd, env, &job) != 0) {
        memset(res, 0, sizeof *res);
        return -1;
    }
    return kd_spawn_wait(&job, timeout_ms, res);
}

void kd_spawn_result_free(kd_spawn_result *res)
{
    kd_sb_free(&res->out);
    kd_sb_free(&res->err);
}

char *kd_program_path(const char *name)
{
    if (strchr(name, '/'))
        return access(name, X_OK) == 0 ? kd_xstrdup(name) : NULL;
    const char *path = kd_env(KD_ENV_PATH);
    if (!path)
        return NULL;
    char *copy = kd_xstrdup(path), *save = NULL, *found = NULL;
    for (char *dir = strtok_r(copy, ":", &save); dir && !found; dir = strtok_r(NULL, ":", &save)) {
        char full[4096];
        snprintf(full, sizeof full, "%s/%s", *dir ? dir : ".", name);
        if (access(full, X_OK) == 0)
            found = kd_xstrdup(full);
    }
    free(copy);
    return found;
}

bool kd_program_exists(const char *name)
{
    char *found = kd_program_path(name);
    free(found);
    return found != NULL;
}
