/* app_report.h — the renderers of `kerndiff app`: views of one kd_app_comparison
 * (app/model.h), computing nothing the model does not hold beyond unit conversion. */
#ifndef KD_REPORT_APP_REPORT_H
#define KD_REPORT_APP_REPORT_H

#include <stdbool.h>
#include <stdio.h>

#include "app/model.h"

/* top: kernels shown (0: all); the JSON always has all of them. */
void kd_app_render_terminal(FILE *out, const kd_app_comparison *c, int top);
void kd_app_render_markdown(FILE *out, const kd_app_comparison *c, int top);
/* Returns 0, -1 on allocation or write failure. Schema: docs/app-json-schema.json. */
int kd_app_render_json(FILE *out, const kd_app_comparison *c);
#define KD_APP_JSON_SCHEMA_VERSION 1

#endif
