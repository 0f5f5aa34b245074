#include "static/symbols.h"

#include <stdlib.h>
#include <string.h>

#include "util/xalloc.h"

/* libstdc++'s demangler, which has C linkage; linking it beats shelling out to c++filt. */
extern char *__cxa_demangle(const char *mangled, char *buf, size_t *len, int *status);

char *kd_demangle(const char *mangled)
{
    int status = 0;
    char *d = strncmp(mangled, "_Z", 2) == 0 ? __cxa_demangle(mangled, NULL, NULL, &status) : NULL;
    return d && status == 0 ? d : kd_xstrdup(mangled);
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

/* Compares ignoring whitespace, since users type "float,4" for "float, 4". */
static bool same_ignoring_spaces(const char *a, const char *b)
{
    for (;;) {
        while (*a == ' ')
            a++;
        while (*b == ' ')
            b++;
        if (*a != *b)
            return false;
        if (!*a)
            return true;
        a++, b++;
    }
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
                 (!want_targs || (targs && same_ignoring_spaces(targs, want_targs)));
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
