#include "static/symbols.h"

#include <stdlib.h>
#include <string.h>

#include "util/strbuf.h"
#include "util/xalloc.h"

/* libstdc++'s demangler, which has C linkage; linking it beats shelling out to c++filt. */
extern char *__cxa_demangle(const char *mangled, char *buf, size_t *len, int *status);

/* The qualified name at the front of a mangled name the demangler refused ("_Z3bigPfiii..."
 * with 2,000 parameters is past its recursion limit): `_Z<len><id>` or
 * `_ZN<len><id>...E`, joined with "::"; NULL when it is not that simple. */
static char *leading_name(const char *mangled)
{
    const char *p = mangled + 2;
    bool nested = *p == 'N';
    p += nested;
    kd_strbuf out = {0};
    while (*p >= '1' && *p <= '9') {
        char *end;
        unsigned long len = strtoul(p, &end, 10);
        if (len == 0 || strnlen(end, len) < len)
            break;
        kd_sb_printf(&out, "%s%.*s", out.len ? "::" : "", (int)len, end);
        p = end + len;
        if (!nested)
            break;
    }
    if (out.len == 0 || (nested && *p != 'E')) {
        kd_sb_free(&out);
        return NULL;
    }
    return kd_sb_take(&out);
}

char *kd_demangle(const char *mangled)
{
    int status = 0;
    bool cxx = strncmp(mangled, "_Z", 2) == 0;
    char *d = cxx ? __cxa_demangle(mangled, NULL, NULL, &status) : NULL;
    if (d && status == 0)
        return d;
    free(d);
    char *name = cxx ? leading_name(mangled) : NULL;
    return name ? name : kd_xstrdup(mangled);
}

/* Where the name of a demangled entry lies: [*start, *end) is "ns::tk<float>" in
 * "void ns::tk<float>(float*, int)"; *paren is the top-level '(' of its parameters, or NULL
 * when there is none (an extern "C" name). */
static void name_span(const char *demangled, const char **start, const char **end, const char **paren)
{
    *paren = NULL;
    int depth = 0;
    for (const char *p = demangled; *p; p++) {
        if (*p == '<')
            depth++;
        else if (*p == '>')
            depth--;
        else if (*p == '(' && depth == 0) {
            *paren = p;
            break;
        }
    }
    *end = *paren ? *paren : demangled + strlen(demangled);
    /* The name is the last top-level word before the parameters: templates put the
     * return type in front ("void tk<float>"). */
    *start = demangled;
    depth = 0;
    for (const char *p = demangled; p < *end; p++) {
        if (*p == '<')
            depth++;
        else if (*p == '>')
            depth--;
        else if (*p == ' ' && depth == 0)
            *start = p + 1;
    }
}

/* Splits "void ns::tk<float>(float*, int)" into the name "ns::tk" and the template
 * arguments "float". Both are malloc'd; *targs is NULL without template arguments. */
static void split_symbol(const char *demangled, char **name, char **targs)
{
    *name = *targs = NULL;
    const char *start, *end, *paren;
    name_span(demangled, &start, &end, &paren);
    const char *angle = memchr(start, '<', (size_t)(end - start));
    if (angle && end > angle && end[-1] == '>') {
        *name = kd_xstrndup(start, (size_t)(angle - start));
        *targs = kd_xstrndup(angle + 1, (size_t)(end - 1 - angle - 1));
    } else {
        *name = kd_xstrndup(start, (size_t)(end - start));
    }
}

static bool ident_char(char c)
{
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_';
}

static bool digit(char c) { return c >= '0' && c <= '9'; }

void kd_template_args_normalize(const char *args, kd_strbuf *out)
{
    for (const char *p = args; *p;) {
        if (*p == ' ' || *p == '\t') {
            p++;
            continue;
        }
        const char *close = *p == '(' ? strchr(p, ')') : NULL;
        if (close && (digit(close[1]) || (close[1] == '-' && digit(close[2])))) {
            /* a cast in front of a literal: "(bool)1" is true, "(short)3" is 3 */
            bool is_bool = (size_t)(close - p) == 5 && strncmp(p + 1, "bool", 4) == 0;
            p = close + 1;
            if (is_bool) {
                char *end;
                long v = strtol(p, &end, 0);
                kd_sb_puts(out, v ? "true" : "false");
                p = end;
                while (*p == 'u' || *p == 'U' || *p == 'l' || *p == 'L')
                    p++;
            }
            continue;
        }
        bool starts_number = digit(*p) && (p == args || !ident_char(p[-1]));
        if (starts_number) {
            while (ident_char(*p) && !(p[0] == 'u' || p[0] == 'U' || p[0] == 'l' || p[0] == 'L'))
                kd_sb_printf(out, "%c", *p++);
            while (*p == 'u' || *p == 'U' || *p == 'l' || *p == 'L') /* 256u, 4ul, 8LL */
                p++;
            continue;
        }
        kd_sb_printf(out, "%c", *p++);
    }
}

/* Compares template arguments however they are spelled: "float,256,true" is
 * "float, 256u, true" (kd_template_args_normalize). */
bool kd_same_template_args(const char *a, const char *b)
{
    kd_strbuf na = {0}, nb = {0};
    kd_template_args_normalize(a, &na);
    kd_template_args_normalize(b, &nb);
    bool same = strcmp(kd_sb_str(&na), kd_sb_str(&nb)) == 0;
    kd_sb_free(&na);
    kd_sb_free(&nb);
    return same;
}

static bool name_matches(const char *qualified, const char *want)
{
    if (strcmp(qualified, want) == 0)
        return true;
    size_t q = strlen(qualified), w = strlen(want);
    return q > w + 2 && strcmp(qualified + q - w, want) == 0 && qualified[q - w - 1] == ':' &&
           qualified[q - w - 2] == ':';
}

bool kd_symbol_matches(const char *demangled, const char *want)
{
    char *name, *targs, *want_name, *want_targs;
    split_symbol(demangled, &name, &targs);
    split_symbol(want, &want_name, &want_targs);
    bool match = name_matches(name, want_name) &&
                 (!want_targs || (targs && kd_same_template_args(targs, want_targs)));
    free(name);
    free(targs);
    free(want_name);
    free(want_targs);
    return match;
}

char *kd_symbol_template_args(const char *demangled)
{
    char *name, *targs;
    split_symbol(demangled, &name, &targs);
    free(name);
    return targs;
}

static char *trimmed(const char *from, const char *to)
{
    while (from < to && *from == ' ')
        from++;
    while (to > from && to[-1] == ' ')
        to--;
    return kd_xstrndup(from, (size_t)(to - from));
}

int kd_symbol_signature(const char *demangled, char **name, kd_strlist *params)
{
    *name = NULL;
    *params = (kd_strlist){0};
    const char *start, *end, *paren;
    name_span(demangled, &start, &end, &paren);
    if (!paren)
        return 1;
    *name = trimmed(start, end);
    /* Parameters end at top-level commas: "Pair<float, int>" and "void (*)(int, int)" are
     * one each. */
    int depth = 0;
    for (const char *item = paren + 1, *p = item; *p && depth >= 0; p++) {
        bool closing = depth == 0 && *p == ')';
        if (!closing && !(depth == 0 && *p == ',')) {
            depth += strchr("<([", *p) ? 1 : strchr(">)]", *p) ? -1 : 0;
            continue;
        }
        char *text = trimmed(item, p);
        if (*text)
            kd_strlist_push(params, text);
        else
            free(text); /* "()": no parameters */
        item = p + 1;
        if (closing)
            break;
    }
    return 0;
}

void kd_symbol_signature_free(char **name, kd_strlist *params)
{
    free(*name);
    *name = NULL;
    for (size_t i = 0; i < params->count; i++)
        free(params->items[i]);
    free(params->items);
    *params = (kd_strlist){0};
}
