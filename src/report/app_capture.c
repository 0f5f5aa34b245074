/* The capture command of an app kernel row (report/app_capture.h). */
#include "report/app_capture.h"

#include <string.h>

/* Characters a POSIX shell reads as themselves in an unquoted word (no expansion, no
 * operator, no quoting, no comment, no assignment effect where they appear). */
static bool plain_char(unsigned char ch)
{
    return (ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z') || (ch >= '0' && ch <= '9') ||
           (ch && strchr("_-./,:+@%=", ch));
}

/* One word for sh: as it is when plain, else '...' with each ' written '\'' . */
static void shell_word(kd_strbuf *out, const char *w, size_t n)
{
    bool plain = n > 0 && w[0] != '=';
    for (size_t i = 0; plain && i < n; i++)
        plain = plain_char((unsigned char)w[i]);
    if (plain) {
        kd_sb_printf(out, "%.*s", (int)n, w);
        return;
    }
    kd_sb_append(out, "'", 1);
    for (size_t i = 0; i < n; i++) {
        if (w[i] == '\'')
            kd_sb_puts(out, "'\\''");
        else
            kd_sb_append(out, w + i, 1);
    }
    kd_sb_append(out, "'", 1);
}

/* The command as `kerndiff app` ran it: a string through /bin/sh -c (app/command.h). When it
 * is only plain words separated by blanks, the words themselves say the same (but for a
 * first word with '=', which the shell takes for an assignment). */
static void program_words(kd_strbuf *out, const char *cmd)
{
    const char *first = cmd + strspn(cmd, " \t");
    bool words = memchr(first, '=', strcspn(first, " \t")) == NULL;
    for (const char *p = cmd; words && *p; p++) {
        if (*p == ' ' || *p == '\t')
            continue;
        words = plain_char((unsigned char)*p);
    }
    if (!words || !*first) {
        kd_sb_puts(out, "/bin/sh -c ");
        shell_word(out, cmd, strlen(cmd));
        return;
    }
    const char *sep = "";
    for (const char *p = cmd; *p;) {
        size_t blank = strspn(p, " \t");
        p += blank;
        size_t n = strcspn(p, " \t");
        if (n) {
            kd_sb_puts(out, sep);
            shell_word(out, p, n);
            sep = " ";
        }
        p += n;
    }
}

/* Side s's command when it runs here: not a profile, not a revision's checkout. --at
 * labels the side "REF (a1b2c3d): CMD" or "working tree: CMD" (a ref holds no ':'). */
static const char *side_command(const kd_app_side *side)
{
    if (side->profile || side->dir || !side->label)
        return NULL;
    if (side->label_storage) {
        const char *colon = strstr(side->label, ": ");
        return colon ? colon + 2 : NULL;
    }
    return side->label;
}

/* "fused" of "fused(float const*, float*, int)", "k_float" of "void ns::k<float>(float*)":
 * the name without return type, scope and parameter list, in characters a file name
 * takes anywhere; "kernel" when nothing is left. */
static void file_stem(kd_strbuf *out, const char *name)
{
    const char *start = name, *end = name;
    int depth = 0;
    for (const char *p = name; *p && !(depth == 0 && *p == '('); p++) {
        if (*p == '<')
            depth++;
        else if (*p == '>' && depth > 0)
            depth--;
        else if (depth == 0 && (*p == ' ' || (*p == ':' && p[1] == ':')))
            start = p + (*p == ' ' ? 1 : 2);
        end = p + 1;
    }
    size_t before = out->len, kept = 0;
    bool gap = false;
    for (const char *p = start; p < end && kept < 60; p++) {
        unsigned char ch = (unsigned char)*p;
        bool ok = (ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z') || (ch >= '0' && ch <= '9') || ch == '_';
        if (!ok) {
            gap = kept > 0;
            continue;
        }
        if (gap)
            kd_sb_append(out, "_", 1);
        gap = false;
        kd_sb_append(out, p, 1);
        kept++;
    }
    if (out->len == before)
        kd_sb_puts(out, "kernel");
}

bool kd_app_capture_command(const kd_app_comparison *c, const kd_app_row *r, kd_strbuf *out)
{
    const char *cmd = NULL;
    for (int s = 1; s >= 0 && !cmd; s--)
        if (r->present[s])
            cmd = side_command(&c->sides[s]);
    if (!cmd || !*cmd || !r->name || !*r->name)
        return false;
    kd_strbuf file = {0};
    file_stem(&file, r->name);
    kd_sb_puts(&file, ".kdcap");
    kd_sb_puts(out, "kerndiff capture --fn ");
    shell_word(out, r->name, strlen(r->name));
    kd_sb_puts(out, " -o ");
    shell_word(out, kd_sb_str(&file), file.len);
    kd_sb_puts(out, " -- ");
    program_words(out, cmd);
    kd_sb_free(&file);
    return true;
}
