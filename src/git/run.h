/* run.h — running git from an argument vector (util/spawn.h, never through a shell) with a
 * time limit, and resolving a revision to a commit: what git mode (git/revision.h) and
 * `kerndiff app --at` (git/worktree.h) both need. */
#ifndef KD_GIT_RUN_H
#define KD_GIT_RUN_H

#include "util/spawn.h"
#include "util/strbuf.h"

/* Runs git (argv[0] == "git") with hooks, the fsmonitor and the pager off, whatever the
 * repository's configuration says. 0 when it ran to an exit status (res then holds its
 * output and must be freed), -1 with a reason in `error` when it could not run ("git not
 * found", timed out, killed). */
int kd_git_run(const char *const argv[], kd_spawn_result *res, kd_strbuf *error);

/* Runs git for a one-line answer: 0 with *line malloc'd, or NULL when git said no (a
 * failing status or nothing printed); -1 with a reason in `error` when git did not run. */
int kd_git_line(const char *const argv[], char **line, kd_strbuf *error);

typedef struct kd_git_commit {
    char *hash;       /* full */
    char *short_hash; /* unique abbreviation, as git shows it */
} kd_git_commit;

/* Resolves `ref` in the repository whose working tree's top is `top`. 0, or -1 with
 * "unknown revision 'REF'" (also for a ref starting with '-', never read as an option)
 * or why git did not run, in `error`. Free *c with kd_git_commit_free either way. */
int kd_git_commit_resolve(const char *top, const char *ref, kd_git_commit *c, kd_strbuf *error);
void kd_git_commit_free(kd_git_commit *c);

/* "v1.2 (a1b2c3d)"; a hash typed by the user is shown once, as the abbreviation. Malloc'd. */
char *kd_git_commit_label(const char *ref, const kd_git_commit *c);

#endif
