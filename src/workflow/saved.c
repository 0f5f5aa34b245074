#include "workflow/saved.h"

#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/exit_codes.h"
#include "diff/counters.h"
#include "ncu/advice.h"

static long integer(json_t *o, const char *key) { return (long)json_integer_value(json_object_get(o, key)); }
static double number(json_t *o, const char *key) { return json_number_value(json_object_get(o, key)); }
static const char *text(json_t *o, const char *key) { return json_string_value(json_object_get(o, key)); }

/* Origins are compared against the analysis' own constants, so that the model keeps
 * pointing at static strings. */
static const char *known_origin(const char *origin)
{
    static const char *const origins[] = {"launch", "--block", "annotation", "__launch_bounds__", "default", "launcher"};
    for (size_t i = 0; origin && i < sizeof origins / sizeof *origins; i++)
        if (!strcmp(origin, origins[i]))
            return origins[i];
    return "default";
}

static kd_limiter limiter_named(const char *name)
{
    for (int l = KD_LIMIT_NONE; l <= KD_LIMIT_SHARED; l++)
        if (name && !strcmp(kd_limiter_name((kd_limiter)l), name))
            return (kd_limiter)l;
    return KD_LIMIT_NONE;
}

/* Adds column `column` ("v1"/"v2") of saved histogram rows to h. */
static void load_rows(json_t *rows, const char *column, kd_histogram *h)
{
    size_t i;
    json_t *row;
    json_array_foreach(rows, i, row)
    {
        long n = integer(row, column);
        if (n > 0)
            kd_hist_add(h, text(row, "key"), n);
    }
}

static void load_static(json_t *root, json_t *side, const char *column, kd_static_result *r)
{
    r->entry = strdup(text(side, "entry") ? text(side, "entry") : "?");
    r->demangled = strdup(text(side, "demangled") ? text(side, "demangled") : "?");
    json_t *res = json_object_get(side, "resources");
    r->resources = (kd_resources){.found = true, .registers = (int)integer(res, "registers"),
                                  .barriers = (int)integer(res, "barriers"),
                                  .shared_static = integer(res, "shared_static_bytes"),
                                  .stack_frame = integer(res, "stack_frame_bytes"),
                                  .spill_stores = integer(res, "spill_stores_bytes"),
                                  .spill_loads = integer(res, "spill_loads_bytes")};
    json_t *occ = json_object_get(side, "occupancy");
    r->block_threads = (int)integer(occ, "block_threads");
    r->block_origin = known_origin(text(occ, "block_origin"));
    r->launcher = r->block_origin && !strcmp(r->block_origin, "launcher");
    r->occupancy_valid = json_is_true(json_object_get(occ, "valid"));
    r->occupancy = (kd_occupancy){.blocks_per_sm = (int)integer(occ, "blocks_per_sm"),
                                  .warps_per_sm = (int)integer(occ, "warps_per_sm"),
                                  .occupancy = number(occ, "occupancy"),
                                  .limiter = limiter_named(text(occ, "limiter"))};
    json_t *checks = json_object_get(side, "sass_checks");
    r->sass_present = json_is_object(checks);
    if (r->sass_present)
        r->sass_checks = (kd_sass_checks){
            .local_loads = integer(checks, "local_loads"), .local_stores = integer(checks, "local_stores"),
            .global_loads = integer(checks, "global_loads"), .global_loads_128 = integer(checks, "global_loads_128"),
            .global_loads_64 = integer(checks, "global_loads_64"), .global_stores = integer(checks, "global_stores"),
            .global_stores_128 = integer(checks, "global_stores_128"), .barriers = integer(checks, "barriers"),
            .memory_barriers = integer(checks, "memory_barriers")};
    json_t *ptx = json_object_get(root, "ptx"), *sass = json_object_get(root, "sass");
    load_rows(json_object_get(ptx, "opcodes"), column, &r->ptx_ops);
    load_rows(json_object_get(ptx, "families"), column, &r->ptx_families);
    if (json_is_object(sass)) {
        load_rows(json_object_get(sass, "opcodes"), column, &r->sass_ops);
        load_rows(json_object_get(sass, "families"), column, &r->sass_families);
    }
}

static int load_samples(json_t *runtime, int index, kd_side_timing *t)
{
    json_t *samples = json_object_get(json_array_get(json_object_get(runtime, "sides"), (size_t)index), "samples_ns");
    size_t n = json_array_size(samples);
    t->samples = calloc(n + 1, sizeof *t->samples);
    t->throttled = calloc(n + 1, sizeof *t->throttled);
    if (!t->samples || !t->throttled || n < 2)
        return -1;
    for (size_t i = 0; i < n; i++)
        t->samples[t->n++] = json_number_value(json_array_get(samples, i));
    json_t *clocks = json_object_get(runtime, "clocks");
    t->clock_min_mhz = (unsigned)integer(clocks, "sm_mhz_min");
    t->clock_max_mhz = (unsigned)integer(clocks, "sm_mhz_max");
    return kd_summarize(t->samples, t->n, &t->summary);
}

/* Speedup and verdict from both runs' raw samples, as the timing pass computes them. */
static int load_timing(json_t *runtime[2], const int index[2], const kd_options *opts, kd_timing *t)
{
    for (int s = 0; s < 2; s++)
        if (load_samples(runtime[s], index[s], &t->side[s]) != 0)
            return -1;
    json_t *gpu = json_object_get(runtime[1], "gpu");
    snprintf(t->device, sizeof t->device, "%s", text(gpu, "name") ? text(gpu, "name") : "?");
    t->sm = (int)integer(gpu, "sm");
    t->sms = (int)integer(gpu, "sms");
    t->driver = (int)integer(gpu, "driver_version");
    t->l2_bytes = integer(gpu, "l2_bytes");
    json_t *mode = json_object_get(runtime[1], "mode");
    t->batched = json_is_true(json_object_get(mode, "batched"));
    t->batch = (unsigned)integer(mode, "launches_per_sample");
    snprintf(t->timer, sizeof t->timer, "%s", text(mode, "timer") ? text(mode, "timer") : "");
    double *kept[2];
    size_t n[2];
    for (int s = 0; s < 2; s++) {
        kept[s] = malloc(t->side[s].n * sizeof *kept[s]);
        n[s] = kept[s] ? kd_remove_outliers(t->side[s].samples, t->side[s].n, kept[s]) : 0;
    }
    int rc = kd_speedup_ci(kept[0], n[0], kept[1], n[1], 0.95, 4000, opts->timing.seed, &t->speedup);
    free(kept[0]);
    free(kept[1]);
    t->min_effect_pct = opts->timing.min_effect_pct;
    t->verdict = kd_verdict_with_floor(&t->speedup, t->min_effect_pct);
    t->target_pct = opts->timing.target_pct;
    t->target_reached = kd_speedup_ci_halfwidth_pct(&t->speedup) <= t->target_pct;
    t->stop_reason = "the saved samples";
    t->from_saved = true;
    return rc;
}

static void load_kernel_metrics(json_t *metrics, kd_metric_values *v)
{
    memset(v, 0, sizeof *v);
    for (size_t m = 0; m < kd_metric_def_count; m++) {
        json_t *x = json_object_get(metrics, kd_metric_defs[m].id);
        if (json_is_number(x)) {
            v->value[m] = json_number_value(x);
            v->present[m] = true;
        }
    }
}

static int load_counters(json_t *counters[2], const int index[2], const kd_comparison *c, kd_counters *k)
{
    memset(k, 0, sizeof *k);
    k->full = text(counters[1], "set") && !strcmp(text(counters[1], "set"), "full");
    k->repeats = (int)integer(counters[1], "repeats");
    for (int s = 0; s < 2; s++) {
        json_t *kernels = json_object_get(json_array_get(json_object_get(counters[s], "sides"), (size_t)index[s]), "kernels");
        kd_side_counters *side = &k->side[s];
        side->kernels = calloc(json_array_size(kernels) + 1, sizeof *side->kernels);
        kd_metric_values *values = calloc(json_array_size(kernels) + 1, sizeof *values);
        if (!side->kernels || !values) {
            free(values);
            return -1;
        }
        size_t i;
        json_t *kernel;
        json_array_foreach(kernels, i, kernel)
        {
            side->kernels[i].name = strdup(text(kernel, "name") ? text(kernel, "name") : "?");
            load_kernel_metrics(json_object_get(kernel, "metrics"), &side->kernels[i].values);
            values[i] = side->kernels[i].values;
            side->nkernels++;
        }
        kd_metrics_aggregate(values, side->nkernels, &side->total);
        free(values);
    }
    /* Counter noise across runs is unknown; time-based rates share the recomputed CI. */
    double timing_noise = c->timed ? kd_speedup_ci_halfwidth_pct(&c->timing.speedup) : 0;
    for (size_t m = 0; m < kd_metric_def_count; m++)
        if (k->side[0].total.present[m] && k->side[1].total.present[m]) {
            bool timed = !strcmp(kd_metric_defs[m].id, "duration") || !strcmp(kd_metric_defs[m].id, "dram_bandwidth");
            kd_metric_diff(&kd_metric_defs[m], k->side[0].total.value[m], k->side[1].total.value[m],
                           timed ? timing_noise : 0, &k->delta[m]);
        }
    json_t *peaks = json_object_get(counters[1], "peaks");
    if (json_is_object(peaks)) {
        k->peaks = (kd_peaks){number(peaks, "dram_bytes_per_s"), number(peaks, "fp32_flops_per_s"),
                              number(peaks, "fp64_flops_per_s"), number(peaks, "tensor_flops_per_s")};
        k->peaks_valid = true;
        for (int s = 0; s < 2; s++) {
            kd_roofline_compute(&k->side[s].total, &k->peaks, &k->side[s].roofline);
            k->side[s].roofline_valid = true;
        }
    }
    kd_advice_input in = {.side = {&k->side[0].total, &k->side[1].total}};
    if (kd_advice(&in, &k->advice, &k->nadvice) != 0)
        return -1;
    k->present = true;
    return 0;
}

/* A warning when the two runs cannot be compared as like for like. */
static char *comparability(json_t *runtime[2])
{
    const char *gpu[2], *names[2] = {"OLD", "NEW"};
    long driver[2];
    for (int s = 0; s < 2; s++) {
        json_t *g = json_object_get(runtime[s], "gpu");
        gpu[s] = text(g, "name") ? text(g, "name") : "?";
        driver[s] = integer(g, "driver_version");
    }
    if (!strcmp(gpu[0], gpu[1]) && driver[0] == driver[1])
        return NULL;
    char *note = NULL;
    if (asprintf(&note, "WARNING: the runs differ: %s ran on %s (driver %ld), %s on %s (driver %ld): timings are not like for like",
                 names[0], gpu[0], driver[0], names[1], gpu[1], driver[1]) < 0)
        return NULL;
    return note;
}

int kd_compare_saved(const kd_options *opts, kd_comparison *c)
{
    memset(c, 0, sizeof *c);
    static const char *const labels[2] = {"v1", "v2"};
    const char *column = opts->compare_side ? opts->compare_side : "v2";
    int index[2];
    json_t *root[2] = {NULL, NULL};
    int rc = KD_EXIT_OK;
    for (int s = 0; s < 2 && rc == KD_EXIT_OK; s++) {
        json_error_t err;
        root[s] = json_load_file(opts->files[s], 0, &err);
        if (!root[s] || !json_is_array(json_object_get(root[s], "sides"))) {
            fprintf(stderr, "kerndiff: %s: %s is not a saved kerndiff result (%s)\n", s ? "NEW" : "OLD", opts->files[s],
                    root[s] ? "no sides" : err.text);
            rc = KD_EXIT_INPUT;
            break;
        }
        index[s] = !strcmp(column, "v1") ? 0 : 1;
        json_t *side = json_array_get(json_object_get(root[s], "sides"), (size_t)index[s]);
        kd_side *d = &c->side[s];
        d->label = labels[s];
        d->path = opts->files[s];
        d->kernel = strdup(text(side, "kernel") ? text(side, "kernel") : "?");
        if (asprintf(&d->origin, "%s (%s %s of that run)", opts->files[s], column, text(side, "path")) < 0)
            d->origin = NULL;
        load_static(root[s], side, column, &d->stat);
        d->launch_error = strdup("compared from a saved run: its launch is in that file");
        json_t *build = json_object_get(side, "build");
        snprintf(d->build.key, sizeof d->build.key, "%s", text(build, "key") ? text(build, "key") : "");
        d->build.from_cache = json_is_true(json_object_get(build, "cached"));
    }
    if (rc == KD_EXIT_OK) {
        json_t *arch = json_object_get(root[1], "arch");
        snprintf(c->arch, sizeof c->arch, "%s", text(arch, "name") ? text(arch, "name") : "?");
        c->arch_origin = "NEW's run";
        c->limits = kd_arch_limits_for(kd_arch_parse(c->arch));
        json_t *runtime[2] = {json_object_get(root[0], "runtime"), json_object_get(root[1], "runtime")};
        json_t *counters[2] = {json_object_get(root[0], "counters"), json_object_get(root[1], "counters")};
        if (json_is_object(runtime[0]) && json_is_object(runtime[1])) {
            c->timed = load_timing(runtime, index, opts, &c->timing) == 0;
            c->simulated = json_is_true(json_object_get(runtime[1], "simulated"));
            c->selection_note = comparability(runtime);
        }
        if (!c->timed)
            c->runtime_note = strdup("no timing compared: a saved run has no runtime samples");
        if (json_is_object(counters[0]) && json_is_object(counters[1]) && load_counters(counters, index, c, &c->counters) != 0)
            c->counters_note = strdup("counters not compared: out of memory");
        if (kd_comparison_tabulate(c) != 0)
            rc = KD_EXIT_TOOL;
        c->analysed = rc == KD_EXIT_OK;
    }
    json_decref(root[0]);
    json_decref(root[1]);
    return rc;
}
