#include "cli/outputs.h"

#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>

#include "cli/exit_codes.h"
#include "git/run.h"
#include "util/fs.h"
#include "util/text.h"
#include "util/xalloc.h"

/* Sources and kernels by extension: what kerndiff reads, and what a C/C++/Python project keeps. */
static const char *const source_extensions[] = {".cu", ".cuh", ".py", ".ptx", ".cubin", ".h", ".hpp", ".hh", ".hxx",
                                                ".c", ".cc", ".cpp", ".cxx", NULL};

static const char *source_extension(const char *path)
{
    const char *base = strrchr(path, '/');
    const char *dot = strrchr(base ? base + 1 : path, '.');
    if (!dot)
        return NULL;
    for (const char *const *e = source_extensions; *e; e++)
        if (strcasecmp(dot, *e) == 0)
            return *e;
    return NULL;
}

bool kd_outputs_source_name(const char *path)
{
    return source_extension(path) != NULL;
}

typedef struct target {
    const char *option; /* "--json" */
    const char *path;
    const char *extension; /* the hint when the name is a source's: ".json" */
    char *owned;        /* path when made here (--ncu-report DIR/v1.ncu-rep) */
} target;

typedef struct input {
    const char *role;   /* "v1", "the file of git mode" */
    const char *path;
} input;

/* The path with its folder resolved (links, "..", "."): the file itself when it exists,
 * else its folder's real path and its name; the text as given when the folder is missing. */
static char *canonical(const char *path)
{
    char *real = realpath(path, NULL);
    if (real)
        return real;
    char *dir = kd_dirname(path), *base = kd_basename(path);
    char *real_dir = realpath(dir, NULL);
    char *out = real_dir ? kd_path_join(real_dir, base) : kd_xstrdup(path);
    free(dir);
    free(base);
    free(real_dir);
    return out;
}

/* One file by device and inode when both exist (hard links, bind mounts), else by real path. */
static bool same_file(const char *a, const char *b)
{
    struct stat sa, sb;
    if (stat(a, &sa) == 0 && stat(b, &sb) == 0)
        return sa.st_dev == sb.st_dev && sa.st_ino == sb.st_ino;
    char *ca = canonical(a), *cb = canonical(b);
    bool same = strcmp(ca, cb) == 0;
    free(ca);
    free(cb);
    return same;
}

/* Whether git tracks the file: `git ls-files --error-unmatch` in its folder, with the
 * repository's fsmonitor and hooks off (they are commands the repository chooses) and the
 * name read literally (no pathspec magic). No git or no repository: not tracked. */
static bool git_tracked(const char *path)
{
    char *dir = kd_dirname(path), *base = kd_basename(path);
    const char *argv[] = {"git", "--literal-pathspecs", "-c", "core.fsmonitor=false", "-c", "core.hooksPath=/dev/null",
                          "-C", dir, "ls-files", "--error-unmatch", "--", base, NULL};
    kd_spawn_result res;
    kd_diag why = {0};
    int ran = kd_git_run(argv, &res, &why);
    bool tracked = ran == 0 && res.exit_code == 0;
    if (ran == 0)
        kd_spawn_result_free(&res);
    kd_diag_free(&why);
    free(dir);
    free(base);
    return tracked;
}

__attribute__((format(printf, 1, 2))) static int refuse(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    fprintf(stderr, "kerndiff: ");
    vfprintf(stderr, fmt, ap);
    fprintf(stderr, "\n");
    va_end(ap);
    return KD_EXIT_USAGE;
}

/* One output against the inputs and the rules; 0 or KD_EXIT_USAGE. */
static int check_target(const target *t, const input *inputs, size_t ninputs, bool force)
{
    if (force)
        return 0;
    kd_strbuf scratch = {0};
    const char *shown = kd_text_safe(t->path, &scratch);
    int rc = 0;
    const char *ext = source_extension(t->path);
    for (size_t i = 0; rc == 0 && i < ninputs; i++)
        if (same_file(t->path, inputs[i].path))
            rc = refuse("%s would write over '%s', which is %s: name another file for the report, or add --force "
                        "to overwrite it", t->option, shown, inputs[i].role);
    struct stat st;
    if (rc == 0 && ext)
        rc = refuse("%s would write a report to '%s', whose extension (%s) is a source file's: name the report "
                    "e.g. report%s, or add --force", t->option, shown, ext, t->extension);
    else if (rc == 0 && stat(t->path, &st) == 0 && S_ISREG(st.st_mode) && git_tracked(t->path))
        rc = refuse("%s would write over '%s', which git tracks: name another file for the report, or add --force "
                    "to overwrite it", t->option, shown);
    kd_sb_free(&scratch);
    return rc;
}

size_t kd_outputs_requests(const kd_options *opts, kd_format_request *out, size_t max)
{
    /* Each format option's FILE, by its slot in report/formats.c's table. */
    const kd_format_option *o;
    size_t n = 0;
    for (size_t i = 0; (o = kd_format_option_at(i)) != NULL && n < max; i++)
        out[n++] = (kd_format_request){o->name, opts->output_path[i]};
    return n;
}

int kd_outputs_check(const kd_options *opts)
{
    if (opts->command != KD_CMD_DIFF && opts->command != KD_CMD_COMPARE && opts->command != KD_CMD_APP &&
        opts->command != KD_CMD_CAPTURE)
        return 0;
    target targets[KD_OUTPUTS_MAX + 3];
    size_t n = 0;
    bool capture = opts->command == KD_CMD_CAPTURE;
    if (capture) /* the capture file: like every output, never over an input or a source */
        targets[n++] = (target){"-o", opts->capture.out, ".kdcap", NULL};
    kd_format_request given[KD_OUTPUTS_MAX];
    size_t ngiven = kd_outputs_requests(opts, given, KD_OUTPUTS_MAX);
    for (size_t i = 0; i < ngiven; i++)
        if (given[i].path && strcmp(given[i].path, "-") != 0)
            targets[n++] = (target){given[i].option, given[i].path, kd_format_option_at(i)->extension, NULL};
    const char *report_dir = opts->diff.counters.report_dir;
    if (report_dir && opts->command == KD_CMD_DIFF)
        for (int side = 1; side <= 2; side++) {
            char name[16];
            snprintf(name, sizeof name, "v%d.ncu-rep", side);
            char *path = kd_path_join(report_dir, name);
            targets[n++] = (target){"--ncu-report", path, ".ncu-rep", path};
        }
    bool app = opts->command == KD_CMD_APP, compare = opts->command == KD_CMD_COMPARE;
    const input inputs[] = {
        {app ? "v1's command" : compare ? "the first saved run" : "the v1 input", opts->diff.files[0]},
        {app ? "v2's command" : compare ? "the second saved run" : "the v2 input", opts->diff.files[1]},
        {"the file of git mode", opts->diff.git_file},
        {"the capture --launch replays", opts->diff.capture},
        {"the program captured", capture && opts->capture.argv ? opts->capture.argv[0] : NULL},
    };
    input present[5];
    size_t ninputs = 0;
    for (size_t i = 0; i < 5; i++)
        if (inputs[i].path)
            present[ninputs++] = inputs[i];
    int rc = 0;
    for (size_t i = 0; rc == 0 && i < n; i++) {
        /* Two outputs in one file: one of them would be lost whatever --force says. */
        for (size_t j = 0; rc == 0 && j < i; j++)
            if (same_file(targets[i].path, targets[j].path)) {
                kd_strbuf scratch = {0};
                rc = refuse("%s and %s both write '%s': give each its own file", targets[j].option, targets[i].option,
                            kd_text_safe(targets[i].path, &scratch));
                kd_sb_free(&scratch);
            }
        if (rc == 0)
            rc = check_target(&targets[i], present, ninputs, opts->force);
    }
    for (size_t i = 0; i < n; i++)
        free(targets[i].owned);
    return rc;
}
