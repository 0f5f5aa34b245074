/* rows.h — the named per-side quantities of the static diff, defined once so that every
 * renderer shows the same rows under the same names. */
#ifndef KD_DIFF_ROWS_H
#define KD_DIFF_ROWS_H

#include <stdbool.h>
#include <stddef.h>
#include "static/analysis.h"

typedef enum kd_better { KD_BETTER_NEITHER, KD_BETTER_LOWER, KD_BETTER_HIGHER } kd_better;

typedef struct kd_value_row {
    const char *label;   /* terminal/Markdown label */
    kd_better better;
    bool needs_sass;     /* only meaningful when both sides were disassembled */
    long (*get)(const kd_static_result *r);
} kd_value_row;

/* Resource usage from ptxas. */
extern const kd_value_row kd_resource_rows[];
extern const size_t kd_resource_row_count;
/* The flagged SASS checks. */
extern const kd_value_row kd_check_rows[];
extern const size_t kd_check_row_count;

#endif
