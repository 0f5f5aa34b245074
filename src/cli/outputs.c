#include "cli/outputs.h"

#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "app/command.h"
#include "cli/command.h"
#include "cli/exit_codes.h"
#include "cli/option_parse.h"
#include "git/run.h"
#include "rank/run.h"
#include "rank/slurm.h"
#include "source/kinds.h"
#include "util/fs.h"
#include "util/output.h"
#include "util/text.h"
#include "util/xalloc.h"

bool kd_outputs_source_name(const char *path)
{
    return kd_source_guarded_suffix(path) != NULL;
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
    char *owned;        /* path when made here (a candidate found in a folder) */
} input;

/* A folder the command reads as a whole (--merge DIR): no output goes inside it. */
typedef struct folder {
    const char *role;   /* "the folder --merge reads (the shards' results, slurm.json, job.sh)" */
    char *path;         /* owned */
} folder;

/* Everything one check looks at, grown as it is found. */
typedef struct check_set {
    target *targets;
    size_t ntargets;
    input *inputs;
    size_t ninputs;
    folder *folders;
    size_t nfolders;
} check_set;

static void add_target(check_set *c, target t)
{
    c->targets = kd_xreallocarray(c->targets, c->ntargets + 1, sizeof *c->targets);
    c->targets[c->ntargets++] = t;
}

static void add_input(check_set *c, const char *role, const char *path, char *owned)
{
    if (!path)
        path = owned;
    if (!path || !*path) {
        free(owned);
        return;
    }
    c->inputs = kd_xreallocarray(c->inputs, c->ninputs + 1, sizeof *c->inputs);
    c->inputs[c->ninputs++] = (input){role, path, owned};
}

static void add_folder(check_set *c, const char *role, const char *path)
{
    c->folders = kd_xreallocarray(c->folders, c->nfolders + 1, sizeof *c->folders);
    c->folders[c->nfolders++] = (folder){role, kd_xstrdup(path)};
}

static void check_set_free(check_set *c)
{
    for (size_t i = 0; i < c->ntargets; i++)
        free(c->targets[i].owned);
    for (size_t i = 0; i < c->ninputs; i++)
        free(c->inputs[i].owned);
    for (size_t i = 0; i < c->nfolders; i++)
        free(c->folders[i].path);
    free(c->targets);
    free(c->inputs);
    free(c->folders);
}

/* The path absolute with every folder of it that exists resolved (links, "..", "."), the
 * rest as given: a file that does not exist yet inside a folder that does not either
 * still resolves as far as it can. */
static char *canonical(const char *path)
{
    char *real = realpath(path, NULL);
    if (real)
        return real;
    char *abs = NULL;
    if (path[0] == '/') {
        abs = kd_xstrdup(path);
    } else {
        char *cwd = getcwd(NULL, 0);
        abs = cwd ? kd_path_join(cwd, path) : kd_xstrdup(path);
        free(cwd);
        if (abs[0] != '/')
            return abs; /* no folder to resolve against */
    }
    char *dir = kd_dirname(abs), *base = kd_basename(abs);
    char *out;
    if (!strcmp(dir, abs) || !*base) {
        out = abs;
        abs = NULL;
    } else {
        char *real_dir = canonical(dir);
        size_t n = strlen(real_dir);
        out = n && real_dir[n - 1] == '/' ? kd_xasprintf("%s%s", real_dir, base) : kd_path_join(real_dir, base);
        free(real_dir);
    }
    free(abs);
    free(dir);
    free(base);
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

/* Whether path is inside folder (at any depth), both resolved. */
static bool inside(const char *path, const char *dir)
{
    char *cp = canonical(path), *cd = canonical(dir);
    size_t n = strlen(cd);
    bool in = n && strncmp(cp, cd, n) == 0 && (cp[n] == '/' || (n == 1 && cd[0] == '/'));
    free(cp);
    free(cd);
    return in;
}

/* A program as the system runs it (posix_spawnp, execvp): a word without '/' looked up in
 * PATH (an empty entry: this folder). NULL when not found. */
static char *program_path(const char *word)
{
    if (!word || !*word)
        return NULL;
    if (strchr(word, '/'))
        return kd_xstrdup(word);
    const char *path = getenv("PATH");
    char *list = kd_xstrdup(path ? path : "/usr/local/bin:/usr/bin:/bin");
    char *found = NULL;
    for (char *p = list, *end; !found && p; p = end ? end + 1 : NULL) {
        end = strchr(p, ':');
        if (end)
            *end = '\0';
        char *candidate = kd_path_join(*p ? p : ".", word);
        struct stat st;
        if (stat(candidate, &st) == 0 && S_ISREG(st.st_mode) && access(candidate, X_OK) == 0)
            found = candidate;
        else
            free(candidate);
    }
    free(list);
    return found;
}

/* A command line's words as inputs: the program (through PATH and links: stat follows
 * them) and every word that names a file, or whose value after '=' does (--script=run.sh):
 * an interpreter's script, a file the program reads. */
static void add_command_words(check_set *c, const char *const *words, size_t n, const char *program_role,
                              const char *word_role)
{
    struct stat st;
    for (size_t i = 0; i < n; i++) {
        const char *w = words[i];
        if (i == 0)
            add_input(c, program_role, NULL, program_path(w));
        if (i > 0 && stat(w, &st) == 0)
            add_input(c, word_role, NULL, kd_xstrdup(w));
        const char *eq = strchr(w, '=');
        if (eq && eq[1] && stat(eq + 1, &st) == 0)
            add_input(c, word_role, NULL, kd_xstrdup(eq + 1));
    }
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

/* One output against the inputs, the folders read and the rules; 0 or KD_EXIT_USAGE. */
static int check_target(const target *t, const check_set *c, bool force)
{
    if (force)
        return 0;
    kd_strbuf scratch = {0}, folder_shown = {0};
    const char *shown = kd_text_safe(t->path, &scratch);
    int rc = 0;
    const char *ext = kd_source_guarded_suffix(t->path);
    for (size_t i = 0; rc == 0 && i < c->ninputs; i++)
        if (same_file(t->path, c->inputs[i].path))
            rc = refuse("%s would write over '%s', which is %s: name another file for the output, or add --force "
                        "to overwrite it", t->option, shown, c->inputs[i].role);
    for (size_t i = 0; rc == 0 && i < c->nfolders; i++)
        if (inside(t->path, c->folders[i].path))
            rc = refuse("%s would write '%s' inside '%s', %s: name a file outside that folder, or add --force",
                        t->option, shown, kd_text_safe(c->folders[i].path, &folder_shown), c->folders[i].role);
    struct stat st;
    if (rc == 0 && ext)
        rc = refuse("%s would write a report to '%s', whose extension (%s) is a source file's: name the report "
                    "e.g. report%s, or add --force", t->option, shown, ext, t->extension);
    else if (rc == 0 && stat(t->path, &st) == 0 && S_ISREG(st.st_mode) && git_tracked(t->path))
        rc = refuse("%s would write over '%s', which git tracks: name another file for the output, or add --force "
                    "to overwrite it", t->option, shown);
    kd_sb_free(&scratch);
    kd_sb_free(&folder_shown);
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

void kd_outputs_unwritten(const kd_options *opts)
{
    if (kd_formats_attempted())
        return;
    kd_format_request requests[KD_OUTPUTS_MAX];
    size_t n = kd_outputs_requests(opts, requests, KD_OUTPUTS_MAX);
    kd_formats_unwritten(requests, n);
}

/* A path of a Slurm rank's manifest as the tasks see it: relative ones from its folder. */
static char *from_cwd(const kd_slurm_manifest *m, const char *path)
{
    return m->cwd && *m->cwd && path[0] != '/' ? kd_path_join(m->cwd, path) : kd_xstrdup(path);
}

/* The baseline and the candidates of a rank (a folder's files too, as rank/run.c finds
 * them): its inputs. */
static void add_rank_inputs(check_set *c, const char *baseline, const char *const *operands, size_t n,
                            const kd_slurm_manifest *m)
{
    char *base = m ? from_cwd(m, baseline) : kd_xstrdup(baseline);
    add_input(c, "the baseline", NULL, base);
    char **paths = kd_xcalloc(n + 1, sizeof *paths);
    for (size_t i = 0; i < n; i++)
        paths[i] = m ? from_cwd(m, operands[i]) : kd_xstrdup(operands[i]);
    kd_strlist cands = {0};
    kd_rank_error e = {0};
    kd_rank_expand((const char *const *)paths, n, base, &cands, &e); /* a folder without any: said by the run */
    for (size_t i = 0; i < cands.count; i++)
        add_input(c, "a candidate", NULL, cands.items[i]);
    free(cands.items);
    free(e.detail);
    for (size_t i = 0; i < n; i++)
        free(paths[i]);
    free(paths);
}

/* kerndiff rank: the baseline and every candidate (a local rank, --shard, --slurm); the
 * folder of a Slurm rank, read by --merge and by --wait's merge, and the inputs its
 * manifest names (--merge, --only-shard). */
static void add_rank(check_set *c, const kd_options *opts)
{
    const kd_rank_cli_options *ro = &opts->rank;
    const kd_slurm_options *so = &ro->slurm;
    if (ro->baseline)
        add_rank_inputs(c, ro->baseline, ro->operands, ro->noperands, NULL);
    const char *dir = so->merge ? so->merge : so->sbatch ? so->dir : NULL;
    if (!dir)
        return;
    add_folder(c, so->merge ? "the folder --merge reads (the shards' results, slurm.json, job.sh)"
                            : "the folder of the Slurm job (its shards' results, slurm.json, job.sh)", dir);
    kd_slurm_manifest m;
    kd_slurm_error e = {0};
    if (kd_slurm_manifest_read(dir, &m, &e) != KD_OK) {
        kd_slurm_error_free(&e);
        return;
    }
    size_t at = kd_slurm_operands_at(&m.shard_command);
    if (at < m.shard_command.count)
        add_rank_inputs(c, m.shard_command.items[at], (const char *const *)m.shard_command.items + at + 1,
                        m.shard_command.count - at - 1, &m);
    kd_slurm_manifest_free(&m);
}

/* kerndiff app: each side's command or export, and (-N or not) the words of each command
 * and of --prepare that name a file, the program found through PATH. */
static void add_app(check_set *c, const kd_options *opts)
{
    const char *roles[][2] = {{"v1's command", "a file v1's command names"},
                              {"v2's command", "a file v2's command names"},
                              {"the --prepare command", "a file the --prepare command names"}};
    const char *commands[] = {opts->diff.files[0], opts->diff.files[1], opts->app.prepare};
    for (size_t k = 0; k < 3; k++) {
        if (!commands[k])
            continue;
        add_input(c, roles[k][0], commands[k], NULL);
        char *storage = NULL;
        kd_strlist words = {0};
        kd_strbuf err = {0};
        /* the shell's words as -N splits them: what sh would run, near enough to find its files */
        if (kd_app_split_words(commands[k], &storage, &words, &err) == 0)
            add_command_words(c, (const char *const *)words.items, words.count, roles[k][0], roles[k][1]);
        free(words.items);
        free(storage);
        kd_sb_free(&err);
    }
}

int kd_outputs_one_on_stdout(const kd_options *opts)
{
    const char *on_stdout = NULL;
    const kd_format_option *doc;
    for (size_t i = 0; (doc = kd_format_option_at(i)) != NULL; i++) {
        if (!opts->output_path[i] || strcmp(opts->output_path[i], "-") != 0)
            continue;
        if (on_stdout)
            return kd_usage_error("%s and %s both write to standard output (a bare %s or %s, or '-'): give one of "
                                  "them a FILE", on_stdout, doc->name, on_stdout, doc->name);
        on_stdout = doc->name;
    }
    return 0;
}

int kd_outputs_check(const kd_options *opts)
{
    /* From here on a write past `ulimit -f` fails (EFBIG) and is said, the report to stdout's
     * too, instead of SIGXFSZ ending kerndiff without a word (util/output.h). */
    kd_output_catch_xfsz();
    /* a command whose row writes (cli/command.h); one document on stdout at most is
       cli/options.c's check of every request */
    if (!opts->row || !(opts->row->flags & KD_CMDF_WRITES))
        return 0;
    kd_command cmd = opts->command;
    check_set c = {0};
    bool capture = cmd == KD_CMD_CAPTURE;
    if (capture) /* the capture file: like every output, never over an input or a source */
        add_target(&c, (target){"-o", opts->capture.out, ".kdcap", NULL});
    kd_format_request given[KD_OUTPUTS_MAX];
    size_t ngiven = kd_outputs_requests(opts, given, KD_OUTPUTS_MAX);
    for (size_t i = 0; i < ngiven; i++)
        if (given[i].path && strcmp(given[i].path, "-") != 0)
            add_target(&c, (target){given[i].option, given[i].path, kd_format_option_at(i)->extension, NULL});
    const char *report_dir = opts->diff.counters.report_dir;
    if (report_dir) /* (only the diff's row accepts the counters' options) */
        for (int side = 1; side <= 2; side++) {
            char name[16];
            snprintf(name, sizeof name, "v%d.ncu-rep", side);
            char *path = kd_path_join(report_dir, name);
            add_target(&c, (target){"--ncu-report", path, ".ncu-rep", path});
        }
    if (c.ntargets == 0) { /* nothing written but stdout: nothing to look up */
        check_set_free(&c);
        return 0;
    }
    if (cmd == KD_CMD_DIFF || cmd == KD_CMD_COMPARE) {
        bool compare = cmd == KD_CMD_COMPARE;
        add_input(&c, compare ? "the first saved run" : "the v1 input", opts->diff.files[0], NULL);
        add_input(&c, compare ? "the second saved run" : "the v2 input", opts->diff.files[1], NULL);
        add_input(&c, "the file of git mode", opts->diff.git_file, NULL);
        add_input(&c, "the capture --launch replays", opts->diff.capture, NULL);
    } else if (cmd == KD_CMD_APP) {
        add_app(&c, opts);
    } else if (cmd == KD_CMD_RANK) {
        add_rank(&c, opts);
    } else if (opts->row->flags & KD_CMDF_ARGV) {
        /* capture: the program (found through PATH, as it is run; its links followed) and
         * every word of its command line that names a file: `-o run.sh -- /bin/sh run.sh`
         * would replace the script the shell reads */
        add_command_words(&c, opts->operands, (size_t)opts->noperands, "the program captured",
                          "a file the captured command names");
    } else {
        /* a command of its own row: every operand is an input */
        for (int i = 0; i < opts->noperands; i++)
            add_input(&c, "an operand of the command", opts->operands[i], NULL);
    }
    int rc = 0;
    for (size_t i = 0; rc == 0 && i < c.ntargets; i++) {
        /* Two outputs in one file: one of them would be lost whatever --force says. */
        for (size_t j = 0; rc == 0 && j < i; j++)
            if (same_file(c.targets[i].path, c.targets[j].path)) {
                kd_strbuf scratch = {0};
                rc = refuse("%s and %s both write '%s': give each its own file", c.targets[j].option,
                            c.targets[i].option, kd_text_safe(c.targets[i].path, &scratch));
                kd_sb_free(&scratch);
            }
        if (rc == 0)
            rc = check_target(&c.targets[i], &c, opts->force);
    }
    check_set_free(&c);
    return rc;
}
