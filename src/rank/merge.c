/* The shards of a rank run on Slurm, gathered (rank/merge.h). */
#include "rank/merge.h"

#include <errno.h>
#include <jansson.h>
#include <stdlib.h>
#include <string.h>

#include "util/fs.h"
#include "util/xalloc.h"

static void free_words(kd_strlist *l)
{
    for (size_t i = 0; i < l->count; i++)
        free(l->items[i]);
    free(l->items);
    *l = (kd_strlist){0};
}

void kd_merge_free(kd_merge *m)
{
    for (unsigned i = 0; m->shards && i < m->manifest.shards; i++) {
        kd_shard *s = &m->shards[i];
        free(s->path);
        free(s->job);
        free(s->scheduler);
        free(s->detail);
        free_words(&s->rerun);
    }
    free(m->shards);
    free(m->dir);
    kd_slurm_manifest_free(&m->manifest);
    *m = (kd_merge){0};
}

bool kd_shard_in_queue(const kd_shard *s)
{
    static const char *const queued[] = {"PENDING", "RUNNING", "CONFIGURING", "COMPLETING",
                                         "REQUEUED", "RESIZING", "SUSPENDED", "REQUEUE_HOLD"};
    for (size_t i = 0; s->scheduler && i < sizeof queued / sizeof *queued; i++)
        if (!strcmp(s->scheduler, queued[i]))
            return true;
    return false;
}

/* The heat file of a shard: there, and a JSON object written by a shard of this rank. */
static kd_shard_state read_heat(kd_shard *s, unsigned shards)
{
    size_t len = 0;
    char *text = kd_read_file(s->path, &len);
    if (!text) {
        if (errno == ENOENT)
            return KD_SHARD_MISSING;
        s->detail = kd_xstrdup(kd_read_error(errno));
        return KD_SHARD_INVALID;
    }
    json_error_t jerr;
    json_t *root = json_loadb(text, len, 0, &jerr);
    free(text);
    if (!json_is_object(root)) {
        s->detail = root ? kd_xstrdup("not a JSON object") : kd_xasprintf("line %d: %s", jerr.line, jerr.text);
        json_decref(root);
        return KD_SHARD_INVALID;
    }
    /* The heat says which heat of how many it is (the contract's `heat`, `heats`): a file
     * from another rank, or another shard's, would merge candidates twice. */
    json_t *heat = json_object_get(root, "heat"), *heats = json_object_get(root, "heats");
    kd_shard_state st = KD_SHARD_DONE;
    if (json_is_integer(heat) && json_is_integer(heats) &&
        (json_integer_value(heat) != (json_int_t)s->index || json_integer_value(heats) != (json_int_t)shards)) {
        s->detail = kd_xasprintf("it is heat %lld of %lld, not %u of %u", (long long)json_integer_value(heat),
                                 (long long)json_integer_value(heats), s->index, shards);
        st = KD_SHARD_INVALID;
    }
    json_decref(root);
    return st;
}

typedef struct states_ctx {
    kd_merge *m;
} states_ctx;

static void found_state(const char *task, const char *state, void *ctx)
{
    kd_merge *m = ((states_ctx *)ctx)->m;
    for (unsigned i = 0; i < m->manifest.shards; i++) {
        kd_shard *s = &m->shards[i];
        if (s->job && !strcmp(s->job, task)) {
            free(s->scheduler);
            s->scheduler = kd_xstrdup(state);
        }
    }
}

kd_outcome kd_merge_read(const char *dir, kd_merge *m, kd_slurm_error *e)
{
    *m = (kd_merge){0};
    kd_outcome o = kd_slurm_manifest_read(dir, &m->manifest, e);
    if (o != KD_OK)
        return o;
    m->dir = kd_xstrdup(dir);
    unsigned n = m->manifest.shards;
    m->shards = kd_xcalloc(n, sizeof *m->shards);
    kd_strlist jobs = {0};
    for (unsigned i = 0; i < n; i++) {
        kd_shard *s = &m->shards[i];
        s->index = i;
        char *name = kd_xasprintf("shard-%u.json", i);
        s->path = kd_path_join(dir, name);
        free(name);
        s->job = m->manifest.jobs[i] ? kd_xstrdup(m->manifest.jobs[i]) : NULL;
        s->state = read_heat(s, n);
        if (s->state == KD_SHARD_DONE) {
            m->done++;
            continue;
        }
        kd_slurm_rerun_words(&m->manifest, dir, i, &s->rerun);
        if (!s->job)
            continue;
        /* The array's id: "1234" of "1234_2", asked once. */
        size_t idlen = strcspn(s->job, "_");
        bool asked = false;
        for (size_t k = 0; k < jobs.count && !asked; k++)
            asked = strlen(jobs.items[k]) == idlen && !strncmp(jobs.items[k], s->job, idlen);
        if (!asked)
            kd_strlist_push(&jobs, kd_xasprintf("%.*s", (int)idlen, s->job));
    }
    states_ctx ctx = {m};
    kd_slurm_task_states(&jobs, found_state, &ctx);
    free_words(&jobs);
    return KD_OK;
}
