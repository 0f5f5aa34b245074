/* run.h — running git from an argument vector (util/spawn.h, never through a shell) with a
 * time limit, and resolving a revision to a commit: what git mode (git/revision.h) and
 * `kerndiff app --at` (git/worktree.h) both need. */
#ifndef KD_GIT_RUN_H
#define KD_GIT_RUN_H

#include "util/diag.h"
#include "util/spawn.h"

/* Runs git (argv[0] == "git") with hooks, the fsmonitor and the pager off, whatever the
 * repository's configuration says. 0 when it ran to an exit status (res then holds its
 * output and must be freed), -1 with the reason in *error when it could not run
 * (git/git_msgs.h: KD_MSG_GIT_NOT_FOUND, _CANNOT_RUN, _TIMED_OUT, _KILLED). */
int kd_git_run(const char *const argv[], kd_spawn_result *res, kd_diag *error);

/* Runs git for a one-line answer: 0 with *line malloc'd, or NULL when git said no (a
 * failing status or nothing printed); -1 with the reason in *error when git did not run. */
int kd_git_line(const char *const argv[], char **line, kd_diag *error);

typedef struct kd_git_commit {
    char *hash;       /* full */
    char *short_hash; /* unique abbreviation, as git shows it */
} kd_git_commit;

/* Resolves `ref` in the repository whose working tree's top is `top`. 0, or -1 with
 * KD_MSG_GIT_UNKNOWN_REVISION (also for a ref starting with '-', never read as an option),
 * _CANNOT_ABBREVIATE or why git did not run, in *error. Free *c with kd_git_commit_free
 * either way. */
int kd_git_commit_resolve(const char *top, const char *ref, kd_git_commit *c, kd_diag *error);

/* Where a reason set by the calls above is said: git mode (as set), git mode's check that
 * git runs, a side's checkout (app --at: its side number and revision put first), or that
 * checkout's check. kd_git_reason_in moves *d's reason there (git/git_msgs.h); a message
 * that is no such reason is left as it is. */
typedef enum kd_git_place { KD_GIT_IN_MODE, KD_GIT_IN_PROBE, KD_GIT_IN_AT, KD_GIT_IN_AT_PROBE } kd_git_place;
void kd_git_reason_in(kd_diag *d, kd_git_place place, int side, const char *ref);
void kd_git_commit_free(kd_git_commit *c);

/* "v1.2 (a1b2c3d)"; a hash typed by the user is shown once, as the abbreviation. Malloc'd. */
char *kd_git_commit_label(const char *ref, const kd_git_commit *c);

#endif
