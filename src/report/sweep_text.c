/* A sweep's summary table and point header (report/sweep_text.h), moved out of
 * workflow/sweep.c so that the sweep's words are made in report/. */
#include "report/sweep_text.h"

#include "measure/timing.h"
#include "report/model_text.h"

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
        char a[32] = "-", b[32] = "-", speedup[64] = "-";
        if (p->timed) {
            kd_format_ns(p->v1, a, sizeof a);
            kd_format_ns(p->v2, b, sizeof b);
            snprintf(speedup, sizeof speedup, "%.3fx (%.3f-%.3f)", p->ratio, p->lo, p->hi);
        }
        const char *verdict = p->timed ? p->verdict : p->rc ? "failed" : "not measured";
        const char *outputs = !p->timed ? "-" : p->outputs_ok ? "match" : "DIFFER";
        if (markdown)
            fprintf(out, "| %s | %s | %s | %s | %s | %s | %s |\n", p->value, a, b, speedup, verdict,
                    p->timed ? p->bound : "-", outputs);
        else
            fprintf(out, "  %-12s %10s %10s  %-24s %-26s %-8s %s\n", p->value, a, b, speedup, verdict,
                    p->timed ? p->bound : "-", outputs);
    }
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
