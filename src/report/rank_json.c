/* The JSON of kerndiff rank (report/rank_report.h): one record per candidate, with a status an
 * agent can act on ("faster", "slower", "same", "dropped", "incorrect", "build_failed",
 * "sanitizer", "run_failed", "untimed"), its corrected interval and the correction named. */
#include "report/rank_report.h"

#include "report/report.h"

static json_t *speedup_json(const kd_speedup *s, const char *correction)
{
    if (!(s->ratio > 0))
        return json_null();
    return json_pack("{s:f, s:f, s:f, s:f, s:s}", "median", s->ratio, "ci_low", s->lo, "ci_high", s->hi, "confidence",
                     s->confidence, "corrected", correction);
}

static json_t *static_json(const kd_rank_static *s)
{
    return json_pack("{s:o, s:o, s:o}", "registers", s->registers >= 0 ? json_integer(s->registers) : json_null(),
                     "spills", s->spill_bytes >= 0 ? json_integer(s->spill_bytes) : json_null(), "occupancy",
                     s->occupancy >= 0 ? json_real(s->occupancy) : json_null());
}

json_t *kd_rank_json(const kd_rank_result *r)
{
    json_t *cands = json_array(), *pairs = json_array(), *devices = json_array();
    for (size_t i = 0; i < r->count; i++) {
        const kd_rank_row *row = &r->rows[i];
        json_t *gpus = json_array();
        for (size_t g = 0; g < row->ngpus; g++)
            json_array_append_new(gpus, json_pack("{s:i, s:o}", "gpu", row->gpus[g].gpu, "speedup",
                                                  speedup_json(&row->gpus[g].speedup, r->correction)));
        json_array_append_new(
            cands, json_pack("{s:i, s:s, s:s, s:i, s:s, s:o, s:I, s:o, s:o, s:b, s:s?}", "rank",
                             row->has_speedup ? (int)(i + 1) : 0, "name", row->entry->name, "path", row->entry->path,
                             "heat", (int)row->heat, "status", kd_rank_status_name(row->status), "speedup",
                             row->has_speedup ? speedup_json(&row->speedup, r->correction) : json_null(), "samples",
                             (json_int_t)row->samples, "gpus", gpus, "static", static_json(&row->entry->stat), "dropped",
                             row->entry->dropped, "reason", row->entry->reason));
    }
    for (size_t i = 0; i < r->npairs; i++)
        json_array_append_new(pairs, json_pack("{s:s, s:s, s:s}", "a", r->rows[r->pairs[i].a].entry->name, "b",
                                               r->rows[r->pairs[i].b].entry->name, "verdict",
                                               kd_verdict_name(r->pairs[i].verdict)));
    for (size_t i = 0; i < r->ndevices; i++)
        json_array_append_new(devices, json_pack("{s:i, s:s, s:i}", "index", r->devices[i].index, "name", r->devices[i].name,
                                                         "harness_starts", (int)r->devices[i].harness_starts));
    json_t *root = json_pack("{s:i, s:s, s:o, s:s, s:f, s:f, s:I, s:I, s:i, s:I, s:f, s:I, s:i, s:o, s:o, s:o}", "kerndiff_rank", 1,
                     "baseline", r->baseline, "baseline_static", static_json(&r->base_stat), "correction", r->correction,
                     "confidence", r->opts.confidence, "candidate_confidence", r->corrected_confidence, "family",
                     (json_int_t)r->family, "seed", (json_int_t)r->seed, "heats", (int)r->heats, "top",
                     (json_int_t)r->opts.top, "min_effect_pct", r->opts.min_effect_pct, "samples",
                     (json_int_t)r->samples, "rounds", (int)r->rounds, "devices", devices, "candidates", cands,
                     "pairs", pairs);
    /* How far the verdicts can be trusted (issue 42): the A/A record, and each candidate's
     * smallest detectable change from its own corrected interval. */
    const kd_calib *c = &r->calib;
    double bound = c->known ? kd_binomial_upper_bound(c->aa_false, c->aa_runs, 0.95) : -1.0;
    json_t *mdes = json_object();
    for (size_t i = 0; mdes && i < r->count; i++) {
        const kd_rank_row *row = &r->rows[i];
        double m = row->has_speedup ? kd_min_detectable_pct(row->speedup.lo, row->speedup.hi, row->speedup.confidence,
                                                            KD_CALIB_POWER, r->opts.min_effect_pct)
                                    : -1.0;
        json_object_set_new(mdes, row->entry->name, m >= 0 ? json_real(m) : json_null());
    }
    if (root)
        json_object_set_new(root, "calibration",
                            json_pack("{s:b, s:o, s:o, s:o, s:f, s:o}", "known", bound >= 0, "aa_runs",
                                      bound >= 0 ? json_integer(c->aa_runs) : json_null(), "aa_false",
                                      bound >= 0 ? json_integer(c->aa_false) : json_null(), "false_rate_upper_95",
                                      bound >= 0 ? json_real(bound) : json_null(), "power", KD_CALIB_POWER,
                                      "min_detectable_pct", mdes ? mdes : json_object()));
    if (root)
        json_object_set_new(root, "time_ms", json_pack("{s:f, s:f}", "gate", r->gate_ms, "race", r->race_ms));
    return root;
}

int kd_rank_render_json(FILE *out, const kd_rank_result *r)
{
    json_t *root = kd_rank_json(r);
    return root ? kd_write_json(out, root) : -1;
}
