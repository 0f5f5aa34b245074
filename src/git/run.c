#include "git/run.h"

#include <errno.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "git/git_msgs.h"
#include "util/xalloc.h"

/* Generous: a cold `git cat-file` on a network file system can take seconds, but a hung
 * git (a credential prompt, a lock) must not hang kerndiff. */
enum { GIT_TIMEOUT_MS = 60000 };

/* Put before every git command's own arguments: a repository's configuration must not make
 * kerndiff run commands of its choosing (core.fsmonitor is a command git runs on status-like
 * calls; hooks run on `worktree add`), and a pager would wait for a terminal. */
static const char *const GUARDS[] = {"--no-pager", "-c", "core.fsmonitor=false", "-c", "core.hooksPath=/dev/null"};
enum { NGUARDS = sizeof GUARDS / sizeof *GUARDS };

int kd_git_run(const char *const argv[], kd_spawn_result *res, kd_diag *error)
{
    size_t n = 0;
    while (argv[n])
        n++;
    const char **guarded = kd_xcalloc(n + NGUARDS + 1, sizeof *guarded);
    guarded[0] = argv[0];
    for (size_t i = 0; i < NGUARDS; i++)
        guarded[1 + i] = GUARDS[i];
    for (size_t i = 1; i < n; i++)
        guarded[NGUARDS + i] = argv[i];
    int spawned = kd_spawn(guarded, NULL, GIT_TIMEOUT_MS, res);
    int saved = errno;
    free(guarded);
    errno = saved;
    if (spawned != 0) {
        if (errno == ENOENT)
            kd_diag_set0(error, KD_MSG_GIT_NOT_FOUND, KD_DIAG_NO_SIDE);
        else
            kd_diag_set(error, KD_MSG_GIT_CANNOT_RUN, KD_DIAG_NO_SIDE, KD_S(strerror(errno)));
        return -1;
    }
    if (res->timed_out || res->signal) {
        kd_diag_set0(error, res->timed_out ? KD_MSG_GIT_TIMED_OUT : KD_MSG_GIT_KILLED, KD_DIAG_NO_SIDE);
        kd_spawn_result_free(res);
        return -1;
    }
    return 0;
}

int kd_git_line(const char *const argv[], char **line, kd_diag *error)
{
    kd_spawn_result res;
    *line = NULL;
    if (kd_git_run(argv, &res, error) != 0)
        return -1;
    const char *text = kd_sb_str(&res.out);
    size_t n = strcspn(text, "\r\n");
    if (res.exit_code == 0 && n > 0)
        *line = kd_xstrndup(text, n);
    kd_spawn_result_free(&res);
    return 0;
}

void kd_git_commit_free(kd_git_commit *c)
{
    free(c->hash);
    free(c->short_hash);
    c->hash = c->short_hash = NULL;
}

int kd_git_commit_resolve(const char *top, const char *ref, kd_git_commit *c, kd_diag *error)
{
    /* A leading '-' would be read as an option, never as a revision. */
    if (!*ref || ref[0] == '-') {
        kd_diag_set(error, KD_MSG_GIT_UNKNOWN_REVISION, KD_DIAG_NO_SIDE, KD_S(ref));
        return -1;
    }
    char *spec = kd_xasprintf("%s^{commit}", ref);
    const char *verify[] = {"git", "-C", top, "rev-parse", "--verify", "--quiet", spec, NULL};
    int rc = kd_git_line(verify, &c->hash, error);
    free(spec);
    if (rc != 0)
        return -1;
    if (!c->hash) {
        kd_diag_set(error, KD_MSG_GIT_UNKNOWN_REVISION, KD_DIAG_NO_SIDE, KD_S(ref));
        return -1;
    }
    const char *abbreviate[] = {"git", "-C", top, "rev-parse", "--short", c->hash, NULL};
    if (kd_git_line(abbreviate, &c->short_hash, error) != 0)
        return -1;
    if (!c->short_hash) {
        kd_diag_set(error, KD_MSG_GIT_CANNOT_ABBREVIATE, KD_DIAG_NO_SIDE, KD_S(c->hash));
        return -1;
    }
    return 0;
}

char *kd_git_commit_label(const char *ref, const kd_git_commit *c)
{
    size_t n = strlen(ref);
    kd_strbuf label = {0};
    if (n >= 4 && n <= strlen(c->hash) && strncasecmp(ref, c->hash, n) == 0)
        kd_sb_puts(&label, c->short_hash);
    else
        kd_sb_printf(&label, "%s (%s)", ref, c->short_hash);
    return kd_sb_take(&label);
}

void kd_git_reason_in(kd_diag *d, kd_git_place place, int side, const char *ref)
{
    /* The reasons in the order git_msgs.h lists them in each place; the checks have only
     * the first four (git did not run). */
    enum { REASONS = KD_MSG_GIT_PROBE_NOT_FOUND - KD_MSG_GIT_NOT_FOUND, RUN_REASONS = 4 };
    static const int first[] = {[KD_GIT_IN_MODE] = KD_MSG_GIT_NOT_FOUND, [KD_GIT_IN_PROBE] = KD_MSG_GIT_PROBE_NOT_FOUND,
                                [KD_GIT_IN_AT] = KD_MSG_GIT_AT_NOT_FOUND, [KD_GIT_IN_AT_PROBE] = KD_MSG_GIT_AT_PROBE_NOT_FOUND};
    int reason = d->id - KD_MSG_GIT_NOT_FOUND;
    bool probe = place == KD_GIT_IN_PROBE || place == KD_GIT_IN_AT_PROBE;
    if (reason < 0 || reason >= (probe ? RUN_REASONS : REASONS) || place == KD_GIT_IN_MODE)
        return;
    bool at = place == KD_GIT_IN_AT || place == KD_GIT_IN_AT_PROBE;
    kd_diag_arg args[KD_DIAG_MAX_ARGS];
    size_t n = 0;
    if (at) {
        args[n++] = KD_I(side);
        args[n++] = KD_S(ref);
    }
    for (size_t i = 0; i < d->nargs && n < KD_DIAG_MAX_ARGS; i++)
        args[n++] = d->args[i];
    kd_diag moved = {0};
    kd_diag_set_args(&moved, first[place] + reason, at ? side : d->side, args, n); /* copies the strings */
    kd_diag_free(d);
    *d = moved;
}
