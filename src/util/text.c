#include "util/text.h"

#include <stdbool.h>

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

static bool is_c0_or_del(unsigned char c)
{
    return (c < 0x20 && c != '\n' && c != '\t') || c == 0x7f;
}

void kd_escape_controls(const char *text, size_t len, kd_strbuf *out)
{
    const unsigned char *s = (const unsigned char *)text;
    size_t start = 0;
    for (size_t i = 0; i < len; i++) {
        size_t width = is_c0_or_del(s[i]) ? 1 : s[i] == 0xc2 && i + 1 < len && s[i + 1] >= 0x80 && s[i + 1] <= 0x9f ? 2 : 0;
        if (!width)
            continue;
        kd_sb_append(out, text + start, i - start);
        for (size_t k = 0; k < width; k++)
            kd_sb_printf(out, "\\x%02x", s[i + k]);
        i += width - 1;
        start = i + 1;
    }
    kd_sb_append(out, text + start, len - start);
}
