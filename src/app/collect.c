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

#include "app/diff.h"
#include "app/records.h"
#include "app/sqlite.h"
#include "cli/exit_codes.h"
#include "util/fs.h"
#include "util/strlist.h"
#include "util/text.h"
#include "util/tmpdir.h"
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
    char **env = calloc(n + 5, sizeof *env);
    if (!env)
        return NULL;
    size_t k = 0;
    for (size_t i = 0; i < n; i++) {
        bool replaced = false;
        for (size_t j = 0; j < 4; j++)
            replaced |= strncmp(environ[i], ours[j], strlen(ours[j])) == 0;
        if (!replaced)
            env[k++] = strdup(environ[i]);
    }
    if (asprintf(&env[k++], "CUDA_INJECTION64_PATH=%s", inject) < 0 ||
        asprintf(&env[k++], "KERNDIFF_APP_RECORDS=%s", dir) < 0)
        env[k - 1] = NULL;
    /* The collector is also NVTX's injection, to hand the range markers to CUPTI. */
    if (range && (asprintf(&env[k++], "KERNDIFF_APP_RANGE=%s", range) < 0 ||
                  asprintf(&env[k++], "NVTX_INJECTION64_PATH=%s", inject) < 0))
        env[k - 1] = NULL;
    return env;
}

static void free_environment(char **env)
{
    for (size_t i = 0; env && env[i]; i++)
        free(env[i]);
    free(env);
}

/* The command as an argument vector: the shell's, or the words of `cmd`. */
static int command_argv(const char *cmd, bool no_shell, char **storage, kd_strlist *argv)
{
    if (!no_shell) {
        kd_strlist_push(argv, "/bin/sh");
        kd_strlist_push(argv, "-c");
        kd_strlist_push(argv, cmd);
        return 0;
    }
    *storage = strdup(cmd);
    if (!*storage)
        return -1;
    char *save = NULL;
    for (char *w = strtok_r(*storage, " \t\n", &save); w; w = strtok_r(NULL, " \t\n", &save))
        kd_strlist_push(argv, w);
    return argv->count ? 0 : -1;
}

static double now_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec * 1e9 + (double)ts.tv_nsec;
}

/* The last lines of what the command wrote on stderr, escaped, indented. */
static void stderr_tail(const char *path, kd_strbuf *out)
{
    size_t len = 0;
    char *text = kd_read_file(path, &len);
    if (!text || len == 0) {
        free(text);
        return;
    }
    size_t start = len, lines = 0;
    while (start > 0 && lines < 11)
        lines += text[--start] == '\n';
    if (text[start] == '\n')
        start++;
    kd_sb_puts(out, "\n  its last lines on stderr:\n");
    kd_escape_controls(text + start, len - start, out);
    free(text);
}

/* One run of side `s`. Returns KD_EXIT_OK or a status after printing why. */
static int run_once(const char *cmd, int s, size_t run, const kd_app_options *o, const char *inject, kd_app_run *out)
{
    const char *tmp = kd_tmpdir();
    char *dir = NULL, *err_path = NULL, *words = NULL;
    kd_strlist argv = {0};
    char **env = NULL;
    int rc = KD_EXIT_TOOL;
    if (!tmp || asprintf(&dir, "%s/app-v%d-run%zu", tmp, s + 1, run + 1) < 0 || kd_mkdir_p(dir) != 0 ||
        !(err_path = kd_path_join(dir, "stderr.txt")) || !(env = run_environment(inject, dir, o->range))) {
        fprintf(stderr, "kerndiff: v%d: cannot prepare a run: %s\n", s + 1, strerror(errno));
        goto done;
    }
    if (command_argv(cmd, o->no_shell, &words, &argv) != 0) {
        fprintf(stderr, "kerndiff: v%d: the command is empty\n", s + 1);
        rc = KD_EXIT_USAGE;
        goto done;
    }
    kd_strlist_push(&argv, NULL);
    posix_spawn_file_actions_t fa;
    posix_spawn_file_actions_init(&fa);
    posix_spawn_file_actions_addopen(&fa, STDIN_FILENO, "/dev/null", O_RDONLY, 0);
    posix_spawn_file_actions_addopen(&fa, STDOUT_FILENO, "/dev/null", O_WRONLY, 0);
    posix_spawn_file_actions_addopen(&fa, STDERR_FILENO, err_path, O_WRONLY | O_CREAT | O_TRUNC, 0600);
    pid_t pid;
    double t0 = now_ns();
    int spawned = posix_spawnp(&pid, argv.items[0], &fa, NULL, (char *const *)argv.items, env);
    posix_spawn_file_actions_destroy(&fa);
    if (spawned != 0) {
        fprintf(stderr, "kerndiff: v%d: cannot run '%s': %s\n", s + 1, argv.items[0], strerror(spawned));
        rc = KD_EXIT_INPUT;
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
        rc = KD_EXIT_RUNTIME;
    } else if (kd_app_records_read_dir(dir, &out->activity, &why) != 0) {
        kd_strbuf msg = {0};
        kd_sb_printf(&msg, "v%d: run %zu: the collected records are unreadable: %s", s + 1, run + 1, kd_sb_str(&why));
        kd_sb_free(&why);
        why = msg;
        rc = KD_EXIT_RUNTIME;
    } else {
        rc = KD_EXIT_OK;
    }
    if (rc != KD_EXIT_OK)
        fprintf(stderr, "kerndiff: %s\n", kd_sb_str(&why));
    kd_sb_free(&why);
done:
    free_environment(env);
    free(argv.items);
    free(words);
    free(err_path);
    free(dir);
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
        side->profile = kd_app_is_sqlite(inputs[s]);
        side->runs = calloc(side->profile ? 1 : (size_t)o->runs, sizeof *side->runs);
        if (!side->runs) {
            fprintf(stderr, "kerndiff: out of memory\n");
            return KD_EXIT_TOOL;
        }
        if (side->profile) {
            kd_strbuf why = {0};
            side->nruns = 1;
            if (kd_app_sqlite_read(inputs[s], &side->runs[0].activity, &why) != 0) {
                fprintf(stderr, "kerndiff: v%d: %s\n", s + 1, kd_sb_str(&why));
                kd_sb_free(&why);
                return KD_EXIT_INPUT;
            }
        } else if (!inject) {
            const char *env = getenv("KERNDIFF_INJECT_LIBRARY");
            inject = env && *env ? strdup(env) : kd_harness_path("libkerndiff-inject.so");
            if (!inject) {
                fprintf(stderr, "kerndiff: libkerndiff-inject.so not found beside kerndiff or in "
                                "../libexec/kerndiff (build it with `make`, or set KERNDIFF_INJECT_LIBRARY)\n");
                return KD_EXIT_TOOL;
            }
        }
    }
    if (o->range && (c->sides[0].profile || c->sides[1].profile)) {
        free(inject);
        fprintf(stderr, "kerndiff: --range applies to collected runs only; a profile is read whole "
                        "(export the range with nsys instead)\n");
        return KD_EXIT_USAGE;
    }
    /* Alternating, and the order swapped every run, so that a slow drift of the machine
     * (clocks, another user) falls on both sides alike. */
    int rc = KD_EXIT_OK;
    for (int run = 0; rc == KD_EXIT_OK && run < o->runs; run++)
        for (int k = 0; rc == KD_EXIT_OK && k < 2; k++) {
            int s = run % 2 ? 1 - k : k;
            kd_app_side *side = &c->sides[s];
            if (side->profile)
                continue;
            rc = run_once(inputs[s], s, (size_t)run, o, inject, &side->runs[run]);
            side->nruns = (size_t)run + 1;
        }
    free(inject);
    if (rc == KD_EXIT_OK && kd_app_diff(c, o->steps) != 0) {
        fprintf(stderr, "kerndiff: out of memory\n");
        rc = KD_EXIT_TOOL;
    }
    return rc;
}
