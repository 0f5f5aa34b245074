#include "measure/stats.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "util/xalloc.h"

static int compare_doubles(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

static void sort_doubles(double *v, size_t n) { qsort(v, n, sizeof *v, compare_doubles); }

double kd_percentile_sorted(const double *sorted, size_t n, double p)
{
    if (n == 0)
        return NAN;
    double rank = (double)(n - 1) * p / 100.0;
    if (rank <= 0.0)
        return sorted[0];
    if (rank >= (double)(n - 1))
        return sorted[n - 1];
    size_t below = (size_t)rank;
    double frac = rank - (double)below;
    return sorted[below] + frac * (sorted[below + 1] - sorted[below]);
}

size_t kd_remove_outliers(const double *samples, size_t n, double *kept)
{
    if (n == 0)
        return 0;
    /* `kept` doubles as the sorted scratch copy: the fences are known before any sample is
     * written back, so no allocation (and no failure path) is needed. */
    memcpy(kept, samples, n * sizeof *kept);
    sort_doubles(kept, n);
    double q1 = kd_percentile_sorted(kept, n, 25.0), q3 = kd_percentile_sorted(kept, n, 75.0);
    double low = q1 - 3.0 * (q3 - q1), high = q3 + 3.0 * (q3 - q1);
    size_t count = 0;
    for (size_t i = 0; i < n; i++)
        if (samples[i] >= low && samples[i] <= high)
            kept[count++] = samples[i];
    return count;
}

/* Both moments are summed over the sorted samples so that the result does not depend on
 * the order the samples were measured in, down to the last bit. */
static void moments_of_sorted(const double *sorted, size_t n, double *mean, double *stdev)
{
    double sum = 0.0;
    for (size_t i = 0; i < n; i++)
        sum += sorted[i];
    *mean = sum / (double)n;
    double squares = 0.0;
    for (size_t i = 0; i < n; i++)
        squares += (sorted[i] - *mean) * (sorted[i] - *mean);
    *stdev = n > 1 ? sqrt(squares / (double)(n - 1)) : 0.0;
}

/* Returns 0, -1 when n == 0 or when no sample is a number. */
int kd_summarize(const double *samples, size_t n, kd_summary *out)
{
    if (n == 0)
        return -1;
    double *kept = kd_xmalloc(n * sizeof *kept);
    size_t count = kd_remove_outliers(samples, n, kept);
    if (count == 0) { /* only samples that are not numbers fail every fence */
        free(kept);
        return -1;
    }
    sort_doubles(kept, count);
    *out = (kd_summary){.n = count, .outliers = n - count};
    out->min = kept[0];
    out->p20 = kd_percentile_sorted(kept, count, 20.0);
    out->median = kd_percentile_sorted(kept, count, 50.0);
    out->p80 = kd_percentile_sorted(kept, count, 80.0);
    out->p95 = kd_percentile_sorted(kept, count, 95.0);
    out->max = kept[count - 1];
    out->iqr = kd_percentile_sorted(kept, count, 75.0) - kd_percentile_sorted(kept, count, 25.0);
    moments_of_sorted(kept, count, &out->mean, &out->stdev);
    out->cv = out->mean != 0.0 ? out->stdev / out->mean : 0.0;
    free(kept);
    return 0;
}

/* xorshift64*, seeded through splitmix64 so that nearby seeds (0, 1, 2...) start from
 * unrelated states and seed 0 does not give the all-zero state xorshift cannot leave. */
static uint64_t rng_seeded(uint64_t seed)
{
    uint64_t z = seed + 0x9E3779B97F4A7C15u;
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9u;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBu;
    z ^= z >> 31;
    return z ? z : 0x9E3779B97F4A7C15u;
}

static uint64_t rng_next(uint64_t *state)
{
    *state ^= *state >> 12;
    *state ^= *state << 25;
    *state ^= *state >> 27;
    return *state * 0x2545F4914F6CDD1Du;
}

/* The modulo bias is below n / 2^64: far under anything a resample could show. */
static size_t rng_below(uint64_t *state, size_t n) { return (size_t)(rng_next(state) % n); }

/* Median of a resample (with replacement) of `sorted`. Because the data are sorted, the
 * resample's median is the value at the median of the drawn indices, and those are found
 * by counting how often each index was drawn: O(n) per resample, like nth_element, but
 * with no values moved and no pivot to go wrong on the many ties a resample has. */
static double resampled_median(const double *sorted, size_t n, size_t *draws, uint64_t *rng)
{
    memset(draws, 0, n * sizeof *draws);
    for (size_t i = 0; i < n; i++)
        draws[rng_below(rng, n)]++;
    size_t lower_rank = (n - 1) / 2, upper_rank = n / 2, seen = 0, at = 0;
    while (seen + draws[at] <= lower_rank)
        seen += draws[at++];
    double lower = sorted[at];
    while (seen + draws[at] <= upper_rank)
        seen += draws[at++];
    return (lower + sorted[at]) / 2.0;
}

/* z with P(Z > z) = tail for a standard normal Z, by bisection on erfc: 200 halvings of
 * [0, 40] reach double precision for any tail in (0, 0.5). */
double kd_normal_upper_quantile(double tail)
{
    double low = 0.0, high = 40.0;
    for (int i = 0; i < 200; i++) {
        double mid = (low + high) / 2.0;
        if (0.5 * erfc(mid / sqrt(2.0)) > tail)
            low = mid;
        else
            high = mid;
    }
    return (low + high) / 2.0;
}

/* Student t quantile from the normal one, by the Cornish-Fisher expansion of Abramowitz &
 * Stegun 26.7.5: within 0.05% of the exact value from 4 degrees of freedom on, 1% low at 2
 * and 11% low at 1, where the tail it leads to is below 1e-5 either way. */
double kd_student_upper_quantile(double z, double df)
{
    double z2 = z * z;
    double g1 = z * (z2 + 1.0) / 4.0;
    double g2 = z * ((5.0 * z2 + 16.0) * z2 + 3.0) / 96.0;
    double g3 = z * (((3.0 * z2 + 19.0) * z2 + 17.0) * z2 - 15.0) / 384.0;
    double g4 = z * ((((79.0 * z2 + 776.0) * z2 + 1482.0) * z2 - 1920.0) * z2 - 945.0) / 92160.0;
    return z + (g1 + (g2 + (g3 + g4 / df) / df) / df) / df;
}

/* Tail probability of the expanded percentile interval (Hesterberg, "What teachers should
 * know about the bootstrap", 2015), Phi(-sqrt(n/(n-1)) t_{n-1}): the percentile interval
 * reads a bootstrap distribution that is too narrow for small samples, as if z stood where
 * a t and the n/(n-1) variance factor belong. Here the narrowness comes mostly from the
 * drift that samples of one measuring block share, which resampling single samples cannot
 * see and which matters most when there are few blocks, that is when n is small. With two
 * sides the smaller one decides, which errs on the wide side; the widening fades with n. */
static double expanded_tail(double confidence, size_t n)
{
    double df = (double)(n - 1);
    double t = kd_student_upper_quantile(kd_normal_upper_quantile((1.0 - confidence) / 2.0), df);
    return 0.5 * erfc(sqrt((double)n / df) * t / sqrt(2.0));
}

static double *sorted_copy(const double *v, size_t n)
{
    double *copy = kd_xmalloc(n * sizeof *copy);
    memcpy(copy, v, n * sizeof *copy);
    sort_doubles(copy, n);
    return copy;
}

/* Sorting the inputs first makes the interval depend only on the samples and the seed, not
 * on the order they were measured in, and lets a resample's median be found by counting. */
int kd_speedup_ci(const kd_speedup_request *rq, kd_speedup *out)
{
    const double *v1 = rq->side[0].v, *v2 = rq->side[1].v;
    size_t n1 = rq->side[0].n, n2 = rq->side[1].n;
    double confidence = rq->confidence;
    int resamples = rq->resamples;
    if (n1 < 2 || n2 < 2 || !(confidence > 0.0 && confidence < 1.0) || resamples < 1)
        return -1;
    double *sorted1 = sorted_copy(v1, n1), *sorted2 = sorted_copy(v2, n2);
    size_t *draws = kd_xmalloc((n1 > n2 ? n1 : n2) * sizeof *draws);
    double *ratios = kd_xmalloc((size_t)resamples * sizeof *ratios);
    uint64_t rng = rng_seeded(rq->seed);
    for (int r = 0; r < resamples; r++) {
        double median1 = resampled_median(sorted1, n1, draws, &rng);
        ratios[r] = median1 / resampled_median(sorted2, n2, draws, &rng);
    }
    sort_doubles(ratios, (size_t)resamples);
    double tail = expanded_tail(confidence, n1 < n2 ? n1 : n2) * 100.0;
    *out = (kd_speedup){
        .ratio = kd_percentile_sorted(sorted1, n1, 50.0) / kd_percentile_sorted(sorted2, n2, 50.0),
        .lo = kd_percentile_sorted(ratios, (size_t)resamples, tail),
        .hi = kd_percentile_sorted(ratios, (size_t)resamples, 100.0 - tail),
        .confidence = confidence,
    };
    free(sorted1);
    free(sorted2);
    free(draws);
    free(ratios);
    return 0;
}

kd_verdict kd_verdict_with_floor(const kd_speedup *s, double floor_pct)
{
    double band = 1 + floor_pct / 100;
    if (s->lo > band)
        return KD_VERDICT_FASTER;
    if (s->hi < 1 / band)
        return KD_VERDICT_SLOWER;
    return KD_VERDICT_NO_DIFFERENCE;
}

kd_verdict kd_verdict_of(const kd_speedup *s) { return kd_verdict_with_floor(s, 0); }

const char *kd_verdict_name(kd_verdict v)
{
    switch (v) {
    case KD_VERDICT_FASTER:
        return "faster";
    case KD_VERDICT_SLOWER:
        return "slower";
    default:
        return "no significant difference";
    }
}

/* A ratio that is not positive carries no precision at all: infinity keeps an adaptive
 * stop measuring instead of dividing by zero. */
double kd_speedup_ci_halfwidth_pct(const kd_speedup *s)
{
    if (!(s->ratio > 0.0))
        return INFINITY;
    return (s->hi - s->lo) / 2.0 / s->ratio * 100.0;
}

/* The k-th smallest of v[0..n) (k < n), by quickselect; v is reordered. */
static double select_kth(double *v, size_t n, size_t k)
{
    size_t lo = 0, hi = n - 1;
    while (lo < hi) {
        double pivot = v[lo + (hi - lo) / 2];
        size_t i = lo, j = hi;
        while (i <= j) {
            while (v[i] < pivot)
                i++;
            while (v[j] > pivot)
                j--;
            if (i <= j) {
                double t = v[i];
                v[i] = v[j];
                v[j] = t;
                i++;
                if (j == 0)
                    break;
                j--;
            }
        }
        if (k <= j)
            hi = j;
        else if (k >= i)
            lo = i;
        else
            return v[k];
    }
    return v[k];
}

static double median_of_pool(double *pool, size_t n)
{
    double upper = select_kth(pool, n, n / 2);
    if (n % 2)
        return upper;
    double lower = pool[0]; /* after the selection, every value below n/2 is <= upper */
    for (size_t i = 1; i < n / 2; i++)
        lower = pool[i] > lower ? pool[i] : lower;
    return (lower + upper) / 2.0;
}

/* One side's kept samples grouped by round: round r's samples are values[start[r] ..
 * start[r + 1]). */
typedef struct by_round {
    double *values;
    size_t *start;
    size_t n;
} by_round;

/* Tukey's far-out fences over all of a side's samples, then a counting sort by round. */
static void group_by_round(const double *v, const unsigned *round, size_t n, size_t nrounds, by_round *out)
{
    double *sorted = sorted_copy(v, n);
    out->values = kd_xmalloc((n + 1) * sizeof *out->values);
    out->start = kd_xcalloc(nrounds + 1, sizeof *out->start);
    double q1 = kd_percentile_sorted(sorted, n, 25.0), q3 = kd_percentile_sorted(sorted, n, 75.0);
    double low = q1 - 3.0 * (q3 - q1), high = q3 + 3.0 * (q3 - q1);
    free(sorted);
    for (size_t i = 0; i < n; i++)
        if (v[i] >= low && v[i] <= high)
            out->start[round[i] + 1]++;
    for (size_t r = 0; r < nrounds; r++)
        out->start[r + 1] += out->start[r];
    size_t *fill = kd_xmalloc((nrounds + 1) * sizeof *fill);
    memcpy(fill, out->start, (nrounds + 1) * sizeof *fill);
    for (size_t i = 0; i < n; i++)
        if (v[i] >= low && v[i] <= high)
            out->values[fill[round[i]]++] = v[i];
    out->n = out->start[nrounds];
    free(fill);
}

static size_t in_round(const by_round *g, size_t r) { return g->start[r + 1] - g->start[r]; }

/* The rounds of one side, or one per sample when it has none (*own: the array made). */
static const unsigned *rounds_of(const kd_sample_set *side, unsigned **own)
{
    *own = NULL;
    if (side->round)
        return side->round;
    *own = kd_xmalloc((side->n + 1) * sizeof **own);
    for (size_t i = 0; i < side->n; i++)
        (*own)[i] = (unsigned)i;
    return *own;
}

/* A cluster bootstrap: each resample draws rounds with replacement, the same rounds for
 * both sides (a round's placement is common to both), and pools every sample of the drawn
 * rounds. Resampling the samples within the drawn rounds as well counted their spread
 * twice: over 1000 simulated A/A seeds with a 2% placement effect it gave 0.1% false
 * positives, a needlessly wide interval. Rounds are the independent units, so the
 * expanded tail is read with the number of rounds: 0.5% false positives at 6 rounds,
 * 1.5% at 60 (tests/unit/test_stats.c). Sides of two runs share no round: each draws its
 * own (rq->independent), and the tail is read with the smaller number. */
int kd_speedup_ci_rounds(const kd_speedup_request *rq, kd_speedup *out)
{
    if (rq->side[0].n < 2 || rq->side[1].n < 2 || !(rq->confidence > 0.0 && rq->confidence < 1.0) ||
        rq->resamples < 1)
        return -1;
    unsigned *own[2];
    const unsigned *round[2] = {rounds_of(&rq->side[0], &own[0]), rounds_of(&rq->side[1], &own[1])};
    size_t nrounds = 0;
    for (int s = 0; s < 2; s++)
        for (size_t i = 0; i < rq->side[s].n; i++)
            nrounds = round[s][i] + 1 > nrounds ? round[s][i] + 1 : nrounds;
    by_round g[2] = {{0}, {0}};
    for (int s = 0; s < 2; s++)
        group_by_round(rq->side[s].v, round[s], rq->side[s].n, nrounds, &g[s]);
    /* The rounds each side draws from: shared, those both sides have samples in (the same
     * list twice); independent, its own. */
    size_t *usable[2] = {kd_xmalloc((nrounds + 1) * sizeof *usable[0]), kd_xmalloc((nrounds + 1) * sizeof *usable[1])};
    size_t m[2] = {0, 0}, largest[2] = {0, 0};
    for (size_t r = 0; r < nrounds; r++)
        for (int s = 0; s < 2; s++)
            if (rq->independent ? in_round(&g[s], r) > 0 : in_round(&g[0], r) && in_round(&g[1], r)) {
                usable[s][m[s]++] = r;
                largest[s] = in_round(&g[s], r) > largest[s] ? in_round(&g[s], r) : largest[s];
            }
    size_t fewest = m[0] < m[1] ? m[0] : m[1];
    double *pool = NULL;
    double *ratios = kd_xmalloc((size_t)rq->resamples * sizeof *ratios);
    size_t *drawn = kd_xmalloc((nrounds + 1) * sizeof *drawn);
    int rc = 0;
    if (fewest < 2) { /* one round: nothing to resample rounds from */
        rc = kd_speedup_ci(rq, out);
        goto out;
    }
    /* A resample of m rounds holds at most m times the largest round. */
    size_t room = m[0] * largest[0] > m[1] * largest[1] ? m[0] * largest[0] : m[1] * largest[1];
    pool = kd_xmalloc(room * sizeof *pool);
    uint64_t rng = rng_seeded(rq->seed);
    for (int b = 0; b < rq->resamples; b++) {
        double median[2];
        for (int s = 0; s < 2; s++) {
            if (s == 0 || rq->independent) /* shared: v2 pools the rounds drawn for v1 */
                for (size_t i = 0; i < m[s]; i++)
                    drawn[i] = usable[s][rng_below(&rng, m[s])];
            size_t count = 0;
            for (size_t i = 0; i < m[s]; i++) {
                size_t first = g[s].start[drawn[i]], k = in_round(&g[s], drawn[i]);
                memcpy(pool + count, g[s].values + first, k * sizeof *pool);
                count += k;
            }
            median[s] = median_of_pool(pool, count);
        }
        ratios[b] = median[0] / median[1];
    }
    sort_doubles(ratios, (size_t)rq->resamples);
    sort_doubles(g[0].values, g[0].n);
    sort_doubles(g[1].values, g[1].n);
    double tail = expanded_tail(rq->confidence, fewest) * 100.0;
    *out = (kd_speedup){
        .ratio = kd_percentile_sorted(g[0].values, g[0].n, 50.0) / kd_percentile_sorted(g[1].values, g[1].n, 50.0),
        .lo = kd_percentile_sorted(ratios, (size_t)rq->resamples, tail),
        .hi = kd_percentile_sorted(ratios, (size_t)rq->resamples, 100.0 - tail),
        .confidence = rq->confidence,
    };
out:
    for (int s = 0; s < 2; s++) {
        free(g[s].values);
        free(g[s].start);
        free(usable[s]);
        free(own[s]);
    }
    free(pool);
    free(ratios);
    free(drawn);
    return rc;
}

double kd_round_spread_pct(const double *v, const unsigned *round, size_t n)
{
    size_t nrounds = 0;
    for (size_t i = 0; i < n; i++)
        nrounds = round[i] + 1 > nrounds ? round[i] + 1 : nrounds;
    by_round g = {0};
    double *medians = kd_xmalloc((nrounds + 1) * sizeof *medians);
    double spread = 0.0;
    if (n > 0) {
        group_by_round(v, round, n, nrounds, &g);
        size_t m = 0;
        for (size_t r = 0; r < nrounds; r++)
            if (in_round(&g, r))
                medians[m++] = median_of_pool(g.values + g.start[r], in_round(&g, r));
        sort_doubles(medians, m);
        double mid = kd_percentile_sorted(medians, m, 50.0);
        if (m >= 3 && mid > 0)
            spread = (kd_percentile_sorted(medians, m, 90.0) - kd_percentile_sorted(medians, m, 10.0)) / mid * 100.0;
    }
    free(g.values);
    free(g.start);
    free(medians);
    return spread;
}
