/* names.h — the names a side's regions are known by: its region names (KD_REGION_BEGIN /
 * END / KD_REGION, or Proton's scopes) and its warp groups' (KD_REGION_GROUP), each with
 * id = index + 1, as the instrumented build defines them and the records carry them. */
#ifndef KD_REGIONS_NAMES_H
#define KD_REGIONS_NAMES_H

#include <stdlib.h>

#include "util/strlist.h"

typedef struct kd_region_names {
    kd_strlist regions; /* owned strings */
    kd_strlist groups;  /* owned strings */
} kd_region_names;

static inline void kd_region_names_free(kd_region_names *n)
{
    kd_strlist *lists[] = {&n->regions, &n->groups};
    for (size_t l = 0; l < 2; l++) {
        for (size_t i = 0; i < lists[l]->count; i++)
            free(lists[l]->items[i]);
        free(lists[l]->items);
        lists[l]->items = NULL;
        lists[l]->count = 0;
    }
}

#endif
