#include "report/report.h"

#include <jansson.h>

#include "diff/rows.h"

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
    return o;
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

int kd_render_json(FILE *out, const kd_comparison *c)
{
    json_t *findings = json_array();
    for (size_t i = 0; i < c->finding_count; i++)
        json_array_append_new(findings, json_string(c->findings[i]));
    bool sass = c->side[0].stat.sass_present && c->side[1].stat.sass_present;
    json_t *root = json_pack(
        "{s:i, s:s, s:{s:s, s:s}, s:o, s:[o, o], s:o, s:o, s:o, s:{s:o, s:o, s:o}, s:n}",
        "schema_version", KD_JSON_SCHEMA_VERSION, "kerndiff_version", KD_VERSION, "arch", "name",
        c->arch, "origin", c->arch_origin, "gpu", gpu(&c->gpu), "sides", side(&c->side[0]),
        side(&c->side[1]), "findings", findings, "ptx", histograms(&c->ptx_ops, &c->ptx_families),
        "sass", sass ? histograms(&c->sass_ops, &c->sass_families) : json_null(), "notes",
        "selection", string_or_null(c->selection_note), "sass", string_or_null(c->sass_note),
        "runtime", string_or_null(c->runtime_note), "runtime");
    if (!root)
        return -1;
    int rc = json_dumpf(root, out, JSON_INDENT(2) | JSON_PRESERVE_ORDER);
    fputc('\n', out);
    json_decref(root);
    return rc == 0 && !ferror(out) ? 0 : -1;
}
