#include "diff/rows.h"

#include <stdio.h>

#define GETTER(name, expr) \
    static long name(const kd_static_result *r) { return (long)(expr); }

GETTER(registers, r->resources.registers)
GETTER(spill_stores, r->resources.spill_stores)
GETTER(spill_loads, r->resources.spill_loads)
GETTER(stack_frame, r->resources.stack_frame)
GETTER(shared_static, r->resources.shared_static)
GETTER(barriers, r->resources.barriers)
GETTER(local_stores, r->sass_checks.local_stores)
GETTER(local_loads, r->sass_checks.local_loads)
GETTER(global_loads, r->sass_checks.global_loads)
GETTER(global_loads_128, r->sass_checks.global_loads_128)
GETTER(global_loads_64, r->sass_checks.global_loads_64)
GETTER(global_stores, r->sass_checks.global_stores)
GETTER(global_stores_128, r->sass_checks.global_stores_128)
GETTER(sass_barriers, r->sass_checks.barriers)
GETTER(memory_barriers, r->sass_checks.memory_barriers)

/* ptxas's (or cuobjdump's) resource report was found for the entry. */
static bool resources_found(const kd_static_result *r) { return r->resources.found; }

const kd_value_row kd_resource_rows[] = {
    {"registers/thread", KD_BETTER_NEITHER, false, registers, resources_found},
    {"spill stores (B)", KD_BETTER_LOWER, false, spill_stores, resources_found},
    {"spill loads (B)", KD_BETTER_LOWER, false, spill_loads, resources_found},
    {"stack frame (B)", KD_BETTER_LOWER, false, stack_frame, resources_found},
    {"static shared (B)", KD_BETTER_NEITHER, false, shared_static, resources_found},
    {"barriers", KD_BETTER_NEITHER, false, barriers, resources_found},
};
const size_t kd_resource_row_count = sizeof kd_resource_rows / sizeof *kd_resource_rows;

const kd_value_row kd_check_rows[] = {
    {"local stores STL", KD_BETTER_LOWER, true, local_stores, NULL},
    {"local loads LDL", KD_BETTER_LOWER, true, local_loads, NULL},
    {"global loads LDG", KD_BETTER_NEITHER, true, global_loads, NULL},
    {"  of them 128-bit", KD_BETTER_HIGHER, true, global_loads_128, NULL},
    {"  of them 64-bit", KD_BETTER_NEITHER, true, global_loads_64, NULL},
    {"global stores STG", KD_BETTER_NEITHER, true, global_stores, NULL},
    {"  of them 128-bit", KD_BETTER_HIGHER, true, global_stores_128, NULL},
    {"barriers BAR", KD_BETTER_LOWER, true, sass_barriers, NULL},
    {"memory barriers MEMBAR", KD_BETTER_LOWER, true, memory_barriers, NULL},
};
const size_t kd_check_row_count = sizeof kd_check_rows / sizeof *kd_check_rows;

bool kd_value_row_known(const kd_value_row *row, const kd_static_result *r)
{
    return !row->known || row->known(r);
}

void kd_value_row_format(const kd_value_row *row, const kd_static_result *r, char *buf, size_t n)
{
    if (kd_value_row_known(row, r))
        snprintf(buf, n, "%ld", row->get(r));
    else
        snprintf(buf, n, "%s", KD_VALUE_UNKNOWN);
}
