/* call.c — the `--call` grammar (call.h). */
#include "launch/call.h"

#include <ctype.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "util/xalloc.h"

/* Length of the `KEY=` that starts at s (identifier then '='), 0 when there is none. */
static size_t key_length(const char *s)
{
    size_t i = 0;
    if (!isalpha((unsigned char)s[0]) && s[0] != '_')
        return 0;
    while (isalnum((unsigned char)s[i]) || s[i] == '_')
        i++;
    return s[i] == '=' ? i : 0;
}

/* The end of the entry that starts at s: the next top-level comma followed by `KEY=`,
 * or the end of the text. */
static const char *entry_end(const char *s)
{
    int depth = 0;
    for (const char *c = s; *c; c++) {
        depth += (*c == '(') - (*c == ')');
        if (*c == ',' && depth == 0 && key_length(c + 1))
            return c;
    }
    return s + strlen(s);
}

/* Commas outside parentheses in [s, end). */
static bool has_top_level_comma(const char *s, const char *end)
{
    int depth = 0;
    for (const char *c = s; c < end; c++) {
        depth += (*c == '(') - (*c == ')');
        if (*c == ',' && depth == 0)
            return true;
    }
    return false;
}

static void set(char **slot, const char *value, size_t len)
{
    free(*slot);
    *slot = kd_xstrndup(value, len);
}

/* One `KEY=VALUE` entry of length len. */
static int apply_entry(const char *entry, size_t len, kd_call_settings *into, kd_strbuf *error)
{
    size_t klen = key_length(entry);
    const char *value = entry + klen + 1, *end = entry + len;
    if (klen == 0) {
        kd_sb_printf(error, "entry '%.*s' is not KEY=VALUE (KEY: n, grid, block, smem or a parameter name)",
                     (int)len, entry);
        return -1;
    }
    if (value == end) {
        kd_sb_printf(error, "entry '%.*s' has no value", (int)len, entry);
        return -1;
    }
    bool dims = (klen == 4 && !strncmp(entry, "grid", 4)) || (klen == 5 && !strncmp(entry, "block", 5));
    if (!dims && has_top_level_comma(value, end)) {
        const char *comma = value;
        for (int depth = 0; comma < end && (*comma != ',' || depth); comma++)
            depth += (*comma == '(') - (*comma == ')');
        kd_sb_printf(error, "entry '%.*s' is not KEY=VALUE (only grid and block take X,Y,Z)",
                     (int)(end - comma - 1), comma + 1);
        return -1;
    }
    size_t vlen = (size_t)(end - value);
    if (klen == 1 && entry[0] == 'n')
        set(&into->n, value, vlen);
    else if (klen == 4 && !strncmp(entry, "grid", 4))
        set(&into->grid, value, vlen);
    else if (klen == 5 && !strncmp(entry, "block", 5))
        set(&into->block, value, vlen);
    else if (klen == 4 && !strncmp(entry, "smem", 4))
        set(&into->smem, value, vlen);
    else
        kd_strlist_push(&into->params, kd_xstrndup(entry, len));
    return 0;
}

int kd_call_parse(const char *text, kd_call_settings *into, kd_strbuf *error)
{
    if (!*text) {
        kd_sb_puts(error, "no settings: write vN:KEY=VALUE,...");
        return -1;
    }
    for (const char *s = text;;) {
        const char *end = entry_end(s);
        if (apply_entry(s, (size_t)(end - s), into, error) != 0)
            return -1;
        if (!*end)
            return 0;
        s = end + 1;
    }
}

void kd_call_settings_free(kd_call_settings *s)
{
    free(s->n);
    free(s->grid);
    free(s->block);
    free(s->smem);
    for (size_t i = 0; i < s->params.count; i++)
        free(s->params.items[i]);
    free(s->params.items);
    *s = (kd_call_settings){0};
}
