/* A sweep's summary table and point header (report/sweep_text.h), moved out of
 * workflow/sweep.c so that the sweep's words are made in report/. */
#include "report/sweep_text.h"

#include "measure/timing.h"
#include "report/model_text.h"
#include "report/timing_text.h"

void kd_render_sweep_table(FILE *out, const kd_sweep_result *r, bool markdown)
{
    if (markdown)
        fprintf(out, "\n| %s | v1 | v2 | speedup (95%% CI) | verdict | v2 bound | outputs |\n|---:|---:|---:|---|---|---|---|\n",
                r->parameter);
    else
        fprintf(out, "\nsweep over %s\n  %-12s %10s %10s  %-24s %-26s %-8s %s\n", r->parameter, r->parameter, "v1", "v2",
                "speedup (95% CI)", "verdict", "bound", "outputs");
    for (size_t i = 0; i < r->count; i++) {
        const kd_sweep_point *p = &r->points[i];
        kd_sweep_cells c;
        kd_sweep_row_cells(p, false, &c);
        if (markdown)
            fprintf(out, "| %s | %s | %s | %s | %s | %s | %s |\n", p->value, c.v1, c.v2, c.speedup, c.verdict, c.bound,
                    c.outputs);
        else
            fprintf(out, "  %-12s %10s %10s  %-24s %-26s %-8s %s\n", p->value, c.v1, c.v2, c.speedup, c.verdict,
                    c.bound, c.outputs);
    }
}

void kd_sweep_row_cells(const kd_sweep_point *p, bool typographic, kd_sweep_cells *c)
{
    snprintf(c->v1, sizeof c->v1, "-");
    snprintf(c->v2, sizeof c->v2, "-");
    snprintf(c->speedup, sizeof c->speedup, "-");
    if (p->timed) {
        kd_format_ns(p->v1, c->v1, sizeof c->v1);
        kd_format_ns(p->v2, c->v2, sizeof c->v2);
        if (typographic) {
            int d = kd_ratio_decimals(p->ratio, p->lo, p->hi);
            snprintf(c->speedup, sizeof c->speedup, "%.*f× (%.*f–%.*f)", d, p->ratio, d, p->lo, d, p->hi);
        } else {
            snprintf(c->speedup, sizeof c->speedup, "%.3fx (%.3f-%.3f)", p->ratio, p->lo, p->hi);
        }
    }
    c->verdict = p->timed ? p->verdict : p->rc ? "failed" : "not measured";
    c->bound = p->timed ? p->bound : "-";
    c->outputs = !p->timed ? "-" : p->outputs_ok ? "match" : "DIFFER";
}

void kd_render_sweep_point_header(FILE *out, const char *parameter, const char *value)
{
    fprintf(out, "== %s = %s\n", parameter, value);
}

void kd_render_sweep_point_headline(FILE *out, const kd_timing *t)
{
    kd_strbuf line = {0};
    kd_timing_headline(t, &line);
    fprintf(out, "%s\n", kd_sb_str(&line));
    kd_sb_free(&line);
}
