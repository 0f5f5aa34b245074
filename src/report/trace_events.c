/* The region timelines as a Chrome trace (JSON), which ui.perfetto.dev and Perfetto's trace
 * processor open: v1 and v2 are two processes, each warp a thread named by its SM, block
 * and warp (sorted in that order) and, under KD_REGION_GROUP, the group it recorded for;
 * each region instance of the last recorded launch a slice in microseconds on the
 * globaltimer axis, converted from cycles by the profile (regions/region_profile.h: the SM clock
 * measured in that launch, else the timing pass's). */
#include "report/report.h"

static json_t *metadata(const char *what, int pid, json_int_t tid, json_t *args)
{
    json_t *e = json_pack("{s:s, s:s, s:i, s:o}", "ph", "M", "name", what, "pid", pid, "args", args);
    if (tid >= 0)
        json_object_set_new(e, "tid", json_integer(tid));
    return e;
}

static void add_side(json_t *events, const kd_side *side, int pid)
{
    const kd_region_profile *p = &side->regions;
    char name[512];
    snprintf(name, sizeof name, "%s: %s (%s)", side->label, side->kernel, side->path);
    json_array_append_new(events, metadata("process_name", pid, -1, json_pack("{s:s}", "name", name)));
    json_array_append_new(events, metadata("process_sort_index", pid, -1, json_pack("{s:i}", "sort_index", pid)));
    json_t *seen = json_object();
    for (size_t i = 0; i < p->nslices; i++) {
        const kd_region_slice *s = &p->slices[i];
        json_int_t tid = (json_int_t)s->block * 64 + s->warp + 1;
        char key[32];
        snprintf(key, sizeof key, "%lld", (long long)tid);
        if (!json_object_get(seen, key)) {
            json_object_set_new(seen, key, json_true());
            int at = snprintf(name, sizeof name, "SM %u / block %u / warp %u", s->sm, s->block, s->warp);
            if (s->group && s->group <= p->ngroups) /* the run of warps this one recorded for */
                snprintf(name + at, sizeof name - (size_t)at, " / %s (warps %u-%u)", p->groups[s->group - 1].name,
                         s->warp, s->warp + p->groups[s->group - 1].warps - 1);
            json_array_append_new(events, metadata("thread_name", pid, tid, json_pack("{s:s}", "name", name)));
            json_array_append_new(events, metadata("thread_sort_index", pid, tid,
                                                   json_pack("{s:I}", "sort_index", (json_int_t)s->sm << 32 | (json_int_t)tid)));
        }
        json_array_append_new(events, json_pack("{s:s, s:s, s:i, s:I, s:f, s:f, s:{s:f, s:i}}", "ph", "X", "name",
                                                p->regions[s->region].name, "pid", pid, "tid", tid, "ts",
                                                s->start_ns / 1e3, "dur", s->duration_ns / 1e3, "args", "ns",
                                                s->duration_ns, "depth", (int)s->depth));
    }
    json_decref(seen);
}

int kd_render_trace(FILE *out, const kd_comparison *c)
{
    json_t *events = json_array();
    for (int s = 0; s < 2; s++)
        add_side(events, &c->side[s], s + 1);
    json_t *root = json_pack("{s:o, s:s}", "traceEvents", events, "displayTimeUnit", "ns");
    return root ? kd_write_json(out, root) : -1;
}
