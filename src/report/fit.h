/* fit.h — the terminal report within the terminal's width (issue 41): a line wider than
 * the width is wrapped at a field boundary (two or more spaces) where it has one, else after
 * a "; ", else at a space, its continuation lines indented under its label; a word (a path,
 * a kernel name) still wider than a continuation line is elided in the middle with "..."
 * (the report is ASCII). The width counts characters: a UTF-8 character is one column, an
 * ANSI colour sequence none, and an escape the untrusted filter wrote (\xNN, \uNNNN) is
 * never cut. JSON, Markdown, HTML and CSV are not fitted; --verbose (render.full) turns
 * fitting off. */
#ifndef KD_REPORT_FIT_H
#define KD_REPORT_FIT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "util/strbuf.h"

/* The width the terminal report is fitted to: KERNDIFF_WIDTH when set to a number (0: not
 * fitted, 0 returned); else, where f is a terminal, $COLUMNS when set to a number, else the
 * terminal's own width (TIOCGWINSZ); 80 otherwise (a pipe, a file, a CI log). Never below
 * 40. */
int kd_fit_width(FILE *f);

/* Writes text's lines to out, each within width columns (above); width 0: as they are. */
void kd_fit_write(FILE *out, const char *text, size_t len, int width);

/* The columns text takes (the rule above). */
size_t kd_fit_columns(const char *text, size_t len);

/* Appends text to out, elided in the middle to at most max columns when wider. */
void kd_fit_elide(const char *text, size_t len, size_t max, kd_strbuf *out);

/* A terminal renderer's output fitted: render(out, ctx) is written to a buffer, then fitted
 * to out's width (kd_fit_width), or written as it is when full or that width is 0. */
void kd_fit_render(FILE *out, bool full, void (*render)(FILE *out, const void *ctx), const void *ctx);

#endif
