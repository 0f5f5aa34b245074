/* text.h — making text from user files safe to show. */
#ifndef KD_UTIL_TEXT_H
#define KD_UTIL_TEXT_H

#include <stddef.h>
#include "util/strbuf.h"

/* Line endings to '\n', in place: "\r\n" and a lone '\r' (old Mac files) alike, so every
 * reader of the text sees lines. Returns the new length. */
size_t kd_normalize_newlines(char *text, size_t len);

/* Appends text with every control character that a terminal would act on written out as
 * `\xNN`: C0 controls other than newline and tab (ESC starts colour, title and OSC
 * hyperlink sequences), DEL, and C1 controls in UTF-8 (U+0080..U+009F, 8-bit CSI/OSC).
 * Everything kerndiff shows that came from a user's file passes through here. */
void kd_escape_controls(const char *text, size_t len, kd_strbuf *out);

#endif
