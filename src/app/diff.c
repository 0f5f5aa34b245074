#include "app/diff.h"

#include <stdlib.h>
#include <string.h>

#include "measure/verdict.h"
#include "util/xalloc.h"

const kd_app_total_info kd_app_total_infos[KD_APP_TOTALS] = {
    [KD_APP_KERNEL_NS] = {"kernel_ns", "GPU kernel time", KD_APP_UNIT_NS, true},
    [KD_APP_LAUNCHES] = {"launches", "kernel launches", KD_APP_UNIT_COUNT, true},
    [KD_APP_KERNELS] = {"kernels", "distinct kernels", KD_APP_UNIT_COUNT, false},
    [KD_APP_COPY_NS] = {"copy_ns", "copy + memset time", KD_APP_UNIT_NS, true},
    [KD_APP_HTOD_BYTES] = {"htod_bytes", "host-to-device bytes", KD_APP_UNIT_BYTES, true},
    [KD_APP_DTOH_BYTES] = {"dtoh_bytes", "device-to-host bytes", KD_APP_UNIT_BYTES, true},
    [KD_APP_DTOH_COPIES] = {"dtoh_copies", "device-to-host copies", KD_APP_UNIT_COUNT, true},
    [KD_APP_SYNCS] = {"synchronizations", "synchronisations", KD_APP_UNIT_COUNT, true},
    [KD_APP_ALLOCS] = {"allocations", "allocations", KD_APP_UNIT_COUNT, true},
    [KD_APP_WALL_NS] = {"wall_ns", "wall time", KD_APP_UNIT_NS, false},
};

/* Same seed for every interval: the report is reproducible. */
enum { SEED = 1 };

/* The median of a few runs' values (all of them: with three runs no value is an outlier). */
static double median(const double *v, size_t n)
{
    if (!n)
        return 0;
    double *sorted = kd_xmalloc(n * sizeof *sorted);
    memcpy(sorted, v, n * sizeof *v);
    for (size_t i = 1; i < n; i++) /* insertion sort: a handful of runs */
        for (size_t j = i; j > 0 && sorted[j - 1] > sorted[j]; j--) {
            double t = sorted[j];
            sorted[j] = sorted[j - 1];
            sorted[j - 1] = t;
        }
    double m = kd_percentile_sorted(sorted, n, 50);
    free(sorted);
    return m;
}

/* The change of one quantity given per run on each side (vals[side][run]). */
static void change_of(double *const vals[2], const size_t n[2], double steps, kd_app_change *out)
{
    memset(out, 0, sizeof *out);
    for (int s = 0; s < 2; s++) {
        out->v[s] = median(vals[s], n[s]);
        out->per_step[s] = steps > 0 ? out->v[s] / steps : 0;
    }
    out->has_ratio = out->v[0] > 0 && out->v[1] > 0;
    if (!out->has_ratio)
        return;
    out->ratio.ratio = out->v[0] / out->v[1];
    out->ratio.confidence = KD_SPEEDUP_CONFIDENCE;
    /* Decided like every verdict (measure/verdict.h): each run is a process of its own, a
     * round of one value, and the two sides' runs share nothing. */
    kd_sample_set sets[2] = {{vals[0], NULL, n[0]}, {vals[1], NULL, n[1]}};
    kd_verdict_options vo = {.seed = SEED, .independent = true};
    kd_decision d;
    if (n[0] >= 2 && n[1] >= 2 && kd_decide(sets, &vo, &d) == 0) {
        out->ratio = d.speedup;
        out->has_ci = true;
        out->verdict = d.verdict;
    }
}

static int by_name(const void *x, const void *y)
{
    return strcmp(((const kd_app_kernel *)x)->name, ((const kd_app_kernel *)y)->name);
}

static int by_string(const void *x, const void *y)
{
    return strcmp(*(const char *const *)x, *(const char *const *)y);
}

static double max2(const double v[2])
{
    return v[0] > v[1] ? v[0] : v[1];
}

static int by_time(const void *x, const void *y)
{
    double a = max2(((const kd_app_row *)x)->time.v), b = max2(((const kd_app_row *)y)->time.v);
    return a < b ? 1 : a > b ? -1 : strcmp(((const kd_app_row *)x)->name, ((const kd_app_row *)y)->name);
}

static int by_api_time(const void *x, const void *y)
{
    const kd_app_api_row *p = x, *q = y;
    double a = max2(p->ns), b = max2(q->ns);
    return a < b ? 1 : a > b ? -1 : strcmp(p->name, q->name);
}

static double total_of(const kd_app_run *r, kd_app_total_id id)
{
    const kd_app_activity *a = &r->activity;
    switch (id) {
    case KD_APP_KERNEL_NS: return (double)kd_app_kernel_ns(a);
    case KD_APP_LAUNCHES: return (double)kd_app_launches(a);
    case KD_APP_KERNELS: {
        size_t distinct = 0; /* kernels are sorted by name by now */
        for (size_t i = 0; i < a->nkernels; i++)
            distinct += i == 0 || strcmp(a->kernels[i].name, a->kernels[i - 1].name) != 0;
        return (double)distinct;
    }
    case KD_APP_COPY_NS: {
        double ns = (double)a->memsets.ns;
        for (int k = 0; k < KD_COPY_KINDS; k++)
            ns += (double)a->copies[k].ns;
        return ns;
    }
    case KD_APP_HTOD_BYTES: return (double)a->copies[KD_COPY_HTOD].bytes;
    case KD_APP_DTOH_BYTES: return (double)a->copies[KD_COPY_DTOH].bytes;
    case KD_APP_DTOH_COPIES: return (double)a->copies[KD_COPY_DTOH].count;
    case KD_APP_SYNCS: return (double)kd_app_synchronisations(a);
    case KD_APP_ALLOCS: return (double)kd_app_allocations(a);
    case KD_APP_WALL_NS: return r->wall_ns;
    case KD_APP_TOTALS: break;
    }
    return 0;
}

/* One kernel name on one side: per-run totals and launches, configurations. */
static void fill_row_side(const kd_app_side *side, int s, kd_app_row *row, double *times, double *launches)
{
    uint64_t best = 0;
    for (size_t r = 0; r < side->nruns; r++) {
        const kd_app_activity *a = &side->runs[r].activity;
        kd_app_kernel key = {.name = (char *)row->name};
        size_t lo = 0, hi = a->nkernels; /* first entry of the name */
        while (lo < hi) {
            size_t mid = (lo + hi) / 2;
            if (by_name(&a->kernels[mid], &key) < 0)
                lo = mid + 1;
            else
                hi = mid;
        }
        times[r] = launches[r] = 0;
        size_t configs = 0; /* entries of one name are its distinct configurations */
        for (size_t i = lo; i < a->nkernels && !strcmp(a->kernels[i].name, row->name); i++, configs++) {
            const kd_app_kernel *k = &a->kernels[i];
            times[r] += (double)k->total_ns;
            launches[r] += (double)k->count;
            row->present[s] = true;
            if (k->count > best) {
                best = k->count;
                row->config[s] = k->config;
            }
        }
        if (configs > row->nconfigs[s])
            row->nconfigs[s] = configs;
    }
}

static void build_rows(kd_app_comparison *c)
{
    size_t nnames = 0, cap = 0;
    const char **names = NULL;
    for (int s = 0; s < 2; s++)
        for (size_t r = 0; r < c->sides[s].nruns; r++) {
            const kd_app_activity *a = &c->sides[s].runs[r].activity;
            if (nnames + a->nkernels > cap) {
                cap = (nnames + a->nkernels) * 2;
                names = kd_xreallocarray(names, cap, sizeof *names);
            }
            for (size_t i = 0; i < a->nkernels; i++)
                names[nnames++] = a->kernels[i].name;
        }
    if (nnames)
        qsort(names, nnames, sizeof *names, by_string);
    size_t unique = 0;
    for (size_t i = 0; i < nnames; i++)
        if (unique == 0 || strcmp(names[unique - 1], names[i]) != 0)
            names[unique++] = names[i];
    size_t most_runs = c->sides[0].nruns > c->sides[1].nruns ? c->sides[0].nruns : c->sides[1].nruns;
    double *buf = kd_xmalloc(4 * (most_runs + 1) * sizeof *buf);
    c->rows = kd_xcalloc(unique + 1, sizeof *c->rows);
    double *times[2] = {buf, buf + most_runs + 1}, *launches[2] = {buf + 2 * (most_runs + 1), buf + 3 * (most_runs + 1)};
    size_t n[2] = {c->sides[0].nruns, c->sides[1].nruns};
    for (size_t i = 0; i < unique; i++) {
        kd_app_row *row = &c->rows[c->nrows++];
        row->name = names[i];
        for (int s = 0; s < 2; s++)
            fill_row_side(&c->sides[s], s, row, times[s], launches[s]);
        change_of(times, n, c->steps, &row->time);
        for (int s = 0; s < 2; s++) {
            row->launches[s] = median(launches[s], n[s]);
            row->mean_ns[s] = row->launches[s] > 0 ? row->time.v[s] / row->launches[s] : 0;
            double total = c->totals[KD_APP_KERNEL_NS].v[s];
            row->share[s] = total > 0 ? row->time.v[s] / total : 0;
        }
    }
    free(buf);
    free(names);
    qsort(c->rows, c->nrows, sizeof *c->rows, by_time);
}

/* An API entry of one run, for the merge by (domain, name). */
typedef struct api_entry {
    const kd_app_api *api;
    int side;
    double runs; /* its side's runs */
} api_entry;

static int by_api_name(const void *x, const void *y)
{
    const kd_app_api *p = ((const api_entry *)x)->api, *q = ((const api_entry *)y)->api;
    return p->driver != q->driver ? (int)p->driver - (int)q->driver : strcmp(p->name, q->name);
}

static void build_apis(kd_app_comparison *c)
{
    size_t cap = 0, n = 0;
    for (int s = 0; s < 2; s++)
        for (size_t r = 0; r < c->sides[s].nruns; r++)
            cap += c->sides[s].runs[r].activity.napis;
    c->apis = kd_xcalloc(cap + 1, sizeof *c->apis);
    api_entry *all = kd_xcalloc(cap + 1, sizeof *all);
    for (int s = 0; s < 2; s++)
        for (size_t r = 0; r < c->sides[s].nruns; r++) {
            const kd_app_activity *a = &c->sides[s].runs[r].activity;
            for (size_t i = 0; i < a->napis; i++)
                all[n++] = (api_entry){&a->apis[i], s, (double)c->sides[s].nruns};
        }
    /* Sorted by (domain, name), then merged: near-linear in the names, however many. The
     * mean per run (a name missing from a run counts 0 there): the API table is a summary,
     * the totals carry the statistics. */
    if (n)
        qsort(all, n, sizeof *all, by_api_name);
    for (size_t i = 0; i < n; i++) {
        if (i == 0 || by_api_name(&all[i - 1], &all[i]) != 0) {
            kd_app_api_row *row = &c->apis[c->napis++];
            row->name = all[i].api->name;
            row->driver = all[i].api->driver;
        }
        kd_app_api_row *row = &c->apis[c->napis - 1];
        row->count[all[i].side] += (double)all[i].api->count / all[i].runs;
        row->ns[all[i].side] += (double)all[i].api->ns / all[i].runs;
    }
    free(all);
    qsort(c->apis, c->napis, sizeof *c->apis, by_api_time);
}

void kd_app_diff(kd_app_comparison *c, double steps)
{
    size_t n[2] = {c->sides[0].nruns, c->sides[1].nruns};
    double *vals[2] = {kd_xcalloc(n[0] + 1, sizeof(double)), kd_xcalloc(n[1] + 1, sizeof(double))};
    for (int s = 0; s < 2; s++)
        for (size_t r = 0; r < n[s]; r++) {
            kd_app_activity *a = &c->sides[s].runs[r].activity;
            kd_app_activity_drop_index(a); /* the sort reorders what it points at */
            if (a->nkernels)
                qsort(a->kernels, a->nkernels, sizeof *a->kernels, by_name);
            c->gpu[s] |= a->processes > 0;
            c->lost[s] += a->lost;
            c->unavailable[s] += a->unavailable;
        }
    c->steps = steps;
    if (steps <= 0 && c->range) {
        for (int s = 0; s < 2; s++)
            for (size_t r = 0; r < n[s]; r++)
                vals[s][r] = (double)c->sides[s].runs[r].activity.ranges;
        double a = median(vals[0], n[0]), b = median(vals[1], n[1]);
        /* Steps per run must agree for "per step" to compare like with like. */
        if (a > 0 && a == b) {
            c->steps = a;
            c->steps_from_ranges = true;
        }
    }
    for (int id = 0; id < KD_APP_TOTALS; id++) {
        for (int s = 0; s < 2; s++)
            for (size_t r = 0; r < n[s]; r++)
                vals[s][r] = total_of(&c->sides[s].runs[r], (kd_app_total_id)id);
        change_of(vals, n, c->steps, &c->totals[id]);
    }
    free(vals[0]);
    free(vals[1]);
    build_rows(c);
    build_apis(c);
    const kd_app_change *t = &c->totals[KD_APP_KERNEL_NS];
    if (c->fail_if_slower_pct >= 0) {
        /* v2 slower by more than the limit: ratio v1/v2 below 1/(1 + limit), all of the CI. */
        double limit = 1.0 / (1.0 + c->fail_if_slower_pct / 100.0);
        double judged = t->has_ci ? t->ratio.hi : t->ratio.ratio;
        c->gate = t->has_ratio && judged < limit ? KD_APP_GATE_SLOWER : KD_APP_GATE_PASSED;
    }
}

void kd_app_comparison_free(kd_app_comparison *c)
{
    for (int s = 0; s < 2; s++) {
        for (size_t r = 0; r < c->sides[s].nruns; r++)
            kd_app_activity_free(&c->sides[s].runs[r].activity);
        free(c->sides[s].runs);
        free(c->sides[s].label_storage);
        free(c->sides[s].commit);
        free(c->sides[s].dir);
    }
    free(c->rows);
    free(c->apis);
    memset(c, 0, sizeof *c);
}
