#include "report/report.h"

#include <jansson.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>

#include "diff/rows.h"
#include "gpu/nvml.h"
#include "util/fs.h"
#include "util/hash.h"
#include "report/metric_text.h"

#define KD_JSON_SCHEMA_VERSION 1

static json_t *string_or_null(const char *s) { return s ? json_string(s) : json_null(); }

static json_t *value_rows(const kd_value_row *rows, size_t n, const kd_static_result *r)
{
    json_t *obj = json_object();
    for (size_t i = 0; i < n; i++)
        json_object_set_new(obj, rows[i].key, json_integer(rows[i].get(r)));
    return obj;
}

static json_t *occupancy(const kd_static_result *r)
{
    json_t *o = json_pack("{s:i, s:s, s:b}", "block_threads", r->block_threads, "block_origin",
                          r->block_origin, "valid", r->occupancy_valid);
    if (r->occupancy_valid) {
        const kd_occupancy *x = &r->occupancy;
        json_object_update_new(o, json_pack("{s:i, s:i, s:f, s:s, s:{s:i, s:i, s:i, s:i}}",
                                            "blocks_per_sm", x->blocks_per_sm, "warps_per_sm",
                                            x->warps_per_sm, "occupancy", x->occupancy, "limiter",
                                            kd_limiter_name(x->limiter), "blocks_allowed_by",
                                            "warps", x->by_warps, "blocks", x->by_blocks,
                                            "registers", x->by_registers, "shared", x->by_shared));
    }
    return o;
}

static json_t *launch(const kd_side *s)
{
    if (s->launch_error)
        return json_pack("{s:s}", "error", s->launch_error);
    const kd_launch_spec *l = &s->launch;
    json_t *args = json_array();
    for (size_t i = 0; i < l->nargs; i++) {
        const kd_launch_arg *a = &l->args[i];
        bool buffer = a->role == KD_ROLE_INPUT || a->role == KD_ROLE_OUTPUT;
        json_t *arg = json_pack("{s:s, s:s, s:s, s:i, s:s}", "name", a->name, "role", kd_param_role_name(a->role),
                                "dtype", a->role == KD_ROLE_STREAM ? "stream" : kd_dtype_name(a->type.base), "lanes",
                                a->type.lanes ? a->type.lanes : 1, "origin", a->origin ? a->origin : "harness");
        if (buffer)
            json_object_set_new(arg, "count", json_integer((json_int_t)a->count));
        else if (a->role != KD_ROLE_STREAM)
            json_object_set_new(arg, "value", json_real(a->value));
        json_array_append_new(args, arg);
    }
    return json_pack("{s:I, s:s, s:[i, i, i], s:[i, i, i], s:I, s:o}", "n", (json_int_t)l->n, "n_origin", l->n_origin,
                     "grid", l->grid[0], l->grid[1], l->grid[2], "block", l->block[0], l->block[1], l->block[2],
                     "dynamic_smem", (json_int_t)l->dynamic_smem, "args", args);
}

static json_t *side(const kd_side *s)
{
    const kd_static_result *r = &s->stat;
    json_t *o = json_pack("{s:s, s:s, s:s, s:o, s:o, s:{s:s, s:b}, s:o, s:o, s:I}", "label", s->label,
                          "path", s->path, "kernel", s->kernel, "entry", string_or_null(r->entry),
                          "demangled", string_or_null(r->demangled), "build", "key", s->build.key,
                          "cached", s->build.from_cache, "resources",
                          value_rows(kd_resource_rows, kd_resource_row_count, r), "occupancy",
                          occupancy(r), "ptx_instructions", (json_int_t)r->ptx_ops.total);
    json_object_set_new(o, "sass_checks",
                        r->sass_present ? value_rows(kd_check_rows, kd_check_row_count, r) : json_null());
    json_object_set_new(o, "sass_instructions",
                        r->sass_present ? json_integer(r->sass_ops.total) : json_null());
    json_object_set_new(o, "launch", launch(s));
    json_object_set_new(o, "origin", string_or_null(s->origin));
    return o;
}

static json_t *summary(const kd_summary *s)
{
    return json_pack("{s:I, s:I, s:f, s:f, s:f, s:f, s:f, s:f, s:f, s:f, s:f, s:f}", "n", (json_int_t)s->n,
                     "outliers", (json_int_t)s->outliers, "min", s->min, "p20", s->p20, "median", s->median, "p80",
                     s->p80, "p95", s->p95, "max", s->max, "mean", s->mean, "stdev", s->stdev, "cv", s->cv, "iqr",
                     s->iqr);
}

static json_t *timing_side(const kd_side_timing *t)
{
    json_t *samples = json_array(), *throttled = json_array();
    for (size_t i = 0; i < t->n; i++) {
        json_array_append_new(samples, json_real(t->samples[i]));
        if (t->throttled[i])
            json_array_append_new(throttled, json_integer((json_int_t)i));
    }
    return json_pack("{s:o, s:o, s:o, s:{s:I, s:f, s:b}, s:I}", "summary_ns", summary(&t->summary), "samples_ns",
                     samples, "throttled_sample_indexes", throttled, "warmup", "launches",
                     (json_int_t)t->warmup_launches, "median_ns", t->warmup_median_ns, "stable", t->warmup_stable,
                     "device_bytes", (json_int_t)t->device_bytes);
}

static json_t *correctness(const kd_timing *t)
{
    if (!t->checked)
        return json_null();
    json_t *outputs = json_array();
    for (size_t i = 0; i < t->noutputs; i++) {
        const kd_output_check *oc = &t->outputs[i];
        const kd_buffer_check *r = &oc->result;
        json_t *first = json_array();
        for (size_t k = 0; k < r->first_count; k++)
            json_array_append_new(first, json_pack("{s:I, s:f, s:f}", "index", (json_int_t)r->first[k].index, "v1",
                                                   r->first[k].v1, "v2", r->first[k].v2));
        json_array_append_new(
            outputs, json_pack("{s:s, s:s, s:i, s:I, s:b, s:I, s:I, s:I, s:I, s:f, s:f, s:f, s:f, s:o}", "name",
                               oc->name, "dtype", kd_dtype_name(oc->type.base), "lanes", oc->type.lanes, "elements",
                               (json_int_t)r->count, "match", r->match, "mismatches", (json_int_t)r->mismatches,
                               "unwritten_v1", (json_int_t)r->unwritten[0], "unwritten_v2",
                               (json_int_t)r->unwritten[1], "nan_mismatches", (json_int_t)r->nan_mismatches,
                               "max_abs_err", r->max_abs_err, "max_rel_err", r->max_rel_err, "rtol",
                               oc->tolerance.rtol, "atol", oc->tolerance.atol, "first_mismatches", first));
    }
    return json_pack("{s:b, s:o, s:o}", "match", t->outputs_match && t->noutputs > 0, "outputs", outputs,
                     "not_compared", string_or_null(t->unpaired));
}

static json_t *runtime(const kd_comparison *c)
{
    if (!c->timed)
        return json_null();
    const kd_timing *t = &c->timing;
    kd_strbuf headline = {0};
    kd_timing_headline(t, &headline);
    char reasons[128];
    kd_nvml_reason_names(t->side[0].reasons_seen | t->side[1].reasons_seen, reasons, sizeof reasons);
    json_t *o = json_pack(
        "{s:b, s:{s:s, s:i, s:i, s:i, s:I}, s:{s:b, s:i, s:b, s:s}, s:{s:b, s:i, s:i, s:i, s:I, s:s},"
        " s:[o, o], s:{s:f, s:f, s:f, s:f, s:f, s:s}, s:s, s:s, s:{s:s, s:f, s:b, s:I, s:f}, s:o}",
        "simulated", c->simulated, "gpu", "name", t->device, "sm", t->sm, "sms", t->sms, "driver_version", t->driver,
        "l2_bytes", (json_int_t)t->l2_bytes, "mode", "batched", t->batched, "launches_per_sample", t->batch,
        "l2_flushed", !t->batched, "timer", t->timer, "clocks", "locked", t->clocks_locked || t->locked_by_kerndiff_mhz, "locked_by_kerndiff_mhz",
        t->locked_by_kerndiff_mhz, "sm_mhz_min",
        t->side[0].clock_min_mhz < t->side[1].clock_min_mhz ? t->side[0].clock_min_mhz : t->side[1].clock_min_mhz,
        "sm_mhz_max",
        t->side[0].clock_max_mhz > t->side[1].clock_max_mhz ? t->side[0].clock_max_mhz : t->side[1].clock_max_mhz,
        "throttled_samples", (json_int_t)(t->side[0].throttled_count + t->side[1].throttled_count), "reasons",
        reasons, "sides", timing_side(&t->side[0]), timing_side(&t->side[1]), "speedup", "ratio", t->speedup.ratio,
        "ci_low", t->speedup.lo, "ci_high", t->speedup.hi, "confidence", t->speedup.confidence, "min_effect_pct",
        t->min_effect_pct, "method",
        "ratio of medians (v1/v2) after outlier removal; percentile bootstrap interval", "verdict",
        kd_verdict_name(t->verdict), "headline", kd_sb_str(&headline), "stop", "reason", t->stop_reason,
        "target_pct", t->target_pct, "target_reached", t->target_reached, "rounds", (json_int_t)t->rounds,
        "seconds", t->measure_s, "correctness", correctness(t));
    kd_sb_free(&headline);
    return o;
}

static const char *unit_name(kd_unit u)
{
    static const char *const names[] = {"ns", "byte", "byte/s", "hz", "%", "count", "ratio", "flop/s", "flop/byte"};
    return (size_t)u < sizeof names / sizeof *names ? names[u] : "?";
}

static json_t *metric_object(const kd_metric_values *v)
{
    json_t *o = json_object();
    for (size_t m = 0; m < kd_metric_def_count; m++)
        if (v->present[m] && isfinite(v->value[m]))
            json_object_set_new(o, kd_metric_defs[m].id, json_real(v->value[m]));
    return o;
}

static json_t *roofline(const kd_side_counters *s)
{
    if (!s->roofline_valid)
        return json_null();
    const kd_roofline *r = &s->roofline;
    return json_pack("{s:f, s:f, s:f, s:f, s:f, s:f, s:s, s:f}", "flops", r->flops, "dram_bytes", r->bytes, "seconds",
                     r->seconds, "intensity", r->intensity, "bw_fraction", r->bw_fraction, "compute_fraction",
                     r->compute_fraction, "bound", kd_bound_name(r->bound), "headroom", r->headroom);
}

static json_t *counter_side(const kd_side_counters *s)
{
    json_t *kernels = json_array();
    for (size_t k = 0; k < s->nkernels; k++)
        json_array_append_new(kernels, json_pack("{s:s, s:o}", "name", s->kernels[k].name, "metrics",
                                                 metric_object(&s->kernels[k].values)));
    return json_pack("{s:o, s:o, s:o}", "kernels", kernels, "metrics", metric_object(&s->total), "roofline",
                     roofline(s));
}

static json_t *counters(const kd_comparison *c)
{
    const kd_counters *k = &c->counters;
    if (!k->present)
        return json_null();
    json_t *deltas = json_array(), *advice = json_array();
    for (size_t m = 0; m < kd_metric_def_count; m++) {
        const kd_metric_delta *d = &k->delta[m];
        if (!d->comparable)
            continue;
        const kd_metric_def *def = &kd_metric_defs[m];
        json_array_append_new(
            deltas, json_pack("{s:s, s:s, s:s, s:s, s:f, s:f, s:o, s:s, s:s, s:b, s:b}", "id", def->id, "label",
                              def->label, "group", kd_group_name(def->group), "unit", unit_name(def->unit), "v1", d->v1,
                              "v2", d->v2, "delta", isfinite(d->delta) ? json_real(d->delta) : json_null(), "delta_unit",
                              def->unit == KD_UNIT_PCT ? "pp" : "%", "symbol", d->symbol, "noisy", d->noisy, "changed",
                              d->changed));
    }
    for (size_t i = 0; i < k->nadvice; i++)
        json_array_append_new(advice, json_string(k->advice[i]));
    json_t *peaks = k->peaks_valid ? json_pack("{s:f, s:f, s:f, s:f}", "dram_bytes_per_s", k->peaks.dram_bytes_per_s,
                                               "fp32_flops_per_s", k->peaks.fp32_flops_per_s, "fp64_flops_per_s",
                                               k->peaks.fp64_flops_per_s, "tensor_flops_per_s",
                                               k->peaks.tensor_flops_per_s)
                                   : json_null();
    return json_pack("{s:s, s:i, s:o, s:[o, o], s:o, s:o}", "set", k->full ? "full" : "fast", "repeats", k->repeats,
                     "peaks", peaks, "sides", counter_side(&k->side[0]), counter_side(&k->side[1]), "deltas", deltas,
                     "advice", advice);
}

/* Where and how the result was made, so that a saved run can be compared later and its
 * comparability judged (GPU, driver, kerndiff version, the sources' contents). */
static json_t *environment(const kd_comparison *c)
{
    char host[256] = "", date[32] = "";
    gethostname(host, sizeof host - 1);
    time_t t = (time_t)c->started;
    struct tm tm;
    if (gmtime_r(&t, &tm))
        strftime(date, sizeof date, "%Y-%m-%dT%H:%M:%SZ", &tm);
    json_t *command = json_array();
    for (int i = 0; i < c->argc; i++)
        json_array_append_new(command, json_string(c->argv[i]));
    json_t *sources = json_array();
    for (int s = 0; s < 2; s++) {
        char hex[65] = "";
        size_t len;
        char *text = kd_read_file(c->side[s].path, &len);
        if (text) {
            kd_hash h;
            kd_hash_init(&h);
            sha256_update(&h.ctx, len, (const uint8_t *)text);
            kd_hash_hex(&h, hex);
        }
        free(text);
        json_array_append_new(sources, json_pack("{s:s, s:s}", "path", c->side[s].path, "sha256", hex));
    }
    return json_pack("{s:s, s:s, s:s, s:o, s:o}", "kerndiff_version", KD_VERSION, "date", date, "host", host,
                     "command", command, "sources", sources);
}

static json_t *count_rows(const kd_count_table *t)
{
    json_t *rows = json_array();
    for (size_t i = 0; i < t->count; i++)
        json_array_append_new(rows, json_pack("{s:s, s:I, s:I}", "key", t->rows[i].key, "v1",
                                              (json_int_t)t->rows[i].v1, "v2", (json_int_t)t->rows[i].v2));
    return rows;
}

static json_t *histograms(const kd_count_table *ops, const kd_count_table *families)
{
    return json_pack("{s:[I, I], s:o, s:o}", "total", (json_int_t)ops->total[0],
                     (json_int_t)ops->total[1], "opcodes", count_rows(ops), "families",
                     count_rows(families));
}

static json_t *gpu(const kd_gpu_info *g)
{
    if (!g->present)
        return json_pack("{s:b, s:s}", "present", 0, "reason", g->reason);
    return json_pack("{s:b, s:s, s:i, s:i}", "present", 1, "name", g->name, "sm", g->sm,
                     "driver_version", g->driver_version);
}

json_t *kd_comparison_json(const kd_comparison *c)
{
    json_t *findings = json_array();
    for (size_t i = 0; i < c->finding_count; i++)
        json_array_append_new(findings, json_string(c->findings[i]));
    bool sass = c->side[0].stat.sass_present && c->side[1].stat.sass_present;
    json_t *root = json_pack(
        "{s:i, s:s, s:{s:s, s:s}, s:o, s:[o, o], s:o, s:o, s:o, s:{s:o, s:o, s:o}, s:o}",
        "schema_version", KD_JSON_SCHEMA_VERSION, "kerndiff_version", KD_VERSION, "arch", "name",
        c->arch, "origin", c->arch_origin, "gpu", gpu(&c->gpu), "sides", side(&c->side[0]),
        side(&c->side[1]), "findings", findings, "ptx", histograms(&c->ptx_ops, &c->ptx_families),
        "sass", sass ? histograms(&c->sass_ops, &c->sass_families) : json_null(), "notes",
        "selection", string_or_null(c->selection_note), "sass", string_or_null(c->sass_note),
        "runtime", string_or_null(c->runtime_note), "runtime", runtime(c));
    if (root) {
        json_object_set_new(root, "counters", counters(c));
        json_object_set_new(root, "gate", !c->gate.requested ? json_null()
                                          : json_pack("{s:f, s:b, s:b, s:f, s:f, s:s}", "limit_pct", c->gate.limit_pct,
                                                      "evaluated", c->gate.evaluated, "failed", c->gate.failed,
                                                      "slowdown", c->gate.slowdown, "slowdown_ci_low",
                                                      c->gate.slowdown_low, "text", c->gate.text));
        json_object_set_new(json_object_get(root, "notes"), "counters", string_or_null(c->counters_note));
        json_object_set_new(json_object_get(root, "notes"), "git", string_or_null(c->git_note));
        json_object_set_new(root, "environment", environment(c));
    }
    return root;
}

int kd_render_json(FILE *out, const kd_comparison *c)
{
    json_t *root = kd_comparison_json(c);
    if (!root)
        return -1;
    return kd_write_json(out, root);
}

int kd_write_json(FILE *out, json_t *root)
{
    int rc = json_dumpf(root, out, JSON_INDENT(2) | JSON_PRESERVE_ORDER);
    fputc('\n', out);
    json_decref(root);
    return rc == 0 && !ferror(out) ? 0 : -1;
}
