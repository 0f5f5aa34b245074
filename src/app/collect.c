#include "app/collect.h"

#include <errno.h>
#include <fcntl.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "app/command.h"
#include "app/diff.h"
#include "app/records.h"
#include "app/sqlite.h"
#include "util/outcome.h"
#include "git/worktree.h"
#include "util/fs.h"
#include "util/spawn.h"
#include "util/strlist.h"
#include "util/text.h"
#include "util/tmpdir.h"
#include "util/trace.h"
#include "util/xalloc.h"
#include "wire/locate.h"

extern char **environ;

void kd_app_options_default(kd_app_options *o)
{
    *o = (kd_app_options){.runs = 3, .top = 20};
}

/* The environment of a collected run: ours, with the collector's variables set. */
static char **run_environment(const char *inject, const char *dir, const char *range)
{
    static const char *const ours[] = {"CUDA_INJECTION64_PATH=", "KERNDIFF_APP_RECORDS=", "KERNDIFF_APP_RANGE=",
                                       "NVTX_INJECTION64_PATH="};
    size_t n = 0;
    while (environ[n])
        n++;
    char **env = kd_xcalloc(n + 5, sizeof *env);
    size_t k = 0;
    for (size_t i = 0; i < n; i++) {
        bool replaced = false;
        for (size_t j = 0; j < 4; j++)
            replaced |= strncmp(environ[i], ours[j], strlen(ours[j])) == 0;
        if (!replaced)
            env[k++] = kd_xstrdup(environ[i]);
    }
    env[k++] = kd_xasprintf("CUDA_INJECTION64_PATH=%s", inject);
    env[k++] = kd_xasprintf("KERNDIFF_APP_RECORDS=%s", dir);
    /* The collector is also NVTX's injection, to hand the range markers to CUPTI. */
    if (range) {
        env[k++] = kd_xasprintf("KERNDIFF_APP_RANGE=%s", range);
        env[k++] = kd_xasprintf("NVTX_INJECTION64_PATH=%s", inject);
    }
    return env;
}

static void free_environment(char **env)
{
    for (size_t i = 0; env[i]; i++)
        free(env[i]);
    free(env);
}

static double now_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec * 1e9 + (double)ts.tv_nsec;
}

/* The last lines of `text` (what a command wrote), escaped, indented, after `heading`. */
static void text_tail(const char *text, size_t len, const char *heading, kd_strbuf *out)
{
    if (!text || len == 0)
        return;
    size_t start = len, lines = 0;
    while (start > 0 && lines < 11)
        lines += text[--start] == '\n';
    if (text[start] == '\n')
        start++;
    kd_sb_printf(out, "\n  %s:\n", heading);
    kd_escape_controls(text + start, len - start, out);
}

static void stderr_tail(const char *path, kd_strbuf *out)
{
    size_t len = 0;
    char *text = kd_read_file(path, &len);
    text_tail(text, len, "its last lines on stderr", out);
    free(text);
}

/* One run of side `s`. Returns KD_OK or a status after printing why. */
static int run_once(const kd_app_command *cmd, const kd_app_side *side, int s, size_t run, const kd_app_options *o,
                    const char *inject, kd_app_run *out)
{
    const char *tmp = kd_tmpdir();
    if (!tmp) {
        kd_text_fprintf(stderr, "kerndiff: v%d: cannot prepare a run: no private temporary folder: %s\n", s + 1, strerror(errno));
        return KD_FAIL_TOOL;
    }
    char *dir = kd_xasprintf("%s/app-v%d-run%zu", tmp, s + 1, run + 1);
    if (kd_mkdir_p(dir) != 0) {
        kd_text_fprintf(stderr, "kerndiff: v%d: cannot prepare a run: cannot make %s: %s\n", s + 1, dir, strerror(errno));
        free(dir);
        return KD_FAIL_TOOL;
    }
    char *err_path = kd_path_join(dir, "stderr.txt");
    char **env = run_environment(inject, dir, o->range);
    int rc;
    const char *const *argv = (const char *const *)cmd->argv.items;
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
        kd_text_fprintf(stderr, "kerndiff: v%d: cannot run '%s'%s%s: %s\n", s + 1, argv[0], side->dir ? " in " : "",
                        side->dir ? side->dir : "", strerror(spawned));
        rc = KD_FAIL_INPUT;
        goto done;
    }
    int status;
    while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
        ;
    out->wall_ns = now_ns() - t0;
    out->exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : 0;
    out->signal = WIFSIGNALED(status) ? WTERMSIG(status) : 0;
    kd_strbuf why = {0};
    if (out->exit_code || out->signal) {
        kd_sb_printf(&why, "v%d: the command %s %d in run %zu of %d; nothing compared", s + 1,
                     out->signal ? "was killed by signal" : "exited with status",
                     out->signal ? out->signal : out->exit_code, run + 1, o->runs);
        stderr_tail(err_path, &why);
        rc = KD_FAIL_RUNTIME;
    } else if (kd_app_records_read_dir(dir, &out->activity, &why) != 0) {
        kd_strbuf msg = {0};
        kd_sb_printf(&msg, "v%d: run %zu: the collected records are unreadable: %s", s + 1, run + 1, kd_sb_str(&why));
        kd_sb_free(&why);
        why = msg;
        rc = KD_FAIL_RUNTIME;
    } else {
        rc = KD_OK;
    }
    if (rc != KD_OK)
        kd_text_fprintf(stderr, "kerndiff: %s\n", kd_sb_str(&why));
    kd_sb_free(&why);
done:
    free_environment(env);
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
            kd_text_fprintf(stderr, "kerndiff: v%d: %s\n", s + 1, kd_sb_str(&why));
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
        kd_strbuf why = {0};
        char *path = NULL;
        int rc = 0;
        if (o->at[s]) {
            const char *tmp = kd_tmpdir();
            if (!tmp) {
                kd_sb_printf(&why, "cannot make a private folder for the checkout: %s", strerror(errno));
                rc = -2;
            } else {
                path = kd_xasprintf("%s/app-v%d-tree", tmp, s + 1);
                kd_trace("v%d: checking out %s", s + 1, o->at[s]);
                rc = kd_git_checkout_add(o->at[s], path, &checkout, &why);
            }
        }
        if (rc != 0)
            kd_text_fprintf(stderr, "kerndiff: v%d: --at %s: %s\n", s + 1, o->at[s] ? o->at[s] : "", kd_sb_str(&why));
        else {
            side->label = side->label_storage =
                kd_xasprintf("%s: %s", checkout.label ? checkout.label : "working tree", cmd);
            side->dir = checkout.dir;
            checkout.dir = NULL;
            side->ref = o->at[s];
            side->commit = checkout.commit;
            checkout.commit = NULL;
        }
        kd_git_checkout_free(&checkout);
        kd_sb_free(&why);
        free(path);
        if (rc != 0)
            return rc == -2 ? KD_FAIL_TOOL : KD_FAIL_INPUT;
    }
    return KD_OK;
}

/* --prepare, once in side `s`'s folder. Its output is kept for the message when it fails. */
static int prepare_side(const kd_app_command *prepare, const kd_app_options *o, const kd_app_side *side, int s)
{
    kd_strbuf where = {0}, why = {0};
    if (side->dir)
        kd_sb_printf(&where, "in the checkout of %s", o->at[s]);
    else
        kd_sb_puts(&where, "in the current folder");
    kd_trace("v%d: --prepare %s", s + 1, kd_sb_str(&where));
    kd_spawn_result res;
    int rc = KD_OK;
    if (kd_spawn((const char *const *)prepare->argv.items, side->dir, 0, &res) != 0) {
        kd_sb_printf(&why, "v%d: --prepare: cannot run '%s' %s: %s", s + 1, prepare->argv.items[0], kd_sb_str(&where),
                     strerror(errno));
        rc = KD_FAIL_INPUT;
    } else {
        if (res.exit_code || res.signal) {
            kd_sb_printf(&why, "v%d: --prepare '%s' %s %d %s; nothing compared", s + 1, o->prepare,
                         res.signal ? "was killed by signal" : "exited with status", res.signal ? res.signal : res.exit_code,
                         kd_sb_str(&where));
            /* Build tools report errors on stderr, but some only on stdout. */
            const kd_strbuf *shown = res.err.len ? &res.err : &res.out;
            text_tail(kd_sb_str(shown), shown->len, res.err.len ? "its last lines on stderr" : "its last lines on stdout", &why);
            rc = KD_FAIL_BUILD;
        }
        kd_spawn_result_free(&res);
    }
    if (rc != KD_OK)
        kd_text_fprintf(stderr, "kerndiff: %s\n", kd_sb_str(&why));
    kd_sb_free(&why);
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
            kd_text_fprintf(stderr, "kerndiff: --prepare: %s\n", kd_sb_str(&why));
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

int kd_app_collect(const char *const inputs[2], const kd_app_options *o, double fail_if_slower_pct,
                   kd_app_comparison *c)
{
    memset(c, 0, sizeof *c);
    c->range = o->range;
    c->fail_if_slower_pct = fail_if_slower_pct;
    char *inject = NULL;
    for (int s = 0; s < 2; s++) {
        kd_app_side *side = &c->sides[s];
        side->label = inputs[s];
        side->profile = !o->at[0] && kd_app_is_sqlite(inputs[s]);
        side->runs = kd_xcalloc(side->profile ? 1 : (size_t)o->runs, sizeof *side->runs);
        if (side->profile) {
            kd_strbuf why = {0};
            side->nruns = 1;
            if (kd_app_sqlite_read(inputs[s], o->range, &side->runs[0].activity, &why) != 0) {
                kd_text_fprintf(stderr, "kerndiff: v%d: %s\n", s + 1, kd_sb_str(&why));
                kd_sb_free(&why);
                return KD_FAIL_INPUT;
            }
        } else if (!inject) {
            const char *env = getenv("KERNDIFF_INJECT_LIBRARY");
            inject = env && *env ? kd_xstrdup(env) : kd_harness_path("libkerndiff-inject.so");
            if (!inject) {
                kd_text_fprintf(stderr, "kerndiff: libkerndiff-inject.so not found beside kerndiff or in "
                                        "../libexec/kerndiff (build it with `make`, or set KERNDIFF_INJECT_LIBRARY)\n");
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
            rc = run_once(&cmds[s], side, s, (size_t)run, o, inject, &side->runs[run]);
            side->nruns = (size_t)run + 1;
        }
    kd_app_command_free(&cmds[0]);
    kd_app_command_free(&cmds[1]);
    free(inject);
    if (rc == KD_OK)
        kd_app_diff(c, o->steps);
    return rc;
}
