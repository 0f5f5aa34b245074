/* html_page.h — what every kerndiff HTML page shares (report/html_page.c): the shell (one
 * inline stylesheet for light and dark mode, the title, the footer), escaped text in an
 * element, table cells, figures with captions and a time axis in the unit that suits its
 * range. The diff's page (html.c, html_regions.c) and the app's (app_html.c) are made of
 * these, so they look alike and escape alike. */
#ifndef KD_REPORT_HTML_PAGE_H
#define KD_REPORT_HTML_PAGE_H

#include <stddef.h>
#include <stdio.h>

#include "report/svg.h"
#include "util/strbuf.h"

/* The CSS classes of v1 and v2 (colour and mark), in side order. */
extern const char *const kd_html_side_class[2];

/* The doctype, <head> with the title and the stylesheet, and <h1>title</h1>. */
void kd_html_begin(FILE *out, const char *title);
/* The footer and the closing tags. */
void kd_html_end(FILE *out);

/* A sentence in an element (cls may be NULL), escaped; say() releases the buffer. */
void kd_html_say(FILE *out, const char *tag, const char *cls, kd_strbuf *text);
void kd_html_say_text(FILE *out, const char *tag, const char *cls, const char *text);
/* <tag>text</tag>, escaped: a table cell. */
void kd_html_cell(FILE *out, const char *tag, const char *text);

void kd_html_figure_start(FILE *out);
/* The caption (released) and </figure>. */
void kd_html_figure_end(FILE *out, kd_strbuf *caption);

/* A time axis (values in ns from lo to hi) shown in the unit that suits `hi`: "what (µs)";
 * `label` (n bytes) holds the text the axis points to. */
typedef struct kd_time_axis {
    double lo, hi;
    kd_scale scale;
    const char *what;
} kd_time_axis;
void kd_html_axis_of_time(kd_axis *a, const kd_time_axis *t, char *label, size_t n);

#endif
