/* worktree.h — a checkout of one revision of the repository around the current folder, for
 * `kerndiff app --at REF`: `git worktree add --detach` into a folder kerndiff owns (under
 * its private temporary folder, util/tmpdir.h), so the program can be built and run at
 * that revision without touching the user's working tree. Every checkout is removed with
 * `git worktree remove --force` (its files and git's record of it) however kerndiff ends:
 * at exit, and on SIGINT, SIGTERM and SIGHUP (util/cleanup.h). */
#ifndef KD_GIT_WORKTREE_H
#define KD_GIT_WORKTREE_H

#include "util/diag.h"

typedef struct kd_git_checkout {
    char *dir;    /* where to run: the folder of the checkout that matches the current
                   * folder (its top, when run from the repository's top) */
    char *label;  /* "REF (a1b2c3d)", or the abbreviation when REF is a hash */
    char *commit; /* the full hash REF resolved to */
} kd_git_checkout;

/* Checks REF out at `path` (which must not exist; its parent must) for side `side` (0 or
 * 1). Returns 0 with *out filled; -2 when git cannot be run at all; -1 otherwise. Either
 * failure leaves in *error the message for the caller to say (git/git_msgs.h's
 * KD_MSG_GIT_CHECKOUT_*, naming the side and REF: not a repository, an unknown revision,
 * git worktree add's message, the current folder missing at REF; kd_diag_free it).
 * Free *out with kd_git_checkout_free in every case; the checkout itself stays on disk
 * until kerndiff ends. */
int kd_git_checkout_add(const char *ref, const char *path, int side, kd_git_checkout *out, kd_diag *error);
void kd_git_checkout_free(kd_git_checkout *c);

#endif
