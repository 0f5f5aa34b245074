#include "diff/findings.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>


__attribute__((format(printf, 2, 3))) static int add(kd_comparison *c, const char *fmt, ...)
{
    char **grown = realloc(c->findings, (c->finding_count + 1) * sizeof *grown);
    if (!grown)
        return -1;
    c->findings = grown;
    va_list ap;
    va_start(ap, fmt);
    int n = vasprintf(&c->findings[c->finding_count], fmt, ap);
    va_end(ap);
    if (n < 0)
        return -1;
    c->finding_count++;
    return 0;
}

/* "appeared" / "vanished" / "changed" for a count that matters mostly by being non-zero. */
static const char *presence_change(long v1, long v2)
{
    if (v1 == 0 && v2 > 0)
        return "appeared";
    if (v1 > 0 && v2 == 0)
        return "vanished";
    return v1 != v2 ? "changed" : NULL;
}

static int spills(kd_comparison *c, const kd_static_result *a, const kd_static_result *b)
{
    long s1 = a->resources.spill_stores + a->resources.spill_loads;
    long s2 = b->resources.spill_stores + b->resources.spill_loads;
    const char *what = presence_change(s1, s2);
    if (!what)
        return 0;
    return add(c, "register spills %s: spill stores %ld -> %ld B, spill loads %ld -> %ld B (ptxas)", what,
               a->resources.spill_stores, b->resources.spill_stores, a->resources.spill_loads,
               b->resources.spill_loads);
}

static int load_width(kd_comparison *c, const kd_static_result *a, const kd_static_result *b)
{
    const kd_sass_checks *x = &a->sass_checks, *y = &b->sass_checks;
    const char *what = presence_change(x->global_loads_128, y->global_loads_128);
    if (what && strcmp(what, "changed") != 0 &&
        add(c, "128-bit global loads %s: LDG .128 %ld -> %ld of %ld -> %ld LDG (SASS)", what,
            x->global_loads_128, y->global_loads_128, x->global_loads, y->global_loads) != 0)
        return -1;
    what = presence_change(x->global_stores_128, y->global_stores_128);
    if (what && strcmp(what, "changed") != 0 &&
        add(c, "128-bit global stores %s: STG .128 %ld -> %ld of %ld -> %ld STG (SASS)", what,
            x->global_stores_128, y->global_stores_128, x->global_stores, y->global_stores) != 0)
        return -1;
    return 0;
}

static int barriers(kd_comparison *c, const kd_static_result *a, const kd_static_result *b)
{
    const kd_sass_checks *x = &a->sass_checks, *y = &b->sass_checks;
    if (x->barriers != y->barriers &&
        add(c, "barriers %s: BAR %ld -> %ld (SASS)", presence_change(x->barriers, y->barriers),
            x->barriers, y->barriers) != 0)
        return -1;
    if (x->memory_barriers != y->memory_barriers &&
        add(c, "memory barriers %s: MEMBAR %ld -> %ld (SASS)",
            presence_change(x->memory_barriers, y->memory_barriers), x->memory_barriers,
            y->memory_barriers) != 0)
        return -1;
    return 0;
}

static int occupancy(kd_comparison *c, const kd_static_result *a, const kd_static_result *b)
{
    if (!a->occupancy_valid || !b->occupancy_valid)
        return 0;
    const kd_occupancy *x = &a->occupancy, *y = &b->occupancy;
    if (x->warps_per_sm == y->warps_per_sm && x->limiter == y->limiter)
        return 0;
    return add(c, "theoretical occupancy %.0f%% -> %.0f%% (%d -> %d warps/SM), limited by %s -> %s",
               100.0 * x->occupancy, 100.0 * y->occupancy, x->warps_per_sm, y->warps_per_sm,
               kd_limiter_name(x->limiter), kd_limiter_name(y->limiter));
}

/* How a side's compiler was driven when kerndiff chose it (Triton: num_warps, num_stages,
 * shared memory, constexprs, the autotune config): the first thing to read when two Triton
 * sides differ, so it leads the list, both sides together. */
static int build_notes(kd_comparison *c)
{
    for (int s = 0; s < 2; s++)
        if (c->side[s].build_note && add(c, "%s: %s", c->side[s].label, c->side[s].build_note) != 0)
            return -1;
    return 0;
}

int kd_findings_collect(kd_comparison *c)
{
    const kd_static_result *a = &c->side[0].stat, *b = &c->side[1].stat;
    if (build_notes(c) != 0 || spills(c, a, b) != 0 || occupancy(c, a, b) != 0)
        return -1;
    if (a->sass_present && b->sass_present && (load_width(c, a, b) != 0 || barriers(c, a, b) != 0))
        return -1;
    return 0;
}
