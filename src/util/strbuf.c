#include "util/strbuf.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/xalloc.h"

static void reserve(kd_strbuf *sb, size_t extra)
{
    if (sb->len + extra + 1 <= sb->cap)
        return;
    size_t cap = sb->cap ? sb->cap : 64;
    while (cap < sb->len + extra + 1)
        cap *= 2;
    sb->data = kd_xrealloc(sb->data, cap);
    sb->cap = cap;
}

void kd_sb_append(kd_strbuf *sb, const char *bytes, size_t n)
{
    reserve(sb, n);
    if (n)
        memcpy(sb->data + sb->len, bytes, n);
    sb->len += n;
    sb->data[sb->len] = '\0';
}

void kd_sb_puts(kd_strbuf *sb, const char *s) { kd_sb_append(sb, s, strlen(s)); }

int kd_sb_printf(kd_strbuf *sb, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(NULL, 0, fmt, ap);
    va_end(ap);
    if (n < 0)
        return -1;
    reserve(sb, (size_t)n);
    va_start(ap, fmt);
    vsnprintf(sb->data + sb->len, (size_t)n + 1, fmt, ap);
    va_end(ap);
    sb->len += (size_t)n;
    return 0;
}

const char *kd_sb_str(const kd_strbuf *sb) { return sb->data ? sb->data : ""; }

char *kd_sb_take(kd_strbuf *sb)
{
    char *s = sb->data ? sb->data : kd_xstrdup("");
    sb->data = NULL;
    sb->len = sb->cap = 0;
    return s;
}

void kd_sb_free(kd_strbuf *sb)
{
    free(sb->data);
    sb->data = NULL;
    sb->len = sb->cap = 0;
}
