/* report.h — the renderers. Each is a view of one kd_comparison; none computes anything
 * the others could disagree with. */
#ifndef KD_REPORT_REPORT_H
#define KD_REPORT_REPORT_H

#include <stdbool.h>
#include <jansson.h>
#include <stdio.h>
#include "diff/comparison.h"
#include "util/jtable.h"

typedef struct kd_render_options {
    bool color;          /* ANSI colour (terminal only) */
    bool all_rows;       /* unchanged instruction rows too (JSON always has every row) */
    bool all_metrics;    /* unchanged counter rows too */
    bool per_kernel;     /* a pipeline's counters kernel by kernel */
    bool advice;         /* the advice notes */
    bool brief;          /* --brief: verdict, correctness, what changed */
    bool metric_names;   /* ncu's metric names beside the counter rows */
    bool full;           /* --verbose: lines as long as they are, nothing elided (report/fit.h) */
    int width;           /* set by kd_render_terminal: the columns it fits to (0: not fitted) */
} kd_render_options;

void kd_render_terminal(FILE *out, const kd_comparison *c, const kd_render_options *o);
void kd_render_markdown(FILE *out, const kd_comparison *c, const kd_render_options *o);
/* Returns 0, -1 on allocation or write failure. Schema: docs/json-schema.json. */
int kd_render_json(FILE *out, const kd_comparison *c);
/* The same document as a jansson value (new reference), NULL on failure: sweeps embed it. */
json_t *kd_comparison_json(const kd_comparison *c);
/* One point of a sweep (workflow/sweep.c): a row of its summary table, CSV and chart. */
typedef struct kd_sweep_point {
    const char *value;        /* the parameter's value as given ("1048576", "4") */
    int rc;                   /* the point's exit status */
    bool timed;
    double v1, v2;            /* median ns per launch */
    double ratio, lo, hi;     /* speedup v1/v2 and its 95% CI */
    const char *verdict;      /* kd_verdict_name */
    const char *bound;        /* v2's roofline bound, "-" when not known */
    bool outputs_ok;          /* matched, or not checked */
} kd_sweep_point;

typedef struct kd_sweep_result {
    const char *parameter;    /* "n" or the --sweep NAME */
    bool compile_time;        /* -D NAME=value per point */
    const kd_sweep_point *points;
    size_t count;
} kd_sweep_result;

/* The HTML report (report/html.c): one self-contained page (inline CSS and SVG, no script,
 * nothing fetched) with the verdict, launch, correctness, the samples' distribution and
 * order with the speedup's CI, the roofline, regions, and the counter and static tables.
 * `c` is the comparison shown in full; for a sweep, `sweep` adds its time and speedup
 * charts and `c` is its first analysed point (the static diff) or NULL (`kerndiff app` has
 * a page of its own: kd_app_render_html). */
void kd_render_html(FILE *out, const kd_comparison *c, const kd_sweep_result *sweep);
/* CSV for plotting elsewhere (report/csv_writer.c): with `sweep`, one row per point; else one row
 * per raw sample of `c` (side, index, round, ns, throttled; a header only when nothing
 * was timed). */
void kd_render_csv(FILE *out, const kd_comparison *c, const kd_sweep_result *sweep);
/* The region timelines (Chrome/Perfetto trace JSON); 0, -1 on failure. */
int kd_render_trace(FILE *out, const kd_comparison *c);
/* The JSON document's version: it changes when a field changes meaning or disappears. */
#define KD_JSON_SCHEMA_VERSION 3
/* The document's fields (report/json.c): the writer and the reader both come from it. */
extern const kd_jtable kd_comparison_table;
/* Reads a document written by kd_comparison_json into `out` (zeroed first) and rebuilds
 * what is derived (instruction tables, findings). Returns 0, or -1 with "PATH: what is
 * wrong" in err. Borrowed strings (paths, labels, origins) point into `root`, which must
 * outlive `out`; free `out` with kd_comparison_free whatever the result. */
int kd_comparison_read(json_t *root, kd_comparison *out, kd_strbuf *err);
/* Writes and releases `root`. */
int kd_write_json(FILE *out, json_t *root);

#endif
