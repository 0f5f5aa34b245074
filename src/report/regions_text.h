/* regions_text.h — the region table and its sentences, shared by the terminal and Markdown
 * renderers: regions matched by name across the sides (v1's order, then v2's own). */
#ifndef KD_REPORT_REGIONS_TEXT_H
#define KD_REPORT_REGIONS_TEXT_H

#include <stdbool.h>
#include "diff/comparison.h"
#include "util/strbuf.h"

typedef struct kd_region_row {
    const char *name;
    const kd_region_stat *v1, *v2;  /* NULL: the region is not in that side */
    double change_pct;              /* v2's median cycles over v1's, -100..; when both exist */
    bool beyond_noise;              /* kd_region_change_is_real */
} kd_region_row;

/* Fills rows (room for both sides' counts); returns how many. */
size_t kd_region_rows(const kd_comparison *c, kd_region_row *rows);
/* The region's name, with the warp groups that recorded it: "mma [consumer]", or
 * "mma [v1 consumer; v2 producer]" when the sides differ; the name alone without groups. */
void kd_region_label(const kd_region_row *row, kd_strbuf *out);
/* "12,345 [11,900-13,020]" or "-" */
void kd_region_cell(const kd_region_stat *s, kd_strbuf *out);
/* "-45.0% (beyond launch-to-launch noise)", "+0.4% (within noise)", "only in v2" */
void kd_region_change(const kd_region_row *row, kd_strbuf *out);
/* Calls row() once per region (both sides' regions matched by name) with its label
 * (kd_region_label) and three cells: v1, v2 (kd_region_cell) and the change (kd_region_change). */
void kd_region_table(const kd_comparison *c,
                     void (*row)(const char *name, const char *v1, const char *v2, const char *change, void *ctx),
                     void *ctx);
/* The header's note: what the numbers are. */
void kd_region_heading(const kd_comparison *c, kd_strbuf *out);
/* Instrumented against plain time per side, launches, warps, dropped and unmatched records,
 * the warp groups. */
void kd_region_overhead(const kd_comparison *c, kd_strbuf *out);

#endif
