/* The racing engine (rank/race.h). */
#include "rank/race.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "util/xalloc.h"

void kd_race_config_default(kd_race_config *c)
{
    *c = (kd_race_config){.top = 3, .confidence = KD_RACE_CONFIDENCE, .block = 5, .min_rounds = 5,
                          .max_rounds = 200, .target_pct = 1.0, .seed = 1};
}

double kd_race_corrected_confidence(double confidence, size_t family)
{
    return 1.0 - (1.0 - confidence) / (double)(family ? family : 1);
}

const char *kd_race_stop_name(kd_race_stop s)
{
    static const char *const names[] = {"separated", "target", "budget", "max_rounds", "nothing"};
    return (unsigned)s < sizeof names / sizeof *names ? names[s] : "?";
}

static double median_of(double *v, size_t n)
{
    for (size_t i = 1; i < n; i++) /* a block is a few samples: insertion sort */
        for (size_t j = i; j > 0 && v[j - 1] > v[j]; j--) {
            double t = v[j];
            v[j] = v[j - 1];
            v[j - 1] = t;
        }
    return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

int kd_race_interval(const kd_race_entry *e, double confidence, kd_speedup *out)
{
    *out = (kd_speedup){0};
    double sum = 0, sum2 = 0;
    size_t rounds = 0;
    double b[64], c[64];
    for (size_t i = 0; i < e->n;) { /* a round's samples are consecutive */
        size_t k = 0;
        unsigned r = e->round[i];
        for (; i < e->n && e->round[i] == r; i++)
            if (k < 64) {
                b[k] = e->base[i];
                c[k++] = e->cand[i];
            }
        double x = log(median_of(b, k)) - log(median_of(c, k));
        sum += x;
        sum2 += x * x;
        rounds++;
    }
    if (rounds < 2 || !(confidence > 0 && confidence < 1))
        return -1;
    double mean = sum / (double)rounds;
    double var = fmax(0, (sum2 - sum * mean) / (double)(rounds - 1));
    double half = kd_student_upper_quantile(kd_normal_upper_quantile((1 - confidence) / 2), (double)(rounds - 1)) * sqrt(var / (double)rounds);
    *out = (kd_speedup){.ratio = exp(mean), .lo = exp(mean - half), .hi = exp(mean + half), .confidence = confidence};
    return 0;
}

/* splitmix64: the order of a round comes from the seed, so a race can be replayed. */
static uint64_t next_random(uint64_t *state)
{
    uint64_t z = (*state += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

static void grow(kd_race_entry *e, size_t need)
{
    if (need <= e->cap)
        return;
    size_t cap = e->cap ? e->cap * 2 : 64;
    while (cap < need)
        cap *= 2;
    e->base = kd_xreallocarray(e->base, cap, sizeof *e->base);
    e->cand = kd_xreallocarray(e->cand, cap, sizeof *e->cand);
    e->round = kd_xreallocarray(e->round, cap, sizeof *e->round);
    e->cap = cap;
}

typedef struct race_run {
    const kd_race_config *cfg;
    const kd_race_ops *ops;
    kd_race *r;
    double confidence;     /* corrected */
    size_t *order;         /* the live candidates, shuffled each round */
} race_run;

static void leave(race_run *rr, size_t i, kd_race_state state)
{
    kd_race_entry *e = &rr->r->e[i];
    e->state = state;
    e->left_round = rr->r->rounds;
    if (rr->ops->left)
        rr->ops->left(rr->ops->ctx, i);
}

static void take_block(race_run *rr, size_t i)
{
    kd_race_entry *e = &rr->r->e[i];
    unsigned k = rr->cfg->block;
    grow(e, e->n + k);
    if (rr->ops->sample(rr->ops->ctx, i, e->rounds, k, e->base + e->n, e->cand + e->n) != 0) {
        leave(rr, i, KD_RACE_FAILED);
        return;
    }
    for (unsigned j = 0; j < k; j++)
        e->round[e->n + j] = e->rounds;
    e->n += k;
    e->rounds++;
    rr->r->samples += 2u * k;
}

/* Fisher-Yates over the live candidates: no candidate is always first after the baseline's
 * warm-up or always last in a round. */
static size_t live_order(race_run *rr, uint64_t *state)
{
    size_t m = 0;
    for (size_t i = 0; i < rr->r->n; i++)
        if (rr->r->e[i].state == KD_RACE_CONTENDER)
            rr->order[m++] = i;
    for (size_t i = m; i > 1; i--) {
        size_t j = (size_t)(next_random(state) % i);
        size_t t = rr->order[i - 1];
        rr->order[i - 1] = rr->order[j];
        rr->order[j] = t;
    }
    return m;
}

static void update_intervals(race_run *rr)
{
    for (size_t i = 0; i < rr->r->n; i++) {
        kd_race_entry *e = &rr->r->e[i];
        if (e->state != KD_RACE_CONTENDER)
            continue;
        e->has_ci = kd_race_interval(e, rr->confidence, &e->ci) == 0;
    }
}

/* A contender drops when K others are clearly faster: their intervals lie wholly above its. */
static void drop_clearly_slower(race_run *rr)
{
    kd_race *r = rr->r;
    bool *drop = kd_xcalloc(r->n + 1, sizeof *drop);
    for (size_t i = 0; i < r->n; i++) {
        const kd_race_entry *e = &r->e[i];
        if (e->state != KD_RACE_CONTENDER || !e->has_ci)
            continue;
        size_t above = 0;
        for (size_t j = 0; j < r->n; j++)
            above += j != i && r->e[j].state == KD_RACE_CONTENDER && r->e[j].has_ci && r->e[j].ci.lo > e->ci.hi;
        drop[i] = above >= rr->cfg->top;
    }
    for (size_t i = 0; i < r->n; i++) /* decided on one round's intervals, then applied */
        if (drop[i])
            leave(rr, i, KD_RACE_DROPPED);
    free(drop);
}

static int by_ratio_desc(const void *a, const void *b)
{
    const kd_race_entry *x = *(kd_race_entry *const *)a, *y = *(kd_race_entry *const *)b;
    return (x->ci.ratio < y->ci.ratio) - (x->ci.ratio > y->ci.ratio);
}

/* Whether the race is over: K or fewer contenders, each clearly apart from the next; or
 * every contender's interval as narrow as the target (they cannot be told apart closer). */
static bool decided(race_run *rr, kd_race_stop *why)
{
    kd_race *r = rr->r;
    kd_race_entry **live = kd_xcalloc(r->n + 1, sizeof *live);
    size_t m = 0;
    bool narrow = true;
    for (size_t i = 0; i < r->n; i++)
        if (r->e[i].state == KD_RACE_CONTENDER) {
            if (!r->e[i].has_ci)
                narrow = false;
            else
                narrow &= kd_speedup_ci_halfwidth_pct(&r->e[i].ci) <= rr->cfg->target_pct;
            live[m++] = &r->e[i];
        }
    bool done = false;
    if (m == 0) {
        *why = KD_RACE_NOTHING;
        done = true;
    } else if (narrow) {
        *why = KD_RACE_TARGET;
        done = true;
    } else if (m <= rr->cfg->top) {
        qsort(live, m, sizeof *live, by_ratio_desc);
        bool apart = true;
        for (size_t i = 0; i + 1 < m; i++)
            apart &= live[i]->has_ci && live[i + 1]->has_ci && live[i]->ci.lo > live[i + 1]->ci.hi;
        if (apart) {
            *why = KD_RACE_SEPARATED;
            done = true;
        }
    }
    free(live);
    return done;
}

int kd_race_run(const kd_race_config *cfg, size_t n, const kd_race_ops *ops, kd_race *out)
{
    memset(out, 0, sizeof *out);
    if (!ops || !ops->sample || cfg->block < 1 || cfg->top < 1 || cfg->min_rounds < 3 || !(cfg->confidence > 0 && cfg->confidence < 1))
        return -1;
    out->e = kd_xcalloc(n + 1, sizeof *out->e);
    out->n = n;
    race_run rr = {.cfg = cfg, .ops = ops, .r = out,
                   .confidence = kd_race_corrected_confidence(cfg->confidence, cfg->family ? cfg->family : n),
                   .order = kd_xcalloc(n + 1, sizeof *rr.order)};
    unsigned max_rounds = cfg->max_rounds ? cfg->max_rounds : 200;
    uint64_t state = cfg->seed ^ 0x5DEECE66Dull;
    for (;;) {
        size_t m = live_order(&rr, &state);
        if (m == 0) {
            out->stop = KD_RACE_NOTHING;
            break;
        }
        if (out->rounds == 0) {
            /* The first min_rounds of each candidate back to back: a harness holds one
             * candidate, and with many candidates only so many can be open at once; the
             * screening then costs one start per candidate, not one per round. */
            for (size_t j = 0; j < m; j++)
                for (unsigned k = 0; k < cfg->min_rounds && out->e[rr.order[j]].state == KD_RACE_CONTENDER; k++)
                    take_block(&rr, rr.order[j]);
            out->rounds = cfg->min_rounds;
        } else {
            for (size_t j = 0; j < m; j++)
                take_block(&rr, rr.order[j]);
            out->rounds++;
        }
        update_intervals(&rr);
        drop_clearly_slower(&rr);
        if (decided(&rr, &out->stop))
            break;
        if (out->rounds >= max_rounds) {
            out->stop = KD_RACE_MAX_ROUNDS;
            break;
        }
        if (ops->out_of_budget && ops->out_of_budget(ops->ctx)) {
            out->stop = KD_RACE_BUDGET;
            break;
        }
    }
    free(rr.order);
    return 0;
}

void kd_race_free(kd_race *r)
{
    for (size_t i = 0; i < r->n; i++) {
        free(r->e[i].base);
        free(r->e[i].cand);
        free(r->e[i].round);
    }
    free(r->e);
    memset(r, 0, sizeof *r);
}
