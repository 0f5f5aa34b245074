/* sweep_text.h — a sweep's summary table (one row per point: value, both medians, the
 * speedup with its CI, verdict, v2's bound, outputs), as terminal text or Markdown, and the
 * line that opens each point in the terminal report. */
#ifndef KD_REPORT_SWEEP_TEXT_H
#define KD_REPORT_SWEEP_TEXT_H

#include <stdbool.h>
#include <stdio.h>

#include "report/report.h"

void kd_render_sweep_table(FILE *out, const kd_sweep_result *r, bool markdown);

/* One point's cells after its value, shared by the terminal, Markdown and HTML tables: "-"
 * for a point not timed. typographic: the speedup as HTML shows it ("1.23× (1.20–1.26)",
 * kd_ratio_decimals places), else as plain text ("1.230x (1.200-1.260)"). */
typedef struct kd_sweep_cells {
    char v1[32], v2[32], speedup[64];
    const char *verdict, *bound, *outputs; /* outputs: "match", "DIFFER" or "-" */
} kd_sweep_cells;
void kd_sweep_row_cells(const kd_sweep_point *p, bool typographic, kd_sweep_cells *c);
/* "== n = 4194304" */
void kd_render_sweep_point_header(FILE *out, const char *parameter, const char *value);
/* A later point's timing headline (the static diff is shown once, for the first point). */
void kd_render_sweep_point_headline(FILE *out, const kd_timing *t);

#endif
