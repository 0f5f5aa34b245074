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
    /* Whether r has the value at all (NULL: always). A figure nobody reported (no ptxas log,
     * no cuobjdump for a Triton cubin) is unknown, never 0. */
    bool (*known)(const kd_static_result *r);
} kd_value_row;

/* What renderers show for an unknown value (JSON: null). */
#define KD_VALUE_UNKNOWN "?"

/* Whether row's value is known for r. */
bool kd_value_row_known(const kd_value_row *row, const kd_static_result *r);
/* The value as text into buf: the number, or KD_VALUE_UNKNOWN. */
void kd_value_row_format(const kd_value_row *row, const kd_static_result *r, char *buf, size_t n);

/* Resource usage from ptxas. */
extern const kd_value_row kd_resource_rows[];
extern const size_t kd_resource_row_count;
/* The flagged SASS checks. */
extern const kd_value_row kd_check_rows[];
extern const size_t kd_check_row_count;

#endif
