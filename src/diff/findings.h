/* findings.h — the handful of facts a kernel author wants first: spills that appeared,
 * loads that got wider, barriers that vanished, occupancy and its limiter. Each is a code
 * with the numbers behind it; the sentences are made in report/ (model_text.h). */
#ifndef KD_DIFF_FINDINGS_H
#define KD_DIFF_FINDINGS_H

#include <stddef.h>
#include "static/occupancy.h"

typedef enum kd_finding_id {
    KD_FINDING_SPILLS,           /* values: spill store bytes, spill load bytes (ptxas) */
    KD_FINDING_LOADS_128,        /* values: LDG .128, every LDG (SASS) */
    KD_FINDING_STORES_128,       /* values: STG .128, every STG (SASS) */
    KD_FINDING_BARRIERS,         /* values: BAR (SASS) */
    KD_FINDING_MEMORY_BARRIERS,  /* values: MEMBAR (SASS) */
    KD_FINDING_OCCUPANCY,        /* values: occupancy 0..1, warps per SM; and the limiters */
    KD_FINDING_ID_COUNT
} kd_finding_id;

typedef enum kd_change { KD_CHANGE_APPEARED, KD_CHANGE_VANISHED, KD_CHANGE_CHANGED, KD_CHANGE_COUNT } kd_change;

#define KD_FINDING_VALUES 2

typedef struct kd_finding {
    kd_finding_id id;
    kd_change change;                     /* of the first value */
    double value[KD_FINDING_VALUES][2];   /* [which][v1, v2], as kd_finding_value_names says */
    kd_limiter limiter[2];                /* KD_FINDING_OCCUPANCY: what limits each side */
} kd_finding;

/* The names of an id's values in order, NULL after the last: their keys in JSON. */
const char *const *kd_finding_value_names(kd_finding_id id);

struct kd_comparison;
/* Appends to c->findings. */
void kd_findings_collect(struct kd_comparison *c);

#endif
