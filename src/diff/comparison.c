#include "diff/comparison.h"

#include "diff/findings.h"
#include "static/occupancy.h"
#include "static/resources.h"
#include "util/progress.h"
#include "util/xalloc.h"

#include <stdlib.h>
#include <string.h>

static long change(const kd_count_row *r) { return labs(r->v2 - r->v1); }

static int by_change_then_key(const void *a, const void *b)
{
    const kd_count_row *x = a, *y = b;
    bool x_changed = x->v1 != x->v2, y_changed = y->v1 != y->v2;
    if (x_changed != y_changed)
        return x_changed ? -1 : 1;
    if (change(x) != change(y))
        return change(x) > change(y) ? -1 : 1;
    return strcmp(x->key, y->key);
}

static kd_count_row *row_for(kd_count_table *t, const char *key)
{
    for (size_t i = 0; i < t->count; i++)
        if (strcmp(t->rows[i].key, key) == 0)
            return &t->rows[i];
    return NULL;
}

void kd_count_table_build(const kd_histogram *v1, const kd_histogram *v2, kd_count_table *out)
{
    memset(out, 0, sizeof *out);
    out->rows = kd_xcalloc(v1->count + v2->count + 1, sizeof *out->rows);
    const kd_histogram *sides[2] = {v1, v2};
    for (int s = 0; s < 2; s++) {
        for (size_t i = 0; i < sides[s]->count; i++) {
            const kd_hist_entry *e = &sides[s]->items[i];
            kd_count_row *r = row_for(out, e->key);
            if (!r) {
                r = &out->rows[out->count++];
                r->key = e->key;
            }
            *(s == 0 ? &r->v1 : &r->v2) += e->count;
            out->total[s] += e->count;
        }
    }
    qsort(out->rows, out->count, sizeof *out->rows, by_change_then_key);
    while (out->changed < out->count && out->rows[out->changed].v1 != out->rows[out->changed].v2)
        out->changed++;
}

void kd_count_table_free(kd_count_table *t)
{
    free(t->rows);
    memset(t, 0, sizeof *t);
}

void kd_comparison_tabulate(kd_comparison *c)
{
    const kd_static_result *a = &c->side[0].stat, *b = &c->side[1].stat;
    kd_count_table_build(&a->ptx_ops, &b->ptx_ops, &c->ptx_ops);
    kd_count_table_build(&a->ptx_families, &b->ptx_families, &c->ptx_families);
    if (a->sass_present && b->sass_present) {
        kd_count_table_build(&a->sass_ops, &b->sass_ops, &c->sass_ops);
        kd_count_table_build(&a->sass_families, &b->sass_families, &c->sass_families);
    }
    kd_findings_collect(c);
}

void kd_comparison_stage(kd_comparison *c, const char *name)
{
    double now = kd_clock_s();
    c->stages = kd_xreallocarray(c->stages, c->nstages + 1, sizeof *c->stages);
    c->stages[c->nstages++] = (kd_stage_time){kd_xstrdup(name), c->stage_mark > 0 ? now - c->stage_mark : 0};
    c->stage_mark = now;
}

void kd_comparison_free(kd_comparison *c)
{
    for (int s = 0; s < 2; s++) {
        kd_side *side = &c->side[s];
        free(side->kernel);
        kd_kernel_list_free(&side->kernels);
        kd_annotations_free(&side->annotations);
        free(side->origin);
        kd_side_release_built(side);
        kd_autotune_free(&side->autotune);
        free(side->libs.items);
        free(side->libs_text);
        kd_region_names_free(&side->region_names);
        kd_build_free(&side->regions_build);
        kd_launch_spec_free(&side->regions_launch);
        kd_region_profile_free(&side->regions);
    }
    kd_note_free(&c->regions_note);
    kd_hs_diff_free(&c->hotspots.diff);
    kd_hs_profile_free(&c->hotspots.side[0]);
    kd_hs_profile_free(&c->hotspots.side[1]);
    kd_sb_free(&c->hotspots.failure.why);
    if (c->replay.capture) {
        kd_replay_free(c->replay.capture);
        free(c->replay.capture);
    }
    free(c->replay.path);
    free(c->replay.caller);
    free(c->replay.problem);
    kd_sanitize_side_free(&c->fault_found);
    for (size_t i = 0; i < c->nstages; i++)
        free(c->stages[i].name);
    free(c->stages);
    free(c->launch_check_why);
    kd_sanitize_side_free(&c->sanitize[0]);
    kd_sanitize_side_free(&c->sanitize[1]);
    kd_note_free(&c->selection_note);
    kd_note_free(&c->git_note);
    kd_git_result_free(&c->git);
    kd_note_free(&c->sass_note);
    kd_note_free(&c->runtime_note);
    kd_timing_free(&c->timing);
    kd_counters_free(&c->counters);
    kd_note_free(&c->counters_note);
    free(c->findings);
    kd_count_table_free(&c->ptx_ops);
    kd_count_table_free(&c->ptx_families);
    kd_count_table_free(&c->sass_ops);
    kd_count_table_free(&c->sass_families);
    for (size_t k = 0; k < c->kernel_count; k++) /* several kernels compared: each one's comparison */
        kd_comparison_free(&c->kernels[k]);
    free(c->kernels);
    for (int s = 0; s < 2; s++) {
        for (size_t i = 0; i < c->only_count[s]; i++)
            free(c->only[s][i]);
        free(c->only[s]);
    }
    memset(c, 0, sizeof *c);
}

kd_note *kd_comparison_note(kd_comparison *c, kd_note_kind kind)
{
    switch (kind) {
    case KD_NOTE_SELECTION: return &c->selection_note;
    case KD_NOTE_SASS: return &c->sass_note;
    case KD_NOTE_GIT: return &c->git_note;
    case KD_NOTE_RUNTIME: return &c->runtime_note;
    case KD_NOTE_COUNTERS: return &c->counters_note;
    case KD_NOTE_REGIONS: return &c->regions_note;
    case KD_NOTE_KINDS: break;
    }
    return NULL;
}

int kd_build_occupancy(const kd_comparison *c, const kd_side *side, const kd_build *b, int *registers,
                       int *blocks_per_sm)
{
    const kd_static_result *plain = &side->stat;
    kd_resources r;
    kd_occupancy o;
    if (!plain->occupancy_valid || !c->limits || !b->ptxas_log ||
        kd_resources_parse(b->ptxas_log, plain->entry, &r) != 0)
        return -1;
    long shared = plain->shared_per_block - plain->resources.shared_static + r.shared_static;
    if (kd_occupancy_compute(c->limits, plain->block_threads, r.registers, shared, &o) != 0)
        return -1;
    *registers = r.registers;
    *blocks_per_sm = o.blocks_per_sm;
    return 0;
}

int kd_static_analyze(const kd_static_request *req, kd_static_result *out, kd_strbuf *error)
{
    const kd_static_input in = {
        .ptx = req->build->ptx,
        .ptxas_log = req->build->ptxas_log,
        .sass = req->build->sass,
        .kernel = req->build->entry ? req->build->entry : req->kernel,
        .launch_bounds = req->launch_bounds,
        .annotated_block = req->annotated_block,
        .block_threads = req->block_threads,
        .block_origin = req->block_origin,
        .dynamic_smem = req->dynamic_smem,
        .limits = req->limits,
        .cuobjdump = req->cuobjdump,
        .launcher = req->launcher,
    };
    return kd_static_analyze_input(&in, out, error);
}
