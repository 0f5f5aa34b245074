/* svg.h — inline SVG charts for the HTML report (report/html.c): a plot frame with
 * labelled axes (linear or log), ticks and grid lines, and marks placed in data
 * coordinates. The output is plain markup: no script, no external reference, so a page
 * made of it opens offline and shows the same in every browser. Colours are CSS classes
 * that the page defines (for light and dark mode); every text is escaped here. */
#ifndef KD_REPORT_SVG_H
#define KD_REPORT_SVG_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

typedef enum kd_scale { KD_SCALE_LINEAR, KD_SCALE_LOG } kd_scale;
typedef enum kd_tick_style {
    KD_TICKS_PLAIN,   /* "12.5": the value divided by the axis' unit */
    KD_TICKS_SI,      /* "3.2 T", "500 k": decimal prefixes (FLOP/s, bytes, elements) */
} kd_tick_style;

typedef struct kd_axis {
    const char *label;        /* shown beside the axis, with its unit: "time per launch (µs)" */
    double lo, hi;            /* the range shown; log: both > 0 */
    kd_scale scale;
    kd_tick_style style;
    double unit;              /* plain ticks show value / unit (1000: ns as µs); 0 means 1 */
    /* Ticks at given places with given text (a sweep's values, categories at 0..n-1);
     * NULL: chosen from the range (1-2-5 steps, or decades on a log axis). */
    const double *tick_at;
    const char *const *tick_text;
    size_t nticks;
} kd_axis;

typedef struct kd_plot {
    FILE *out;
    double width, height;           /* the viewBox, px */
    double left, right, top, bottom;/* margins around the plotting area, px */
    kd_axis x, y;
} kd_plot;

/* <svg id=ID> with an accessible title, the frame, grid, ticks and both axis labels.
 * Fill in out, the size, margins and axes first (a zero margin gets a default). */
void kd_plot_begin(kd_plot *p, const char *id, const char *title);
void kd_plot_end(const kd_plot *p);

/* Data to viewBox coordinates, clamped to the plotting area (a log axis takes values
 * <= 0 as its low end). */
double kd_plot_x(const kd_plot *p, double x);
double kd_plot_y(const kd_plot *p, double y);

/* Marks, in data coordinates; `cls` is the CSS class ("v1", "v2", "ceiling" ...). */
void kd_plot_point(const kd_plot *p, double x, double y, double radius, bool square, const char *cls);
void kd_plot_line(const kd_plot *p, double x0, double y0, double x1, double y1, const char *cls);
void kd_plot_polyline(const kd_plot *p, const double *x, const double *y, size_t n, const char *cls);
/* The area between lo[i] and hi[i] along x[i] (a confidence band). */
void kd_plot_band(const kd_plot *p, const double *x, const double *lo, const double *hi, size_t n, const char *cls);
void kd_plot_rect(const kd_plot *p, double x0, double y0, double x1, double y1, const char *cls);
/* Text at a data point (x, y), moved by (dx, dy) px; anchor "start", "middle" or "end". */
typedef struct kd_plot_label {
    double x, y, dx, dy;
    const char *anchor, *cls, *text;
} kd_plot_label;
void kd_plot_text(const kd_plot *p, const kd_plot_label *l);
/* A legend above the plotting area, right-aligned: a swatch of each class and its label. */
void kd_plot_legend(const kd_plot *p, const char *const *labels, const char *const *classes, size_t n);

/* Text for HTML or SVG content and attribute values: & < > " ' as entities, and control
 * characters (which could hide or fake text) written out as \xNN (util/text.h). */
void kd_xml_text(FILE *out, const char *text);

#endif
