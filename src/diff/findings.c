#include "diff/findings.h"

#include <stdlib.h>

#include "diff/model.h"

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
static int add(kd_comparison *c, kd_finding_id id, kd_change change, double a1, double a2, double b1, double b2)
{
    kd_finding *grown = realloc(c->findings, (c->finding_count + 1) * sizeof *grown);
    if (!grown)
        return -1;
    c->findings = grown;
    c->findings[c->finding_count++] = (kd_finding){.id = id, .change = change, .value = {{a1, a2}, {b1, b2}}};
    return 0;
}

/* Whether a count that matters mostly by being non-zero changed, and how. */
static bool change_of(long v1, long v2, kd_change *out)
{
    *out = v1 == 0 && v2 > 0 ? KD_CHANGE_APPEARED : v1 > 0 && v2 == 0 ? KD_CHANGE_VANISHED : KD_CHANGE_CHANGED;
    return v1 != v2;
}

static int spills(kd_comparison *c, const kd_static_result *a, const kd_static_result *b)
{
    kd_change what;
    if (!change_of(a->resources.spill_stores + a->resources.spill_loads,
                   b->resources.spill_stores + b->resources.spill_loads, &what))
        return 0;
    return add(c, KD_FINDING_SPILLS, what, (double)a->resources.spill_stores, (double)b->resources.spill_stores,
               (double)a->resources.spill_loads, (double)b->resources.spill_loads);
}

/* Wider accesses matter when they appear or vanish, not when their number moves. */
static int width(kd_comparison *c, kd_finding_id id, long wide1, long wide2, long all1, long all2)
{
    kd_change what;
    if (!change_of(wide1, wide2, &what) || what == KD_CHANGE_CHANGED)
        return 0;
    return add(c, id, what, (double)wide1, (double)wide2, (double)all1, (double)all2);
}

static int count(kd_comparison *c, kd_finding_id id, long v1, long v2)
{
    kd_change what;
    return change_of(v1, v2, &what) ? add(c, id, what, (double)v1, (double)v2, 0, 0) : 0;
}

static int occupancy(kd_comparison *c, const kd_static_result *a, const kd_static_result *b)
{
    if (!a->occupancy_valid || !b->occupancy_valid)
        return 0;
    const kd_occupancy *x = &a->occupancy, *y = &b->occupancy;
    if (x->warps_per_sm == y->warps_per_sm && x->limiter == y->limiter)
        return 0;
    if (add(c, KD_FINDING_OCCUPANCY, KD_CHANGE_CHANGED, x->occupancy, y->occupancy, x->warps_per_sm,
            y->warps_per_sm) != 0)
        return -1;
    c->findings[c->finding_count - 1].limiter[0] = x->limiter;
    c->findings[c->finding_count - 1].limiter[1] = y->limiter;
    return 0;
}

int kd_findings_collect(kd_comparison *c)
{
    const kd_static_result *a = &c->side[0].stat, *b = &c->side[1].stat;
    if (spills(c, a, b) != 0 || occupancy(c, a, b) != 0)
        return -1;
    if (!a->sass_present || !b->sass_present)
        return 0;
    const kd_sass_checks *x = &a->sass_checks, *y = &b->sass_checks;
    if (width(c, KD_FINDING_LOADS_128, x->global_loads_128, y->global_loads_128, x->global_loads,
              y->global_loads) != 0 ||
        width(c, KD_FINDING_STORES_128, x->global_stores_128, y->global_stores_128, x->global_stores,
              y->global_stores) != 0 ||
        count(c, KD_FINDING_BARRIERS, x->barriers, y->barriers) != 0 ||
        count(c, KD_FINDING_MEMORY_BARRIERS, x->memory_barriers, y->memory_barriers) != 0)
        return -1;
    return 0;
}
