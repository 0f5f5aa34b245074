/* The shards of a rank run on Slurm, gathered (rank/merge.h). */
#include "rank/merge.h"

#include <errno.h>
#include <jansson.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

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
        if (s->state == KD_SHARD_DONE)
            kd_rank_heat_free(&s->heat);
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

/* The heat file of a shard: there, and heat I of N of the same rank as the shards before
 * it (seed, candidate count): a file from another rank, or another shard's, would merge
 * candidates twice or with other intervals. */
static kd_shard_state read_heat(kd_shard *s, unsigned shards, const kd_rank_heat *first)
{
    struct stat st;
    if (stat(s->path, &st) != 0 && errno == ENOENT)
        return KD_SHARD_MISSING;
    char *why = NULL;
    if (kd_rank_heat_read(s->path, &s->heat, &why) != 0) {
        s->detail = why ? why : kd_xstrdup("unreadable");
        return KD_SHARD_INVALID;
    }
    const kd_rank_heat *h = &s->heat;
    if (h->heat != s->index || h->heats != shards)
        s->detail = kd_xasprintf("it is heat %u of %u, not %u of %u", h->heat, h->heats, s->index, shards);
    else if (first && h->seed != first->seed)
        s->detail = kd_xasprintf("its seed %llu is not the other shards' %llu", (unsigned long long)h->seed,
                                 (unsigned long long)first->seed);
    else if (first && h->family != first->family)
        s->detail = kd_xasprintf("it ranks %zu candidates, the other shards %zu", h->family, first->family);
    if (s->detail) {
        kd_rank_heat_free(&s->heat);
        memset(&s->heat, 0, sizeof s->heat);
        return KD_SHARD_INVALID;
    }
    return KD_SHARD_DONE;
}

kd_rank_heat **kd_merge_heats(const kd_merge *m)
{
    if (m->done != m->manifest.shards)
        return NULL;
    kd_rank_heat **heats = kd_xcalloc(m->manifest.shards, sizeof *heats);
    for (unsigned i = 0; i < m->manifest.shards; i++)
        heats[i] = &m->shards[i].heat;
    return heats;
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

/* A done shard found wrong after all: invalid, with what is wrong (formatted). */
static void invalidate(kd_merge *m, kd_shard *s, char *detail)
{
    if (s->state != KD_SHARD_DONE) {
        free(detail);
        return;
    }
    s->detail = detail;
    s->state = KD_SHARD_INVALID;
    kd_rank_heat_free(&s->heat);
    memset(&s->heat, 0, sizeof s->heat);
    m->done--;
}

/* The path of a candidate as the rank's command saw it: relative paths from where it was given. */
static char *as_given(const kd_merge *m, const char *path)
{
    if (path[0] == '/' || !m->manifest.cwd || !m->manifest.cwd[0])
        return kd_xstrdup(path);
    return kd_path_join(m->manifest.cwd, path);
}

/* Whether a file is what a shard hashed: "" when it is, else what differs (malloc'd). */
static char *changed(const kd_merge *m, const char *path, const char *sha256)
{
    if (!sha256[0])
        return NULL; /* REV:FILE: no file of its own */
    char *full = as_given(m, path), hex[65];
    char *what = NULL;
    if (kd_rank_file_sha256(full, hex) != 0)
        what = kd_xasprintf("%s cannot be read now (%s): the rank's files must be as the shards ran them", full,
                            kd_read_error(errno));
    else if (strcmp(hex, sha256) != 0)
        what = kd_xasprintf("%s changed since the shard ran it (its content differs): re-run the rank's shards on the files as they are", full);
    free(full);
    return what;
}

/* The shards that read, checked as one rank: the same candidate set (names and content) in
 * every shard, that set the files as they are now, and each shard holding exactly its heat's
 * candidates, each once. A shard emptied, re-run against a renamed or edited set, or listing
 * a candidate twice is invalid, never merged: a candidate would be dropped, doubled or
 * reported for a file it was not. */
static void check_set(kd_merge *m)
{
    const kd_rank_heat *ref = NULL;
    unsigned refi = 0;
    for (unsigned i = 0; i < m->manifest.shards; i++) {
        kd_shard *s = &m->shards[i];
        if (s->state != KD_SHARD_DONE)
            continue;
        const kd_rank_heat *h = &s->heat;
        if (!ref) {
            ref = h;
            refi = i;
            continue;
        }
        char *detail = NULL;
        if (strcmp(h->baseline, ref->baseline) != 0 || strcmp(h->base_sha256, ref->base_sha256) != 0)
            detail = kd_xasprintf("its baseline (%s) is not shard %u's (%s), or not the same file", h->baseline, refi,
                                  ref->baseline);
        for (size_t k = 0; !detail && k < h->nmembers; k++)
            if (strcmp(h->members[k].path, ref->members[k].path) != 0)
                detail = kd_xasprintf("its candidate %zu is %s, shard %u's is %s: the shards ran different candidate sets",
                                      k, h->members[k].path, refi, ref->members[k].path);
            else if (strcmp(h->members[k].sha256, ref->members[k].sha256) != 0)
                detail = kd_xasprintf("its candidate %s is not the file shard %u ran (their contents differ)",
                                      h->members[k].path, refi);
        if (detail)
            invalidate(m, s, detail);
    }
    if (!ref)
        return;
    char *base = changed(m, ref->baseline, ref->base_sha256);
    for (unsigned i = 0; base && i < m->manifest.shards; i++)
        if (m->shards[i].state == KD_SHARD_DONE)
            invalidate(m, &m->shards[i], kd_xasprintf("the baseline %s", base));
    free(base);
    for (unsigned i = 0; i < m->manifest.shards; i++) {
        kd_shard *s = &m->shards[i];
        if (s->state != KD_SHARD_DONE)
            continue;
        const kd_rank_heat *h = &s->heat;
        bool *seen = kd_xcalloc(h->nmembers + 1, sizeof *seen);
        char *detail = NULL;
        for (size_t e = 0; e < h->count; e++) {
            seen[h->entries[e].index] = true; /* the reader refused an index twice or out of range */
            unsigned its = kd_rank_heat_of(h->seed, h->entries[e].path, h->heats);
            if (!detail && its != h->heat)
                detail = kd_xasprintf("its candidate %s belongs to heat %u, not to this one: it would be ranked twice",
                                      h->entries[e].path, its);
        }
        for (size_t k = 0; !detail && k < h->nmembers; k++) {
            if (kd_rank_heat_of(h->seed, h->members[k].path, h->heats) != h->heat)
                continue;
            if (!seen[k])
                detail = kd_xasprintf("it lacks its candidate %s (a shard holds every candidate of its heat): the "
                                      "file was cut, or written by another rank", h->members[k].path);
            else {
                char *what = changed(m, h->members[k].path, h->members[k].sha256);
                detail = what ? kd_xasprintf("its candidate %s", what) : NULL;
                free(what);
            }
        }
        free(seen);
        if (detail)
            invalidate(m, s, detail);
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
    const kd_rank_heat *first = NULL;
    for (unsigned i = 0; i < n; i++) {
        kd_shard *s = &m->shards[i];
        s->index = i;
        char *name = kd_xasprintf("shard-%u.json", i);
        s->path = kd_path_join(dir, name);
        free(name);
        s->job = m->manifest.jobs[i] ? kd_xstrdup(m->manifest.jobs[i]) : NULL;
        s->state = read_heat(s, n, first);
        char *log = kd_xasprintf("%s/shard-%u.log", dir, i);
        s->ran = access(log, F_OK) == 0;
        free(log);
        if (s->state == KD_SHARD_DONE) {
            if (!first)
                first = &s->heat;
            m->done++;
        }
    }
    check_set(m);
    kd_strlist jobs = {0};
    for (unsigned i = 0; i < n; i++) {
        kd_shard *s = &m->shards[i];
        if (s->state == KD_SHARD_DONE)
            continue;
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
