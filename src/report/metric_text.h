/* metric_text.h — how counter values and deltas are written, shared by the terminal and
 * Markdown renderers. */
#ifndef KD_REPORT_METRIC_TEXT_H
#define KD_REPORT_METRIC_TEXT_H

#include <stddef.h>
#include "diff/counters.h"
#include "util/strbuf.h"

/* "65.57us", "201.3 MB", "3.07 TB/s", "1.98 GHz", "93.8%", "3.1M", "4.00". */
void kd_format_metric(kd_unit unit, double value, char *buf, size_t n);
/* One unit for a column of times, so that 941ns never stands beside 1.37us: the unit
 * kd_format_ns would give the column's largest value, with the decimals it gives that
 * value, more (up to 3) where the smallest would show fewer than two significant digits. */
typedef struct kd_time_column {
    double scale;     /* ns per unit */
    const char *unit; /* "ns", "us", "ms" */
    int decimals;
} kd_time_column;
kd_time_column kd_time_column_of(const double *ns, size_t count);
/* "0.94us" in the column's unit. */
void kd_format_ns_in(const kd_time_column *col, double ns, char *buf, size_t n);
/* "+33.5%", "-6.9pp", "+inf" */
void kd_format_delta(const kd_metric_def *def, const kd_metric_delta *d, char *buf, size_t n);
const char *kd_group_name(kd_metric_group g);
/* The cells of one counter row: v1, v2 and the delta, in `unit`. */
typedef struct kd_row_cells {
    char v1[40], v2[40], delta[32];
} kd_row_cells;
void kd_row_cells_of(kd_unit unit, const kd_metric_delta *d, kd_row_cells *out);
/* "v1: memory-bound at 64% of peak DRAM bandwidth (AI 0.25 FLOP/B); v2: ...; mem->mem, headroom 15%" */
void kd_roofline_line(const kd_counters *c, kd_strbuf *out);
/* When ncu's duration delta contradicts the timing verdict: why the verdict stands. */
void kd_duration_note(const kd_counters *c, kd_strbuf *out);
/* The ncu metric names a row is made of ("a + b"), or "derived" for a row computed from
 * other rows (arithmetic intensity). */
void kd_metric_ncu_names(const kd_metric_def *def, kd_strbuf *out);
/* "--metrics: ncu gave no values for: a, b (unknown names?)", empty when none is missing. */
void kd_missing_extra_note(const kd_counters *c, kd_strbuf *out);
/* The counter pass's provenance: set, repeats, whether counter noise is known. */
void kd_counters_header(const kd_counters *c, kd_strbuf *out);

#endif
