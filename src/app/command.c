#include "app/command.h"

#include <stdlib.h>
#include <string.h>

#include "util/xalloc.h"

static bool is_blank(char c)
{
    return c == ' ' || c == '\t' || c == '\n';
}

int kd_app_split_words(const char *text, char **storage, kd_strlist *words, kd_strbuf *err)
{
    /* A word never grows: quotes and backslashes are dropped, and each word's NUL takes
     * the place of the blank (or the closing quote) that ended it. */
    char *out = *storage = kd_xmalloc(strlen(text) + 1);
    const char *p = text;
    for (;;) {
        while (is_blank(*p))
            p++;
        if (!*p)
            return 0;
        char *word = out;
        while (*p && !is_blank(*p)) {
            if (*p == '\\') {
                p++;
                if (*p == '\n')
                    p++;
                else if (*p)
                    *out++ = *p++;
                else
                    *out++ = '\\';
            } else if (*p == '\'') {
                const char *close = strchr(p + 1, '\'');
                if (!close) {
                    kd_sb_puts(err, "an unclosed ' quote");
                    return -1;
                }
                memcpy(out, p + 1, (size_t)(close - p - 1));
                out += close - p - 1;
                p = close + 1;
            } else if (*p == '"') {
                for (p++; *p != '"'; p++) {
                    if (!*p) {
                        kd_sb_puts(err, "an unclosed \" quote");
                        return -1;
                    }
                    if (*p == '\\' && p[1] == '\n')
                        p++;
                    else if (*p == '\\' && p[1] && strchr("$`\"\\", p[1]))
                        *out++ = *++p;
                    else
                        *out++ = *p;
                }
                p++;
            } else {
                *out++ = *p++;
            }
        }
        *out++ = '\0';
        kd_strlist_push(words, word);
    }
}

int kd_app_command_make(const char *cmd, bool no_shell, kd_app_command *out, kd_strbuf *err)
{
    memset(out, 0, sizeof *out);
    if (!no_shell) {
        if (!cmd[strspn(cmd, " \t\n")]) {
            kd_sb_puts(err, "the command is empty");
            return -2;
        }
        const char *shell[] = {"/bin/sh", "-c", cmd, NULL};
        for (size_t i = 0; i < 4; i++)
            kd_strlist_push(&out->argv, shell[i]);
        return 0;
    }
    kd_strbuf why = {0};
    if (kd_app_split_words(cmd, &out->words, &out->argv, &why) != 0) {
        kd_sb_printf(err, "the command '%s' has %s (-N splits it with the shell's quoting rules)", cmd, kd_sb_str(&why));
        kd_sb_free(&why);
        return -1;
    }
    if (out->argv.count == 0) {
        kd_sb_puts(err, "the command is empty");
        return -2;
    }
    kd_strlist_push(&out->argv, NULL);
    return 0;
}

void kd_app_command_free(kd_app_command *c)
{
    free(c->argv.items);
    free(c->words);
    memset(c, 0, sizeof *c);
}
