#include "report/svg.h"

#include <math.h>
#include <string.h>

#include "util/strbuf.h"
#include "util/text.h"

enum { MAX_TICKS = 64, MAX_TICK_LABELS = 12 };

void kd_xml_text(FILE *out, const char *text)
{
    kd_strbuf safe = {0};
    kd_escape_controls(text, strlen(text), &safe);
    for (const char *s = kd_sb_str(&safe); *s; s++) {
        switch (*s) {
        case '&': fputs("&amp;", out); break;
        case '<': fputs("&lt;", out); break;
        case '>': fputs("&gt;", out); break;
        case '"': fputs("&quot;", out); break;
        case '\'': fputs("&#39;", out); break;
        default: fputc(*s, out);
        }
    }
    kd_sb_free(&safe);
}

/* Where v falls on the axis, 0 (low end) .. 1. */
static double fraction(const kd_axis *a, double v)
{
    double f;
    if (a->scale == KD_SCALE_LOG)
        f = v <= 0 ? 0 : (log10(v) - log10(a->lo)) / (log10(a->hi) - log10(a->lo));
    else
        f = (v - a->lo) / (a->hi - a->lo);
    if (!isfinite(f))
        return 0.5; /* an empty range: everything in the middle */
    return f < 0 ? 0 : f > 1 ? 1 : f;
}

double kd_plot_x(const kd_plot *p, double x)
{
    return p->left + fraction(&p->x, x) * (p->width - p->left - p->right);
}

double kd_plot_y(const kd_plot *p, double y)
{
    return p->top + (1 - fraction(&p->y, y)) * (p->height - p->top - p->bottom);
}

/* Multiples of a 1, 2 or 5 step, about five of them over [lo, hi]. */
static size_t linear_ticks(double lo, double hi, double *at)
{
    double raw = (hi - lo) / 5;
    if (!(raw > 0) || !isfinite(raw))
        return 0;
    double magnitude = pow(10, floor(log10(raw))), f = raw / magnitude;
    double step = (f <= 1 ? 1 : f <= 2 ? 2 : f <= 5 ? 5 : 10) * magnitude;
    size_t n = 0;
    for (double k = ceil(lo / step); k * step <= hi * (1 + 1e-12) && n < MAX_TICKS; k++)
        at[n++] = k == 0 ? 0 : k * step; /* computed from k: no drift from repeated sums */
    return n;
}

/* Decades; 1-2-5 within them when the range holds fewer than two; else linear steps. */
static size_t log_ticks(double lo, double hi, double *at)
{
    static const double mantissas[] = {1, 2, 5};
    for (size_t used = 1; used <= 3; used += 2) {
        size_t n = 0;
        for (double e = floor(log10(lo)); e <= ceil(log10(hi)) && n < MAX_TICKS; e++)
            for (size_t m = 0; m < used && n < MAX_TICKS; m++) {
                double v = mantissas[m] * pow(10, e);
                if (v >= lo * (1 - 1e-9) && v <= hi * (1 + 1e-9))
                    at[n++] = v;
            }
        if (n >= 2)
            return n;
    }
    return linear_ticks(lo, hi, at);
}

static void tick_text(const kd_axis *a, double v, char *buf, size_t n)
{
    if (a->style == KD_TICKS_SI) {
        static const char *const prefix[] = {"", " k", " M", " G", " T", " P"};
        int p = 0;
        while (fabs(v) >= 1000 && p < 5) {
            v /= 1000;
            p++;
        }
        snprintf(buf, n, "%.3g%s", v, prefix[p]);
    } else {
        snprintf(buf, n, "%.4g", v / (a->unit > 0 ? a->unit : 1));
    }
}

static size_t axis_ticks(const kd_axis *a, double *at)
{
    if (a->tick_at) {
        size_t n = a->nticks < MAX_TICKS ? a->nticks : MAX_TICKS;
        memcpy(at, a->tick_at, n * sizeof *at);
        return n;
    }
    return a->scale == KD_SCALE_LOG ? log_ticks(a->lo, a->hi, at) : linear_ticks(a->lo, a->hi, at);
}

/* Ticks, grid lines and tick labels of one axis; with many given ticks only every k-th
 * is labelled so that labels never overlap. */
static void draw_axis(const kd_plot *p, const kd_axis *a, bool horizontal)
{
    double at[MAX_TICKS];
    size_t n = axis_ticks(a, at);
    size_t every = n > MAX_TICK_LABELS ? (n + MAX_TICK_LABELS - 1) / MAX_TICK_LABELS : 1;
    double x0 = p->left, x1 = p->width - p->right, y0 = p->top, y1 = p->height - p->bottom;
    for (size_t i = 0; i < n; i++) {
        char text[48];
        if (a->tick_text)
            snprintf(text, sizeof text, "%s", a->tick_text[i]);
        else
            tick_text(a, at[i], text, sizeof text);
        if (horizontal) {
            double x = kd_plot_x(p, at[i]);
            fprintf(p->out, "<line class=\"grid\" x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\"/>", x, y0, x, y1);
            if (i % every)
                continue;
            fprintf(p->out, "<text class=\"tick\" x=\"%.1f\" y=\"%.1f\" text-anchor=\"middle\">", x, y1 + 16);
        } else {
            double y = kd_plot_y(p, at[i]);
            fprintf(p->out, "<line class=\"grid\" x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\"/>", x0, y, x1, y);
            if (i % every)
                continue;
            fprintf(p->out, "<text class=\"tick\" x=\"%.1f\" y=\"%.1f\" text-anchor=\"end\">", x0 - 6, y + 4);
        }
        kd_xml_text(p->out, text);
        fputs("</text>", p->out);
    }
}

void kd_plot_begin(kd_plot *p, const char *id, const char *title)
{
    if (!p->left)
        p->left = 70;
    if (!p->right)
        p->right = 16;
    if (!p->top)
        p->top = 28; /* room for the legend */
    if (!p->bottom)
        p->bottom = 46;
    fprintf(p->out, "<svg id=\"%s\" class=\"chart\" viewBox=\"0 0 %.0f %.0f\" role=\"img\" aria-labelledby=\"%s-title\">"
            "<title id=\"%s-title\">", id, p->width, p->height, id, id);
    kd_xml_text(p->out, title);
    fputs("</title>\n", p->out);
    draw_axis(p, &p->x, true);
    draw_axis(p, &p->y, false);
    fprintf(p->out, "<rect class=\"frame\" x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\"/>\n", p->left, p->top,
            p->width - p->left - p->right, p->height - p->top - p->bottom);
    fprintf(p->out, "<text class=\"label\" x=\"%.1f\" y=\"%.1f\" text-anchor=\"middle\">",
            (p->left + p->width - p->right) / 2, p->height - 8);
    kd_xml_text(p->out, p->x.label);
    double mid = (p->top + p->height - p->bottom) / 2;
    fprintf(p->out, "</text><text class=\"label\" x=\"14\" y=\"%.1f\" text-anchor=\"middle\" transform=\"rotate(-90 14 %.1f)\">",
            mid, mid);
    kd_xml_text(p->out, p->y.label);
    fputs("</text>\n", p->out);
}

void kd_plot_end(const kd_plot *p) { fputs("</svg>\n", p->out); }

void kd_plot_point(const kd_plot *p, double x, double y, double radius, bool square, const char *cls)
{
    double cx = kd_plot_x(p, x), cy = kd_plot_y(p, y);
    if (square)
        fprintf(p->out, "<rect class=\"%s\" x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\"/>", cls, cx - radius,
                cy - radius, 2 * radius, 2 * radius);
    else
        fprintf(p->out, "<circle class=\"%s\" cx=\"%.1f\" cy=\"%.1f\" r=\"%.1f\"/>", cls, cx, cy, radius);
}

void kd_plot_line(const kd_plot *p, double x0, double y0, double x1, double y1, const char *cls)
{
    fprintf(p->out, "<line class=\"%s\" x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\"/>\n", cls, kd_plot_x(p, x0),
            kd_plot_y(p, y0), kd_plot_x(p, x1), kd_plot_y(p, y1));
}

void kd_plot_polyline(const kd_plot *p, const double *x, const double *y, size_t n, const char *cls)
{
    fprintf(p->out, "<polyline class=\"%s\" points=\"", cls);
    for (size_t i = 0; i < n; i++)
        fprintf(p->out, "%s%.1f,%.1f", i ? " " : "", kd_plot_x(p, x[i]), kd_plot_y(p, y[i]));
    fputs("\"/>\n", p->out);
}

void kd_plot_band(const kd_plot *p, const double *x, const double *lo, const double *hi, size_t n, const char *cls)
{
    fprintf(p->out, "<polygon class=\"%s\" points=\"", cls);
    for (size_t i = 0; i < n; i++) /* along the top, then back along the bottom */
        fprintf(p->out, "%s%.1f,%.1f", i ? " " : "", kd_plot_x(p, x[i]), kd_plot_y(p, hi[i]));
    for (size_t i = n; i-- > 0;)
        fprintf(p->out, " %.1f,%.1f", kd_plot_x(p, x[i]), kd_plot_y(p, lo[i]));
    fputs("\"/>\n", p->out);
}

void kd_plot_rect(const kd_plot *p, double x0, double y0, double x1, double y1, const char *cls)
{
    double a = kd_plot_x(p, x0), b = kd_plot_x(p, x1), c = kd_plot_y(p, y0), d = kd_plot_y(p, y1);
    fprintf(p->out, "<rect class=\"%s\" x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\"/>", cls, fmin(a, b),
            fmin(c, d), fabs(b - a), fabs(d - c));
}

void kd_plot_text(const kd_plot *p, const kd_plot_label *l)
{
    fprintf(p->out, "<text class=\"%s\" x=\"%.1f\" y=\"%.1f\" text-anchor=\"%s\">", l->cls, kd_plot_x(p, l->x) + l->dx,
            kd_plot_y(p, l->y) + l->dy, l->anchor);
    kd_xml_text(p->out, l->text);
    fputs("</text>\n", p->out);
}

void kd_plot_legend(const kd_plot *p, const char *const *labels, const char *const *classes, size_t n)
{
    /* A row in the top margin, ending at the frame's right edge: it never hides data. */
    double width = 0;
    for (size_t i = 0; i < n; i++)
        width += 24 + 6.5 * (double)strlen(labels[i]);
    double x = p->width - p->right - width, y = p->top - 18;
    fputs("<g class=\"legend\">", p->out);
    for (size_t i = 0; i < n; i++) {
        fprintf(p->out, "<rect class=\"%s\" x=\"%.1f\" y=\"%.1f\" width=\"10\" height=\"10\"/>"
                "<text class=\"tick\" x=\"%.1f\" y=\"%.1f\">", classes[i], x, y, x + 14, y + 9);
        kd_xml_text(p->out, labels[i]);
        fputs("</text>", p->out);
        x += 24 + 6.5 * (double)strlen(labels[i]);
    }
    fputs("</g>\n", p->out);
}
