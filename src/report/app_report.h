/* app_report.h — the renderers of `kerndiff app`: views of one kd_app_comparison
 * (app/app_model.h), computing nothing the model does not hold beyond unit conversion. */
#ifndef KD_REPORT_APP_REPORT_H
#define KD_REPORT_APP_REPORT_H

#include <stdbool.h>
#include <stdio.h>

#include "app/app_model.h"
#include "util/strbuf.h"

/* top: kernels shown (0: all); the JSON always has all of them. */
void kd_app_render_terminal(FILE *out, const kd_app_comparison *c, int top);
void kd_app_render_markdown(FILE *out, const kd_app_comparison *c, int top);
/* Returns 0, -1 on allocation or write failure. Schema: docs/app-json-schema.json. */
int kd_app_render_json(FILE *out, const kd_app_comparison *c);
#define KD_APP_JSON_SCHEMA_VERSION 1
/* One self-contained page (report/app_html.c, the shell of html_page.h): the verdict and
 * totals with their CIs, the per-kernel table and the kernels of one side only, a chart of
 * the top kernels' GPU time (svg id chart-app-kernels; `top` kernels, 0: up to 10) and the
 * API table. */
void kd_app_render_html(FILE *out, const kd_app_comparison *c, int top);

/* The sentences and cells the views share (report/app_text.c). */
/* "2.400 ms", "1.5 MiB", "300": a value in its unit. */
void kd_app_value_text(char *buf, size_t n, double v, kd_app_unit unit);
/* v2 against v1 in percent with its 95% CI when there is one ("+12.3% [+10.1, +14.0] *",
 * the star where the CI excludes no change), or "new", "gone", "=", "-". */
void kd_app_change_text(char *buf, size_t n, const kd_app_change *ch, bool present_v1, bool present_v2);
/* The cells of the totals table's row `id` (label, v1, v2, change, per step v1 and v2; the
 * per-step cells empty for a total that has none), or false when the row is not shown (wall
 * time of an nsys profile). */
typedef struct kd_app_total_cells {
    const char *label;
    char v[2][32], change[64], per_step[2][32];
} kd_app_total_cells;
bool kd_app_total_row(const kd_app_comparison *c, int id, kd_app_total_cells *out);
/* The cells of a per-kernel row ("-" for a side the kernel did not run on); the config is
 * v2's, or v1's (config_of_v1) for a kernel only v1 ran. */
typedef struct kd_app_kernel_cells {
    char launches[2][32], time[2][32], mean[2][32], change[64], share[32], config[96];
    bool config_of_v1;
} kd_app_kernel_cells;
void kd_app_kernel_row(const kd_app_row *r, kd_app_kernel_cells *out);
/* "(4096,1,1)x(256,1,1) 24r 1024B smem +2 more" */
void kd_app_config_text(char *buf, size_t n, const kd_app_config *g, size_t nconfigs);
/* The verdict on the GPU kernel time, and in `rest` what follows it unstressed
 * ("; one run a side: no confidence interval"). */
void kd_app_headline(const kd_app_comparison *c, kd_strbuf *verdict, kd_strbuf *rest);
/* What side s did: "exit 0 in 3 of 3 runs, wall time 1.2 s (median)" or "nsys profile",
 * and why its totals may be low. */
void kd_app_side_text(const kd_app_comparison *c, int s, kd_strbuf *out);
/* Kernels that only side s launched. */
size_t kd_app_only_in(const kd_app_comparison *c, int s);
/* What "change" means in the tables. */
extern const char kd_app_change_note[];

#endif
