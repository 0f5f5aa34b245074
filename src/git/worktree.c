#include "git/worktree.h"

#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "git/git_msgs.h"
#include "git/run.h"
#include "util/cleanup.h"
#include "util/fs.h"
#include "util/xalloc.h"

/* The checkouts to remove when kerndiff ends: a side each at most. */
enum { MAX_CHECKOUTS = 2 };
static struct {
    char *top, *path;
} checkouts[MAX_CHECKOUTS];
static size_t ncheckouts;

static void remove_checkouts(void)
{
    while (ncheckouts > 0) {
        ncheckouts--;
        /* --force: the checkout holds the build's outputs, files git does not track. */
        const char *argv[] = {"git", "-C", checkouts[ncheckouts].top, "worktree", "remove", "--force",
                              checkouts[ncheckouts].path, NULL};
        kd_spawn_result res;
        kd_diag ignored = {0};
        int ran = kd_git_run(argv, &res, &ignored);
        bool removed = ran == 0 && res.exit_code == 0;
        if (ran == 0)
            kd_spawn_result_free(&res);
        /* A build still writing into it (kerndiff interrupted during --prepare) can make
         * git refuse: the files go anyway, and git forgets checkouts whose folder is gone. */
        if (!removed) {
            kd_remove_tree(checkouts[ncheckouts].path);
            const char *prune[] = {"git", "-C", checkouts[ncheckouts].top, "worktree", "prune", NULL};
            if (kd_git_run(prune, &res, &ignored) == 0)
                kd_spawn_result_free(&res);
        }
        kd_diag_free(&ignored);
    }
}

/* Remembers a checkout for removal; false when a table (ours, or the exit actions') is full. */
static bool track(const char *top, const char *path)
{
    static bool registered;
    if (!registered && kd_on_exit(remove_checkouts) != 0)
        return false;
    registered = true;
    if (ncheckouts == MAX_CHECKOUTS)
        return false;
    checkouts[ncheckouts].top = kd_xstrdup(top);
    checkouts[ncheckouts].path = kd_xstrdup(path);
    ncheckouts++;
    return true;
}

int kd_git_checkout_add(const char *ref, const char *path, int side, kd_git_checkout *out, kd_diag *error)
{
    memset(out, 0, sizeof *out);
    int v = side + 1;
    const char *const version[] = {"git", "--version", NULL};
    kd_spawn_result probe;
    if (kd_git_run(version, &probe, error) != 0) {
        kd_git_reason_in(error, KD_GIT_IN_AT_PROBE, v, ref);
        return -2;
    }
    kd_spawn_result_free(&probe);
    char *top = NULL, *prefix = NULL;
    kd_git_commit commit = {0};
    int rc = -1;
    const char *show_top[] = {"git", "rev-parse", "--show-toplevel", NULL};
    const char *show_prefix[] = {"git", "rev-parse", "--show-prefix", NULL};
    kd_spawn_result res;
    if (kd_git_line(show_top, &top, error) != 0)
        goto failed;
    if (!top) {
        kd_diag_set(error, KD_MSG_GIT_CHECKOUT_NOT_A_REPO, v, KD_I(v), KD_S(ref));
        goto done;
    }
    /* Empty at the top, "sub/dir/" below it: the same folder in the checkout. */
    if (kd_git_line(show_prefix, &prefix, error) != 0 || kd_git_commit_resolve(top, ref, &commit, error) != 0)
        goto failed;
    const char *add[] = {"git", "-C", top, "worktree", "add", "--detach", "--quiet", path, commit.hash, NULL};
    if (kd_git_run(add, &res, error) != 0)
        goto failed;
    if (res.exit_code != 0) {
        char *first = kd_xstrndup(kd_sb_str(&res.err), strcspn(kd_sb_str(&res.err), "\n"));
        kd_diag_set(error, KD_MSG_GIT_CHECKOUT_ADD_FAILED, v, KD_I(v), KD_S(ref), KD_S(first));
        free(first);
        kd_spawn_result_free(&res);
        goto done;
    }
    kd_spawn_result_free(&res);
    if (!track(top, path)) {
        kd_diag_set(error, KD_MSG_GIT_CHECKOUT_UNTRACKED, v, KD_I(v), KD_S(ref));
        goto done;
    }
    out->dir = prefix ? kd_path_join(path, prefix) : kd_xstrdup(path);
    out->label = kd_git_commit_label(ref, &commit);
    out->commit = kd_xstrdup(commit.hash);
    struct stat st;
    if (stat(out->dir, &st) != 0 || !S_ISDIR(st.st_mode))
        kd_diag_set(error, KD_MSG_GIT_CHECKOUT_NO_FOLDER, v, KD_I(v), KD_S(ref), KD_S(prefix), KD_S(out->label));
    else
        rc = 0;
    goto done;
failed:
    kd_git_reason_in(error, KD_GIT_IN_AT, v, ref);
done:
    kd_git_commit_free(&commit);
    free(prefix);
    free(top);
    return rc;
}

void kd_git_checkout_free(kd_git_checkout *c)
{
    free(c->dir);
    free(c->label);
    free(c->commit);
    memset(c, 0, sizeof *c);
}
