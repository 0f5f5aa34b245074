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
void kd_spawn_result_free(kd_spawn_result *res);

/* A process group started elsewhere (wire/child) that the same cleanup must end; untrack
 * it once its leader is reaped. At most 8 groups are tracked at a time. */
void kd_spawn_track_group(pid_t group);
void kd_spawn_untrack_group(pid_t group);

/* True when `name` resolves to an executable through PATH (or is an executable path). */
bool kd_program_exists(const char *name);

#endif
