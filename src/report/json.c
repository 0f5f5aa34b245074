/* json.c — the JSON document (docs/json-schema.json), written and read from one set of
 * field tables: each key is spelled once, below. Fields marked derived are written from
 * what the tables hold (totals, the headline, the gate's sentence) and recomputed, not
 * read, by the reader. */
#include "report/replay_text.h"
#include "report/hotspots_report.h"
#include "report/report.h"

#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "gpu/nvml.h"
#include "measure/calib.h"
#include "report/autotune_text.h"
#include "report/diag_text.h"
#include "report/gate_summary.h"
#include "report/kernels_text.h"
#include "report/metric_text.h"
#include "report/model_text.h"
#include "report/note_text.h"
#include "report/timing_text.h"
#include "util/fs.h"
#include "util/hash.h"
#include "util/xalloc.h"

/* ---- ids of the model's codes ---------------------------------------------------------- */

static const char *verdict_id(int v) { return kd_verdict_name((kd_verdict)v); }
static const char *limiter_id(int v) { return kd_limiter_name((kd_limiter)v); }

static const char *stop_id(int v)
{
    static const char *const ids[KD_STOP_REASON_COUNT] = {
        [KD_STOP_TARGET_REACHED] = "target_reached", [KD_STOP_MAX_TIME] = "max_time",
        [KD_STOP_MAX_RUNS] = "max_runs", [KD_STOP_SAVED_SAMPLES] = "saved_samples",
        [KD_STOP_AUDIT_FAILED] = "audit_failed"};
    return ids[v];
}

static const char *gate_result_id(int v)
{
    static const char *const ids[] = {[KD_GATE_PASSED] = "passed", [KD_GATE_SLOWER] = "slower",
                                      [KD_GATE_NOT_MEASURED] = "not_measured",
                                      [KD_GATE_OUTPUTS_DIFFER] = "outputs_differ"};
    return ids[v];
}

static const char *finding_id(kd_finding_id id)
{
    static const char *const ids[KD_FINDING_ID_COUNT] = {
        [KD_FINDING_SPILLS] = "register_spills", [KD_FINDING_LOADS_128] = "global_loads_128",
        [KD_FINDING_STORES_128] = "global_stores_128", [KD_FINDING_BARRIERS] = "barriers",
        [KD_FINDING_MEMORY_BARRIERS] = "memory_barriers", [KD_FINDING_OCCUPANCY] = "occupancy"};
    return (unsigned)id < KD_FINDING_ID_COUNT ? ids[id] : "?";
}

static const char *change_id(kd_change c)
{
    static const char *const ids[KD_CHANGE_COUNT] = {"appeared", "vanished", "changed"};
    return (unsigned)c < KD_CHANGE_COUNT ? ids[c] : "?";
}

/* ---- small readers and writers for what a plain field cannot say ------------------------ */


/* A sentence made by report/ as a JSON string; frees the buffer. */
static json_t *sentence(kd_strbuf *text)
{
    json_t *s = json_string(kd_sb_str(text));
    kd_sb_free(text);
    return s;
}

/* The GPU's name when there is one, else why there is none. */
static json_t *gpu_reason(const void *base)
{
    const kd_gpu_info *g = base;
    return g->present ? NULL : json_string(g->reason);
}

static int read_gpu_reason(json_t *v, void *base, const kd_jpath *at, kd_strbuf *err)
{
    kd_gpu_info *g = base;
    if (g->present || !json_is_string(v) || json_string_length(v) >= sizeof g->reason)
        return kd_jfail(at, err, "must be a short string, and only when present is false");
    memcpy(g->reason, json_string_value(v), json_string_length(v) + 1);
    return 0;
}

/* ---- a side's static result ---------------------------------------------------------- */

static const kd_jfield build_fields[] = {
    {KD_J_TEXT_FIELD("key", kd_build, key)},
    {KD_J_FIELD("cached", kd_build, from_cache)},
};
static const kd_jtable build_table = KD_J_TABLE(build_fields);

/* A figure nobody reported (no cuobjdump for a Triton or .cubin side) is null, never 0; a
 * saved run's numbers make `found` true again on reading. */
#define IF_RESOURCES KD_J_WHEN(kd_resources, found)
static const kd_jfield resource_fields[] = {
    {KD_J_FIELD("registers", kd_resources, registers), .range = KD_J_NONNEG, IF_RESOURCES},
    {KD_J_FIELD("spill_stores_bytes", kd_resources, spill_stores), .range = KD_J_NONNEG, IF_RESOURCES},
    {KD_J_FIELD("spill_loads_bytes", kd_resources, spill_loads), .range = KD_J_NONNEG, IF_RESOURCES},
    {KD_J_FIELD("stack_frame_bytes", kd_resources, stack_frame), .range = KD_J_NONNEG, IF_RESOURCES},
    {KD_J_FIELD("shared_static_bytes", kd_resources, shared_static), .range = KD_J_NONNEG, IF_RESOURCES},
    {KD_J_FIELD("barriers", kd_resources, barriers), .range = KD_J_NONNEG, IF_RESOURCES},
};
static const kd_jtable resource_table = KD_J_TABLE(resource_fields);

static const kd_jfield blocks_allowed_fields[] = {
    {KD_J_FIELD("warps", kd_occupancy, by_warps), .range = KD_J_NONNEG},
    {KD_J_FIELD("blocks", kd_occupancy, by_blocks), .range = KD_J_NONNEG},
    {KD_J_FIELD("registers", kd_occupancy, by_registers), .range = KD_J_NONNEG},
    {KD_J_FIELD("shared", kd_occupancy, by_shared), .range = KD_J_NONNEG},
};
static const kd_jtable blocks_allowed_table = KD_J_TABLE(blocks_allowed_fields);

#define IF_OCCUPANCY KD_J_WHEN(kd_static_result, occupancy_valid), .omit = true
static const kd_jfield occupancy_fields[] = {
    {KD_J_FIELD("block_threads", kd_static_result, block_threads), .range = KD_J_NONNEG},
    {KD_J_FIELD("block_origin", kd_static_result, block_origin)},
    {KD_J_FIELD("valid", kd_static_result, occupancy_valid)},
    {KD_J_FIELD("blocks_per_sm", kd_static_result, occupancy.blocks_per_sm), .range = KD_J_NONNEG, IF_OCCUPANCY},
    {KD_J_FIELD("warps_per_sm", kd_static_result, occupancy.warps_per_sm), .range = KD_J_NONNEG, IF_OCCUPANCY},
    {KD_J_FIELD("occupancy", kd_static_result, occupancy.occupancy), .range = KD_J_FRACTION, IF_OCCUPANCY},
    {KD_J_ENUM_FIELD("limiter", kd_static_result, occupancy.limiter, limiter_id, KD_LIMIT_SHARED + 1), IF_OCCUPANCY},
    {KD_J_OBJECT_FIELD("blocks_allowed_by", kd_static_result, occupancy, blocks_allowed_table), IF_OCCUPANCY},
};
static const kd_jtable occupancy_table = KD_J_TABLE(occupancy_fields);

static const kd_jfield check_fields[] = {
    {KD_J_FIELD("local_stores", kd_sass_checks, local_stores), .range = KD_J_NONNEG},
    {KD_J_FIELD("local_loads", kd_sass_checks, local_loads), .range = KD_J_NONNEG},
    {KD_J_FIELD("global_loads", kd_sass_checks, global_loads), .range = KD_J_NONNEG},
    {KD_J_FIELD("global_loads_128", kd_sass_checks, global_loads_128), .range = KD_J_NONNEG},
    {KD_J_FIELD("global_loads_64", kd_sass_checks, global_loads_64), .range = KD_J_NONNEG},
    {KD_J_FIELD("global_stores", kd_sass_checks, global_stores), .range = KD_J_NONNEG},
    {KD_J_FIELD("global_stores_128", kd_sass_checks, global_stores_128), .range = KD_J_NONNEG},
    {KD_J_FIELD("barriers", kd_sass_checks, barriers), .range = KD_J_NONNEG},
    {KD_J_FIELD("memory_barriers", kd_sass_checks, memory_barriers), .range = KD_J_NONNEG},
};
static const kd_jtable check_table = KD_J_TABLE(check_fields);

/* --hotspots: the diff's rows (report/hotspots_view.c), or why a side has none; absent when
 * not asked. Not read back: a saved run keeps it for the reader, compare does not use it. */
static json_t *hotspots(const void *base)
{
    const kd_comparison *c = base;
    if (!c->hotspots.asked)
        return NULL;
    json_t *o = c->hotspots.run ? kd_hotspots_json(&c->hotspots.diff) : json_object();
    if (o && c->hotspots.failure.step != KD_HS_STEP_NONE) {
        kd_strbuf sb = {0};
        kd_hotspots_failure_text(&sb, c->hotspots.failed_side ? "v2" : "v1", &c->hotspots.failure);
        json_object_set_new(o, "problem", json_pack("{s:s, s:s, s:s}", "side", c->hotspots.failed_side ? "v2" : "v1",
                                                    "step", kd_hs_step_name(c->hotspots.failure.step), "text",
                                                    kd_sb_str(&sb)));
        kd_sb_free(&sb);
    }
    return o;
}

static json_t *ptx_instructions(const void *base)
{
    return json_integer(((const kd_side *)base)->stat.ptx_ops.total);
}

static json_t *sass_instructions(const void *base)
{
    const kd_static_result *r = &((const kd_side *)base)->stat;
    return r->sass_present ? json_integer(r->sass_ops.total) : json_null();
}

/* How the side was launched: written for the reader of the file; `compare` does not launch. */
static json_t *launch(const void *base)
{
    const kd_side *s = base;
    if (s->launch_error)
        return json_pack("{s:s}", "error", s->launch_error);
    const kd_launch_spec *l = &s->launch;
    json_t *args = json_array();
    for (size_t i = 0; i < l->nargs; i++) {
        const kd_launch_arg *a = &l->args[i];
        bool buffer = a->role == KD_ROLE_INPUT || a->role == KD_ROLE_OUTPUT || a->role == KD_ROLE_INOUT;
        json_t *arg = json_pack("{s:s, s:s, s:s, s:i, s:s}", "name", a->name, "role", kd_param_role_name(a->role),
                                "dtype", a->role == KD_ROLE_STREAM ? "stream" : kd_dtype_name(a->type.base), "lanes",
                                a->type.lanes ? a->type.lanes : 1, "origin", a->origin ? a->origin : "harness");
        if (buffer)
            json_object_set_new(arg, "count", json_integer((json_int_t)a->count));
        else if (a->role != KD_ROLE_STREAM)
            json_object_set_new(arg, "value", json_real(a->value));
        json_array_append_new(args, arg);
    }
    /* assumed: what kerndiff read from the code rather than was told ("" when nothing) */
    /* A side described by nothing (a kernel of a multi-kernel static diff) has no origins: ""
     * rather than a document that cannot be written. */
    return json_pack("{s:I, s:s, s:[i, i, i], s:[i, i, i], s:I, s:b, s:s, s:o}", "n", (json_int_t)l->n, "n_origin",
                     l->n_origin ? l->n_origin : "", "grid", l->grid[0], l->grid[1], l->grid[2], "block", l->block[0], l->block[1],
                     l->block[2], "dynamic_smem", (json_int_t)l->dynamic_smem, "dynamic_shared", l->dynamic_shared,
                     "assumed", l->assumed, "args", args);
}

/* An autotuned kernel's configs and the choice (diff/autotune.h); null when not autotuned. */
static json_t *autotune(const void *base)
{
    const kd_autotune *t = &((const kd_side *)base)->autotune;
    if (!t->count)
        return json_null();
    static const char *const how[] = {[KD_TUNE_FASTEST] = "fastest", [KD_TUNE_GIVEN] = "given", [KD_TUNE_FIRST] = "first"};
    json_t *configs = json_array();
    for (size_t i = 0; i < t->count; i++)
        json_array_append_new(configs, json_pack("{s:s, s:o}", "config", t->configs[i], "median_ns",
                                                 t->median_ns && !isnan(t->median_ns[i]) ? json_real(t->median_ns[i])
                                                                                        : json_null()));
    kd_strbuf summary = {0};
    kd_autotune_text(t, &summary);
    json_t *o = json_pack("{s:o, s:I, s:s, s:s}", "configs", configs, "chosen", (json_int_t)t->chosen, "how",
                          how[t->how], "summary", kd_sb_str(&summary));
    kd_sb_free(&summary);
    return o;
}

/* A Triton side's launch source (backend/triton_prepare.c): its JSON text as an object; null otherwise. */
static json_t *launch_source(const void *base)
{
    const char *text = ((const kd_side *)base)->launch_source;
    json_t *o = text ? json_loads(text, 0, NULL) : NULL;
    return o ? o : json_null();
}

static const kd_jfield side_fields[] = {
    {KD_J_FIELD("label", kd_side, label)},
    {KD_J_FIELD("path", kd_side, path)},
    {KD_J_FIELD("kernel", kd_side, kernel)},
    {KD_J_FIELD("entry", kd_side, stat.entry), .nullable = true},
    {KD_J_FIELD("demangled", kd_side, stat.demangled), .nullable = true},
    {KD_J_OBJECT_FIELD("build", kd_side, build, build_table)},
    {KD_J_OBJECT_FIELD("resources", kd_side, stat.resources, resource_table)},
    {KD_J_OBJECT_FIELD("occupancy", kd_side, stat, occupancy_table)},
    {.key = "ptx_instructions", .type = KD_J_CUSTOM, .write = ptx_instructions},
    {KD_J_OBJECT_FIELD("sass_checks", kd_side, stat.sass_checks, check_table), KD_J_WHEN(kd_side, stat.sass_present)},
    {.key = "sass_instructions", .type = KD_J_CUSTOM, .write = sass_instructions},
    {.key = "launch", .type = KD_J_CUSTOM, .write = launch},
    {KD_J_FIELD("origin", kd_side, origin), .nullable = true},
    {.key = "autotune", .type = KD_J_CUSTOM, .write = autotune},
    {.key = "launch_source", .type = KD_J_CUSTOM, .write = launch_source},
};
static const kd_jtable side_table = KD_J_TABLE(side_fields);

/* ---- instruction histograms: rows of both sides, read back into each side's histogram ---- */

static const kd_jfield row_fields[] = {
    {KD_J_FIELD("key", kd_count_row, key)},
    {KD_J_FIELD("v1", kd_count_row, v1), .range = KD_J_NONNEG},
    {KD_J_FIELD("v2", kd_count_row, v2), .range = KD_J_NONNEG},
};
static const kd_jtable row_table = KD_J_TABLE(row_fields);

static const char *const histogram_keys[2] = {"opcodes", "families"};

static json_t *histograms(const kd_count_table *tables[2])
{
    json_t *o = json_pack("{s:[I, I]}", "total", (json_int_t)tables[0]->total[0], (json_int_t)tables[0]->total[1]);
    for (int h = 0; o && h < 2; h++) {
        json_t *rows = json_array();
        for (size_t i = 0; rows && i < tables[h]->count; i++)
            if (json_array_append_new(rows, kd_jtable_write(&row_table, &tables[h]->rows[i])) != 0) {
                json_decref(rows);
                rows = NULL;
            }
        if (json_object_set_new(o, histogram_keys[h], rows) != 0) {
            json_decref(o);
            o = NULL;
        }
    }
    return o;
}

/* Column v1 of every row goes to side 0's histogram, v2 to side 1's. */
static int read_histograms(json_t *v, kd_histogram *ops[2], kd_histogram *families[2], const kd_jpath *at,
                           kd_strbuf *err)
{
    if (!json_is_object(v))
        return kd_jfail(at, err, "must be an object");
    for (int h = 0; h < 2; h++) {
        kd_jpath list = {at, histogram_keys[h], 0};
        json_t *rows = json_object_get(v, histogram_keys[h]);
        if (!json_is_array(rows))
            return kd_jfail(&list, err, "must be an array");
        for (size_t i = 0; i < json_array_size(rows); i++) {
            kd_jpath item = {&list, NULL, i};
            kd_count_row row = {0};
            if (kd_jtable_read(&row_table, json_array_get(rows, i), &row, &item, err) != 0)
                return -1;
            kd_histogram **to = h == 0 ? ops : families;
            if (row.v1)
                kd_hist_add(to[0], row.key, row.v1);
            if (row.v2)
                kd_hist_add(to[1], row.key, row.v2);
        }
    }
    return 0;
}

static json_t *write_ptx(const void *base)
{
    const kd_comparison *c = base;
    return histograms((const kd_count_table *[2]){&c->ptx_ops, &c->ptx_families});
}

static int read_ptx(json_t *v, void *base, const kd_jpath *at, kd_strbuf *err)
{
    kd_comparison *c = base;
    return read_histograms(v, (kd_histogram *[2]){&c->side[0].stat.ptx_ops, &c->side[1].stat.ptx_ops},
                           (kd_histogram *[2]){&c->side[0].stat.ptx_families, &c->side[1].stat.ptx_families}, at, err);
}

static bool both_sass(const kd_comparison *c) { return c->side[0].stat.sass_present && c->side[1].stat.sass_present; }

static json_t *write_sass(const void *base)
{
    const kd_comparison *c = base;
    return both_sass(c) ? histograms((const kd_count_table *[2]){&c->sass_ops, &c->sass_families}) : json_null();
}

/* SASS histograms exist exactly when both sides have SASS checks (read before this). */
static int read_sass(json_t *v, void *base, const kd_jpath *at, kd_strbuf *err)
{
    kd_comparison *c = base;
    if (json_is_null(v) != !both_sass(c))
        return kd_jfail(at, err, "must be %s when %s sides have sass_checks", both_sass(c) ? "an object" : "null",
                        both_sass(c) ? "both" : "not both");
    if (json_is_null(v))
        return 0;
    return read_histograms(v, (kd_histogram *[2]){&c->side[0].stat.sass_ops, &c->side[1].stat.sass_ops},
                           (kd_histogram *[2]){&c->side[0].stat.sass_families, &c->side[1].stat.sass_families}, at,
                           err);
}

static json_t *findings(const void *base)
{
    const kd_comparison *c = base;
    json_t *list = json_array();
    for (size_t i = 0; list && i < c->finding_count; i++) {
        const kd_finding *f = &c->findings[i];
        kd_strbuf text = {0};
        kd_finding_text(f, &text);
        json_t *values = json_object();
        const char *const *names = kd_finding_value_names(f->id);
        for (int k = 0; names[k]; k++)
            json_object_set_new(values, names[k], json_pack("[f, f]", f->value[k][0], f->value[k][1]));
        if (f->id == KD_FINDING_OCCUPANCY)
            json_object_set_new(values, "limiter", json_pack("[s, s]", kd_limiter_name(f->limiter[0]),
                                                             kd_limiter_name(f->limiter[1])));
        json_array_append_new(list, json_pack("{s:s, s:s, s:o, s:s}", "id", finding_id(f->id), "change",
                                              change_id(f->change), "values", values, "text", kd_sb_str(&text)));
        kd_sb_free(&text);
    }
    return list;
}

/* ---- the timing pass ----------------------------------------------------------------- */

static const kd_jfield summary_fields[] = {
    {KD_J_FIELD("n", kd_summary, n)},
    {KD_J_FIELD("outliers", kd_summary, outliers)},
    {KD_J_FIELD("min", kd_summary, min), .range = KD_J_POSITIVE},
    {KD_J_FIELD("p20", kd_summary, p20), .range = KD_J_POSITIVE},
    {KD_J_FIELD("median", kd_summary, median), .range = KD_J_POSITIVE},
    {KD_J_FIELD("p80", kd_summary, p80), .range = KD_J_POSITIVE},
    {KD_J_FIELD("p95", kd_summary, p95), .range = KD_J_POSITIVE},
    {KD_J_FIELD("max", kd_summary, max), .range = KD_J_POSITIVE},
    {KD_J_FIELD("mean", kd_summary, mean), .range = KD_J_POSITIVE},
    {KD_J_FIELD("stdev", kd_summary, stdev), .range = KD_J_NONNEG},
    {KD_J_FIELD("cv", kd_summary, cv), .range = KD_J_NONNEG},
    {KD_J_FIELD("iqr", kd_summary, iqr), .range = KD_J_NONNEG},
};
static const kd_jtable summary_table = KD_J_TABLE(summary_fields);

static json_t *throttled_indexes(const void *base)
{
    const kd_side_timing *t = base;
    json_t *list = json_array();
    for (size_t i = 0; list && i < t->n; i++)
        if (t->throttled[i])
            json_array_append_new(list, json_integer((json_int_t)i));
    return list;
}

/* After samples_ns: each index must name one of them. */
static int read_throttled(json_t *v, void *base, const kd_jpath *at, kd_strbuf *err)
{
    kd_side_timing *t = base;
    if (!json_is_array(v))
        return kd_jfail(at, err, "must be an array of sample indexes");
    t->throttled = kd_xcalloc(t->n + 1, sizeof *t->throttled);
    for (size_t i = 0; i < json_array_size(v); i++) {
        json_t *x = json_array_get(v, i);
        json_int_t k = json_integer_value(x);
        if (!json_is_integer(x) || k < 0 || (size_t)k >= t->n) {
            kd_jpath item = {at, NULL, i};
            return kd_jfail(&item, err, "must be the index of a sample (0 to %zu)", t->n ? t->n - 1 : 0);
        }
        t->throttled_count += !t->throttled[k];
        t->throttled[k] = true;
    }
    return 0;
}

/* The round (placement) of each sample, for the cluster bootstrap. */
static json_t *sample_rounds(const void *base)
{
    const kd_side_timing *t = base;
    if (!t->round) /* a comparison of saved runs made before rounds were recorded */
        return json_null();
    json_t *list = json_array();
    for (size_t i = 0; list && i < t->n; i++)
        json_array_append_new(list, json_integer((json_int_t)t->round[i]));
    return list;
}

/* After samples_ns: one round per sample, or null (none recorded). */
static int read_rounds(json_t *v, void *base, const kd_jpath *at, kd_strbuf *err)
{
    kd_side_timing *t = base;
    if (json_is_null(v))
        return 0;
    t->round = kd_xcalloc(t->n + 1, sizeof *t->round);
    if (!json_is_array(v) || json_array_size(v) != t->n)
        return kd_jfail(at, err, "must be an array with one round per sample (%zu)", t->n);
    for (size_t i = 0; i < t->n; i++) {
        json_t *x = json_array_get(v, i);
        json_int_t k = json_integer_value(x);
        if (!json_is_integer(x) || k < 0 || k > 10000000) {
            kd_jpath item = {at, NULL, i};
            return kd_jfail(&item, err, "must be a round number (0 to 10000000)");
        }
        t->round[i] = (unsigned)k;
    }
    return 0;
}

static const kd_jfield warmup_fields[] = {
    {KD_J_FIELD("launches", kd_side_timing, warmup_launches)},
    {KD_J_FIELD("median_ns", kd_side_timing, warmup_median_ns), .range = KD_J_NONNEG},
    {KD_J_FIELD("stable", kd_side_timing, warmup_stable)},
};
static const kd_jtable warmup_table = KD_J_TABLE(warmup_fields);

/* One side's samples. A new per-side timing field is one line here. */
static const kd_jfield timing_side_fields[] = {
    {KD_J_OBJECT_FIELD("summary_ns", kd_side_timing, summary, summary_table)},
    {KD_J_DOUBLES_FIELD("samples_ns", kd_side_timing, samples, n), .range = KD_J_POSITIVE},
    {.key = "throttled_sample_indexes", .type = KD_J_CUSTOM, .write = throttled_indexes, .read = read_throttled},
    {.key = "sample_rounds", .type = KD_J_CUSTOM, .write = sample_rounds, .read = read_rounds, .optional = true},
    {KD_J_FIELD("placement_spread_pct", kd_side_timing, placement_spread_pct), .range = KD_J_NONNEG, .optional = true},
    {KD_J_GROUP_FIELD("warmup", warmup_table)},
    {KD_J_FIELD("device_bytes", kd_side_timing, device_bytes)},
    {KD_J_FIELD("kernels_min", kd_side_timing, kernels_min), .optional = true},
    {KD_J_FIELD("kernels_max", kd_side_timing, kernels_max), .optional = true},
};
static const kd_jtable timing_side_table = KD_J_TABLE(timing_side_fields);

static const kd_jfield runtime_gpu_fields[] = {
    {KD_J_TEXT_FIELD("name", kd_timing, device)},
    {KD_J_FIELD("sm", kd_timing, sm), .range = KD_J_NONNEG},
    {KD_J_FIELD("sms", kd_timing, sms), .range = KD_J_NONNEG},
    {KD_J_FIELD("driver_version", kd_timing, driver), .range = KD_J_NONNEG},
    {KD_J_FIELD("l2_bytes", kd_timing, l2_bytes), .range = KD_J_NONNEG},
};
static const kd_jtable runtime_gpu_table = KD_J_TABLE(runtime_gpu_fields);

static json_t *l2_flushed(const void *base) { return json_boolean(!((const kd_timing *)base)->batched); }

static const kd_jfield mode_fields[] = {
    {KD_J_FIELD("batched", kd_timing, batched)},
    {KD_J_FIELD("launches_per_sample", kd_timing, batch)},
    {.key = "l2_flushed", .type = KD_J_CUSTOM, .write = l2_flushed},
    {KD_J_TEXT_FIELD("timer", kd_timing, timer)},
    {KD_J_TEXT_FIELD("timer_note", kd_timing, timer_note)},
    {KD_J_TEXT_FIELD("load", kd_timing, load), .optional = true},
    {KD_J_FIELD("sustained_ms", kd_timing, sustained_ms), .optional = true},
};
static const kd_jtable mode_table = KD_J_TABLE(mode_fields);

/* The clock range and throttling are written for both sides together; the range is read
 * back into both. */
static json_t *clocks_locked(const void *base)
{
    const kd_timing *t = base;
    return json_boolean(t->clocks_locked || t->locked_by_kerndiff_mhz);
}

static int read_clocks_locked(json_t *v, void *base, const kd_jpath *at, kd_strbuf *err)
{
    if (!json_is_boolean(v))
        return kd_jfail(at, err, "must be true or false");
    ((kd_timing *)base)->clocks_locked = json_is_true(v);
    return 0;
}

static json_t *clock_min(const void *base)
{
    const kd_timing *t = base;
    unsigned a = t->side[0].clock_min_mhz, b = t->side[1].clock_min_mhz;
    return json_integer(a < b ? a : b);
}

static json_t *clock_max(const void *base)
{
    const kd_timing *t = base;
    unsigned a = t->side[0].clock_max_mhz, b = t->side[1].clock_max_mhz;
    return json_integer(a > b ? a : b);
}

static int read_clock(json_t *v, unsigned *both[2], const kd_jpath *at, kd_strbuf *err)
{
    json_int_t mhz = json_integer_value(v);
    if (!json_is_integer(v) || mhz < 0 || mhz > 1000000)
        return kd_jfail(at, err, "must be an integer number of MHz >= 0");
    *both[0] = *both[1] = (unsigned)mhz;
    return 0;
}

static int read_clock_min(json_t *v, void *base, const kd_jpath *at, kd_strbuf *err)
{
    kd_timing *t = base;
    return read_clock(v, (unsigned *[2]){&t->side[0].clock_min_mhz, &t->side[1].clock_min_mhz}, at, err);
}

static int read_clock_max(json_t *v, void *base, const kd_jpath *at, kd_strbuf *err)
{
    kd_timing *t = base;
    return read_clock(v, (unsigned *[2]){&t->side[0].clock_max_mhz, &t->side[1].clock_max_mhz}, at, err);
}

static json_t *throttled_samples(const void *base)
{
    const kd_timing *t = base;
    return json_integer((json_int_t)(t->side[0].throttled_count + t->side[1].throttled_count));
}

static json_t *throttle_reasons(const void *base)
{
    const kd_timing *t = base;
    char reasons[128];
    kd_nvml_reason_names(t->side[0].reasons_seen | t->side[1].reasons_seen, reasons, sizeof reasons);
    return json_string(reasons);
}

static const kd_jfield clock_fields[] = {
    {.key = "locked", .type = KD_J_CUSTOM, .write = clocks_locked, .read = read_clocks_locked},
    {KD_J_FIELD("locked_by_kerndiff_mhz", kd_timing, locked_by_kerndiff_mhz)},
    {.key = "sm_mhz_min", .type = KD_J_CUSTOM, .write = clock_min, .read = read_clock_min},
    {.key = "sm_mhz_max", .type = KD_J_CUSTOM, .write = clock_max, .read = read_clock_max},
    {.key = "throttled_samples", .type = KD_J_CUSTOM, .write = throttled_samples},
    {.key = "reasons", .type = KD_J_CUSTOM, .write = throttle_reasons},
};
static const kd_jtable clock_table = KD_J_TABLE(clock_fields);

static json_t *speedup_method(const void *base)
{
    (void)base;
    return json_string("ratio of medians (v1/v2) after outlier removal; cluster bootstrap over rounds (expanded percentile interval)");
}

static const kd_jfield speedup_fields[] = {
    {KD_J_FIELD("ratio", kd_timing, speedup.ratio), .range = KD_J_POSITIVE},
    {KD_J_FIELD("ci_low", kd_timing, speedup.lo), .range = KD_J_POSITIVE},
    {KD_J_FIELD("ci_high", kd_timing, speedup.hi), .range = KD_J_POSITIVE},
    {KD_J_FIELD("confidence", kd_timing, speedup.confidence), .range = KD_J_FRACTION},
    {KD_J_FIELD("min_effect_pct", kd_timing, min_effect_pct), .range = KD_J_NONNEG},
    {KD_J_FIELD("seed", kd_timing, seed), .optional = true},
    {.key = "method", .type = KD_J_CUSTOM, .write = speedup_method},
};
static const kd_jtable speedup_table = KD_J_TABLE(speedup_fields);


static const kd_jfield stop_fields[] = {
    {KD_J_ENUM_FIELD("reason", kd_timing, stop_reason, stop_id, KD_STOP_REASON_COUNT)},
    {KD_J_FIELD("target_pct", kd_timing, target_pct), .range = KD_J_NONNEG},
    {KD_J_FIELD("target_reached", kd_timing, target_reached)},
    {KD_J_FIELD("rounds", kd_timing, rounds)},
    {KD_J_FIELD("placements", kd_timing, placements), .optional = true},
    {KD_J_FIELD("shared_buffers", kd_timing, shared_buffers), .optional = true},
    {KD_J_FIELD("seconds", kd_timing, measure_s), .range = KD_J_NONNEG},
};
static const kd_jtable stop_table = KD_J_TABLE(stop_fields);

static const kd_jfield mismatch_fields[] = {
    {KD_J_FIELD("index", kd_mismatch, index)},
    {KD_J_FIELD("v1", kd_mismatch, v1), .nullable = true},
    {KD_J_FIELD("v2", kd_mismatch, v2), .nullable = true},
};
static const kd_jtable mismatch_table = KD_J_TABLE(mismatch_fields);

static json_t *first_mismatches(const void *base)
{
    const kd_buffer_check *r = &((const kd_output_check *)base)->result;
    json_t *list = json_array();
    for (size_t k = 0; list && k < r->first_count; k++)
        if (json_array_append_new(list, kd_jtable_write(&mismatch_table, &r->first[k])) != 0) {
            json_decref(list);
            list = NULL;
        }
    return list;
}

static int read_first_mismatches(json_t *v, void *base, const kd_jpath *at, kd_strbuf *err)
{
    kd_buffer_check *r = &((kd_output_check *)base)->result;
    if (!json_is_array(v) || json_array_size(v) > KD_FIRST_MISMATCHES)
        return kd_jfail(at, err, "must be an array of at most %d mismatches", KD_FIRST_MISMATCHES);
    for (; r->first_count < json_array_size(v); r->first_count++) {
        kd_jpath item = {at, NULL, r->first_count};
        if (kd_jtable_read(&mismatch_table, json_array_get(v, r->first_count), &r->first[r->first_count], &item,
                           err) != 0)
            return -1;
    }
    return 0;
}

static json_t *dtype(const void *base) { return json_string(kd_dtype_name(((const kd_output_check *)base)->type.base)); }

static int read_dtype(json_t *v, void *base, const kd_jpath *at, kd_strbuf *err)
{
    kd_dtype t = kd_dtype_from_name(json_string_value(v));
    if (t == KD_DT_UNKNOWN)
        return kd_jfail(at, err, "must be a data type (f32, i32, bf16 ...)");
    ((kd_output_check *)base)->type.base = t;
    return 0;
}

static const char *pattern_id(int p) { return kd_pattern_name((kd_difference_pattern)p); }
static const char *degenerate_id(int d) { return kd_degenerate_name((kd_degenerate)d); }

/* What explains a difference (check/output_compare.h); kind "none" when nothing simple does. */
static const kd_jfield pattern_fields[] = {
    {KD_J_ENUM_FIELD("kind", kd_buffer_check, pattern, pattern_id, KD_PATTERN_COUNT)},
    {KD_J_FIELD("shift", kd_buffer_check, shift)},
    {KD_J_FIELD("factor", kd_buffer_check, factor)},
    {KD_J_FIELD("fits", kd_buffer_check, pattern_fits)},
    {KD_J_FIELD("of", kd_buffer_check, pattern_of)},
};
static const kd_jtable pattern_table = KD_J_TABLE(pattern_fields);

static const kd_jfield output_fields[] = {
    {KD_J_FIELD("name", kd_output_check, name)},
    {.key = "dtype", .type = KD_J_CUSTOM, .write = dtype, .read = read_dtype},
    {KD_J_FIELD("lanes", kd_output_check, type.lanes), .range = KD_J_NONNEG},
    {KD_J_FIELD("elements", kd_output_check, result.count)},
    {KD_J_FIELD("match", kd_output_check, result.match)},
    {KD_J_FIELD("mismatches", kd_output_check, result.mismatches)},
    {KD_J_FIELD("unwritten_v1", kd_output_check, result.unwritten[0])},
    {KD_J_FIELD("unwritten_v2", kd_output_check, result.unwritten[1])},
    {KD_J_FIELD("nan_mismatches", kd_output_check, result.nan_mismatches)},
    /* optional: runs saved before they existed read back as 0 / "none" */
    {KD_J_FIELD("inf_mismatches", kd_output_check, result.inf_mismatches), .optional = true},
    {KD_J_FIELD("written_differ", kd_output_check, result.written_differ), .optional = true},
    {KD_J_FIELD("first_written_differ", kd_output_check, result.first_written_differ), .optional = true},
    {KD_J_FIELD("last_mismatch", kd_output_check, result.last_mismatch), .optional = true},
    {KD_J_OBJECT_FIELD("pattern", kd_output_check, result, pattern_table), .optional = true},
    {KD_J_ENUM_FIELD("degenerate", kd_output_check, result.degenerate, degenerate_id, KD_DEGENERATE_COUNT),
     .optional = true},
    {KD_J_FIELD("v1_rms", kd_output_check, result.v1_rms), .range = KD_J_NONNEG, .optional = true},
    {KD_J_FIELD("v2_rms", kd_output_check, result.v2_rms), .range = KD_J_NONNEG, .optional = true},
    {KD_J_FIELD("scale_rel_err", kd_output_check, result.scale_rel_err), .range = KD_J_NONNEG, .optional = true},
    {KD_J_FIELD("max_abs_err", kd_output_check, result.max_abs_err), .range = KD_J_NONNEG},
    {KD_J_FIELD("max_rel_err", kd_output_check, result.max_rel_err), .range = KD_J_NONNEG},
    {KD_J_FIELD("v1_self_noise", kd_output_check, self_noise), .range = KD_J_NONNEG, .optional = true},
    {KD_J_FIELD("rtol", kd_output_check, tolerance.rtol), .range = KD_J_NONNEG},
    {KD_J_FIELD("atol", kd_output_check, tolerance.atol), .range = KD_J_NONNEG},
    {.key = "first_mismatches", .type = KD_J_CUSTOM, .write = first_mismatches, .read = read_first_mismatches},
};
static const kd_jtable output_table = KD_J_TABLE(output_fields);

/* "match" is true only when something was compared and all of it matched. */
static json_t *outputs_match(const void *base)
{
    const kd_timing *t = base;
    return json_boolean(t->outputs_match && t->noutputs > 0);
}

static int read_outputs_match(json_t *v, void *base, const kd_jpath *at, kd_strbuf *err)
{
    if (!json_is_boolean(v))
        return kd_jfail(at, err, "must be true or false");
    ((kd_timing *)base)->outputs_match = json_is_true(v);
    return 0;
}

/* "correct" or "incorrect" (kd_timing_incorrect): what an agent reads before any speed. A
 * saved run's is recomputed from its fields when read, so it is written only. */
static json_t *correctness_verdict(const void *base)
{
    return json_string(kd_timing_incorrect(base) ? "incorrect" : "correct");
}

/* The audit's side that left its outputs as they were: "v1", "v2", or null. */
static json_t *stale_side(const void *base)
{
    const kd_audit *a = base;
    return a->stale_side == 0 || a->stale_side == 1 ? json_string(a->stale_side ? "v2" : "v1") : json_null();
}

static int read_stale_side(json_t *v, void *base, const kd_jpath *at, kd_strbuf *err)
{
    const char *name = json_is_null(v) ? NULL : json_string_value(v);
    if (!json_is_null(v) && (!name || (strcmp(name, "v1") != 0 && strcmp(name, "v2") != 0)))
        return kd_jfail(at, err, "must be \"v1\", \"v2\" or null");
    ((kd_audit *)base)->stale_side = !name ? -1 : name[1] == '1' ? 0 : 1;
    return 0;
}

static json_t *mutated_side(const void *base)
{
    const kd_audit *a = base;
    return a->mutated_side == 0 || a->mutated_side == 1 ? json_string(a->mutated_side ? "v2" : "v1") : json_null();
}

static int read_mutated_side(json_t *v, void *base, const kd_jpath *at, kd_strbuf *err)
{
    kd_audit *a = base;
    int stale = a->stale_side, rc = read_stale_side(v, base, at, err);
    a->mutated_side = a->stale_side;
    a->stale_side = stale;
    return rc;
}

static const kd_jfield audit_fields[] = {
    {KD_J_FIELD("done", kd_audit, done)},
    {KD_J_FIELD("failed", kd_audit, failed)},
    {KD_J_FIELD("first_failed_round", kd_audit, first_round)},
    {KD_J_FIELD("first_failed_after_samples", kd_audit, first_samples)},
    {KD_J_FIELD("first_failed_output", kd_audit, output), .nullable = true},
    {KD_J_FIELD("mismatches", kd_audit, mismatches)},
    {KD_J_FIELD("elements", kd_audit, count)},
    {KD_J_FIELD("buffer_elements", kd_audit, buffer_elements), .optional = true},
    {.key = "stale_side", .type = KD_J_CUSTOM, .write = stale_side, .read = read_stale_side},
    {KD_J_FIELD("stale_elements", kd_audit, stale)},
    {.key = "mutated_side", .type = KD_J_CUSTOM, .write = mutated_side, .read = read_mutated_side, .optional = true},
    {KD_J_FIELD("mutated_input", kd_audit, mutated_input), .nullable = true, .optional = true},
    {KD_J_FIELD("seconds", kd_audit, seconds), .range = KD_J_NONNEG, .optional = true},
};
static const kd_jtable audit_table = KD_J_TABLE(audit_fields);

static const kd_jfield correctness_fields[] = {
    {.key = "verdict", .type = KD_J_CUSTOM, .write = correctness_verdict},
    {.key = "match", .type = KD_J_CUSTOM, .write = outputs_match, .read = read_outputs_match},
    {KD_J_OBJECT_FIELD("audits", kd_timing, audit, audit_table), .optional = true},
    {KD_J_ARRAY_FIELD("outputs", kd_timing, outputs, noutputs, output_table)},
    {KD_J_FIELD("not_compared", kd_timing, unpaired), .nullable = true},
};
static const kd_jtable correctness_table = KD_J_TABLE(correctness_fields);

static json_t *headline(const void *base)
{
    kd_strbuf line = {0};
    kd_timing_headline(&((const kd_comparison *)base)->timing, &line);
    return sentence(&line);
}

/* How far the verdict can be trusted (issue 42): the A/A record with its bound, this run's
 * detectable change, and for two separate runs whether the interval carries the spread
 * between processes. Left out when nothing was timed. Written only: a saved run's record is
 * read again from the installed file, not from the document. */
static json_t *calibration(const void *base)
{
    const kd_timing *t = &((const kd_comparison *)base)->timing;
    if (!t->has_mde)
        return NULL;
    const kd_calib *c = &t->calib;
    double bound = c->known ? kd_binomial_upper_bound(c->aa_false, c->aa_runs, 0.95) : -1.0;
    kd_strbuf line = {0};
    kd_calibration_line(t, &line);
    json_t *o = json_pack("{s:b, s:o, s:o, s:o, s:f, s:f, s:s}", "known", bound >= 0.0, "aa_runs",
                          bound >= 0.0 ? json_integer(c->aa_runs) : json_null(), "aa_false",
                          bound >= 0.0 ? json_integer(c->aa_false) : json_null(), "false_rate_upper_95",
                          bound >= 0.0 ? json_real(bound) : json_null(), "min_detectable_pct", t->mde_pct, "power",
                          KD_CALIB_POWER, "line", kd_sb_str(&line));
    kd_sb_free(&line);
    if (o && t->from_saved && !t->from_one_run) {
        json_t *b = json_pack("{s:b, s:o, s:o, s:f, s:f}", "applied", t->between_applied, "spread_pct",
                              t->between_applied ? json_real(t->calib.between_pct) : json_null(), "processes",
                              t->between_applied ? json_integer(t->calib.between_runs) : json_null(),
                              "own_ci_low", t->own_speedup.lo, "own_ci_high", t->own_speedup.hi);
        if (!b || json_object_set_new(o, "between_runs", b) != 0) {
            json_decref(o);
            o = NULL;
        }
    }
    return o;
}

/* The timing pass ("runtime"). A new timing field is one line here (over kd_comparison:
 * `timing.NAME`), in a group's table above, or in timing_side_fields. */
static const kd_jfield runtime_fields[] = {
    {KD_J_FIELD("simulated", kd_comparison, simulated)},
    {KD_J_OBJECT_FIELD("gpu", kd_comparison, timing, runtime_gpu_table)},
    {KD_J_OBJECT_FIELD("mode", kd_comparison, timing, mode_table)},
    {KD_J_OBJECT_FIELD("clocks", kd_comparison, timing, clock_table)},
    {KD_J_PAIR_FIELD("sides", kd_comparison, timing.side, timing_side_table)},
    {KD_J_OBJECT_FIELD("speedup", kd_comparison, timing, speedup_table)},
    {KD_J_ENUM_FIELD("verdict", kd_comparison, timing.verdict, verdict_id, KD_VERDICT_SLOWER + 1)},
    {.key = "headline", .type = KD_J_CUSTOM, .write = headline},
    {.key = "calibration", .type = KD_J_CUSTOM, .write = calibration, .omit = true},
    {KD_J_OBJECT_FIELD("stop", kd_comparison, timing, stop_table)},
    {KD_J_OBJECT_FIELD("correctness", kd_comparison, timing, correctness_table), KD_J_WHEN(kd_comparison, timing.checked)},
};
static const kd_jtable runtime_table = KD_J_TABLE(runtime_fields);

/* ---- the counter pass ---------------------------------------------------------------- */

static const char *unit_name(kd_unit u)
{
    static const char *const names[] = {"ns", "byte", "byte/s", "hz", "%", "count", "ratio", "flop/s", "flop/byte"};
    return (size_t)u < sizeof names / sizeof *names ? names[u] : "?";
}

/* Metrics by id; a metric without a value is left out. */
static json_t *metric_object(const kd_metric_values *v)
{
    json_t *o = json_object();
    for (size_t m = 0; o && m < kd_metric_def_count; m++)
        if (v->present[m] && isfinite(v->value[m]))
            json_object_set_new(o, kd_metric_defs[m].id, json_real(v->value[m]));
    return o;
}

static int read_metric_object(json_t *v, kd_metric_values *out, const kd_jpath *at, kd_strbuf *err)
{
    if (!json_is_object(v))
        return kd_jfail(at, err, "must be an object of metrics");
    for (size_t m = 0; m < kd_metric_def_count; m++) {
        json_t *x = json_object_get(v, kd_metric_defs[m].id);
        if (!x)
            continue;
        kd_jpath here = {at, kd_metric_defs[m].id, 0};
        if (!json_is_number(x))
            return kd_jfail(&here, err, "must be a number");
        out->value[m] = json_number_value(x);
        out->present[m] = true;
    }
    return 0;
}

static json_t *kernel_metrics(const void *base) { return metric_object(&((const kd_kernel_counters *)base)->values); }

static int read_kernel_metrics(json_t *v, void *base, const kd_jpath *at, kd_strbuf *err)
{
    return read_metric_object(v, &((kd_kernel_counters *)base)->values, at, err);
}

static json_t *side_metrics(const void *base) { return metric_object(&((const kd_side_counters *)base)->total); }

static int read_side_metrics(json_t *v, void *base, const kd_jpath *at, kd_strbuf *err)
{
    return read_metric_object(v, &((kd_side_counters *)base)->total, at, err);
}

static const kd_jfield kernel_counter_fields[] = {
    {KD_J_FIELD("name", kd_kernel_counters, name)},
    {.key = "metrics", .type = KD_J_CUSTOM, .write = kernel_metrics, .read = read_kernel_metrics},
};
static const kd_jtable kernel_counter_table = KD_J_TABLE(kernel_counter_fields);

/* Derived from the metrics and the peaks. */
static json_t *roofline(const void *base)
{
    const kd_side_counters *s = base;
    if (!s->roofline_valid)
        return json_null();
    const kd_roofline *r = &s->roofline;
    return json_pack("{s:f, s:f, s:f, s:f, s:f, s:f, s:s, s:f}", "flops", r->flops, "dram_bytes", r->bytes, "seconds",
                     r->seconds, "intensity", r->intensity, "bw_fraction", r->bw_fraction, "compute_fraction",
                     r->compute_fraction, "bound", kd_bound_name(r->bound), "headroom", r->headroom);
}

static const kd_jfield counter_side_fields[] = {
    {KD_J_ARRAY_FIELD("kernels", kd_side_counters, kernels, nkernels, kernel_counter_table)},
    {.key = "metrics", .type = KD_J_CUSTOM, .write = side_metrics, .read = read_side_metrics},
    {.key = "roofline", .type = KD_J_CUSTOM, .write = roofline},
};
static const kd_jtable counter_side_table = KD_J_TABLE(counter_side_fields);

static const kd_jfield peak_fields[] = {
    {KD_J_FIELD("dram_bytes_per_s", kd_peaks, dram_bytes_per_s), .range = KD_J_NONNEG},
    {KD_J_FIELD("fp32_flops_per_s", kd_peaks, fp32_flops_per_s), .range = KD_J_NONNEG},
    {KD_J_FIELD("fp64_flops_per_s", kd_peaks, fp64_flops_per_s), .range = KD_J_NONNEG},
    {KD_J_FIELD("tensor_flops_per_s", kd_peaks, tensor_flops_per_s), .range = KD_J_NONNEG},
};
static const kd_jtable peak_table = KD_J_TABLE(peak_fields);

/* --ncu-set: "full" or "fast". */
static json_t *counter_set(const void *base) { return json_string(((const kd_counters *)base)->full ? "full" : "fast"); }

static int read_counter_set(json_t *v, void *base, const kd_jpath *at, kd_strbuf *err)
{
    const char *set = json_string_value(v);
    if (!set || (strcmp(set, "full") && strcmp(set, "fast")))
        return kd_jfail(at, err, "must be \"full\" or \"fast\"");
    ((kd_counters *)base)->full = !strcmp(set, "full");
    return 0;
}

/* Derived from both sides' metrics. */
static json_t *deltas(const void *base)
{
    const kd_counters *k = base;
    json_t *list = json_array();
    for (size_t m = 0; list && m < kd_metric_def_count; m++) {
        const kd_metric_delta *d = &k->delta[m];
        if (!d->comparable)
            continue;
        const kd_metric_def *def = &kd_metric_defs[m];
        json_array_append_new(
            list, json_pack("{s:s, s:s, s:s, s:s, s:f, s:f, s:o, s:s, s:s, s:b, s:b}", "id", def->id, "label",
                            def->label, "group", kd_group_name(def->group), "unit", unit_name(def->unit), "v1", d->v1,
                            "v2", d->v2, "delta", isfinite(d->delta) ? json_real(d->delta) : json_null(), "delta_unit",
                            def->unit == KD_UNIT_PCT ? "pp" : "%", "symbol", d->symbol, "noisy", d->noisy, "changed",
                            d->changed));
    }
    return list;
}

static json_t *advice(const void *base)
{
    const kd_counters *k = base;
    json_t *list = json_array();
    for (size_t i = 0; list && i < k->nadvice; i++)
        json_array_append_new(list, json_string(k->advice[i]));
    return list;
}

/* Who collected them: "cupti" (the harness's range profiler) or "ncu". */
static json_t *counter_collector(const void *base)
{
    const kd_counters *k = base;
    return json_string(k->collector && !strcmp(k->collector, "cupti") ? "cupti" : "ncu");
}

static int read_counter_collector(json_t *v, void *base, const kd_jpath *at, kd_strbuf *err)
{
    const char *who = json_string_value(v);
    if (!who || (strcmp(who, "cupti") && strcmp(who, "ncu")))
        return kd_jfail(at, err, "must be \"cupti\" or \"ncu\"");
    ((kd_counters *)base)->collector = !strcmp(who, "cupti") ? "cupti" : "ncu";
    return 0;
}

/* The in-process profiler: {"version": "13.5" or null, "replay", "l2"}; absent for ncu. */
static json_t *counter_profiler(const void *base)
{
    const kd_counters *k = base;
    if (!k->collector || strcmp(k->collector, "cupti"))
        return NULL;
    char version[16];
    snprintf(version, sizeof version, "%u.%u", k->cupti_version / 10000, k->cupti_version / 100 % 100);
    return json_pack("{s:o, s:s, s:s}", "version", k->cupti_version ? json_string(version) : json_null(), "replay",
                     k->replay, "l2", k->l2);
}

static bool one_of(const char *s, const char *const *words)
{
    for (; s && *words; words++)
        if (!strcmp(s, *words))
            return true;
    return false;
}

static int read_counter_profiler(json_t *v, void *base, const kd_jpath *at, kd_strbuf *err)
{
    kd_counters *k = base;
    static const char *const replays[] = {"user", "kernel", "simulated", NULL};
    static const char *const l2s[] = {"cupti", "harness", "none", "", NULL};
    json_t *version = json_object_get(v, "version");
    const char *replay = json_string_value(json_object_get(v, "replay"));
    const char *l2 = json_string_value(json_object_get(v, "l2"));
    unsigned major = 0, minor = 0;
    char tail;
    bool version_ok = json_is_null(version) ||
                      (json_is_string(version) &&
                       sscanf(json_string_value(version), "%2u.%2u%c", &major, &minor, &tail) == 2);
    if (!json_is_object(v) || !version_ok || !one_of(replay, replays) || !one_of(l2, l2s))
        return kd_jfail(at, err,
                        "must be {\"version\": \"13.5\" or null, \"replay\": user|kernel|simulated, \"l2\": "
                        "cupti|harness|none}");
    k->cupti_version = major * 10000 + minor * 100;
    snprintf(k->replay, sizeof k->replay, "%s", replay);
    snprintf(k->l2, sizeof k->l2, "%s", l2);
    return 0;
}

static const kd_jfield counter_fields[] = {
    {.key = "collector", .type = KD_J_CUSTOM, .write = counter_collector, .read = read_counter_collector,
     .optional = true},
    {.key = "cupti", .type = KD_J_CUSTOM, .write = counter_profiler, .read = read_counter_profiler, .omit = true,
     .optional = true},
    {.key = "set", .type = KD_J_CUSTOM, .write = counter_set, .read = read_counter_set},
    {KD_J_FIELD("repeats", kd_counters, repeats), .range = KD_J_NONNEG},
    {KD_J_OBJECT_FIELD("peaks", kd_counters, peaks, peak_table), KD_J_WHEN(kd_counters, peaks_valid)},
    {KD_J_PAIR_FIELD("sides", kd_counters, side, counter_side_table)},
    {.key = "deltas", .type = KD_J_CUSTOM, .write = deltas},
    {.key = "advice", .type = KD_J_CUSTOM, .write = advice},
};
static const kd_jtable counter_table = KD_J_TABLE(counter_fields);

/* ---- the document -------------------------------------------------------------------- */

/* The --fail-if-slower line alone (the table's own "text"; see kd_comparison_json). */
static json_t *gate_text(const void *base)
{
    kd_strbuf line = {0};
    kd_gate_line(base, &line);
    return sentence(&line);
}

/* The gates asked for and whether each could be judged; documents written before
 * --require-match had its keys read as a --fail-if-slower gate. */
static const kd_jfield gate_fields[] = {
    {KD_J_FIELD("fail_if_slower", kd_gate, requested), .optional = true},
    {KD_J_FIELD("limit_pct", kd_gate, limit_pct), .range = KD_J_NONNEG},
    {KD_J_FIELD("evaluated", kd_gate, evaluated)},
    {KD_J_FIELD("failed", kd_gate, failed)},
    {KD_J_FIELD("slowdown", kd_gate, slowdown), .range = KD_J_NONNEG},
    {KD_J_FIELD("slowdown_ci_low", kd_gate, slowdown_low), .range = KD_J_NONNEG},
    {KD_J_FIELD("require_match", kd_gate, match_required), .optional = true},
    {KD_J_FIELD("match_evaluated", kd_gate, match_evaluated), .optional = true},
    {KD_J_ENUM_FIELD("result", kd_gate, result, gate_result_id, KD_GATE_OUTPUTS_DIFFER + 1)},
    {.key = "text", .type = KD_J_CUSTOM, .write = gate_text}, /* replaced by kd_comparison_json */
};
static const kd_jtable gate_table = KD_J_TABLE(gate_fields);

/* ---- notes: an id (per slot, diff/notes.h), the values its sentence quotes, the sentence --- */

static const char *note_sides_id(int v)
{
    static const char *const ids[] = {[KD_NOTE_NO_SIDE] = "none", [KD_NOTE_V1] = "v1", [KD_NOTE_V2] = "v2",
                                      [KD_NOTE_BOTH] = "both"};
    return ids[v];
}

/* value[0..1], trailing NULLs left out. */
static json_t *note_values(const void *base)
{
    const kd_note *n = base;
    json_t *list = json_array();
    size_t count = n->value[1] ? 2 : n->value[0] ? 1 : 0;
    for (size_t i = 0; list && i < count; i++)
        json_array_append_new(list, n->value[i] ? json_string(n->value[i]) : json_null());
    return list;
}

static int read_note_values(json_t *v, void *base, const kd_jpath *at, kd_strbuf *err)
{
    kd_note *n = base;
    if (!json_is_array(v) || json_array_size(v) > 2)
        return kd_jfail(at, err, "must be an array of at most 2 strings");
    for (size_t i = 0; i < json_array_size(v); i++) {
        json_t *x = json_array_get(v, i);
        if (!json_is_string(x) && !json_is_null(x)) {
            kd_jpath item = {at, NULL, i};
            return kd_jfail(&item, err, "must be a string or null");
        }
        n->value[i] = json_is_string(x) ? kd_xstrdup(json_string_value(x)) : NULL;
    }
    return 0;
}

/* number[0..1], left out when both are 0 (only runs_differ has numbers: the drivers). */
static json_t *note_numbers(const void *base)
{
    const kd_note *n = base;
    return n->number[0] || n->number[1] ? json_pack("[I, I]", (json_int_t)n->number[0], (json_int_t)n->number[1])
                                        : NULL;
}

static int read_note_numbers(json_t *v, void *base, const kd_jpath *at, kd_strbuf *err)
{
    kd_note *n = base;
    if (!json_is_array(v) || json_array_size(v) != 2 || !json_is_integer(json_array_get(v, 0)) ||
        !json_is_integer(json_array_get(v, 1)))
        return kd_jfail(at, err, "must be an array of 2 integers");
    for (size_t i = 0; i < 2; i++)
        n->number[i] = (long)json_integer_value(json_array_get(v, i));
    return 0;
}

/* The detail: text from outside as it is, or the words of the message in its place (read
 * back as text: a saved run keeps the sentence, not the id). */
static json_t *note_detail(const void *base)
{
    const kd_note *n = base;
    if (n->detail || !n->said.id)
        return n->detail ? json_string(n->detail) : json_null();
    kd_strbuf text = {0};
    kd_diag_text(&n->said, &text);
    return sentence(&text);
}

static int read_note_detail(json_t *v, void *base, const kd_jpath *at, kd_strbuf *err)
{
    kd_note *n = base;
    if (!json_is_string(v) && !json_is_null(v))
        return kd_jfail(at, err, "must be a string or null");
    n->detail = json_is_string(v) ? kd_xstrdup(json_string_value(v)) : NULL;
    return 0;
}

static json_t *note_text(const void *base)
{
    kd_strbuf text = {0};
    kd_note_text(base, &text);
    return sentence(&text);
}

/* One table per slot: they differ in the ids they accept (those of their kind). */
#define NOTE_TABLE(slot, kind)                                                                                  \
    static const char *slot##_note_id(int v)                                                                  \
    {                                                                                                           \
        return kd_note_kind_of((kd_note_id)v) == (kind) ? kd_note_id_name((kd_note_id)v) : NULL;               \
    }                                                                                                           \
    static const kd_jfield slot##_note_fields[] = {                                                             \
        {KD_J_ENUM_FIELD("id", kd_note, id, slot##_note_id, KD_NOTE_ID_COUNT)},                                 \
        {KD_J_ENUM_FIELD("side", kd_note, sides, note_sides_id, KD_NOTE_BOTH + 1)},                             \
        {.key = "values", .type = KD_J_CUSTOM, .write = note_values, .read = read_note_values},                 \
        {.key = "numbers", .type = KD_J_CUSTOM, .write = note_numbers, .read = read_note_numbers, .omit = true, \
         .optional = true},                                                                                     \
        {.key = "detail", .type = KD_J_CUSTOM, .write = note_detail, .read = read_note_detail},                 \
        {.key = "text", .type = KD_J_CUSTOM, .write = note_text},                                               \
    };                                                                                                          \
    static const kd_jtable slot##_note_table = KD_J_TABLE(slot##_note_fields);

NOTE_TABLE(selection, KD_NOTE_SELECTION)
NOTE_TABLE(sass, KD_NOTE_SASS)
NOTE_TABLE(runtime, KD_NOTE_RUNTIME)
NOTE_TABLE(counters, KD_NOTE_COUNTERS)
NOTE_TABLE(git, KD_NOTE_GIT)
NOTE_TABLE(regions, KD_NOTE_REGIONS)

/* Each slot is null when there is no note. */
#define NOTE_FIELD(slot)                                                                                        \
    KD_J_OBJECT_FIELD(#slot, kd_comparison, slot##_note, slot##_note_table), KD_J_WHEN(kd_comparison, slot##_note.present)

static const kd_jfield notes_fields[] = {
    {NOTE_FIELD(selection)}, {NOTE_FIELD(sass)}, {NOTE_FIELD(runtime)},
    {NOTE_FIELD(counters)},  {NOTE_FIELD(git)},  {NOTE_FIELD(regions)},
};
static const kd_jtable notes_table = KD_J_TABLE(notes_fields);

static const kd_jfield arch_fields[] = {
    {KD_J_TEXT_FIELD("name", kd_comparison, arch)},
    {KD_J_FIELD("origin", kd_comparison, arch_origin)},
};
static const kd_jtable arch_table = KD_J_TABLE(arch_fields);

static const kd_jfield gpu_fields[] = {
    {KD_J_FIELD("present", kd_gpu_info, present)},
    {KD_J_TEXT_FIELD("name", kd_gpu_info, name), KD_J_WHEN(kd_gpu_info, present), .omit = true},
    {KD_J_FIELD("sm", kd_gpu_info, sm), .range = KD_J_NONNEG, KD_J_WHEN(kd_gpu_info, present), .omit = true},
    {KD_J_FIELD("driver_version", kd_gpu_info, driver_version), .range = KD_J_NONNEG, KD_J_WHEN(kd_gpu_info, present),
     .omit = true},
    {.key = "reason", .type = KD_J_CUSTOM, .write = gpu_reason, .read = read_gpu_reason, .omit = true, .optional = true},
};
static const kd_jtable gpu_table = KD_J_TABLE(gpu_fields);

static json_t *schema_version(const void *base)
{
    (void)base;
    return json_integer(KD_JSON_SCHEMA_VERSION);
}

static int read_schema_version(json_t *v, void *base, const kd_jpath *at, kd_strbuf *err)
{
    (void)base;
    json_int_t version = json_is_integer(v) ? json_integer_value(v) : 0;
    if (version > 0 && version < KD_JSON_SCHEMA_VERSION)
        return kd_jfail(at, err, "must be %d: version %d was written by an older kerndiff, whose findings, notes and "
                        "ids differ (docs/json-schema.json); save the run again with this one",
                        KD_JSON_SCHEMA_VERSION, (int)version);
    if (version != KD_JSON_SCHEMA_VERSION)
        return kd_jfail(at, err, "must be %d (this kerndiff reads version %d only; save the run again)",
                        KD_JSON_SCHEMA_VERSION, KD_JSON_SCHEMA_VERSION);
    return 0;
}

static json_t *kerndiff_version(const void *base)
{
    (void)base;
    return json_string(KD_VERSION);
}

/* Where and how the result was made, so that a saved run can be compared later and its
 * comparability judged (GPU, driver, kerndiff version, the sources' contents). */
static json_t *environment(const void *base)
{
    const kd_comparison *c = base;
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

/* ---- the region pass ---------------------------------------------------------------- */

static json_t *launch_medians(const void *base)
{
    const kd_region_stat *st = base;
    json_t *list = json_array();
    for (size_t l = 0; list && l < st->launches; l++)
        json_array_append_new(list, json_real(st->launch_median[l]));
    return list;
}

static int read_launch_medians(json_t *v, void *base, const kd_jpath *at, kd_strbuf *err)
{
    kd_region_stat *st = base;
    if (!json_is_array(v) || json_array_size(v) > KD_REGION_MAX_LAUNCHES)
        return kd_jfail(at, err, "must be an array of at most %d numbers", KD_REGION_MAX_LAUNCHES);
    st->launches = json_array_size(v);
    for (size_t l = 0; l < st->launches; l++) {
        json_t *x = json_array_get(v, l);
        st->launch_median[l] = json_number_value(x);
        if (!json_is_number(x) || st->launch_median[l] < 0) {
            kd_jpath item = {at, NULL, l};
            return kd_jfail(&item, err, "must be a number of cycles >= 0");
        }
    }
    return 0;
}

static const kd_jfield region_stat_fields[] = {
    {KD_J_FIELD("name", kd_region_stat, name)},
    {KD_J_FIELD("group", kd_region_stat, group), .nullable = true, .optional = true},
    {KD_J_FIELD("instances", kd_region_stat, instances)},
    {KD_J_FIELD("median_cycles", kd_region_stat, median), .range = KD_J_NONNEG},
    {KD_J_FIELD("p10_cycles", kd_region_stat, p10), .range = KD_J_NONNEG},
    {KD_J_FIELD("p90_cycles", kd_region_stat, p90), .range = KD_J_NONNEG},
    {KD_J_FIELD("share_pct", kd_region_stat, share_pct), .range = KD_J_NONNEG},
    {KD_J_FIELD("sm_spread_pct", kd_region_stat, sm_spread_pct), .range = KD_J_NONNEG},
    {.key = "launch_median_cycles", .type = KD_J_CUSTOM, .write = launch_medians, .read = read_launch_medians},
};
static const kd_jtable region_stat_table = KD_J_TABLE(region_stat_fields);

static const kd_jfield region_group_fields[] = {
    {KD_J_FIELD("name", kd_region_group, name)},
    {KD_J_FIELD("warps", kd_region_group, warps), .range = KD_J_NONNEG},
    {KD_J_FIELD("recording_warps", kd_region_group, recording_warps)},
};
static const kd_jtable region_group_table = KD_J_TABLE(region_group_fields);

/* Why the markers branch: only written when they do (an older saved run without it branched
 * for blocks per SM, the only reason there was). */
static const char *const branch_reason_ids[KD_BRANCH_REASON_COUNT] = {
    [KD_BRANCH_KEEPS_BLOCKS_PER_SM] = "blocks_per_sm", [KD_BRANCH_MANY_WAVES] = "waves"};

static json_t *branched_because(const void *base)
{
    const kd_region_profile *p = base;
    return p->branched_markers ? json_string(branch_reason_ids[p->branched_because]) : NULL;
}

static int read_branched_because(json_t *v, void *base, const kd_jpath *at, kd_strbuf *err)
{
    kd_region_profile *p = base;
    for (int i = 0; i < KD_BRANCH_REASON_COUNT; i++)
        if (json_is_string(v) && !strcmp(json_string_value(v), branch_reason_ids[i])) {
            p->branched_because = (kd_region_branch_reason)i;
            return 0;
        }
    return kd_jfail(at, err, "must be \"blocks_per_sm\" or \"waves\"");
}

static const kd_jfield region_profile_fields[] = {
    {KD_J_ARRAY_FIELD("regions", kd_region_profile, regions, count, region_stat_table)},
    {KD_J_ARRAY_FIELD("groups", kd_region_profile, groups, ngroups, region_group_table), .optional = true},
    {KD_J_FIELD("warps", kd_region_profile, warps)},
    {KD_J_FIELD("recording_warps", kd_region_profile, recording_warps), .optional = true},
    {KD_J_FIELD("launches", kd_region_profile, launches)},
    {KD_J_FIELD("block_stride", kd_region_profile, block_stride), .optional = true},
    {KD_J_FIELD("blocks_recorded", kd_region_profile, blocks_recorded), .optional = true},
    {KD_J_FIELD("blocks", kd_region_profile, blocks), .optional = true},
    {KD_J_FIELD("records", kd_region_profile, records)},
    {KD_J_FIELD("dropped", kd_region_profile, dropped)},
    {KD_J_FIELD("divergent_warps", kd_region_profile, divergent_warps), .optional = true},
    {KD_J_FIELD("unmatched", kd_region_profile, unmatched)},
    {KD_J_FIELD("record_cycles", kd_region_profile, record_cycles), .range = KD_J_NONNEG},
    {KD_J_FIELD("sm_clock_hz", kd_region_profile, sm_clock_hz), .range = KD_J_NONNEG, .optional = true},
    {KD_J_FIELD("plain_ns", kd_region_profile, plain_ns), .range = KD_J_NONNEG},
    {KD_J_FIELD("instrumented_ns", kd_region_profile, instrumented_ns), .range = KD_J_NONNEG},
    {KD_J_FIELD("plain_registers", kd_region_profile, registers[0]), .range = KD_J_NONNEG, .optional = true},
    {KD_J_FIELD("instrumented_registers", kd_region_profile, registers[1]), .range = KD_J_NONNEG, .optional = true},
    {KD_J_FIELD("plain_blocks_per_sm", kd_region_profile, blocks_per_sm[0]), .range = KD_J_NONNEG, .optional = true},
    {KD_J_FIELD("instrumented_blocks_per_sm", kd_region_profile, blocks_per_sm[1]), .range = KD_J_NONNEG,
     .optional = true},
    {KD_J_FIELD("branched_markers", kd_region_profile, branched_markers), .optional = true},
    {.key = "branched_because", .type = KD_J_CUSTOM, .write = branched_because, .read = read_branched_because,
     .omit = true, .optional = true},
};
static const kd_jtable region_profile_table = KD_J_TABLE(region_profile_fields);

static const kd_jfield side_regions_fields[] = {
    {KD_J_OBJECT_FIELD("profile", kd_side, regions, region_profile_table)},
};
static const kd_jtable side_regions_table = KD_J_TABLE(side_regions_fields);

static const kd_jfield regions_fields[] = {
    {KD_J_PAIR_FIELD("sides", kd_comparison, side, side_regions_table)},
};
static const kd_jtable regions_table = KD_J_TABLE(regions_fields);

/* ---- the sanitizer pass: written for readers (CI, agents); a saved run's findings are not
 * read back (compare does not re-judge them) ---------------------------------------------- */

static json_t *sanitizer(const void *base)
{
    const kd_comparison *c = base;
    if (!c->sanitize_tools)
        return json_null();
    json_t *tools = json_array(), *sides = json_array();
    for (int t = 0; t < KD_SAN_TOOLS; t++)
        if (c->sanitize_tools & (1u << t))
            json_array_append_new(tools, json_string(kd_san_tool_name((kd_san_tool)t)));
    for (int s = 0; s < 2; s++) {
        const kd_sanitize_side *side = &c->sanitize[s];
        json_t *findings = json_array();
        for (int t = 0; t < KD_SAN_TOOLS; t++)
            for (size_t i = 0; i < side->report[t].count; i++) {
                const kd_san_finding *f = &side->report[t].findings[i];
                kd_strbuf text = {0};
                kd_san_explain(f, side->buffers, side->nbuffers, &text);
                json_array_append_new(findings,
                    json_pack("{s:s, s:s, s:s, s:s, s:I, s:s, s:s, s:I, s:I, s:s}", "tool",
                              kd_san_tool_name((kd_san_tool)t), "kind", f->title, "space", f->space, "access", f->access,
                              "size", (json_int_t)f->size, "function", f->function, "file", f->file, "line",
                              (json_int_t)f->line, "count", (json_int_t)f->count, "text", kd_sb_str(&text)));
                kd_sb_free(&text);
            }
        json_array_append_new(sides, json_pack("{s:s, s:o}", "label", c->side[s].label, "findings", findings));
    }
    return json_pack("{s:o, s:o}", "tools", tools, "sides", sides);
}

/* The launch check (issue 39): per side, what memcheck said of a launch kerndiff assumed;
 * omitted when neither side's launch was assumed (or it was not checked: the simulated
 * harness without --compute-sanitizer, --sanitize). Written, not read back. */
static json_t *launch_check(const void *base)
{
    const kd_comparison *c = base;
    static const char *const name[] = {[KD_LAUNCH_CHECK_CLEAN] = "clean", [KD_LAUNCH_CHECK_FINDINGS] = "findings",
                                       [KD_LAUNCH_CHECK_NO_SANITIZER] = "no_sanitizer",
                                       [KD_LAUNCH_CHECK_UNCHECKED] = "unchecked",
                                       [KD_LAUNCH_CHECK_SKIPPED] = "skipped"};
    if (c->launch_check[0] == KD_LAUNCH_CHECK_NONE && c->launch_check[1] == KD_LAUNCH_CHECK_NONE)
        return NULL; /* left out */
    json_t *o = json_object();
    for (int s = 0; s < 2; s++)
        json_object_set_new(o, s ? "v2" : "v1", c->launch_check[s] == KD_LAUNCH_CHECK_NONE
                                                    ? json_null()
                                                    : json_string(name[c->launch_check[s]]));
    json_object_set_new(o, "why", c->launch_check_why ? json_string(c->launch_check_why) : json_null());
    return o;
}

/* ---- several kernels compared statically (model.h's `kernels`): each one's sides, findings
 * and histograms as the document's own; the kernels only one side has; why nothing was timed */

static json_t *kernel_name(const void *base) { return json_string(((const kd_comparison *)base)->side[0].kernel); }

static const kd_jfield kernel_fields[] = {
    {.key = "name", .type = KD_J_CUSTOM, .write = kernel_name},
    {KD_J_PAIR_FIELD("sides", kd_comparison, side, side_table)},
    {.key = "findings", .type = KD_J_CUSTOM, .write = findings},
    {.key = "ptx", .type = KD_J_CUSTOM, .write = write_ptx, .read = read_ptx},
    {.key = "sass", .type = KD_J_CUSTOM, .write = write_sass, .read = read_sass},
};
static const kd_jtable kernel_table = KD_J_TABLE(kernel_fields);

static json_t *kernels_only(const void *base)
{
    const kd_comparison *c = base;
    json_t *o = json_object();
    for (int s = 0; o && s < 2; s++) {
        json_t *list = json_array();
        for (size_t i = 0; list && i < c->only_count[s]; i++)
            json_array_append_new(list, json_string(c->only[s][i]));
        json_object_set_new(o, s ? "v2" : "v1", list); /* the schema's keys, whatever the sides are labelled */
    }
    return o;
}

static int read_kernels_only(json_t *v, void *base, const kd_jpath *at, kd_strbuf *err)
{
    kd_comparison *c = base;
    if (!json_is_object(v))
        return kd_jfail(at, err, "must be an object with arrays v1 and v2");
    for (int s = 0; s < 2; s++) {
        kd_jpath list = {at, s ? "v2" : "v1", 0};
        json_t *names = json_object_get(v, list.key);
        if (!json_is_array(names))
            return kd_jfail(&list, err, "must be an array of kernel names");
        c->only[s] = kd_xcalloc(json_array_size(names) + 1, sizeof *c->only[s]);
        for (size_t i = 0; i < json_array_size(names); i++) {
            json_t *name = json_array_get(names, i);
            if (!json_is_string(name)) {
                kd_jpath item = {&list, NULL, i};
                return kd_jfail(&item, err, "must be a string");
            }
            c->only[s][c->only_count[s]++] = kd_xstrdup(json_string_value(name));
        }
    }
    return 0;
}

static json_t *kernels_text(const void *base)
{
    kd_strbuf text = {0};
    return kd_kernels_timing_text(base, &text) ? sentence(&text) : json_null();
}

/* --launch FILE (issue 30): where the launch came from and each side against the program's
 * result; null when the launch was described. Written, not read back (a saved run keeps the
 * sentences in `text`). */
static json_t *replay(const void *base)
{
    const kd_comparison *c = base;
    const kd_replay *r = c->replay.capture;
    if (!r)
        return json_null();
    const kd_capture *cap = &r->cap;
    json_t *argv = json_array();
    for (size_t i = 0; i < cap->argc; i++)
        json_array_append_new(argv, json_string(cap->argv[i]));
    json_t *sides = json_object();
    static const char *const label[2] = {"v1", "v2"};
    for (int s = 0; s < 2; s++) {
        const kd_replay_match *m = &c->replay.match[s];
        json_t *side = json_pack("{s:b}", "checked", c->replay.checked[s]);
        if (c->replay.checked[s] && m->compared) {
            json_object_set_new(side, "same", json_boolean(m->same));
            if (!m->same) {
                const kd_launch_spec *spec = &c->side[s].launch;
                json_object_set_new(side, "buffer", json_string(m->buffer < spec->nargs ? spec->args[m->buffer].name
                                                                                         : r->buffers[m->buffer].name));
                json_object_set_new(side, "element", json_integer((json_int_t)m->element));
                json_object_set_new(side, "value", json_real(m->got));
                json_object_set_new(side, "program_value", json_real(m->want));
            }
        }
        json_object_set_new(sides, label[s], side);
    }
    kd_strbuf text = {0};
    bool same;
    kd_replay_result_text(c, &text, &same);
    json_t *o = json_pack("{s:s?, s:o, s:s?, s:s?, s:s?, s:I, s:I, s:s?, s:I, s:o, s:o, s:s?}", "file", c->replay.path,
                          "program", argv, "kernel", cap->kernel, "demangled", cap->demangled, "api", cap->api,
                          "nth", (json_int_t)cap->nth, "time", (json_int_t)cap->time, "gpu", cap->gpu, "data_bytes",
                          (json_int_t)r->data_bytes, "sides", sides, "text", text.len ? json_string(kd_sb_str(&text))
                                                                                       : json_null(),
                          "problem", c->replay.problem);
    if (o && c->replay.caller)
        json_object_set_new(o, "caller", json_string(c->replay.caller));
    kd_sb_free(&text);
    return o;
}

static const kd_jfield stage_fields[] = {
    {KD_J_FIELD("name", kd_stage_time, name)},
    {KD_J_FIELD("seconds", kd_stage_time, seconds), .range = KD_J_NONNEG},
};
static const kd_jtable stage_table = KD_J_TABLE(stage_fields);

static const kd_jfield timings_fields[] = {
    {KD_J_ARRAY_FIELD("stages", kd_comparison, stages, nstages, stage_table)},
};
static const kd_jtable timings_table = KD_J_TABLE(timings_fields);

static const kd_jfield comparison_fields[] = {
    {.key = "schema_version", .type = KD_J_CUSTOM, .write = schema_version, .read = read_schema_version},
    {.key = "kerndiff_version", .type = KD_J_CUSTOM, .write = kerndiff_version},
    {KD_J_GROUP_FIELD("arch", arch_table)},
    {KD_J_OBJECT_FIELD("gpu", kd_comparison, gpu, gpu_table)},
    {KD_J_PAIR_FIELD("sides", kd_comparison, side, side_table)},
    {.key = "findings", .type = KD_J_CUSTOM, .write = findings},
    {.key = "ptx", .type = KD_J_CUSTOM, .write = write_ptx, .read = read_ptx},
    {.key = "sass", .type = KD_J_CUSTOM, .write = write_sass, .read = read_sass},
    {KD_J_GROUP_FIELD("notes", notes_table)},
    {KD_J_GROUP_FIELD("runtime", runtime_table), KD_J_WHEN(kd_comparison, timed)},
    {KD_J_OBJECT_FIELD("counters", kd_comparison, counters, counter_table), KD_J_WHEN(kd_comparison, counters.present)},
    {KD_J_GROUP_FIELD("regions", regions_table), KD_J_WHEN(kd_comparison, regions_run), .optional = true},
    {.key = "hotspots", .type = KD_J_CUSTOM, .write = hotspots, .omit = true},
    {.key = "sanitizer", .type = KD_J_CUSTOM, .write = sanitizer},
    {.key = "launch_check", .type = KD_J_CUSTOM, .write = launch_check, .omit = true},
    /* written here for --fail-if-slower; kd_comparison_json adds it for --require-match alone.
     * Read back, its fail_if_slower says whether that gate was asked. */
    {KD_J_OBJECT_FIELD("gate", kd_comparison, gate, gate_table), KD_J_WHEN(kd_comparison, gate.requested)},
    {.key = "environment", .type = KD_J_CUSTOM, .write = environment},
    {KD_J_ARRAY_FIELD("kernels", kd_comparison, kernels, kernel_count, kernel_table), .optional = true},
    {.key = "kernels_only", .type = KD_J_CUSTOM, .write = kernels_only, .read = read_kernels_only,
     .optional = true},
    {KD_J_FIELD("kernels_untimed", kd_comparison, kernels_untimed), .optional = true},
    {.key = "kernels_text", .type = KD_J_CUSTOM, .write = kernels_text},
    {.key = "replay", .type = KD_J_CUSTOM, .write = replay},
    /* where the run's seconds went (issue 43); a saved run read back keeps them */
    {KD_J_GROUP_FIELD("timings", timings_table), .optional = true},
};
const kd_jtable kd_comparison_table = KD_J_TABLE(comparison_fields);

json_t *kd_comparison_json(const kd_comparison *c)
{
    json_t *doc = kd_jtable_write(&kd_comparison_table, c);
    if (!doc || !kd_gate_asked(c))
        return doc;
    /* The table writes the gate object for --fail-if-slower; --require-match alone has one
     * too. Its "text" is every gate's line as the report says it, with the reason a gate
     * was not judged (which needs the comparison, not the gate alone). */
    json_t *gate = json_object_get(doc, "gate");
    if (!json_is_object(gate)) {
        gate = kd_jtable_write(&gate_table, &c->gate);
        if (!gate || json_object_set_new(doc, "gate", gate) != 0) {
            json_decref(doc);
            return NULL;
        }
    }
    kd_strbuf text = {0};
    kd_gate_summary(c, &text);
    if (json_object_set_new(gate, "text", sentence(&text)) != 0) {
        json_decref(doc);
        return NULL;
    }
    return doc;
}

int kd_comparison_read(json_t *root, kd_comparison *out, kd_strbuf *err)
{
    memset(out, 0, sizeof *out);
    if (kd_jtable_read(&kd_comparison_table, root, out, NULL, err) != 0)
        return -1;
    kd_comparison_tabulate(out);
    out->analysed = true;
    for (size_t k = 0; k < out->kernel_count; k++) { /* each kernel's: the document's arch and GPU */
        kd_comparison *one = &out->kernels[k];
        memcpy(one->arch, out->arch, sizeof one->arch);
        one->arch_origin = out->arch_origin;
        one->limits = out->limits;
        one->gpu = out->gpu;
        kd_comparison_tabulate(one);
        one->analysed = true;
    }
    return 0;
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
