#include "app/collect.h"

#include <errno.h>
#include <fcntl.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "app/app_msgs.h"
#include "app/command.h"
#include "app/diff.h"
#include "app/app_records.h"
#include "app/sqlite.h"
#include "util/outcome.h"
#include "git/worktree.h"
#include "util/child_env.h"
#include "util/env.h"
#include "util/fs.h"
#include "util/spawn.h"
#include "util/strlist.h"
#include "util/text.h"
#include "util/tmpdir.h"
#include "util/progress.h"
#include "util/xalloc.h"
#include "wire/locate.h"

void kd_app_options_default(kd_app_options *o)
{
    *o = (kd_app_options){.runs = 3, .top = 20};
}

/* The environment of a collected run: ours, with the collector's variables set. */
static char **run_environment(const char *inject, const char *dir, const char *range)
{
    static const char *const ours[] = {"CUDA_INJECTION64_PATH", "KERNDIFF_APP_RECORDS", "KERNDIFF_APP_RANGE",
                                       "NVTX_INJECTION64_PATH", NULL};
    char *set[5] = {0};
    size_t k = 0;
    set[k++] = kd_xasprintf("CUDA_INJECTION64_PATH=%s", inject);
    set[k++] = kd_xasprintf("KERNDIFF_APP_RECORDS=%s", dir);
    /* The collector is also NVTX's injection, to hand the range markers to CUPTI. */
    if (range) {
        set[k++] = kd_xasprintf("KERNDIFF_APP_RANGE=%s", range);
        set[k++] = kd_xasprintf("NVTX_INJECTION64_PATH=%s", inject);
    }
    return kd_child_env(ours, set);
}

static double now_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec * 1e9 + (double)ts.tv_nsec;
}

/* Says the last lines of `text` (what a command wrote), escaped, as message `id` (which
 * heads them with the stream they came from); nothing when it wrote nothing. */
static void say_tail(int id, int side, const char *text, size_t len)
{
    if (!text || len == 0)
        return;
    size_t start = len, lines = 0;
    while (start > 0 && lines < 11)
        lines += text[--start] == '\n';
    if (text[start] == '\n')
        start++;
    kd_strbuf tail = {0};
    kd_escape_controls(text + start, len - start, &tail);
    kd_say(id, side, KD_S(kd_sb_str(&tail)));
    kd_sb_free(&tail);
}

static void say_stderr_tail(const char *path, int side)
{
    size_t len = 0;
    char *text = kd_read_file(path, &len);
    say_tail(KD_MSG_APP_TAIL_STDERR, side, text, len);
    free(text);
}

/* One run of one side: what it runs, where, and with which collector. */
typedef struct run_request {
    const kd_app_command *cmd;
    const kd_app_side *side;
    int s;
    size_t run;
    const kd_app_options *o;
    const char *inject;
} run_request;

/* One run of side `r->s`. Returns KD_OK or a status after saying why. */
static int run_once(const run_request *r, kd_app_run *out)
{
    const kd_app_side *side = r->side;
    const kd_app_options *o = r->o;
    int s = r->s;
    size_t run = r->run;
    const char *tmp = kd_tmpdir();
    if (!tmp) {
        kd_say(KD_MSG_APP_NO_TMPDIR, s + 1, KD_I(s + 1), KD_S(strerror(errno)));
        return KD_FAIL_TOOL;
    }
    char *dir = kd_xasprintf("%s/app-v%d-run%zu", tmp, s + 1, run + 1);
    if (kd_mkdir_p(dir) != 0) {
        kd_say(KD_MSG_APP_NO_RUN_DIR, s + 1, KD_I(s + 1), KD_S(dir), KD_S(strerror(errno)));
        free(dir);
        return KD_FAIL_TOOL;
    }
    char *err_path = kd_path_join(dir, "stderr.txt");
    char **env = run_environment(r->inject, dir, o->range);
    int rc;
    const char *const *argv = (const char *const *)r->cmd->argv.items;
    posix_spawn_file_actions_t fa;
    posix_spawn_file_actions_init(&fa);
    posix_spawn_file_actions_addopen(&fa, STDIN_FILENO, "/dev/null", O_RDONLY, 0);
    posix_spawn_file_actions_addopen(&fa, STDOUT_FILENO, "/dev/null", O_WRONLY, 0);
    posix_spawn_file_actions_addopen(&fa, STDERR_FILENO, err_path, O_WRONLY | O_CREAT | O_TRUNC, 0600);
    if (side->dir)
        posix_spawn_file_actions_addchdir_np(&fa, side->dir);
    pid_t pid;
    double t0 = now_ns();
    int spawned = posix_spawnp(&pid, argv[0], &fa, NULL, (char *const *)argv, env);
    posix_spawn_file_actions_destroy(&fa);
    if (spawned != 0) {
        if (side->dir)
            kd_say(KD_MSG_APP_CANNOT_RUN_IN, s + 1, KD_I(s + 1), KD_S(argv[0]), KD_S(side->dir), KD_S(strerror(spawned)));
        else
            kd_say(KD_MSG_APP_CANNOT_RUN, s + 1, KD_I(s + 1), KD_S(argv[0]), KD_S(strerror(spawned)));
        rc = KD_FAIL_INPUT;
        goto done;
    }
    int status;
    while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
        ;
    out->wall_ns = now_ns() - t0;
    out->exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : 0;
    out->signal = WIFSIGNALED(status) ? WTERMSIG(status) : 0;
    kd_diag why = {0};
    if (out->exit_code || out->signal) {
        kd_say(out->signal ? KD_MSG_APP_RUN_KILLED : KD_MSG_APP_RUN_EXITED, s + 1, KD_I(s + 1),
               KD_I(out->signal ? out->signal : out->exit_code), KD_U(run + 1), KD_I(o->runs));
        say_stderr_tail(err_path, s + 1);
        rc = KD_FAIL_RUNTIME;
    } else if (kd_app_records_read_dir(dir, (kd_app_records_run){.side = s, .run = run}, &out->activity, &why) != 0) {
        kd_diag_say(&why);
        rc = KD_FAIL_RUNTIME;
    } else {
        rc = KD_OK;
    }
    kd_diag_free(&why);
done:
    kd_child_env_free(env);
    free(err_path);
    free(dir);
    return rc;
}

/* The argument vectors of both sides' commands, checked before anything runs. */
static int make_commands(const char *const inputs[2], const kd_app_options *o, const kd_app_comparison *c,
                         kd_app_command cmds[2])
{
    for (int s = 0; s < 2; s++) {
        if (c->sides[s].profile)
            continue;
        kd_strbuf why = {0};
        int made = kd_app_command_make(inputs[s], o->no_shell, &cmds[s], &why);
        if (made != 0)
            kd_say(KD_MSG_APP_SIDE_ERROR, s + 1, KD_I(s + 1), KD_S(kd_sb_str(&why)));
        kd_sb_free(&why);
        if (made != 0)
            return made == -2 ? KD_FAIL_USAGE : KD_FAIL_INPUT;
    }
    return KD_OK;
}

/* --at: each side's folder, a checkout of its revision or the current folder, and its
 * label, "REF (a1b2c3d): CMD" or "working tree: CMD". */
static int checkout_sides(const char *cmd, const kd_app_options *o, kd_app_comparison *c)
{
    for (int s = 0; s < 2; s++) {
        kd_app_side *side = &c->sides[s];
        kd_git_checkout checkout = {0};
        kd_diag why = {0};
        char *path = NULL;
        int rc = 0;
        if (o->at[s]) {
            const char *tmp = kd_tmpdir();
            if (!tmp) {
                kd_say(KD_MSG_APP_AT_NO_TMPDIR, s + 1, KD_I(s + 1), KD_S(o->at[s]), KD_S(strerror(errno)));
                rc = -3;
            } else {
                path = kd_xasprintf("%s/app-v%d-tree", tmp, s + 1);
                kd_trace("v%d: checking out %s", s + 1, o->at[s]);
                rc = kd_git_checkout_add(o->at[s], path, s, &checkout, &why);
            }
        }
        if (rc != 0 && rc != -3)
            kd_diag_say(&why);
        else if (rc == 0) {
            side->label = side->label_storage =
                kd_xasprintf("%s: %s", checkout.label ? checkout.label : "working tree", cmd);
            side->dir = checkout.dir;
            checkout.dir = NULL;
            side->ref = o->at[s];
            side->commit = checkout.commit;
            checkout.commit = NULL;
        }
        kd_git_checkout_free(&checkout);
        kd_diag_free(&why);
        free(path);
        if (rc != 0)
            return rc == -2 || rc == -3 ? KD_FAIL_TOOL : KD_FAIL_INPUT;
    }
    return KD_OK;
}

/* --prepare, once in side `s`'s folder. Its output is kept for the message when it fails. */
static int prepare_side(const kd_app_command *prepare, const kd_app_options *o, const kd_app_side *side, int s)
{
    kd_strbuf where = {0};
    if (side->dir)
        kd_sb_printf(&where, "in the checkout of %s", o->at[s]);
    else
        kd_sb_puts(&where, "in the current folder");
    kd_trace("v%d: --prepare %s", s + 1, kd_sb_str(&where));
    kd_spawn_result res;
    int rc = KD_OK;
    const char *program = prepare->argv.items[0];
    if (kd_spawn((const char *const *)prepare->argv.items, side->dir, 0, &res) != 0) {
        const char *error = strerror(errno);
        if (side->dir)
            kd_say(KD_MSG_APP_PREPARE_CANNOT_RUN_AT, s + 1, KD_I(s + 1), KD_S(program), KD_S(o->at[s]), KD_S(error));
        else
            kd_say(KD_MSG_APP_PREPARE_CANNOT_RUN_HERE, s + 1, KD_I(s + 1), KD_S(program), KD_S(error));
        rc = KD_FAIL_INPUT;
    } else {
        if (res.exit_code || res.signal) {
            int code = res.signal ? res.signal : res.exit_code;
            if (side->dir)
                kd_say(res.signal ? KD_MSG_APP_PREPARE_KILLED_AT : KD_MSG_APP_PREPARE_EXITED_AT, s + 1, KD_I(s + 1),
                       KD_S(o->prepare), KD_I(code), KD_S(o->at[s]));
            else
                kd_say(res.signal ? KD_MSG_APP_PREPARE_KILLED_HERE : KD_MSG_APP_PREPARE_EXITED_HERE, s + 1, KD_I(s + 1),
                       KD_S(o->prepare), KD_I(code));
            /* Build tools report errors on stderr, but some only on stdout. */
            if (res.err.len)
                say_tail(KD_MSG_APP_TAIL_STDERR, s + 1, kd_sb_str(&res.err), res.err.len);
            else
                say_tail(KD_MSG_APP_TAIL_STDOUT, s + 1, kd_sb_str(&res.out), res.out.len);
            rc = KD_FAIL_BUILD;
        }
        kd_spawn_result_free(&res);
    }
    kd_sb_free(&where);
    return rc;
}

/* What comes before the runs: the commands, with --at the checkouts, then --prepare. */
static int set_up_sides(const char *const inputs[2], const kd_app_options *o, kd_app_comparison *c,
                        kd_app_command cmds[2])
{
    int rc = make_commands(inputs, o, c, cmds);
    kd_app_command prepare = {0};
    if (rc == KD_OK && o->prepare) {
        kd_strbuf why = {0};
        int made = kd_app_command_make(o->prepare, o->no_shell, &prepare, &why);
        if (made != 0) {
            kd_say(KD_MSG_APP_PREPARE_BAD, KD_DIAG_NO_SIDE, KD_S(kd_sb_str(&why)));
            rc = made == -2 ? KD_FAIL_USAGE : KD_FAIL_INPUT;
        }
        kd_sb_free(&why);
    }
    if (rc == KD_OK && o->at[0])
        rc = checkout_sides(inputs[0], o, c);
    for (int s = 0; rc == KD_OK && o->prepare && s < 2; s++)
        rc = prepare_side(&prepare, o, &c->sides[s], s);
    kd_app_command_free(&prepare);
    return rc;
}

/* Whether a side that is not a profile must be refused, never run, after saying why. A file
 * named as a profile (app/sqlite.h kd_app_names_profile) that exists but is not one is
 * refused (`./evil.sqlite`, a FIFO); so is one that does not exist or cannot be read, when
 * the argument is one word: else a typo in `kerndiff app a.sqlite b.sqlite` would run
 * "a.sqlite" through the shell (a program of that name on PATH, or "not found", said as a
 * command that failed, exit 5). A command line whose last word has the suffix (`python
 * dump.py out.db`) has blanks, and still runs; with --at the argument is the command of both
 * checkouts, where a relative path means another file than here, so only an existing file is
 * refused. */
static bool refuse_named_profile(const char *input, int s, bool at)
{
    if (!kd_app_names_profile(input))
        return false;
    struct stat st;
    int found = stat(input, &st), err = errno;
    if (found == 0) {
        if (!S_ISREG(st.st_mode))
            kd_say(KD_MSG_APP_NOT_A_PROFILE, s + 1, KD_I(s + 1), KD_S(input), KD_S(kd_read_error(ENOTSUP)));
        else if (access(input, R_OK) != 0)
            kd_say(KD_MSG_APP_PROFILE_UNREADABLE, s + 1, KD_I(s + 1), KD_S(input), KD_S(strerror(errno)));
        else
            kd_say(KD_MSG_APP_NOT_A_PROFILE, s + 1, KD_I(s + 1), KD_S(input), KD_S("not an SQLite database"));
        return true;
    }
    if (at || strpbrk(input, " \t\n"))
        return false;
    kd_say(KD_MSG_APP_PROFILE_UNREADABLE, s + 1, KD_I(s + 1), KD_S(input), KD_S(strerror(err)));
    return true;
}

int kd_app_collect(const char *const inputs[2], const kd_app_options *o, double fail_if_slower_pct,
                   kd_app_comparison *c)
{
    memset(c, 0, sizeof *c);
    c->range = o->range;
    c->fail_if_slower_pct = fail_if_slower_pct;
    char *inject = NULL;
    bool refused = false;
    for (int s = 0; s < 2; s++) {
        kd_app_side *side = &c->sides[s];
        side->label = inputs[s];
        side->profile = !o->at[0] && kd_app_is_sqlite(inputs[s]);
        /* both sides checked before anything is read or run, so that both are said (with
         * --at, one command: said once) */
        if (!side->profile && !(o->at[0] && s == 1) && refuse_named_profile(inputs[s], s, o->at[0] != NULL))
            refused = true;
    }
    if (refused)
        return KD_FAIL_INPUT;
    for (int s = 0; s < 2; s++) {
        kd_app_side *side = &c->sides[s];
        side->runs = kd_xcalloc(side->profile ? 1 : (size_t)o->runs, sizeof *side->runs);
        if (side->profile) {
            kd_diag why = {0};
            side->nruns = 1;
            if (kd_app_sqlite_read(inputs[s], o->range, s, &side->runs[0].activity, &why) != 0) {
                kd_diag_say(&why);
                kd_diag_free(&why);
                return KD_FAIL_INPUT;
            }
        } else if (!inject) {
            const char *env = kd_env_nonempty(KD_ENV_INJECT_LIBRARY);
            inject = env ? kd_xstrdup(env) : kd_harness_path("libkerndiff-inject.so");
            if (!inject) {
                kd_say0(KD_MSG_APP_NO_INJECT_LIBRARY, KD_DIAG_NO_SIDE);
                return KD_FAIL_TOOL;
            }
        }
    }
    kd_app_command cmds[2] = {0};
    int rc = set_up_sides(inputs, o, c, cmds);
    /* Alternating, and the order swapped every run, so that a slow drift of the machine
     * (clocks, another user) falls on both sides alike. */
    for (int run = 0; rc == KD_OK && run < o->runs; run++)
        for (int k = 0; rc == KD_OK && k < 2; k++) {
            int s = run % 2 ? 1 - k : k;
            kd_app_side *side = &c->sides[s];
            if (side->profile)
                continue;
            run_request req = {.cmd = &cmds[s], .side = side, .s = s, .run = (size_t)run, .o = o, .inject = inject};
            rc = run_once(&req, &side->runs[run]);
            side->nruns = (size_t)run + 1;
        }
    kd_app_command_free(&cmds[0]);
    kd_app_command_free(&cmds[1]);
    free(inject);
    if (rc == KD_OK)
        kd_app_diff(c, o->steps);
    return rc;
}
