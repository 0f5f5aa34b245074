/* worktree.h — a checkout of one revision of the repository around the current folder, for
 * `kerndiff app --at REF`: `git worktree add --detach` into a folder kerndiff owns (under
 * its private temporary folder, util/tmpdir.h), so the program can be built and run at
 * that revision without touching the user's working tree. Every checkout is removed with
 * `git worktree remove --force` (its files and git's record of it) however kerndiff ends:
 * at exit, and on SIGINT, SIGTERM and SIGHUP (util/cleanup.h). */
#ifndef KD_GIT_WORKTREE_H
#define KD_GIT_WORKTREE_H

#include "util/strbuf.h"

typedef struct kd_git_checkout {
    char *dir;    /* where to run: the folder of the checkout that matches the current
                   * folder (its top, when run from the repository's top) */
    char *label;  /* "REF (a1b2c3d)", or the abbreviation when REF is a hash */
    char *commit; /* the full hash REF resolved to */
} kd_git_checkout;

/* Checks REF out at `path` (which must not exist; its parent must). Returns 0 with *out
 * filled; -2 when git cannot be run at all; -1 with a one-line reason in `error`:
 *   "the current folder is not inside a git repository"
 *   "unknown revision 'xyz'"
 *   "git worktree add failed: <git's message>"
 *   "the current folder does not exist at revision v1.0"
 * Free *out with kd_git_checkout_free in every case; the checkout itself stays on disk
 * until kerndiff ends. */
int kd_git_checkout_add(const char *ref, const char *path, kd_git_checkout *out, kd_strbuf *error);
void kd_git_checkout_free(kd_git_checkout *c);

#endif
