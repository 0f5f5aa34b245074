/* hotspots_report.h — where the time moved, in words (issue 31 item 2): the hot-spot diff
 * (hotspots/hotspots.h) as terminal lines, a Markdown table, a JSON object and an HTML
 * annotated source view with both sides' bars. Each comparison renderer calls its own one
 * when the comparison carries a hot-spot diff. */
#ifndef KD_REPORT_HOTSPOTS_REPORT_H
#define KD_REPORT_HOTSPOTS_REPORT_H

#include <jansson.h>
#include <stdbool.h>
#include <stdio.h>

#include "hotspots/hotspots.h"
#include "hotspots/hotspots_pass.h"
#include "util/strbuf.h"

/* How many rows the terminal and Markdown show (the JSON has them all). */
enum { KD_HOTSPOTS_SHOWN = 8 };

/* One row's sentence: "line 7 -> 8 `sum += a[i]`: 57% -> 15% of samples, long scoreboard -> wait". */
void kd_hotspots_row_text(kd_strbuf *sb, const kd_hs_row *row);
/* "long scoreboard" for "long_scoreboard"; "none" for NULL. */
void kd_hotspots_reason_text(kd_strbuf *sb, const char *reason);
/* A count of executed instructions, short: 1234, 56k, 1.2M, 34M; "?" for -1 (not counted). */
void kd_hotspots_count_text(kd_strbuf *sb, long long n);

void kd_hotspots_terminal(FILE *out, const kd_hs_diff *d, bool color);
void kd_hotspots_markdown(FILE *out, const kd_hs_diff *d);
/* {"kernel", "samples": [v1, v2], "dropped": [..], "lines": [...]}: docs/HOTSPOTS.md. */
json_t *kd_hotspots_json(const kd_hs_diff *d);
/* A <section>: the top rows as sentences, then v2's source with each line's share on both sides. */
void kd_hotspots_html(FILE *out, const kd_hs_diff *d);

/* Why a side's record could not be read: "v1's hot-spot record PATH, line 3: ...". */
void kd_hotspots_error_text(kd_strbuf *sb, const char *side, const char *path, const kd_hs_error *err);

/* Why a side has no hot-spot profile: "v1: no hot spots: nvdisasm not found (...)". */
void kd_hotspots_failure_text(kd_strbuf *sb, const char *side, const kd_hotspots_failure *f);
/* The same from a note's values: the step's name (kd_hs_step_name) and the detail (for the
 * record step, "LINE CODE" as kd_hotspots_note_detail writes it). */
void kd_hotspots_step_text(kd_strbuf *sb, const char *side, const char *step, const char *detail);

#endif
