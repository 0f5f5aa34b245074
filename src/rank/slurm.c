/* A rank sharded over a Slurm job array (rank/slurm.h). */
#include "rank/slurm.h"

#include <errno.h>
#include <jansson.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "util/fs.h"
#include "util/spawn.h"
#include "util/strbuf.h"
#include "util/xalloc.h"

/* How long sbatch, squeue, sacct and scontrol may take to answer (a busy controller is slow,
 * a dead one never answers). */
#define SLURM_TOOL_TIMEOUT_MS 120000

void kd_slurm_error_free(kd_slurm_error *e)
{
    free(e->path);
    free(e->detail);
    free(e->output);
    *e = (kd_slurm_error){0};
}

static kd_outcome fail(kd_slurm_error *e, kd_outcome o, kd_slurm_error_kind kind, const char *path, const char *detail)
{
    e->kind = kind;
    e->err = errno;
    e->path = path ? kd_xstrdup(path) : NULL;
    e->detail = detail ? kd_xstrdup(detail) : NULL;
    return o;
}

/* ---- the words of SBATCH OPTIONS ------------------------------------------------------------- */

int kd_slurm_split_words(const char *s, kd_strlist *words, size_t *bad_at)
{
    kd_strlist got = {0};
    kd_strbuf w = {0};
    bool in_word = false;
    size_t i = 0;
    while (s[i]) {
        char c = s[i];
        if (c == ' ' || c == '\t' || c == '\n') {
            if (in_word)
                kd_strlist_push(&got, kd_sb_take(&w));
            in_word = false;
            i++;
            continue;
        }
        in_word = true;
        if (c == '\\') {
            if (!s[i + 1])
                goto bad;
            if (s[i + 1] != '\n') /* a backslash-newline joins lines */
                kd_sb_append(&w, s + i + 1, 1);
            i += 2;
        } else if (c == '\'') {
            const char *end = strchr(s + i + 1, '\'');
            if (!end)
                goto bad;
            kd_sb_append(&w, s + i + 1, (size_t)(end - (s + i + 1)));
            i = (size_t)(end - s) + 1;
        } else if (c == '"') {
            size_t j = i + 1;
            for (; s[j] && s[j] != '"'; j++) {
                if (s[j] == '\\' && s[j + 1] && strchr("\"\\$`\n", s[j + 1])) {
                    if (s[j + 1] != '\n')
                        kd_sb_append(&w, s + j + 1, 1);
                    j++;
                } else {
                    kd_sb_append(&w, s + j, 1);
                }
            }
            if (!s[j])
                goto bad;
            i = j + 1;
        } else {
            kd_sb_append(&w, &c, 1);
            i++;
        }
    }
    if (in_word)
        kd_strlist_push(&got, kd_sb_take(&w));
    for (size_t k = 0; k < got.count; k++)
        kd_strlist_push(words, got.items[k]);
    free(got.items);
    kd_sb_free(&w);
    return 0;
bad:
    if (bad_at)
        *bad_at = i;
    for (size_t k = 0; k < got.count; k++)
        free(got.items[k]);
    free(got.items);
    kd_sb_free(&w);
    return -1;
}

static bool has_prefix(const char *s, const char *p)
{
    return strncmp(s, p, strlen(p)) == 0;
}

bool kd_slurm_words_ask_gpus(const kd_strlist *words)
{
    for (size_t i = 0; i < words->count; i++) {
        const char *w = words->items[i];
        if (has_prefix(w, "--gres") || has_prefix(w, "--gpus") || has_prefix(w, "--gpu-") || has_prefix(w, "-G") ||
            has_prefix(w, "--tres-per-task"))
            return true;
    }
    return false;
}

/* ---- DIR: the script and the manifest -------------------------------------------------------- */

const char *kd_slurm_script(void)
{
    return "#!/bin/sh\n"
           "# kerndiff rank: one shard of a Slurm job array (written by kerndiff, src/rank/slurm.h).\n"
           "# This text is fixed: what the user asked reaches kerndiff only as the words sbatch\n"
           "# passes to this script (\"$@\"), never as shell text.\n"
           "# $1: the number of shards; $2: the folder of the results; $3: the folder the rank was\n"
           "# asked in; $4: kerndiff; then the rank's words (its options, --, the baseline and the\n"
           "# candidates).\n"
           "n=$1\n"
           "dir=$2\n"
           "cwd=$3\n"
           "self=$4\n"
           "shift 4\n"
           "i=${SLURM_ARRAY_TASK_ID:?not run as a task of a Slurm job array}\n"
           "cd \"$cwd\" || exit 1\n"
           "exec \"$self\" rank --shard \"$i/$n\" --json=\"$dir/shard-$i.json\" \"$@\"\n";
}

void kd_slurm_manifest_free(kd_slurm_manifest *m)
{
    free(m->sbatch);
    for (size_t i = 0; i < m->command.count; i++)
        free(m->command.items[i]);
    free(m->command.items);
    free(m->cwd);
    free(m->self);
    for (size_t i = 0; i < m->shard_command.count; i++)
        free(m->shard_command.items[i]);
    free(m->shard_command.items);
    for (unsigned i = 0; m->jobs && i < m->shards; i++)
        free(m->jobs[i]);
    free(m->jobs);
    *m = (kd_slurm_manifest){0};
}

/* The words as a JSON array; NULL when one is not UTF-8 (JSON cannot hold it as it is). */
static json_t *words_json(const kd_strlist *words)
{
    json_t *a = json_array();
    for (size_t i = 0; a && i < words->count; i++) {
        json_t *w = json_string(words->items[i]);
        if (!w) {
            json_decref(a);
            return NULL;
        }
        json_array_append_new(a, w);
    }
    return a;
}

/* The manifest's text, or NULL (errno EILSEQ) when a word or path cannot be kept in it. */
static char *manifest_text(const kd_slurm_manifest *m)
{
    json_t *cmd = words_json(&m->command), *shard = words_json(&m->shard_command), *jobs = json_array();
    for (unsigned i = 0; jobs && i < m->shards; i++)
        json_array_append_new(jobs, m->jobs[i] ? json_string(m->jobs[i]) : json_null());
    json_t *root = cmd && shard && jobs
                       ? json_pack("{s:s, s:i, s:I, s:s, s:o, s:s*, s:s*, s:o, s:o}", "kerndiff", "rank-slurm",
                                   "version", 2, "shards", (json_int_t)m->shards, "sbatch", m->sbatch ? m->sbatch : "",
                                   "command", cmd, "cwd", m->cwd, "self", m->self, "shard_command", shard, "jobs", jobs)
                       : NULL;
    if (!root) {
        if (!cmd || !shard || !jobs) {
            json_decref(cmd);
            json_decref(shard);
            json_decref(jobs);
        }
        errno = EILSEQ;
        return NULL;
    }
    char *text = json_dumps(root, JSON_INDENT(2));
    json_decref(root);
    return text;
}

static kd_outcome manifest_write(const char *dir, const kd_slurm_manifest *m, kd_slurm_error *e)
{
    char *text = manifest_text(m);
    char *path = kd_path_join(dir, KD_SLURM_MANIFEST);
    kd_outcome o = KD_OK;
    if (!text || kd_write_file(path, text, strlen(text)) != 0)
        o = fail(e, KD_FAIL_TOOL, KD_SLURM_ERR_WRITE, path, NULL);
    free(text);
    free(path);
    return o;
}

/* A string of the manifest that a terminal or a log line may show: no control character
 * (tabs and newlines allowed where `multiline`). */
static bool plain_text(const char *s, bool multiline)
{
    for (const unsigned char *p = (const unsigned char *)s; *p; p++)
        if ((*p < 0x20 && !(multiline && (*p == '\t' || *p == '\n'))) || *p == 0x7f)
            return false;
    return true;
}

/* A Slurm task id as sbatch gives it: "1234" or "1234_2". */
static bool task_id(const char *s)
{
    size_t digits = strspn(s, "0123456789");
    if (!digits || digits > 20)
        return false;
    if (!s[digits])
        return true;
    size_t more = s[digits] == '_' ? strspn(s + digits + 1, "0123456789") : 0;
    return more && more <= 10 && !s[digits + 1 + more];
}

/* What is wrong with the manifest's fields (a literal), or NULL: every one of the type kerndiff
 * writes, the strings plain text, the task ids Slurm's. A hand-edited manifest is refused
 * whole rather than read as "" or shown raw. */
static const char *manifest_fields_wrong(json_t *root, size_t shards)
{
    json_t *cmd = json_object_get(root, "command"), *jobs = json_object_get(root, "jobs");
    json_t *sbatch = json_object_get(root, "sbatch"), *cwd = json_object_get(root, "cwd");
    if (sbatch && !json_is_null(sbatch) && (!json_is_string(sbatch) || !plain_text(json_string_value(sbatch), true)))
        return "sbatch is not a string of plain text";
    if (cwd && !json_is_null(cwd) &&
        (!json_is_string(cwd) || json_string_value(cwd)[0] != '/' || !plain_text(json_string_value(cwd), false)))
        return "cwd is not an absolute path";
    size_t i;
    json_t *v;
    json_array_foreach(cmd, i, v) if (!json_is_string(v) || (i == 0 && !json_string_value(v)[0]))
        return "command holds something other than words (strings)";
    json_t *self = json_object_get(root, "self"), *shard = json_object_get(root, "shard_command");
    if (self && !json_is_null(self) &&
        (!json_is_string(self) || json_string_value(self)[0] != '/' || !plain_text(json_string_value(self), false)))
        return "self is not kerndiff's absolute path";
    if (shard && !json_is_null(shard) && !json_is_array(shard))
        return "shard_command is not a list of words";
    json_array_foreach(shard, i, v) if (!json_is_string(v))
        return "shard_command holds something other than words (strings)";
    if (json_array_size(jobs) != shards)
        return "no job per shard";
    json_array_foreach(jobs, i, v) if (!json_is_null(v) && (!json_is_string(v) || !task_id(json_string_value(v))))
        return "jobs holds something other than Slurm task ids (1234_5) or null";
    return NULL;
}

kd_outcome kd_slurm_manifest_read(const char *dir, kd_slurm_manifest *m, kd_slurm_error *e)
{
    *m = (kd_slurm_manifest){0};
    char *path = kd_path_join(dir, KD_SLURM_MANIFEST);
    size_t len = 0;
    char *text = kd_read_file(path, &len);
    if (!text) {
        kd_outcome o = fail(e, KD_FAIL_INPUT, KD_SLURM_ERR_MANIFEST, path, kd_read_error(errno));
        free(path);
        return o;
    }
    json_error_t jerr;
    json_t *root = json_loadb(text, len, 0, &jerr);
    free(text);
    json_t *cmd = json_object_get(root, "command"), *jobs = json_object_get(root, "jobs");
    json_int_t shards = json_integer_value(json_object_get(root, "shards"));
    const char *kind = json_string_value(json_object_get(root, "kerndiff"));
    const char *what = !root                                                  ? jerr.text
                       : !kind || strcmp(kind, "rank-slurm")                  ? "not a kerndiff rank --slurm manifest"
                       : shards < 1 || shards > (json_int_t)KD_SLURM_MAX_SHARDS ? "no shard count"
                       : !json_is_array(cmd) || json_array_size(cmd) < 1       ? "no command"
                       : !json_is_array(jobs) || json_array_size(jobs) != (size_t)shards ? "no job per shard"
                                                                               : NULL;
    if (!what)
        what = manifest_fields_wrong(root, (size_t)shards);
    if (what) {
        kd_outcome o = fail(e, KD_FAIL_INPUT, KD_SLURM_ERR_MANIFEST, path, what);
        json_decref(root);
        free(path);
        return o;
    }
    free(path);
    m->shards = (unsigned)shards;
    m->sbatch = kd_xstrdup(json_string_value(json_object_get(root, "sbatch")) ? json_string_value(json_object_get(root, "sbatch")) : "");
    m->cwd = kd_xstrdup(json_string_value(json_object_get(root, "cwd")) ? json_string_value(json_object_get(root, "cwd")) : "");
    const char *self = json_string_value(json_object_get(root, "self"));
    m->self = self ? kd_xstrdup(self) : NULL;
    size_t i;
    json_t *v;
    json_array_foreach(cmd, i, v) kd_strlist_push(&m->command, kd_xstrdup(json_string_value(v) ? json_string_value(v) : ""));
    /* version 2: the words each shard runs (none in a version-1 manifest) */
    json_t *shard = json_object_get(root, "shard_command");
    json_array_foreach(shard, i, v) kd_strlist_push(&m->shard_command, kd_xstrdup(json_string_value(v) ? json_string_value(v) : ""));
    m->jobs = kd_xcalloc(m->shards, sizeof *m->jobs);
    json_array_foreach(jobs, i, v) m->jobs[i] = json_string_value(v) ? kd_xstrdup(json_string_value(v)) : NULL;
    json_decref(root);
    return KD_OK;
}

void kd_slurm_rerun_words(const kd_slurm_manifest *m, const char *dir, unsigned i, kd_strlist *out)
{
    /* Every path absolute, so that it runs from any folder: kerndiff as the rank ran it
     * (an older manifest: as it was typed), DIR resolved. The shard's own words come from
     * the manifest, not from this line. */
    char *abs_dir = realpath(dir, NULL);
    const char *self = m->self && *m->self ? m->self : m->command.count ? m->command.items[0] : "kerndiff";
    kd_strlist_push(out, kd_xstrdup(self));
    kd_strlist_push(out, kd_xstrdup("rank"));
    kd_strlist_push(out, kd_xstrdup("--slurm"));
    kd_strlist_push(out, kd_xstrdup(m->sbatch ? m->sbatch : ""));
    kd_strlist_push(out, kd_xstrdup("--slurm-dir"));
    kd_strlist_push(out, abs_dir ? abs_dir : kd_xstrdup(dir));
    kd_strlist_push(out, kd_xstrdup("--only-shard"));
    kd_strlist_push(out, kd_xasprintf("%u", i));
}

size_t kd_slurm_operands_at(const kd_strlist *words)
{
    for (size_t i = 0; i < words->count; i++)
        if (!strcmp(words->items[i], "--"))
            return i + 1;
    return words->count;
}

/* ---- submission ------------------------------------------------------------------------------ */

void kd_slurm_job_free(kd_slurm_job *j)
{
    free(j->id);
    free(j->dir);
    *j = (kd_slurm_job){0};
}

static void free_words(kd_strlist *l)
{
    for (size_t i = 0; i < l->count; i++)
        free(l->items[i]);
    free(l->items);
    *l = (kd_strlist){0};
}

/* DIR made (or, for --only-shard, found) and resolved to an absolute path. */
static kd_outcome make_dir(const kd_slurm_options *o, char **abs, kd_slurm_error *e)
{
    char made[64];
    const char *dir = o->dir;
    if (!dir) {
        snprintf(made, sizeof made, "kerndiff-rank-XXXXXX");
        if (!mkdtemp(made))
            return fail(e, KD_FAIL_INPUT, KD_SLURM_ERR_DIR, made, NULL);
        dir = made;
    } else if (o->only_shard < 0 && kd_mkdir_p(dir) != 0) {
        return fail(e, KD_FAIL_INPUT, KD_SLURM_ERR_DIR, dir, NULL);
    }
    char *r = realpath(dir, NULL);
    if (!r)
        return fail(e, KD_FAIL_INPUT, KD_SLURM_ERR_DIR, dir, NULL);
    *abs = r;
    return KD_OK;
}

/* The array's id from `sbatch --parsable`: "1234" or "1234;cluster". */
static char *parse_job_id(const char *out)
{
    size_t n = strspn(out, "0123456789");
    if (n == 0 || (out[n] && out[n] != ';' && out[n] != '\n'))
        return NULL;
    char *id = kd_xmalloc(n + 1);
    memcpy(id, out, n);
    id[n] = '\0';
    return id;
}

static kd_outcome run_tool(const char *const *argv, kd_spawn_result *res, kd_slurm_error *e)
{
    if (kd_spawn(argv, NULL, SLURM_TOOL_TIMEOUT_MS, res) != 0) {
        kd_outcome o = errno == ENOENT ? KD_FAIL_TOOL : KD_FAIL_RUNTIME;
        return fail(e, o, errno == ENOENT ? KD_SLURM_ERR_NO_PROGRAM : KD_SLURM_ERR_PROGRAM, NULL, argv[0]);
    }
    if (res->timed_out || res->signal || res->exit_code != 0) {
        fail(e, KD_FAIL_RUNTIME, KD_SLURM_ERR_PROGRAM, NULL, argv[0]);
        const char *said = res->err.len ? kd_sb_str(&res->err) : kd_sb_str(&res->out);
        e->output = kd_xstrdup(said);
        e->err = 0;
        kd_spawn_result_free(res);
        return KD_FAIL_RUNTIME;
    }
    return KD_OK;
}

/* Whether DIR holds a file a new rank would write (its manifest, its script, a shard's result
 * or log): those are a rank's results, or someone's files of the same name. */
static bool dir_used(const char *dir, unsigned shards)
{
    const char *fixed[] = {KD_SLURM_MANIFEST, KD_SLURM_SCRIPT};
    struct stat st;
    for (size_t i = 0; i < sizeof fixed / sizeof *fixed; i++) {
        char *path = kd_path_join(dir, fixed[i]);
        bool there = lstat(path, &st) == 0;
        free(path);
        if (there)
            return true;
    }
    for (unsigned i = 0; i < shards; i++)
        for (int k = 0; k < 2; k++) {
            char *path = kd_xasprintf("%s/shard-%u.%s", dir, i, k ? "log" : "json");
            bool there = lstat(path, &st) == 0;
            free(path);
            if (there)
                return true;
        }
    return false;
}

/* sbatch's --output for the tasks' logs: DIR/shard-%a.log with every % of DIR doubled (a
 * filename pattern's "%%" is a "%"). NULL when DIR has a backslash: sbatch then replaces no
 * pattern at all, and every task would write one file named shard-%a.log. */
static char *log_pattern(const char *dir)
{
    if (strchr(dir, '\\'))
        return NULL;
    kd_strbuf sb = {0};
    kd_sb_puts(&sb, "--output=");
    for (const char *p = dir; *p; p++)
        kd_sb_puts(&sb, *p == '%' ? "%%" : (char[]){*p, '\0'});
    kd_sb_puts(&sb, "/shard-%a.log");
    return kd_sb_take(&sb);
}

kd_outcome kd_slurm_submit(const kd_slurm_submit_request *r, kd_slurm_job *job, kd_slurm_error *e)
{
    const kd_slurm_options *o = r->o;
    *job = (kd_slurm_job){.only_shard = o->only_shard};
    kd_strlist user = {0};
    size_t bad_at = 0;
    if (kd_slurm_split_words(o->sbatch ? o->sbatch : "", &user, &bad_at) != 0) {
        fail(e, KD_FAIL_USAGE, KD_SLURM_ERR_QUOTE, NULL, o->sbatch);
        e->at = bad_at;
        e->err = 0;
        return KD_FAIL_USAGE;
    }
    char *self = realpath("/proc/self/exe", NULL);
    char *cwd = getcwd(NULL, 0);
    char *dir = NULL, *log = NULL, *manifest = NULL;
    kd_slurm_manifest m = {0};
    kd_strlist argv = {0};
    kd_spawn_result res = {0};
    kd_outcome out = KD_OK;
    if (!self || !cwd) {
        out = fail(e, KD_FAIL_TOOL, KD_SLURM_ERR_SELF, NULL, NULL);
        goto done;
    }
    if (o->only_shard < 0 && !r->words) {
        errno = EINVAL;
        out = fail(e, KD_FAIL_USAGE, KD_SLURM_ERR_MANIFEST, NULL, "no command for the shards");
        goto done;
    }
    if ((out = make_dir(o, &dir, e)) != KD_OK)
        goto done;
    if (!(log = log_pattern(dir))) {
        errno = EINVAL;
        out = fail(e, KD_FAIL_USAGE, KD_SLURM_ERR_DIR, dir, NULL);
        goto done;
    }
    if (o->only_shard >= 0) {
        /* the shard alone, as the rank's other shards ran: the manifest's words, in its folder */
        if ((out = kd_slurm_manifest_read(dir, &m, e)) != KD_OK)
            goto done;
        if (!m.shard_command.count) {
            out = fail(e, KD_FAIL_INPUT, KD_SLURM_ERR_MANIFEST, dir,
                       "made by an older kerndiff, it keeps no command for one shard: run the whole rank again");
            goto done;
        }
        if ((unsigned)o->only_shard >= m.shards) {
            out = fail(e, KD_FAIL_USAGE, KD_SLURM_ERR_SHARD, dir, NULL);
            e->at = (size_t)o->only_shard;
            e->count = m.shards;
            goto done;
        }
    } else {
        m.shards = o->shards ? o->shards : KD_SLURM_DEFAULT_SHARDS;
        /* A folder that holds a rank already, or files of the names a rank writes: its shards'
         * results would be merged with the new rank's, or the files lost. */
        if (dir_used(dir, m.shards)) {
            errno = EEXIST;
            out = fail(e, KD_FAIL_USAGE, KD_SLURM_ERR_DIR_USED, dir, NULL);
            goto done;
        }
        m.sbatch = kd_xstrdup(o->sbatch ? o->sbatch : "");
        m.cwd = kd_xstrdup(cwd);
        m.self = kd_xstrdup(self);
        for (int i = 0; i < r->argc; i++)
            kd_strlist_push(&m.command, kd_xstrdup(r->argv[i]));
        for (size_t i = 0; i < r->words->count; i++)
            kd_strlist_push(&m.shard_command, kd_xstrdup(r->words->items[i]));
        m.jobs = kd_xcalloc(m.shards, sizeof *m.jobs);
        /* what cannot be kept in the manifest is found before anything is submitted */
        char *text = manifest_text(&m);
        if (!text) {
            out = fail(e, KD_FAIL_USAGE, KD_SLURM_ERR_WRITE, manifest = kd_path_join(dir, KD_SLURM_MANIFEST), NULL);
            goto done;
        }
        free(text);
    }
    /* the script (rewritten for a re-run too: kerndiff's own file, the one its words need) */
    char *script = kd_path_join(dir, KD_SLURM_SCRIPT);
    const char *text = kd_slurm_script();
    if (kd_write_file(script, text, strlen(text)) != 0 || chmod(script, 0755) != 0) {
        out = fail(e, KD_FAIL_TOOL, KD_SLURM_ERR_WRITE, script, NULL);
        free(script);
        goto done;
    }

    /* sbatch's words: ours that the user may change first, then the user's, then the ones
     * the shards depend on (the last of a repeated option wins). The task's folder is the
     * script's to enter (its $3): sbatch reads no pattern there. */
    char *array = o->only_shard >= 0 ? kd_xasprintf("--array=%d", o->only_shard)
                                     : kd_xasprintf("--array=0-%u", m.shards - 1);
    char *count = kd_xasprintf("%u", m.shards);
    kd_strlist_push(&argv, "sbatch");
    kd_strlist_push(&argv, "--job-name=kerndiff-rank");
    if (!kd_slurm_words_ask_gpus(&user))
        kd_strlist_push(&argv, "--gres=gpu:1");
    for (size_t i = 0; i < user.count; i++)
        kd_strlist_push(&argv, user.items[i]);
    kd_strlist_push(&argv, "--parsable");
    kd_strlist_push(&argv, log);
    kd_strlist_push(&argv, array);
    kd_strlist_push(&argv, script);
    kd_strlist_push(&argv, count);
    kd_strlist_push(&argv, dir);
    kd_strlist_push(&argv, m.cwd && *m.cwd ? m.cwd : cwd);
    kd_strlist_push(&argv, self);
    for (size_t i = 0; i < m.shard_command.count; i++)
        kd_strlist_push(&argv, m.shard_command.items[i]);
    kd_strlist_push(&argv, NULL);
    out = run_tool((const char *const *)argv.items, &res, e);
    if (out == KD_OK) {
        job->id = parse_job_id(kd_sb_str(&res.out));
        if (!job->id) {
            out = fail(e, KD_FAIL_RUNTIME, KD_SLURM_ERR_PROGRAM, NULL, "sbatch");
            e->output = kd_xstrdup(kd_sb_str(&res.out));
        }
        kd_spawn_result_free(&res);
    }
    if (out == KD_OK) {
        for (unsigned i = 0; i < m.shards; i++) {
            if (o->only_shard >= 0 && (unsigned)o->only_shard != i)
                continue;
            free(m.jobs[i]);
            m.jobs[i] = kd_xasprintf("%s_%u", job->id, i);
        }
        out = manifest_write(dir, &m, e);
    }
    free(array);
    free(script);
    free(count);
done:
    if (out == KD_OK) {
        job->dir = dir;
        job->shards = m.shards;
        dir = NULL;
    } else {
        kd_slurm_job_free(job);
        /* a folder made for this submission alone holds nothing of use: not left behind */
        if (dir && !o->dir && o->only_shard < 0)
            kd_remove_tree(dir);
    }
    free(dir);
    free(log);
    free(manifest);
    free(self);
    free(cwd);
    free(argv.items);
    free_words(&user);
    kd_slurm_manifest_free(&m);
    return out;
}

/* ---- waiting and the tasks' states ----------------------------------------------------------- */

static void sleep_ms(unsigned ms)
{
    struct timespec t = {.tv_sec = ms / 1000, .tv_nsec = (long)(ms % 1000) * 1000000L};
    while (nanosleep(&t, &t) != 0 && errno == EINTR) {
    }
}

kd_outcome kd_slurm_wait(const char *job_id, unsigned poll_ms, kd_slurm_error *e)
{
    if (!poll_ms)
        poll_ms = KD_SLURM_POLL_MS;
    /* A busy or restarting controller fails a query now and then: only several failures in
     * a row end the wait. */
    unsigned failures = 0;
    for (;;) {
        const char *argv[] = {"squeue", "-h", "-j", job_id, "-o", "%i %T", NULL};
        kd_spawn_result res = {0};
        if (kd_spawn(argv, NULL, SLURM_TOOL_TIMEOUT_MS, &res) != 0)
            return fail(e, errno == ENOENT ? KD_FAIL_TOOL : KD_FAIL_RUNTIME,
                        errno == ENOENT ? KD_SLURM_ERR_NO_PROGRAM : KD_SLURM_ERR_PROGRAM, NULL, "squeue");
        bool ended = res.exit_code != 0 && !res.signal && !res.timed_out &&
                     strstr(kd_sb_str(&res.err), "Invalid job id"); /* gone from the controller */
        bool broken = !ended && (res.exit_code != 0 || res.signal || res.timed_out);
        bool empty = !broken && strspn(kd_sb_str(&res.out), " \t\n") == res.out.len;
        failures = broken ? failures + 1 : 0;
        if (failures >= KD_SLURM_WAIT_FAILURES) {
            kd_slurm_error_free(e);
            fail(e, KD_FAIL_RUNTIME, KD_SLURM_ERR_PROGRAM, NULL, "squeue");
            e->output = kd_xstrdup(kd_sb_str(&res.err));
            e->err = 0;
        }
        kd_spawn_result_free(&res);
        if (failures >= KD_SLURM_WAIT_FAILURES)
            return KD_FAIL_RUNTIME;
        if (ended || empty)
            return KD_OK;
        sleep_ms(poll_ms);
    }
}

typedef void (*found_fn)(const char *task, const char *state, void *ctx);

/* sacct -P line: "1234_2|FAILED" (a state may carry " by UID": "CANCELLED by 0"). */
static int sacct_line(char *line, found_fn found, void *ctx)
{
    char *bar = strchr(line, '|');
    if (!bar || !strchr(line, '_'))
        return 0;
    *bar = '\0';
    char *state = bar + 1;
    state[strcspn(state, " |")] = '\0';
    found(line, state, ctx);
    return 1;
}

/* Each task of an ArrayTaskId value: "2", or, for the tasks still pending as one record,
 * "0-2", "0,2", "0-9%4" (at most KD_SLURM_MAX_SHARDS of them). */
static int each_task(const char *array, const char *tasks, const char *state, found_fn found, void *ctx)
{
    int n = 0;
    const char *p = tasks;
    while (*p && *p != '%' && *p != ' ') {
        char *end;
        unsigned long a = strtoul(p, &end, 10), b = a;
        if (end == p)
            break;
        if (*end == '-')
            b = strtoul(end + 1, &end, 10);
        for (unsigned long t = a; t <= b && t < KD_SLURM_MAX_SHARDS; t++) {
            char *id = kd_xasprintf("%s_%lu", array, t);
            found(id, state, ctx);
            free(id);
            n++;
        }
        p = *end == ',' ? end + 1 : end;
        if (*end != ',')
            break;
    }
    return n;
}

/* scontrol -o line: "JobId=1235 ArrayJobId=1234 ArrayTaskId=2 JobName=... JobState=FAILED ...". */
static int scontrol_line(char *line, found_fn found, void *ctx)
{
    const char *array = strstr(line, " ArrayJobId="), *task = strstr(line, " ArrayTaskId="),
               *state = strstr(line, " JobState=");
    if (!array || !task || !state)
        return 0;
    char *job = kd_xasprintf("%.*s", (int)strcspn(array + 12, " "), array + 12);
    char *st = kd_xasprintf("%.*s", (int)strcspn(state + 10, " "), state + 10);
    int n = each_task(job, task + 13, st, found, ctx);
    free(job);
    free(st);
    return n;
}

/* Each line of a program's output through one of the two readers; the tasks found. */
static int each_line(const char *out, int (*line_fn)(char *, found_fn, void *), found_fn found, void *ctx)
{
    int n = 0;
    for (const char *p = out; *p;) {
        size_t len = strcspn(p, "\n");
        char *line = kd_xasprintf("%.*s", (int)len, p);
        n += line_fn(line, found, ctx);
        free(line);
        p += len + (p[len] == '\n');
    }
    return n;
}

int kd_slurm_task_states(const kd_strlist *job_ids, void (*found)(const char *task, const char *state, void *ctx),
                         void *ctx)
{
    if (!job_ids->count)
        return 0;
    kd_strbuf ids = {0};
    for (size_t i = 0; i < job_ids->count; i++)
        kd_sb_printf(&ids, "%s%s", i ? "," : "", job_ids->items[i]);
    const char *sacct[] = {"sacct", "-n", "-P", "-X", "-j", kd_sb_str(&ids), "-o", "JobID,State", NULL};
    kd_spawn_result res = {0};
    int n = -1;
    if (kd_spawn(sacct, NULL, SLURM_TOOL_TIMEOUT_MS, &res) == 0 && res.exit_code == 0 && !res.signal && !res.timed_out)
        n = each_line(kd_sb_str(&res.out), sacct_line, found, ctx);
    kd_spawn_result_free(&res);
    kd_sb_free(&ids);
    if (n > 0)
        return n;
    /* No accounting (sacct fails or knows nothing): the controller remembers recent jobs. */
    for (size_t i = 0; i < job_ids->count; i++) {
        const char *scontrol[] = {"scontrol", "-o", "show", "job", job_ids->items[i], NULL};
        kd_spawn_result sres = {0};
        if (kd_spawn(scontrol, NULL, SLURM_TOOL_TIMEOUT_MS, &sres) == 0 && sres.exit_code == 0 && !sres.signal &&
            !sres.timed_out)
            n = (n < 0 ? 0 : n) + each_line(kd_sb_str(&sres.out), scontrol_line, found, ctx);
        kd_spawn_result_free(&sres);
    }
    return n;
}
