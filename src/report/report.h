/* report.h — the renderers. Each is a view of one kd_comparison; none computes anything
 * the others could disagree with. */
#ifndef KD_REPORT_REPORT_H
#define KD_REPORT_REPORT_H

#include <stdbool.h>
#include <jansson.h>
#include <stdio.h>
#include "cli/options.h"
#include "diff/model.h"

typedef struct kd_render_options {
    bool color;          /* ANSI colour (terminal only) */
    bool all_rows;       /* unchanged instruction rows too (JSON always has every row) */
    bool all_metrics;    /* unchanged counter rows too */
    bool per_kernel;     /* a pipeline's counters kernel by kernel */
    bool advice;         /* the advice notes */
    bool metric_names;   /* ncu's metric names beside the counter rows */
} kd_render_options;

/* The render options the command line asks for. */
kd_render_options kd_render_options_for(const kd_options *opts);

void kd_render_terminal(FILE *out, const kd_comparison *c, const kd_render_options *o);
void kd_render_markdown(FILE *out, const kd_comparison *c, const kd_render_options *o);
/* Returns 0, -1 on allocation or write failure. Schema: docs/json-schema.json. */
int kd_render_json(FILE *out, const kd_comparison *c);
/* The same document as a jansson value (new reference), NULL on failure: sweeps embed it. */
json_t *kd_comparison_json(const kd_comparison *c);
/* Writes and releases `root`. */
int kd_write_json(FILE *out, json_t *root);

#endif
