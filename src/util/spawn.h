/* spawn.h — run a program from an argument vector (never through a shell) and capture
 * its output. */
#ifndef KD_UTIL_SPAWN_H
#define KD_UTIL_SPAWN_H

#include <stdbool.h>
#include <sys/types.h>
#include "util/strbuf.h"

typedef struct kd_spawn_result {
    kd_strbuf out;     /* everything the child wrote to stdout */
    kd_strbuf err;     /* ... and to stderr */
    int exit_code;     /* valid when !signaled */
    int signal;        /* the terminating signal, 0 if it exited */
    bool timed_out;    /* killed by us after timeout_ms */
} kd_spawn_result;

/* Runs argv[0] (searched in PATH) with argv, in `cwd` (NULL: ours), waiting at most
 * timeout_ms (0: no limit). The program runs in a process group of its own, killed whole
 * on timeout and when kerndiff is ended by SIGINT/SIGTERM/SIGHUP (util/cleanup), so what
 * it started (nvcc's cicc and ptxas) does not outlive it. Returns 0 when the program ran (whatever its status), or -1
 * with errno set when it could not be started (ENOENT: not found). */
int kd_spawn(const char *const argv[], const char *cwd, int timeout_ms, kd_spawn_result *res);
/* kd_spawn with the environment env (NULL-terminated "NAME=VALUE"; NULL: ours), for a
 * program that must not see one of ours (nvcc: TMPDIR, util/child_env.h). */
int kd_spawn_env(const char *const argv[], const char *cwd, char *const env[], int timeout_ms, kd_spawn_result *res);
void kd_spawn_result_free(kd_spawn_result *res);

/* kd_spawn in two halves, so that several programs run at once (the two Triton sides'
 * captures): kd_spawn_start starts the program as kd_spawn does (its own process group,
 * tracked for the same cleanup); kd_spawn_wait collects its output and status. The timeout
 * counts from the start, so a program waited for late gets no more time than one waited for
 * at once. The output pipes are enlarged (1 MiB where the system allows) so that a program
 * not being waited for yet seldom blocks on a full pipe. Start returns 0, or -1 with errno
 * set (job left empty); wait returns 0 (the job is then empty again), -1 for an empty job. */
typedef struct kd_spawn_job {
    pid_t pid;       /* 0: no job */
    int out_fd, err_fd;
    long started_ms; /* CLOCK_MONOTONIC */
} kd_spawn_job;
int kd_spawn_start(const char *const argv[], const char *cwd, kd_spawn_job *job);
int kd_spawn_wait(kd_spawn_job *job, int timeout_ms, kd_spawn_result *res);
/* A started job no longer wanted: its process group killed, its leader reaped. */
void kd_spawn_cancel(kd_spawn_job *job);

/* A process group started elsewhere (wire/child) that the same cleanup must end; untrack
 * it once its leader is reaped. At most 8 groups are tracked at a time. */
void kd_spawn_track_group(pid_t group);
void kd_spawn_untrack_group(pid_t group);

/* A worker: a fork of kerndiff that does part of its work itself (no exec), silently, then
 * _exits (never returning, so the parent's exit actions do not run in it). Its stdio is
 * /dev/null; with own_group it leads a process group of its own, so that kill(-pid) ends it
 * and everything it started. On SIGINT, SIGTERM or SIGHUP it ends the tools it started and
 * exits with 128 + the signal: kerndiff's own handler does nothing in a fork (util/cleanup.h:
 * the actions are the parent's). Returns the pid in the parent, 0 in the worker, -1 when the
 * fork failed. */
pid_t kd_fork_worker(bool own_group);
/* Waits for a child: its exit status, or -1 when it was killed by a signal (or is not ours). */
int kd_wait_child(pid_t pid);

/* True when `name` resolves to an executable through PATH (or is an executable path). */
bool kd_program_exists(const char *name);
/* The executable `name` resolves to through PATH (name itself when it holds a '/'), malloc'd;
 * NULL when none does. */
char *kd_program_path(const char *name);

#endif
