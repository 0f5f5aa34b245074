#include "report/untrusted.h"

#include <stdlib.h>
#include <string.h>

#include "util/text.h"
#include "util/xalloc.h"

static const char *filtered(kd_untrusted *u, const char *text, unsigned flags)
{
    if (!text)
        return "";
    size_t len = strlen(text);
    if (kd_text_is_plain(text, len, flags))
        return text;
    kd_strbuf sb = {0};
    kd_escape_text(text, len, flags, &sb);
    u->kept = kd_xreallocarray(u->kept, u->count + 1, sizeof *u->kept);
    return u->kept[u->count++] = kd_sb_take(&sb);
}

const char *kd_untrusted_name(kd_untrusted *u, const char *text) { return filtered(u, text, KD_ESCAPE_LINES); }

const char *kd_untrusted_md(kd_untrusted *u, const char *text)
{
    return filtered(u, text, KD_ESCAPE_LINES | KD_ESCAPE_MARKDOWN);
}

const char *kd_untrusted_text(kd_untrusted *u, const char *text) { return filtered(u, text, 0); }

const char *kd_untrusted_md_text(kd_untrusted *u, const char *text)
{
    return filtered(u, text, KD_ESCAPE_MARKDOWN | KD_ESCAPE_MARKUP);
}

const char *kd_untrusted_md_cell(kd_untrusted *u, const char *text)
{
    return filtered(u, text, KD_ESCAPE_LINES | KD_ESCAPE_MARKDOWN | KD_ESCAPE_MARKUP);
}

void kd_untrusted_free(kd_untrusted *u)
{
    for (size_t i = 0; i < u->count; i++)
        free(u->kept[i]);
    free(u->kept);
    u->kept = NULL;
    u->count = 0;
}

void kd_sb_untrusted(kd_strbuf *out, const char *text)
{
    if (text)
        kd_escape_text(text, strlen(text), KD_ESCAPE_LINES, out);
}

static void fix(kd_strbuf *sb, unsigned flags)
{
    if (kd_text_is_plain(kd_sb_str(sb), sb->len, flags))
        return;
    kd_strbuf safe = {0};
    kd_escape_text(kd_sb_str(sb), sb->len, flags, &safe);
    kd_sb_free(sb);
    *sb = safe;
}

void kd_untrusted_fix(kd_strbuf *sb) { fix(sb, 0); }

void kd_untrusted_fix_md(kd_strbuf *sb) { fix(sb, KD_ESCAPE_MARKDOWN | KD_ESCAPE_MARKUP); }
