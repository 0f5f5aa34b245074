#include "diff/counters.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "ncu/advice.h"
#include "util/xalloc.h"

typedef struct row_ref {
    const kd_ncu_table *table;
    size_t row;
} row_ref;

static bool raw_value(const void *ctx, const char *metric, double *out)
{
    const row_ref *r = ctx;
    long col = kd_ncu_column(r->table, metric);
    return col >= 0 && kd_ncu_number(r->table->rows[r->row][col], out);
}

static int by_value(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* The median of v[0..k), k > 0 (sorts v). */
static double median_of(double *v, int k)
{
    qsort(v, (size_t)k, sizeof *v, by_value);
    return k % 2 ? v[k / 2] : 0.5 * (v[k / 2 - 1] + v[k / 2]);
}

/* Median and spread (max - min) over the repeats of one kernel, metric by metric. */
static void combine_repeats(const kd_metric_values *runs, int n, kd_metric_values *median, kd_metric_values *spread)
{
    memset(median, 0, sizeof *median);
    memset(spread, 0, sizeof *spread);
    double v[256];
    for (size_t m = 0; m < kd_metric_def_count; m++) {
        int k = 0;
        for (int r = 0; r < n && k < 256; r++)
            if (runs[r].present[m])
                v[k++] = runs[r].value[m];
        if (k == 0)
            continue;
        median->value[m] = median_of(v, k);
        median->present[m] = spread->present[m] = true;
        spread->value[m] = v[k - 1] - v[0];
    }
}

static const char *kernel_name(const kd_ncu_table *t, size_t row)
{
    long col = kd_ncu_column(t, "Kernel Name");
    return col >= 0 ? t->rows[row][col] : "?";
}

/* A pipeline's spread: extensive metrics' spreads add up (a bound); intensive ones are
 * weighted by each kernel's duration, like their values. */
static void aggregate_spread(const kd_metric_values *values, const kd_metric_values *spreads, size_t n,
                             kd_metric_values *out)
{
    memset(out, 0, sizeof *out);
    long duration = kd_metric_index("duration");
    for (size_t m = 0; m < kd_metric_def_count; m++) {
        double sum = 0, weight = 0;
        for (size_t k = 0; k < n; k++) {
            if (!spreads[k].present[m])
                continue;
            double w = kd_metric_defs[m].extent == KD_EXTENSIVE || duration < 0 ? 1 : values[k].value[duration];
            sum += spreads[k].value[m] * w;
            weight += kd_metric_defs[m].extent == KD_EXTENSIVE ? 0 : w;
            out->present[m] = true;
        }
        out->value[m] = weight > 0 ? sum / weight : sum;
    }
}

/* Rows come in launch order: repeat r, kernel k is row r * kernels + k. */
static void build_side(const kd_ncu_result *res, bool full, kd_side_counters *side)
{
    size_t kernels = res->kernels_per_launch;
    int repeats = res->repeats;
    side->kernels = kd_xcalloc(kernels ? kernels : 1, sizeof *side->kernels);
    kd_metric_values *runs = kd_xcalloc((size_t)repeats, sizeof *runs);
    kd_metric_values *medians = kd_xcalloc(kernels ? kernels : 1, sizeof *medians);
    kd_metric_values *spreads = kd_xcalloc(kernels ? kernels : 1, sizeof *spreads);
    for (size_t k = 0; k < kernels; k++) {
        for (int r = 0; r < repeats; r++) {
            row_ref ref = {&res->table, (size_t)r * kernels + k};
            kd_raw_lookup lookup = {&ref, raw_value};
            kd_metrics_evaluate(&lookup, full, &runs[r]);
        }
        combine_repeats(runs, repeats, &medians[k], &spreads[k]);
        side->kernels[k].name = kd_xstrdup(kernel_name(&res->table, k));
        side->kernels[k].values = medians[k];
        side->kernels[k].spread = spreads[k];
        side->nkernels++;
    }
    kd_metrics_aggregate(medians, kernels, &side->total);
    aggregate_spread(medians, spreads, kernels, &side->spread);
    free(runs);
    free(medians);
    free(spreads);
}

/* The variability of a metric's delta, in the delta's unit. Rates derived from time share
 * the timing pass's evidence; counters have their own, from --ncu-repeats (0: unknown). */
static double noise_of(size_t m, const kd_counters *c, const kd_counter_context *ctx)
{
    const kd_metric_def *d = &kd_metric_defs[m];
    if (kd_metric_time_derived(d))
        return ctx->timing_noise_pct;
    double worst = 0;
    for (int s = 0; s < 2; s++) {
        double spread = c->side[s].spread.value[m], value = fabs(c->side[s].total.value[m]);
        double n = d->unit == KD_UNIT_PCT ? spread : value > 0 ? 100 * spread / value : 0;
        worst = n > worst ? n : worst;
    }
    return worst;
}

/* ncu's duration comes from a few serialised, cache-flushed launches, the verdict from many
 * interleaved samples: a duration delta of the other sign is not evidence against the
 * verdict, and the table must not contradict it without saying so. */
static void check_duration(const kd_counter_context *ctx, kd_counters *c)
{
    long m = kd_metric_index("duration");
    kd_metric_delta *d = &c->delta[m];
    bool contradicts = (ctx->verdict == KD_VERDICT_FASTER && d->delta > 0) ||
                       (ctx->verdict == KD_VERDICT_SLOWER && d->delta < 0);
    if (!d->comparable || !contradicts)
        return;
    d->noisy = true;
    c->contradicted_verdict = ctx->verdict;
}

/* A raw metric on one side: per kernel the median over repeats; a pipeline's kernels summed
 * for a ".sum" metric, else weighted by duration (the rule of the metric table). */
static bool extra_value(const kd_ncu_result *res, const kd_side_counters *side, const char *name, double *out)
{
    long col = kd_ncu_column(&res->table, name), dur = kd_metric_index("duration");
    size_t len = strlen(name), kernels = res->kernels_per_launch;
    bool sum = len > 4 && strcmp(name + len - 4, ".sum") == 0;
    double total = 0, weights = 0, v[256];
    for (size_t k = 0; col >= 0 && k < kernels && k < side->nkernels; k++) {
        int n = 0;
        for (int r = 0; r < res->repeats && n < 256; r++)
            n += kd_ncu_number(res->table.rows[(size_t)r * kernels + k][col], &v[n]);
        const kd_metric_values *kv = &side->kernels[k].values;
        double w = sum ? 1 : kv->present[dur] ? kv->value[dur] : 0;
        if (n == 0)
            continue;
        total += w * median_of(v, n);
        weights += w;
    }
    *out = sum ? total : weights > 0 ? total / weights : 0;
    return weights > 0;
}

/* --metrics: each name both sides have, diffed like a neutral count (or percentage). */
static void build_extras(const kd_ncu_result results[2], const kd_strlist *names, kd_counters *c)
{
    static const kd_metric_def count = {"extra", "", KD_GROUP_SOL, KD_UNIT_COUNT, KD_NEUTRAL, KD_EXTENSIVE, false,
                                        {NULL}, NULL};
    static const kd_metric_def pct = {"extra", "", KD_GROUP_SOL, KD_UNIT_PCT, KD_NEUTRAL, KD_INTENSIVE, false,
                                      {NULL}, NULL};
    for (int s = 0; s < 2 && !c->missing_extra; s++)
        if (results[s].missing_extra)
            c->missing_extra = kd_xstrdup(results[s].missing_extra);
    if (!names || names->count == 0)
        return;
    c->extras = kd_xcalloc(names->count, sizeof *c->extras);
    for (size_t i = 0; i < names->count; i++) {
        double v[2];
        if (!extra_value(&results[0], &c->side[0], names->items[i], &v[0]) ||
            !extra_value(&results[1], &c->side[1], names->items[i], &v[1]))
            continue;
        kd_extra_metric *e = &c->extras[c->nextras++];
        e->name = names->items[i];
        const kd_metric_def *def = strstr(e->name, "pct") ? &pct : &count;
        e->unit = def->unit;
        kd_metric_diff(def, v[0], v[1], 0, &e->delta);
    }
}

static void compute_peaks(const kd_counter_context *ctx, kd_counters *c)
{
    double fp32, fp64, tensor;
    if (!ctx->max_sm_clock_hz || !ctx->sms || !ctx->peak_dram_bytes_per_s ||
        !kd_arch_flops_per_clock(ctx->sm, &fp32, &fp64, &tensor))
        return;
    double per_clock = ctx->sms * ctx->max_sm_clock_hz;
    c->peaks = (kd_peaks){.dram_bytes_per_s = ctx->peak_dram_bytes_per_s,
                          .fp32_flops_per_s = fp32 * per_clock,
                          .fp64_flops_per_s = fp64 * per_clock,
                          .tensor_flops_per_s = tensor * per_clock};
    c->peaks_valid = true;
}

void kd_counters_build(const kd_ncu_result results[2], bool full, const kd_counter_context *ctx, kd_counters *out)
{
    memset(out, 0, sizeof *out);
    out->full = full;
    out->repeats = results[0].repeats;
    for (int s = 0; s < 2; s++)
        build_side(&results[s], full, &out->side[s]);
    for (size_t m = 0; m < kd_metric_def_count; m++) {
        const kd_metric_values *a = &out->side[0].total, *b = &out->side[1].total;
        if (a->present[m] && b->present[m])
            kd_metric_diff(&kd_metric_defs[m], a->value[m], b->value[m], noise_of(m, out, ctx), &out->delta[m]);
    }
    check_duration(ctx, out);
    build_extras(results, ctx->extra_metrics, out);
    compute_peaks(ctx, out);
    for (int s = 0; s < 2 && out->peaks_valid; s++) {
        kd_roofline_compute(&out->side[s].total, &out->peaks, &out->side[s].roofline);
        out->side[s].roofline_valid = true;
    }
    kd_advice_input in = {.side = {&out->side[0].total, &out->side[1].total},
                          .spill_bytes = {ctx->spill_bytes[0], ctx->spill_bytes[1]}};
    kd_advice(&in, &out->advice, &out->nadvice);
    out->present = true;
}

void kd_counters_free(kd_counters *c)
{
    for (int s = 0; s < 2; s++) {
        for (size_t k = 0; k < c->side[s].nkernels; k++)
            free(c->side[s].kernels[k].name);
        free(c->side[s].kernels);
    }
    for (size_t i = 0; i < c->nadvice; i++)
        free(c->advice[i]);
    free(c->advice);
    free(c->extras);
    free(c->missing_extra);
    free(c->cupti_refused);
    memset(c, 0, sizeof *c);
}
