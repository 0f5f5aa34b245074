#include "measure/tune_select.h"

#include <math.h>
#include <stdlib.h>

#include "util/xalloc.h"

/* The timed samples of the column at `stride` apart, with their rounds, into v and round. */
static size_t column(const double *ns, size_t stride, size_t rounds, double *v, unsigned *round)
{
    size_t n = 0;
    for (size_t r = 0; r < rounds; r++)
        if (!isnan(ns[r * stride])) {
            v[n] = ns[r * stride];
            round[n++] = (unsigned)r;
        }
    return n;
}

int kd_tune_pair_ratio(kd_tune_column ca, kd_tune_column cb, size_t rounds, uint64_t seed, kd_speedup *out)
{
    const double *a = ca.values, *b = cb.values;
    size_t a_stride = ca.stride, b_stride = cb.stride;
    double *va = kd_xmalloc((rounds + 1) * sizeof *va), *vb = kd_xmalloc((rounds + 1) * sizeof *vb);
    unsigned *ra = kd_xmalloc((rounds + 1) * sizeof *ra), *rb = kd_xmalloc((rounds + 1) * sizeof *rb);
    /* Only rounds both were timed in: the ratio is paired. */
    size_t na = 0, nb = 0;
    for (size_t r = 0; r < rounds; r++)
        if (!isnan(a[r * a_stride]) && !isnan(b[r * b_stride])) {
            va[na] = a[r * a_stride];
            ra[na++] = (unsigned)r;
            vb[nb] = b[r * b_stride];
            rb[nb++] = (unsigned)r;
        }
    int rc = -1;
    if (na >= 2) {
        kd_speedup_request rq = {.side = {{va, ra, na}, {vb, rb, nb}},
                                 .confidence = KD_SPEEDUP_CONFIDENCE,
                                 .resamples = KD_CHECK_RESAMPLES * 2,
                                 .seed = seed};
        rc = kd_speedup_ci_rounds(&rq, out);
    }
    free(va);
    free(vb);
    free(ra);
    free(rb);
    return rc;
}

/* Median of config i's timed samples; NAN with fewer than two. */
static double config_median(const kd_tune_samples *s, size_t i, double *v, unsigned *round)
{
    size_t n = column(s->ns + i, s->configs, s->rounds, v, round);
    if (n < 2)
        return NAN;
    kd_summary sum;
    return kd_summarize(v, n, &sum) == 0 ? sum.median : NAN;
}

int kd_tune_choose(const kd_tune_samples *s, uint64_t seed, kd_tune_choice *choice)
{
    *choice = (kd_tune_choice){.leader = -1, .runner_up = -1};
    choice->tied = kd_xcalloc(s->configs ? s->configs : 1, sizeof *choice->tied);
    double *med = kd_xmalloc((s->configs + 1) * sizeof *med), *v = kd_xmalloc((s->rounds + 1) * sizeof *v);
    unsigned *round = kd_xmalloc((s->rounds + 1) * sizeof *round);
    for (size_t i = 0; i < s->configs; i++) {
        med[i] = config_median(s, i, v, round);
        if (isnan(med[i]))
            continue;
        if (choice->leader < 0 || med[i] < med[choice->leader]) {
            choice->runner_up = choice->leader;
            choice->leader = (int)i;
        } else if (choice->runner_up < 0 || med[i] < med[choice->runner_up])
            choice->runner_up = (int)i;
    }
    free(v);
    free(round);
    if (choice->leader < 0) {
        free(med);
        return -1;
    }
    size_t L = (size_t)choice->leader;
    choice->tied[L] = true;
    choice->tied_count = 1;
    choice->lead_significant = true; /* alone: nothing to tie with */
    for (size_t i = 0; i < s->configs; i++) {
        if (i == L || isnan(med[i]))
            continue;
        kd_speedup sp;
        /* config i against the leader: > 1 means the leader is faster. */
        if (kd_tune_pair_ratio((kd_tune_column){s->ns + i, s->configs}, (kd_tune_column){s->ns + L, s->configs}, s->rounds,
                               seed + i, &sp) != 0)
            continue;
        bool tied = kd_verdict_of(&sp) != KD_VERDICT_FASTER;
        if ((int)i == choice->runner_up) {
            choice->lead = sp;
            choice->lead_significant = !tied;
        }
        if (tied) {
            choice->tied[i] = true;
            choice->tied_count++;
        }
    }
    free(med);
    return 0;
}

void kd_tune_choice_free(kd_tune_choice *choice)
{
    free(choice->tied);
    choice->tied = NULL;
}

void kd_tune_set_value(const kd_tune_samples *s, const bool *tied, double *value)
{
    for (size_t r = 0; r < s->rounds; r++) {
        double sum = 0;
        size_t n = 0;
        for (size_t i = 0; tied && i < s->configs; i++) {
            double x = s->ns[r * s->configs + i];
            if (tied[i] && !isnan(x)) {
                sum += x;
                n++;
            }
        }
        value[r] = n ? sum / (double)n : NAN;
    }
}

size_t kd_tune_tied_union(const kd_tune_choice *a, const kd_tune_choice *b, size_t configs, bool *tied)
{
    size_t n = 0;
    for (size_t i = 0; i < configs; i++)
        n += (tied[i] = (a->tied && a->tied[i]) || (b->tied && b->tied[i]));
    return n;
}

bool kd_tune_needs_more(const kd_tune_choice *choice, size_t rounds, size_t max_rounds)
{
    return rounds < max_rounds && (choice->leader < 0 || !choice->lead_significant);
}
