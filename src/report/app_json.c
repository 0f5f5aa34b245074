/* app_json.c — the JSON view of `kerndiff app` (docs/app-json-schema.json). Every kernel
 * and API row is written, whatever --top says: the JSON is for programs. */
#include <jansson.h>

#include "report/app_capture.h"
#include "report/app_report.h"
#include "report/report.h"

static json_t *change_json(const kd_app_change *ch, bool steps)
{
    json_t *o = json_pack("{s:f, s:f}", "v1", ch->v[0], "v2", ch->v[1]);
    if (steps)
        json_object_set_new(o, "per_step", json_pack("[f, f]", ch->per_step[0], ch->per_step[1]));
    json_object_set_new(o, "ratio", ch->has_ratio ? json_real(ch->ratio.ratio) : json_null());
    json_object_set_new(o, "ci", ch->has_ci ? json_pack("[f, f]", ch->ratio.lo, ch->ratio.hi) : json_null());
    json_object_set_new(o, "verdict", json_string(ch->has_ci ? kd_verdict_name(ch->verdict) : "not_judged"));
    return o;
}

static json_t *config_json(const kd_app_config *g)
{
    return json_pack("{s:[i,i,i], s:[i,i,i], s:i, s:i, s:i}", "grid", g->grid[0], g->grid[1], g->grid[2], "block",
                     g->block[0], g->block[1], g->block[2], "registers", (int)g->registers, "static_smem",
                     g->static_smem, "dynamic_smem", g->dynamic_smem);
}

static json_t *side_json(const kd_app_comparison *c, int s)
{
    const kd_app_side *side = &c->sides[s];
    json_t *runs = json_array();
    for (size_t r = 0; r < side->nruns; r++) {
        const kd_app_run *run = &side->runs[r];
        json_t *o = json_pack("{s:i, s:i, s:f, s:I, s:I}", "exit_code", run->exit_code, "signal", run->signal,
                              "wall_ns", run->wall_ns, "processes", (json_int_t)run->activity.processes,
                              "lost_records", (json_int_t)run->activity.lost);
        json_object_set_new(o, "collection_unavailable", json_integer((json_int_t)run->activity.unavailable));
        json_object_set_new(o, "ranges", run->activity.has_ranges ? json_integer((json_int_t)run->activity.ranges)
                                                                  : json_null());
        json_array_append_new(runs, o);
    }
    /* --at: which revision the side ran at (null: the current folder) */
    json_t *revision = side->commit ? json_pack("{s:s, s:s}", "ref", side->ref, "commit", side->commit) : json_null();
    return json_pack("{s:s, s:s, s:b, s:o, s:o}", "label", side->label, "source",
                     side->profile ? "nsys_sqlite" : "command", "gpu_activity", c->gpu[s], "runs", runs, "revision",
                     revision);
}

static json_t *app_document(const kd_app_comparison *c)
{
    bool steps = c->steps > 0;
    json_t *totals = json_object();
    for (int id = 0; id < KD_APP_TOTALS; id++)
        json_object_set_new(totals, kd_app_total_infos[id].id,
                            change_json(&c->totals[id], steps && kd_app_total_infos[id].per_step));
    json_t *kernels = json_array();
    for (size_t i = 0; i < c->nrows; i++) {
        const kd_app_row *r = &c->rows[i];
        json_t *o = json_pack("{s:s, s:o}", "name", r->name, "time_ns", change_json(&r->time, false));
        for (int s = 0; s < 2; s++)
            json_object_set_new(o, s ? "v2" : "v1",
                                r->present[s] ? json_pack("{s:f, s:f, s:f, s:o, s:I}", "launches", r->launches[s],
                                                          "mean_ns", r->mean_ns[s], "share", r->share[s], "config",
                                                          config_json(&r->config[s]), "configs",
                                                          (json_int_t)r->nconfigs[s])
                                              : json_null());
        kd_strbuf cmd = {0};
        json_object_set_new(o, "capture_command",
                            kd_app_capture_command(c, r, &cmd) ? json_string(kd_sb_str(&cmd)) : json_null());
        kd_sb_free(&cmd);
        json_array_append_new(kernels, o);
    }
    json_t *apis = json_array();
    for (size_t i = 0; i < c->napis; i++) {
        const kd_app_api_row *a = &c->apis[i];
        json_array_append_new(apis, json_pack("{s:s, s:s, s:[f,f], s:[f,f]}", "name", a->name, "domain",
                                              a->driver ? "driver" : "runtime", "calls", a->count[0], a->count[1],
                                              "time_ns", a->ns[0], a->ns[1]));
    }
    const char *gate = c->gate == KD_APP_GATE_OFF ? "off" : c->gate == KD_APP_GATE_SLOWER ? "slower" : "passed";
    return json_pack("{s:s, s:i, s:[o,o], s:o, s:o, s:o, s:o, s:o, s:o, s:s}", "kind", "kerndiff-app", "schema_version",
                     KD_APP_JSON_SCHEMA_VERSION, "sides", side_json(c, 0), side_json(c, 1), "range",
                     c->range ? json_string(c->range) : json_null(), "steps", steps ? json_real(c->steps) : json_null(),
                     "steps_from_ranges", json_boolean(c->steps_from_ranges), "totals", totals, "kernels", kernels,
                     "api", apis, "gate", gate);
}

int kd_app_render_json(FILE *out, const kd_app_comparison *c)
{
    json_t *root = app_document(c);
    return root ? kd_write_json(out, root) : -1;
}
