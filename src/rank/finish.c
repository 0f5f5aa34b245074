/* The report of a rank from its heats (rank/rank.h kd_rank_finish): a pure function. */
#include "rank/rank.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "measure/verdict.h"
#include "util/xalloc.h"

static const char *const status_names[KD_RANK_STATUS_COUNT] = {
    "faster", "slower", "same", "dropped", "incorrect", "build_failed", "sanitizer", "run_failed", "untimed",
};

const char *kd_rank_status_name(kd_rank_status s)
{
    return (unsigned)s < KD_RANK_STATUS_COUNT ? status_names[s] : "?";
}

int kd_rank_status_parse(const char *name)
{
    for (int i = 0; i < KD_RANK_STATUS_COUNT; i++)
        if (strcmp(name, status_names[i]) == 0)
            return i;
    return -1;
}

bool kd_rank_status_timed(kd_rank_status s) { return s <= KD_RANK_DROPPED; }

unsigned kd_rank_heat_of(uint64_t seed, const char *path, unsigned heats)
{
    if (heats <= 1)
        return 0;
    char digits[32];
    int len = snprintf(digits, sizeof digits, "%llu", (unsigned long long)seed);
    uint64_t h = 0xcbf29ce484222325ull;
    for (int i = 0; i <= len; i++) /* the digits and their '\0' */
        h = (h ^ (unsigned char)digits[i]) * 0x100000001b3ull;
    for (const char *p = path; *p; p++)
        h = (h ^ (unsigned char)*p) * 0x100000001b3ull;
    return (unsigned)(h % heats);
}

void kd_rank_heat_free(kd_rank_heat *h)
{
    for (size_t i = 0; i < h->count; i++) {
        kd_rank_entry *e = &h->entries[i];
        free(e->name);
        free(e->path);
        free(e->reason);
        for (size_t g = 0; g < e->ngpus; g++) {
            free(e->gpus[g].base);
            free(e->gpus[g].cand);
            free(e->gpus[g].round);
        }
        free(e->gpus);
    }
    free(h->entries);
    for (size_t i = 0; i < h->nmembers; i++)
        free(h->members[i].path);
    free(h->members);
    free(h->devices);
    free(h->baseline);
    memset(h, 0, sizeof *h);
}

/* The interval of some of a candidate's GPUs' samples together (first..last-1): their rounds
 * kept apart (each round's ratio is made on one GPU, never across). */
static int interval_of(const kd_rank_entry *e, size_t first, size_t last, double confidence, kd_speedup *out)
{
    size_t n = 0;
    for (size_t g = first; g < last; g++)
        n += e->gpus[g].n;
    kd_race_entry all = {.base = kd_xcalloc(n + 1, sizeof(double)), .cand = kd_xcalloc(n + 1, sizeof(double)),
                         .round = kd_xcalloc(n + 1, sizeof(unsigned))};
    unsigned offset = 0;
    for (size_t g = first; g < last; g++) {
        const kd_rank_gpu_samples *s = &e->gpus[g];
        unsigned most = 0;
        for (size_t i = 0; i < s->n; i++) {
            all.base[all.n] = s->base[i];
            all.cand[all.n] = s->cand[i];
            all.round[all.n++] = offset + s->round[i];
            most = s->round[i] + 1 > most ? s->round[i] + 1 : most;
        }
        offset += most;
    }
    int rc = kd_race_interval(&all, confidence, out);
    free(all.base);
    free(all.cand);
    free(all.round);
    return rc;
}

static int by_speedup(const void *a, const void *b)
{
    const kd_rank_row *x = a, *y = b;
    bool tx = x->has_speedup, ty = y->has_speedup;
    if (tx != ty)
        return tx ? -1 : 1;
    if (tx && x->speedup.ratio != y->speedup.ratio)
        return x->speedup.ratio > y->speedup.ratio ? -1 : 1;
    return (x->entry->index > y->entry->index) - (x->entry->index < y->entry->index);
}

static void row_of(kd_rank_row *row, const kd_rank_entry *e, double confidence, const kd_rank_opts *o)
{
    row->entry = e;
    row->status = e->gate;
    row->gpus = kd_xcalloc(e->ngpus + 1, sizeof *row->gpus);
    row->ngpus = e->ngpus;
    for (size_t g = 0; g < e->ngpus; g++) {
        row->gpus[g].gpu = e->gpus[g].gpu;
        row->samples += e->gpus[g].n;
    }
    /* a candidate that failed (crashed, hung, incorrect...) has no speedup in any format, not
     * even per GPU: only its reason */
    if (kd_rank_status_timed(e->gate) && e->reason)
        row->status = KD_RANK_RUN_FAILED;
    if (!kd_rank_status_timed(row->status))
        return;
    for (size_t g = 0; g < e->ngpus; g++)
        interval_of(e, g, g + 1, confidence, &row->gpus[g].speedup);
    row->has_speedup = interval_of(e, 0, e->ngpus, confidence, &row->speedup) == 0;
    if (!row->has_speedup) { /* raced, but failed before two rounds */
        row->status = KD_RANK_RUN_FAILED;
        return;
    }
    kd_verdict v = kd_verdict_with_floor(&row->speedup, o->min_effect_pct);
    row->status = v == KD_VERDICT_FASTER ? KD_RANK_FASTER
                  : v == KD_VERDICT_SLOWER ? KD_RANK_SLOWER
                  : e->dropped ? KD_RANK_DROPPED
                               : KD_RANK_SAME;
}

kd_rank_result *kd_rank_finish(kd_rank_heat *const *heats, size_t n, const kd_rank_opts *o)
{
    if (n == 0)
        return NULL;
    kd_rank_result *r = kd_xcalloc(1, sizeof *r);
    r->opts = *o;
    r->correction = "bonferroni";
    r->seed = heats[0]->seed;
    r->heats = heats[0]->heats;
    r->baseline = heats[0]->baseline;
    r->base_stat = heats[0]->base_stat;
    r->devices = heats[0]->devices;
    r->ndevices = heats[0]->ndevices;
    size_t total = 0;
    for (size_t h = 0; h < n; h++) {
        total += heats[h]->count;
        r->family = heats[h]->family > r->family ? heats[h]->family : r->family;
        r->samples += heats[h]->samples;
        r->gate_ms += heats[h]->gate_ms;
        r->race_ms += heats[h]->race_ms;
        r->rounds = heats[h]->rounds > r->rounds ? heats[h]->rounds : r->rounds;
    }
    if (r->family < total)
        r->family = total;
    r->corrected_confidence = kd_race_corrected_confidence(o->confidence, r->family);
    kd_calib_load(&r->calib);
    r->rows = kd_xcalloc(total + 1, sizeof *r->rows);
    for (size_t h = 0; h < n; h++)
        for (size_t i = 0; i < heats[h]->count; i++) {
            kd_rank_row *row = &r->rows[r->count++];
            row_of(row, &heats[h]->entries[i], r->corrected_confidence, o);
            row->heat = heats[h]->heat;
        }
    qsort(r->rows, r->count, sizeof *r->rows, by_speedup);
    for (size_t i = 0; i < r->count; i++)
        r->timed += r->rows[i].has_speedup;
    size_t k = o->top < r->timed ? o->top : r->timed;
    r->pairs = kd_xcalloc(k * k + 1, sizeof *r->pairs);
    /* Two candidates differ when their corrected intervals against the baseline do not
     * overlap: a conservative test, and one that needs no sample of one in the other's heat. */
    for (size_t a = 0; a < k; a++)
        for (size_t b = a + 1; b < k; b++) {
            const kd_speedup *x = &r->rows[a].speedup, *y = &r->rows[b].speedup;
            r->pairs[r->npairs++] = (kd_rank_pair){a, b, x->lo > y->hi   ? KD_VERDICT_FASTER
                                                        : x->hi < y->lo ? KD_VERDICT_SLOWER
                                                                        : KD_VERDICT_NO_DIFFERENCE};
        }
    return r;
}

void kd_rank_result_free(kd_rank_result *r)
{
    if (!r)
        return;
    for (size_t i = 0; i < r->count; i++)
        free(r->rows[i].gpus);
    free(r->rows);
    free(r->pairs);
    free(r);
}
