/* The engine's messages worded (report/diag_text.h): the area tables, the placeholder
 * renderer and the stderr sink. */
#include "report/diag_text.h"

#include <ctype.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "report/untrusted.h"

extern const kd_wording kd_wording_util[], kd_wording_cli[], kd_wording_backend[], kd_wording_triton[], kd_wording_compile[],
    kd_wording_source[], kd_wording_launch[], kd_wording_static[], kd_wording_diff[], kd_wording_measure[], kd_wording_ncu[],
    kd_wording_sanitizer[], kd_wording_regions[], kd_wording_wire[], kd_wording_app[], kd_wording_workflow[], kd_wording_git[],
    kd_wording_gpu[], kd_wording_check[];

/* One table per area (util/diag.h's kd_diag_area), in its order. */
static const kd_wording *const areas[KD_AREA_COUNT] = {
    [KD_AREA_UTIL] = kd_wording_util,         [KD_AREA_CLI] = kd_wording_cli,
    [KD_AREA_BACKEND] = kd_wording_backend,   [KD_AREA_TRITON] = kd_wording_triton,
    [KD_AREA_COMPILE] = kd_wording_compile,   [KD_AREA_SOURCE] = kd_wording_source,
    [KD_AREA_LAUNCH] = kd_wording_launch,     [KD_AREA_STATIC] = kd_wording_static,
    [KD_AREA_DIFF] = kd_wording_diff,         [KD_AREA_MEASURE] = kd_wording_measure,
    [KD_AREA_NCU] = kd_wording_ncu,           [KD_AREA_SANITIZER] = kd_wording_sanitizer,
    [KD_AREA_REGIONS] = kd_wording_regions,   [KD_AREA_WIRE] = kd_wording_wire,
    [KD_AREA_APP] = kd_wording_app,           [KD_AREA_WORKFLOW] = kd_wording_workflow,
    [KD_AREA_GIT] = kd_wording_git,           [KD_AREA_GPU] = kd_wording_gpu,
    [KD_AREA_CHECK] = kd_wording_check,
};

const kd_wording *kd_wording_area(int area)
{
    return area > 0 && area < KD_AREA_COUNT ? areas[area] : NULL;
}

const kd_wording *kd_wording_find(int id)
{
    const kd_wording *w = kd_wording_area(KD_DIAG_AREA(id));
    for (; w && w->id; w++)
        if (w->id == id)
            return w;
    return NULL;
}

/* A placeholder `{N}` or `{N:SPEC}` at p (after its '{'): its index and conversion spec
 * (without '%'); the position after its '}', or NULL when it is not one. */
static const char *placeholder(const char *p, size_t *index, char *spec, size_t spec_size)
{
    if (!isdigit((unsigned char)*p))
        return NULL;
    char *end;
    unsigned long n = strtoul(p, &end, 10);
    *index = n;
    spec[0] = '\0';
    if (*end == ':') {
        const char *s = end + 1;
        size_t len = strcspn(s, "}");
        if (s[len] != '}' || len == 0 || len + 1 >= spec_size)
            return NULL;
        memcpy(spec, s, len);
        spec[len] = '\0';
        end = (char *)s + len;
    }
    return *end == '}' ? end + 1 : NULL;
}

/* Which kinds a conversion letter takes: 'd' signed, 'u' unsigned, 'f' double, 0 none. */
static char spec_kind(const char *spec)
{
    size_t len = strlen(spec);
    if (!len || strspn(spec, "0123456789.-+ #") != len - 1)
        return 0;
    switch (spec[len - 1]) {
    case 'd': case 'i': return 'd';
    case 'u': case 'x': case 'X': case 'o': return 'u';
    case 'f': case 'g': case 'e': case 'G': case 'E': return 'f';
    default: return 0;
    }
}

static int kind_fits(char want, kd_diag_kind kind)
{
    return want == 'f' ? kind == KD_DIAG_DBL : (kind == KD_DIAG_INT || kind == KD_DIAG_UINT);
}

int kd_wording_format_ok(const char *format, size_t nargs, const kd_diag_kind *kinds)
{
    if (!format)
        return -1;
    for (const char *p = format; *p; p++) {
        if (*p != '{')
            continue;
        size_t index;
        char spec[16];
        const char *after = placeholder(p + 1, &index, spec, sizeof spec);
        if (!after) {
            if (isdigit((unsigned char)p[1]))
                return -1; /* meant as a placeholder, but malformed */
            continue;      /* a literal brace */
        }
        if (index >= nargs)
            return -1;
        if (spec[0]) {
            char want = spec_kind(spec);
            if (!want || (kinds && !kind_fits(want, kinds[index])))
                return -1;
        }
        p = after - 1;
    }
    return 0;
}

/* The conversion is one of the letters spec_kind accepts, checked just above its use. */
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wformat-nonliteral"
static void append_value(kd_strbuf *out, const kd_diag_arg *a, const char *spec)
{
    char fmt[24];
    if (spec[0] && spec_kind(spec) && kind_fits(spec_kind(spec), a->kind)) {
        /* The letter decides how the value is passed: a long long or a double. */
        size_t len = strlen(spec);
        if (a->kind == KD_DIAG_DBL) {
            snprintf(fmt, sizeof fmt, "%%%s", spec);
            kd_sb_printf(out, fmt, a->v.d);
        } else {
            snprintf(fmt, sizeof fmt, "%%%.*sll%c", (int)(len - 1), spec, spec[len - 1]);
            if (a->kind == KD_DIAG_INT)
                kd_sb_printf(out, fmt, a->v.i);
            else
                kd_sb_printf(out, fmt, a->v.u);
        }
        return;
    }
    kd_diag_arg_append(a, out); /* an inner message: these words, installed below */
}
#pragma GCC diagnostic pop

/* Whether the placeholder at p stands for a value echoed on one line: one in quotes ('{0}')
 * or an option's value ("--at {1}", "{0} {1}" where {0} is "--arg"), a name or value the
 * user typed, never a log. */
static bool one_line_value(const kd_diag *d, const char *format, const char *p)
{
    if (p > format && p[-1] == '\'')
        return true;
    if (p == format || p[-1] != ' ')
        return false;
    const char *q = p - 1;
    for (; q > format && q[-1] != ' ' && q[-1] != '('; q--)
        ;
    if (q[0] == '-' && q[1] == '-')
        return true;
    size_t index;
    char spec[16];
    const char *after = q[0] == '{' ? placeholder(q + 1, &index, spec, sizeof spec) : NULL;
    return after && after == p - 1 && index < d->nargs && d->args[index].kind == KD_DIAG_STR && d->args[index].v.s &&
           strncmp(d->args[index].v.s, "--", 2) == 0;
}

void kd_diag_text(const kd_diag *d, kd_strbuf *out)
{
    const kd_wording *w = kd_wording_find(d->id);
    if (!w || w->nargs != d->nargs) {
        /* A message the tables cannot word: said as what it is, with its values. */
        kd_sb_printf(out, "kerndiff: internal: message %d (area %d) %s with %zu values", d->id, KD_DIAG_AREA(d->id),
                     w ? "given another number of values" : "has no words", d->nargs);
        for (size_t i = 0; i < d->nargs; i++) {
            kd_sb_puts(out, i ? ", " : ": ");
            append_value(out, &d->args[i], "");
        }
        return;
    }
    for (const char *p = w->format; *p; p++) {
        size_t index;
        char spec[16];
        const char *after = *p == '{' ? placeholder(p + 1, &index, spec, sizeof spec) : NULL;
        if (!after || index >= d->nargs) {
            kd_sb_append(out, p, 1);
            continue;
        }
        if (d->args[index].kind == KD_DIAG_STR && one_line_value(d, w->format, p)) {
            kd_sb_untrusted(out, d->args[index].v.s); /* a newline in it cannot start a fake `kerndiff:` line */
        } else {
            append_value(out, &d->args[index], spec);
        }
        p = after - 1;
    }
}

void kd_diag_to_stderr(const kd_diag *d, void *ctx)
{
    (void)ctx;
    kd_strbuf text = {0};
    kd_diag_text(d, &text);
    kd_untrusted_fix(&text); /* values are names and paths the user (or a program) wrote */
    kd_sb_puts(&text, "\n");
    fputs(kd_sb_str(&text), stderr);
    kd_sb_free(&text);
}
