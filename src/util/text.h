/* text.h — making text from user files safe to show. */
#ifndef KD_UTIL_TEXT_H
#define KD_UTIL_TEXT_H

#include <stdbool.h>
#include <stddef.h>
#include "util/strbuf.h"

/* Line endings to '\n', in place: "\r\n" and a lone '\r' (old Mac files) alike, so every
 * reader of the text sees lines. Returns the new length. */
size_t kd_normalize_newlines(char *text, size_t len);

/* The last non-empty line of text (a program's stderr: its exception, usually), trailing
 * newlines, carriage returns and blanks left out: where it starts, its length in *len (0:
 * the text has none). */
const char *kd_last_line(const char *text, size_t *len);

/* What kd_escape_text writes out besides what every mode does. */
enum {
    KD_ESCAPE_LINES = 1u,    /* newline and tab too: a name is one line, and cannot fake a report line */
    KD_ESCAPE_MARKDOWN = 2u, /* '|' and '`' too: they end a table cell or a code span */
    KD_ESCAPE_MARKUP = 4u,   /* '<' as &lt;, and ']' before '(', '[' or ':' as &#93;: Markdown text outside a
                              * code span then opens no HTML tag and no link (`<img onerror=..>`,
                              * `[x](javascript:..)`, `[x]: url`), shows the same characters, and
                              * kerndiff's own "out[10]" stays as it is */
};

/* Appends text with everything a terminal (or a Markdown viewer, with KD_ESCAPE_MARKDOWN)
 * would act on written out visibly: C0 controls other than newline and tab (ESC starts
 * colour, title and OSC hyperlink sequences), DEL and C1 controls (U+0080..U+009F, 8-bit
 * CSI/OSC) as `\xNN` per byte, a byte that is not part of well-formed UTF-8 as `\xNN`, and
 * the bidirectional and line-separator format characters (U+061C, U+200E/F, U+2028..U+202E,
 * U+2066..U+2069, which reorder what is shown) as `\uNNNN`. What it writes contains none of
 * them, so escaping twice changes nothing. */
void kd_escape_text(const char *text, size_t len, unsigned flags, kd_strbuf *out);
/* Whether kd_escape_text would copy text unchanged. */
bool kd_text_is_plain(const char *text, size_t len, unsigned flags);
/* kd_escape_text with no flags: for a user's file shown as lines (its source, a log).
 * Everything kerndiff shows that came from a user's file passes through here. */
void kd_escape_controls(const char *text, size_t len, kd_strbuf *out);
/* A file name, kernel name or option value to print on one line (stderr messages of the
 * CLI and backends): text itself when it is plain, else its escaped copy held in scratch
 * (emptied first; free it after printing). NULL reads as "". */
const char *kd_text_safe(const char *text, kd_strbuf *scratch);

#endif
