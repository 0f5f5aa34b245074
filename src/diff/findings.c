#include "diff/findings.h"

#include <stdlib.h>

#include "diff/comparison.h"
#include "util/xalloc.h"

const char *const *kd_finding_value_names(kd_finding_id id)
{
    static const char *const names[KD_FINDING_ID_COUNT][KD_FINDING_VALUES + 1] = {
        [KD_FINDING_SPILLS] = {"spill_stores_bytes", "spill_loads_bytes", NULL},
        [KD_FINDING_LOADS_128] = {"global_loads_128", "global_loads", NULL},
        [KD_FINDING_STORES_128] = {"global_stores_128", "global_stores", NULL},
        [KD_FINDING_BARRIERS] = {"barriers", NULL},
        [KD_FINDING_MEMORY_BARRIERS] = {"memory_barriers", NULL},
        [KD_FINDING_OCCUPANCY] = {"occupancy", "warps_per_sm", NULL},
    };
    return names[(unsigned)id < KD_FINDING_ID_COUNT ? id : 0];
}

/* Adds a finding with up to two pairs of values; `change` describes the first pair. */
static void add(kd_comparison *c, kd_finding f)
{
    c->findings = kd_xrealloc(c->findings, (c->finding_count + 1) * sizeof *c->findings);
    c->findings[c->finding_count++] = f;
}

/* Whether a count that matters mostly by being non-zero changed, and how. */
static bool change_of(long v1, long v2, kd_change *out)
{
    *out = v1 == 0 && v2 > 0 ? KD_CHANGE_APPEARED : v1 > 0 && v2 == 0 ? KD_CHANGE_VANISHED : KD_CHANGE_CHANGED;
    return v1 != v2;
}

static void spills(kd_comparison *c, const kd_static_result *a, const kd_static_result *b)
{
    kd_change what;
    if (change_of(a->resources.spill_stores + a->resources.spill_loads,
                  b->resources.spill_stores + b->resources.spill_loads, &what))
        add(c, (kd_finding){.id = KD_FINDING_SPILLS, .change = what,
                            .value = {{(double)a->resources.spill_stores, (double)b->resources.spill_stores},
                                      {(double)a->resources.spill_loads, (double)b->resources.spill_loads}}});
}

/* Wider accesses matter when they appear or vanish, not when their number moves. */
static void width(kd_comparison *c, kd_finding_id id, long wide1, long wide2, long all1, long all2)
{
    kd_change what;
    if (change_of(wide1, wide2, &what) && what != KD_CHANGE_CHANGED)
        add(c, (kd_finding){.id = id, .change = what, .value = {{(double)wide1, (double)wide2}, {(double)all1, (double)all2}}});
}

static void count(kd_comparison *c, kd_finding_id id, long v1, long v2)
{
    kd_change what;
    if (change_of(v1, v2, &what))
        add(c, (kd_finding){.id = id, .change = what, .value = {{(double)v1, (double)v2}, {0, 0}}});
}

static void occupancy(kd_comparison *c, const kd_static_result *a, const kd_static_result *b)
{
    if (!a->occupancy_valid || !b->occupancy_valid)
        return;
    const kd_occupancy *x = &a->occupancy, *y = &b->occupancy;
    if (x->warps_per_sm == y->warps_per_sm && x->limiter == y->limiter)
        return;
    add(c, (kd_finding){.id = KD_FINDING_OCCUPANCY, .change = KD_CHANGE_CHANGED,
                        .value = {{x->occupancy, y->occupancy}, {x->warps_per_sm, y->warps_per_sm}},
                        .limiter = {x->limiter, y->limiter}});
}

void kd_findings_collect(kd_comparison *c)
{
    const kd_static_result *a = &c->side[0].stat, *b = &c->side[1].stat;
    spills(c, a, b);
    occupancy(c, a, b);
    if (!a->sass_present || !b->sass_present)
        return;
    const kd_sass_checks *x = &a->sass_checks, *y = &b->sass_checks;
    width(c, KD_FINDING_LOADS_128, x->global_loads_128, y->global_loads_128, x->global_loads, y->global_loads);
    width(c, KD_FINDING_STORES_128, x->global_stores_128, y->global_stores_128, x->global_stores, y->global_stores);
    count(c, KD_FINDING_BARRIERS, x->barriers, y->barriers);
    count(c, KD_FINDING_MEMORY_BARRIERS, x->memory_barriers, y->memory_barriers);
}
