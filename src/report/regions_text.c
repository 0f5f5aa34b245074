#include "report/regions_text.h"
#include "report/untrusted.h"
#include "util/text.h"
#include "util/xalloc.h"

#include <stdlib.h>
#include <string.h>

static const kd_region_stat *find(const kd_region_profile *p, const char *name)
{
    for (size_t i = 0; i < p->count; i++)
        if (strcmp(p->regions[i].name, name) == 0)
            return &p->regions[i];
    return NULL;
}

size_t kd_region_rows(const kd_comparison *c, kd_region_row *rows)
{
    const kd_region_profile *p[2] = {&c->side[0].regions, &c->side[1].regions};
    size_t n = 0;
    for (size_t i = 0; i < p[0]->count; i++) {
        const kd_region_stat *a = &p[0]->regions[i], *b = find(p[1], a->name);
        rows[n++] = (kd_region_row){a->name, a, b, b && a->median > 0 ? 100.0 * (b->median / a->median - 1) : 0,
                                    b && kd_region_change_is_real(a, b)};
    }
    for (size_t i = 0; i < p[1]->count; i++)
        if (!find(p[0], p[1]->regions[i].name))
            rows[n++] = (kd_region_row){p[1]->regions[i].name, NULL, &p[1]->regions[i], 0, false};
    return n;
}

void kd_region_label(const kd_region_row *row, kd_strbuf *out)
{
    const char *group[2] = {row->v1 ? row->v1->group : NULL, row->v2 ? row->v2->group : NULL};
    kd_sb_untrusted(out, row->name); /* names from the user's markers */
    if (!group[0] && !group[1])
        return;
    if (!row->v1 || !row->v2 || (group[0] && group[1] && strcmp(group[0], group[1]) == 0)) {
        kd_sb_puts(out, " [");
        kd_sb_untrusted(out, group[0] ? group[0] : group[1]);
        kd_sb_puts(out, "]");
    } else {
        kd_sb_puts(out, " [v1 ");
        kd_sb_untrusted(out, group[0] ? group[0] : "no group");
        kd_sb_puts(out, "; v2 ");
        kd_sb_untrusted(out, group[1] ? group[1] : "no group");
        kd_sb_puts(out, "]");
    }
}

void kd_region_cell(const kd_region_stat *s, kd_strbuf *out)
{
    if (!s || !s->instances)
        kd_sb_puts(out, s ? "never ran" : "-");
    else
        kd_sb_printf(out, "%.0f [%.0f-%.0f]", s->median, s->p10, s->p90);
}

void kd_region_change(const kd_region_row *row, kd_strbuf *out)
{
    if (!row->v1 || !row->v2)
        kd_sb_printf(out, "only in %s", row->v1 ? "v1" : "v2");
    else if (!row->v1->instances || !row->v2->instances)
        kd_sb_puts(out, "not comparable");
    else
        kd_sb_printf(out, "%+.1f%% (%s)", row->change_pct,
                     row->beyond_noise ? "beyond launch-to-launch noise" : "within launch-to-launch noise");
}

void kd_region_table(const kd_comparison *c,
                     void (*row)(const char *name, const char *v1, const char *v2, const char *change, void *ctx),
                     void *ctx)
{
    kd_region_row *rows = kd_xcalloc(c->side[0].regions.count + c->side[1].regions.count + 1, sizeof *rows);
    size_t n = rows ? kd_region_rows(c, rows) : 0;
    for (size_t i = 0; i < n; i++) {
        kd_strbuf label = {0}, a = {0}, b = {0}, change = {0};
        kd_region_label(&rows[i], &label);
        kd_region_cell(rows[i].v1, &a);
        kd_region_cell(rows[i].v2, &b);
        kd_region_change(&rows[i], &change);
        row(kd_sb_str(&label), kd_sb_str(&a), kd_sb_str(&b), kd_sb_str(&change), ctx);
        kd_sb_free(&label);
        kd_sb_free(&a);
        kd_sb_free(&b);
        kd_sb_free(&change);
    }
    free(rows);
}

void kd_region_heading(const kd_comparison *c, kd_strbuf *out)
{
    kd_strbuf safe = {0}; /* a label may come from a saved document */
    double cost[2] = {c->side[0].regions.record_cycles, c->side[1].regions.record_cycles};
    kd_sb_puts(out, "regions: cycles per instance, median [p10-p90]; ");
    if (cost[0] > 0 && cost[1] > 0) {
        kd_sb_printf(out, "a record's cost subtracted (v1 %.0f, v2 %.0f cycles, measured on the GPU)", cost[0], cost[1]);
        return;
    }
    /* A Triton side's records are Proton's, which kerndiff has no calibration kernel for. */
    kd_sb_puts(out, "a record's cost subtracted:");
    for (int s = 0; s < 2; s++) {
        kd_sb_printf(out, " %s ", kd_text_safe(c->side[s].label, &safe));
        if (cost[s] > 0)
            kd_sb_printf(out, "%.0f cycles (measured on the GPU)", cost[s]);
        else
            kd_sb_puts(out, "none (not calibrated)");
        kd_sb_puts(out, s ? "" : ";");
    }
    kd_sb_free(&safe);
}

/* "producer (runs of 4 warps), consumer (runs of 4 warps)": the groups a side recorded for. */
static void group_list(const kd_region_profile *p, kd_strbuf *out)
{
    for (size_t g = 0; g < p->ngroups; g++)
        if (p->groups[g].recording_warps) {
            kd_sb_puts(out, out->len ? ", " : "");
            kd_sb_untrusted(out, p->groups[g].name);
            kd_sb_printf(out, " (runs of %u warps)", p->groups[g].warps);
        }
}

/* The warp groups of both sides, once when they are the same. */
static void warp_groups(const kd_comparison *c, kd_strbuf *out)
{
    kd_strbuf list[2] = {{0}, {0}};
    for (int s = 0; s < 2; s++)
        group_list(&c->side[s].regions, &list[s]);
    if (list[0].len || list[1].len) {
        kd_sb_puts(out, "; warp groups, the first warp of each run recording for it: ");
        if (strcmp(kd_sb_str(&list[0]), kd_sb_str(&list[1])) == 0)
            kd_sb_puts(out, kd_sb_str(&list[0]));
        else
            kd_sb_printf(out, "v1 %s, v2 %s", list[0].len ? kd_sb_str(&list[0]) : "none",
                         list[1].len ? kd_sb_str(&list[1]) : "none");
    }
    kd_sb_free(&list[0]);
    kd_sb_free(&list[1]);
}

void kd_region_overhead(const kd_comparison *c, kd_strbuf *out)
{
    kd_strbuf safe = {0}; /* a label may come from a saved document */
    kd_sb_puts(out, "instrumented vs plain time per launch:");
    for (int s = 0; s < 2; s++) {
        const kd_region_profile *p = &c->side[s].regions;
        double pct = p->plain_ns > 0 ? 100.0 * (p->instrumented_ns / p->plain_ns - 1) : 0;
        kd_sb_printf(out, "%s %s %+.1f%%", s ? ";" : "", kd_text_safe(c->side[s].label, &safe), pct);
        if (p->dropped || p->unmatched)
            kd_sb_printf(out, " (%llu records dropped by full rings, %llu unmatched)", p->dropped, p->unmatched);
        if (p->registers[1] && p->blocks_per_sm[1] != p->blocks_per_sm[0])
            kd_sb_printf(out, " (the instrumented build: %d registers a thread against %d, %d blocks per SM against %d)",
                         p->registers[1], p->registers[0], p->blocks_per_sm[1], p->blocks_per_sm[0]);
        if (p->branched_markers)
            kd_sb_puts(out, p->branched_because == KD_BRANCH_MANY_WAVES
                                ? " (markers branch around the record in the blocks that do not record: in a grid of"
                                  " more than one wave, predicated markers cost those blocks more than the branch costs"
                                  " the recording ones)"
                                : " (markers branch around the record in the blocks that do not record: predicated"
                                  " there, they cost blocks per SM; a record costs more this way)");
        if (p->divergent_warps)
            kd_sb_printf(out, " (%llu warps left out: their lanes reached the markers apart, in lane-divergent code)",
                         p->divergent_warps);
    }
    size_t recorded[2] = {c->side[0].regions.recording_warps, c->side[1].regions.recording_warps},
           warps[2] = {c->side[0].regions.warps, c->side[1].regions.warps};
    kd_sb_printf(out, "; %zu launches, %zu + %zu warps recorded", c->side[0].regions.launches, recorded[0], recorded[1]);
    if (recorded[0] != warps[0] || recorded[1] != warps[1])
        kd_sb_printf(out, " (of %zu + %zu in the recording blocks)", warps[0], warps[1]);
    if (c->side[0].regions.block_stride > 1 || c->side[1].regions.block_stride > 1) {
        kd_sb_puts(out, ", from blocks:");
        for (int s = 0; s < 2; s++) {
            const kd_region_profile *p = &c->side[s].regions;
            kd_sb_printf(out, "%s %s %zu of %zu (1 in %u)", s ? "," : "", kd_text_safe(c->side[s].label, &safe),
                         p->blocks_recorded,
                         p->blocks, p->block_stride);
        }
        kd_sb_puts(out, "; --region-blocks all records every block");
    }
    warp_groups(c, out);
    double hz[2] = {c->side[0].regions.sm_clock_hz, c->side[1].regions.sm_clock_hz};
    if (hz[0] > 0 || hz[1] > 0) {
        kd_sb_puts(out, "; SM clock while recording (%globaltimer):");
        for (int s = 0; s < 2; s++)
            if (hz[s] > 0)
                kd_sb_printf(out, "%s %s %.0f MHz", s && hz[0] > 0 ? "," : "", kd_text_safe(c->side[s].label, &safe),
                             hz[s] / 1e6);
    }
    kd_sb_free(&safe);
}
