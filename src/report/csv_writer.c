/* csv.c — the raw samples, or a sweep's points, as CSV (RFC 4180) for people who plot
 * elsewhere. Times keep ten significant digits: 0.001 ns at 10 ms. */
#include "report/report.h"

#include <math.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

/* Whether a spreadsheet opening the file would take text as a formula: it begins with '=',
 * '+', '-' or '@' (or a tab or carriage return before one) and is not simply a number ("-1"
 * is a value a sweep may take; "=HYPERLINK(..)" and "@SUM(..)" are not). */
static bool formula_like(const char *text)
{
    if (!*text || !text[1] || !strchr("=+-@\t\r", *text)) /* a lone "-" is the "not known" mark */
        return false;
    char *end;
    double v = strtod(text, &end);
    return *end != '\0' || !isfinite(v) || end == text;
}

/* A field quoted when it holds a separator, a quote or a line break; one a spreadsheet would
 * run as a formula is written with a leading ' (OWASP's CSV injection rule), quoted, so it
 * is shown as the text it is. */
static void field(FILE *out, const char *text)
{
    bool formula = formula_like(text);
    if (!formula && !strpbrk(text, ",\"\r\n")) {
        fputs(text, out);
        return;
    }
    fputc('"', out);
    if (formula)
        fputc('\'', out);
    for (const char *s = text; *s; s++) {
        if (*s == '"')
            fputc('"', out);
        fputc(*s, out);
    }
    fputc('"', out);
}

static void sweep_rows(FILE *out, const kd_sweep_result *s)
{
    fputs("parameter,value,exit,v1_median_ns,v2_median_ns,speedup,ci_low,ci_high,verdict,v2_bound,outputs\n", out);
    for (size_t i = 0; i < s->count; i++) {
        const kd_sweep_point *p = &s->points[i];
        field(out, s->parameter);
        fputc(',', out);
        field(out, p->value);
        fprintf(out, ",%d,", p->rc);
        if (p->timed) {
            fprintf(out, "%.10g,%.10g,%.10g,%.10g,%.10g,", p->v1, p->v2, p->ratio, p->lo, p->hi);
            field(out, p->verdict);
            fputc(',', out);
            field(out, p->bound);
            fprintf(out, ",%s\n", p->outputs_ok ? "match" : "differ");
        } else {
            fputs(",,,,,not measured,,\n", out);
        }
    }
}

void kd_render_csv(FILE *out, const kd_comparison *c, const kd_sweep_result *sweep)
{
    if (sweep) {
        sweep_rows(out, sweep);
        return;
    }
    /* round is empty for saved runs that predate per-sample rounds. */
    fputs("side,index,round,ns,throttled\n", out);
    if (!c || !c->timed)
        return;
    for (int s = 0; s < 2; s++) {
        const kd_side_timing *t = &c->timing.side[s];
        for (size_t i = 0; i < t->n; i++) {
            fprintf(out, "v%d,%zu,", s + 1, i);
            if (t->round)
                fprintf(out, "%u", t->round[i]);
            fprintf(out, ",%.10g,%d\n", t->samples[i], t->throttled && t->throttled[i]);
        }
    }
}
