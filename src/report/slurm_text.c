/* The words of kerndiff rank --slurm and --merge (report/slurm_text.h). */
#include "report/slurm_text.h"

#include <errno.h>
#include <jansson.h>
#include <string.h>

#include "report/untrusted.h"
#include "util/output.h"
#include "util/text.h"

/* Characters a POSIX shell takes as themselves in an unquoted word. */
static bool plain_char(unsigned char ch)
{
    return (ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z') || (ch >= '0' && ch <= '9') ||
           (ch && strchr("_-./,:+@%=", ch));
}

void kd_slurm_shell_words(const kd_strlist *words, kd_strbuf *out)
{
    for (size_t i = 0; i < words->count; i++) {
        const char *w = words->items[i];
        bool plain = *w != '\0';
        for (const char *p = w; plain && *p; p++)
            plain = plain_char((unsigned char)*p);
        if (i)
            kd_sb_puts(out, " ");
        if (plain) {
            kd_sb_puts(out, w);
            continue;
        }
        kd_sb_puts(out, "'");
        for (const char *p = w; *p; p++)
            kd_sb_puts(out, *p == '\'' ? "'\\''" : (char[]){*p, '\0'});
        kd_sb_puts(out, "'");
    }
}

void kd_slurm_say_error(const kd_slurm_error *e)
{
    kd_strbuf path_sb = {0}, detail_sb = {0}, output_sb = {0};
    const char *path = kd_text_safe(e->path, &path_sb), *detail = kd_text_safe(e->detail, &detail_sb),
               *output = "";
    if (e->output) { /* what sbatch said, over its lines */
        kd_escape_controls(e->output, strlen(e->output), &output_sb);
        output = kd_sb_str(&output_sb);
    }
    switch (e->kind) {
    case KD_SLURM_ERR_NONE:
        break;
    case KD_SLURM_ERR_QUOTE:
        fprintf(stderr, "kerndiff: --slurm '%s': an unclosed quote or a trailing backslash at character %zu; "
                        "quote the sbatch options as a shell would\n", detail, e->at + 1);
        break;
    case KD_SLURM_ERR_DIR:
        fprintf(stderr, "kerndiff: --slurm: cannot make or find the folder '%s': %s; give another with --slurm-dir\n",
                path, strerror(e->err));
        break;
    case KD_SLURM_ERR_WRITE:
        fprintf(stderr, "kerndiff: --slurm: cannot write '%s': %s\n", path, strerror(e->err));
        break;
    case KD_SLURM_ERR_NO_PROGRAM:
        fprintf(stderr, "kerndiff: --slurm: %s not found in PATH: run this on a machine where Slurm's commands are "
                        "installed (a login node)\n", detail);
        break;
    case KD_SLURM_ERR_PROGRAM:
        fprintf(stderr, "kerndiff: --slurm: %s failed%s%s\n", detail, *output ? ": " : "", output);
        break;
    case KD_SLURM_ERR_MANIFEST:
        fprintf(stderr, "kerndiff: '%s': %s; --merge and --only-shard take the folder a `kerndiff rank --slurm` made\n",
                path, detail);
        break;
    case KD_SLURM_ERR_SHARD:
        fprintf(stderr, "kerndiff: --only-shard %zu: '%s' holds %u shards (0 to %u)\n", e->at, path, e->count,
                e->count ? e->count - 1 : 0);
        break;
    case KD_SLURM_ERR_DIR_USED:
        fprintf(stderr, "kerndiff: --slurm-dir '%s' holds a rank already: give another folder, merge it "
                        "(--merge), or re-run one of its shards (--only-shard I)\n", path);
        break;
    case KD_SLURM_ERR_SELF:
        fprintf(stderr, "kerndiff: --slurm: cannot find kerndiff's own program (/proc/self/exe) for the tasks to run\n");
        break;
    }
    kd_sb_free(&path_sb);
    kd_sb_free(&detail_sb);
    kd_sb_free(&output_sb);
}

void kd_slurm_say_submitted(FILE *out, const kd_slurm_job *j)
{
    kd_untrusted u = {0};
    const char *id = kd_untrusted_name(&u, j->id);
    if (j->only_shard >= 0)
        fprintf(out, "submitted Slurm job %s: shard %d of %u alone (task %s_%d)\n", id, j->only_shard, j->shards, id,
                j->only_shard);
    else
        fprintf(out, "submitted Slurm job %s: %u shards (tasks %s_0 to %s_%u)\n", id, j->shards, id, id, j->shards - 1);
    fprintf(out, "results in %s\nmerge them once the job has ended: kerndiff rank --merge ", kd_untrusted_name(&u, j->dir));
    kd_strbuf dir = {0};
    kd_slurm_shell_words(&(kd_strlist){(char *[]){j->dir}, 1}, &dir);
    fprintf(out, "%s\n", kd_untrusted_name(&u, kd_sb_str(&dir)));
    kd_sb_free(&dir);
    kd_untrusted_free(&u);
}

/* slurm.json and the shard files are read back from a folder anyone may have written: every
 * string of theirs is shown with its controls written out (report/untrusted.h), so it cannot
 * act on the terminal or fake a line. */
void kd_slurm_merge_problems(const kd_merge *m, kd_strbuf *out)
{
    unsigned n = m->manifest.shards;
    if (m->done == n)
        return;
    for (unsigned i = 0; i < n; i++) {
        const kd_shard *s = &m->shards[i];
        if (s->state == KD_SHARD_DONE)
            continue;
        kd_sb_printf(out, "shard %u of %u", i, n);
        if (s->job) {
            kd_sb_puts(out, " (Slurm task ");
            kd_sb_untrusted(out, s->job);
            if (s->scheduler) {
                kd_sb_puts(out, ": ");
                kd_sb_untrusted(out, s->scheduler);
            }
            kd_sb_puts(out, ")");
        } else {
            kd_sb_puts(out, " (never submitted)");
        }
        kd_strbuf path = {0};
        kd_sb_untrusted(&path, s->path);
        if (kd_shard_in_queue(s))
            kd_sb_printf(out, ": still in the queue, no result yet in %s\n", kd_sb_str(&path));
        else if (s->state == KD_SHARD_MISSING && s->ran)
            kd_sb_printf(out, ": no result: %s is missing (its log: shard-%u.log beside it)\n", kd_sb_str(&path), i);
        else if (s->state == KD_SHARD_MISSING)
            kd_sb_printf(out, ": no result: %s is missing, and the task left no log: it never ran "
                              "(cancelled before it started, or never scheduled)\n", kd_sb_str(&path));
        else {
            kd_sb_printf(out, ": its result %s does not read: ", kd_sb_str(&path));
            kd_sb_untrusted(out, s->detail);
            kd_sb_puts(out, "\n");
        }
        kd_sb_free(&path);
        if (!kd_shard_in_queue(s)) {
            kd_strbuf line = {0};
            kd_slurm_shell_words(&s->rerun, &line);
            kd_sb_puts(out, "  re-run it alone: ");
            kd_sb_untrusted(out, kd_sb_str(&line));
            kd_sb_puts(out, "\n");
            kd_sb_free(&line);
        }
    }
    kd_sb_printf(out, "%u of %u shards have a result; the ranking needs every shard (each holds its own candidates): "
                      "re-run the others, then kerndiff rank --merge again\n", m->done, n);
}

/* Writes a document (taken) to path whole; 0, or -1 after saying which could not be written. */
static int write_json(json_t *root, const char *path, const char *what)
{
    kd_output o;
    FILE *f = kd_output_open(&o, path);
    int failed = !root || !f || json_dumpf(root, f, JSON_INDENT(2)) != 0 || fputc('\n', f) == EOF;
    json_decref(root);
    int err = 0;
    if (kd_output_close(&o, failed, &err) != KD_OUTPUT_WRITTEN) {
        fprintf(stderr, "kerndiff: cannot write %s to '%s': %s\n", what, path, err ? strerror(err) : "out of memory");
        return -1;
    }
    return 0;
}

static json_t *string_or_null(const char *s)
{
    return s ? json_string(s) : json_null();
}

int kd_slurm_merge_json(const kd_merge *m, const char *path)
{
    json_t *missing = json_array();
    for (unsigned i = 0; i < m->manifest.shards; i++) {
        const kd_shard *s = &m->shards[i];
        if (s->state == KD_SHARD_DONE)
            continue;
        json_t *words = json_array();
        for (size_t k = 0; k < s->rerun.count; k++)
            json_array_append_new(words, json_string(s->rerun.items[k]));
        kd_strbuf line = {0};
        kd_slurm_shell_words(&s->rerun, &line);
        json_array_append_new(
            missing, json_pack("{s:i, s:s, s:o, s:o, s:b, s:b, s:s, s:o, s:o, s:s}", "shard", (int)i, "state",
                               s->state == KD_SHARD_MISSING ? "missing" : "invalid", "slurm_task",
                               string_or_null(s->job), "slurm_state", string_or_null(s->scheduler), "in_queue",
                               kd_shard_in_queue(s), "ran", s->ran, "path", s->path, "detail",
                               string_or_null(s->detail), "rerun", words, "rerun_command", kd_sb_str(&line)));
        kd_sb_free(&line);
    }
    json_t *root = json_pack("{s:i, s:b, s:i, s:i, s:o}", "kerndiff_rank_merge", 1, "complete", 0, "shards",
                             (int)m->manifest.shards, "done", (int)m->done, "missing", missing);
    return write_json(root, path, "the list of missing shards");
}

int kd_slurm_submitted_json(const kd_slurm_job *j, const char *path)
{
    json_t *tasks = json_array();
    for (unsigned i = 0; i < j->shards; i++)
        if (j->only_shard < 0 || (unsigned)j->only_shard == i)
            json_array_append_new(tasks, json_sprintf("%s_%u", j->id, i));
    json_t *root = json_pack("{s:i, s:s, s:o, s:i, s:o, s:s, s:[s,s,s]}", "kerndiff_rank_slurm", 1, "job", j->id,
                             "tasks", tasks, "shards", (int)j->shards, "only_shard",
                             j->only_shard < 0 ? json_null() : json_integer(j->only_shard), "dir", j->dir,
                             "merge_command", "kerndiff", "rank", "--merge");
    json_array_append_new(json_object_get(root, "merge_command"), json_string(j->dir));
    return write_json(root, path, "the submitted job");
}
