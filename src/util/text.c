#include "util/text.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

size_t kd_normalize_newlines(char *text, size_t len)
{
    size_t w = 0;
    for (size_t r = 0; r < len; r++) {
        if (text[r] != '\r') {
            text[w++] = text[r];
            continue;
        }
        text[w++] = '\n';
        if (r + 1 < len && text[r + 1] == '\n')
            r++;
    }
    if (w < len)
        text[w] = '\0';
    return w;
}

/* The length of the well-formed UTF-8 sequence at s (1..4) and its code point, or 0 when
 * the bytes there are not one (a stray continuation byte, an overlong form, a surrogate,
 * a sequence cut short). */
static size_t utf8_sequence(const unsigned char *s, size_t left, uint32_t *cp)
{
    size_t n = s[0] >= 0xf0 ? 4 : s[0] >= 0xe0 ? 3 : s[0] >= 0xc0 ? 2 : 0;
    if (!n || n > left || s[0] > 0xf4)
        return 0;
    uint32_t v = s[0] & (0x7f >> n);
    for (size_t i = 1; i < n; i++) {
        if ((s[i] & 0xc0) != 0x80)
            return 0;
        v = v << 6 | (s[i] & 0x3f);
    }
    static const uint32_t least[5] = {0, 0, 0x80, 0x800, 0x10000};
    if (v < least[n] || v > 0x10ffff || (v >= 0xd800 && v <= 0xdfff))
        return 0;
    *cp = v;
    return n;
}

/* Format characters that reorder or break what a terminal shows (Trojan Source). */
static bool is_bidi_or_separator(uint32_t cp)
{
    return cp == 0x061c || cp == 0x200e || cp == 0x200f || (cp >= 0x2028 && cp <= 0x202e) ||
           (cp >= 0x2066 && cp <= 0x2069);
}

typedef enum { KEEP, BYTES, CODE_POINT, ENTITY } treatment;

/* What to do with the character at s; *width is its length in bytes. */
static treatment classify(const unsigned char *s, size_t left, unsigned flags, size_t *width, uint32_t *cp)
{
    *width = 1;
    unsigned char c = s[0];
    if (c < 0x80) {
        if (c == '\n' || c == '\t')
            return flags & KD_ESCAPE_LINES ? BYTES : KEEP;
        if (c < 0x20 || c == 0x7f)
            return BYTES;
        if ((flags & KD_ESCAPE_MARKUP) && (c == '<' || (c == ']' && left > 1 && strchr("([:", s[1]))))
            return ENTITY;
        return (flags & KD_ESCAPE_MARKDOWN) && (c == '|' || c == '`') ? BYTES : KEEP;
    }
    size_t n = utf8_sequence(s, left, cp);
    if (!n)
        return BYTES;
    *width = n;
    if (*cp <= 0x9f)
        return BYTES; /* C1: 0xc2 0x80..0x9f */
    return is_bidi_or_separator(*cp) ? CODE_POINT : KEEP;
}

void kd_escape_text(const char *text, size_t len, unsigned flags, kd_strbuf *out)
{
    const unsigned char *s = (const unsigned char *)text;
    size_t start = 0;
    for (size_t i = 0; i < len;) {
        size_t width;
        uint32_t cp = 0;
        treatment t = classify(s + i, len - i, flags, &width, &cp);
        if (t == KEEP) {
            i += width;
            continue;
        }
        kd_sb_append(out, text + start, i - start);
        static const char hex[] = "0123456789abcdef";
        if (t == ENTITY)
            kd_sb_puts(out, s[i] == '<' ? "&lt;" : "&#93;");
        else if (t == CODE_POINT)
            kd_sb_append(out, (char[]){'\\', 'u', hex[cp >> 12 & 15], hex[cp >> 8 & 15], hex[cp >> 4 & 15], hex[cp & 15]},
                         6);
        else
            for (size_t k = 0; k < width; k++)
                kd_sb_append(out, (char[]){'\\', 'x', hex[s[i + k] >> 4], hex[s[i + k] & 15]}, 4);
        i += width;
        start = i;
    }
    kd_sb_append(out, text + start, len - start);
}

bool kd_text_is_plain(const char *text, size_t len, unsigned flags)
{
    const unsigned char *s = (const unsigned char *)text;
    for (size_t i = 0; i < len;) {
        size_t width;
        uint32_t cp;
        if (classify(s + i, len - i, flags, &width, &cp) != KEEP)
            return false;
        i += width;
    }
    return true;
}

void kd_escape_controls(const char *text, size_t len, kd_strbuf *out)
{
    kd_escape_text(text, len, 0, out);
}

const char *kd_text_safe(const char *text, kd_strbuf *scratch)
{
    if (!text)
        return "";
    size_t len = strlen(text);
    if (kd_text_is_plain(text, len, KD_ESCAPE_LINES))
        return text;
    scratch->len = 0;
    if (scratch->data)
        scratch->data[0] = '\0';
    kd_escape_text(text, len, KD_ESCAPE_LINES, scratch);
    return kd_sb_str(scratch);
}

const char *kd_last_line(const char *text, size_t *len)
{
    size_t n = strlen(text);
    while (n && (text[n - 1] == '\n' || text[n - 1] == '\r' || text[n - 1] == ' '))
        n--;
    size_t start = n;
    while (start && text[start - 1] != '\n')
        start--;
    *len = n - start;
    return text + start;
}
