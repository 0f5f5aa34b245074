#include "workflow/sweep.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "compile/build.h"
#include "launch/expr.h"
#include "measure/harness_pool.h"
#include "util/xalloc.h"
#include "workflow/workflow_msgs.h"

enum { MAX_POINTS = 64 };

bool kd_sweep_n_list(const char *n)
{
    return n && (strchr(n, ',') || strstr(n, ".."));
}

bool kd_sweep_requested(const char *sweep, const char *n)
{
    return sweep || kd_sweep_n_list(n);
}

static int push_value(kd_sweep_spec *s, const char *text, size_t len)
{
    if (s->count == MAX_POINTS)
        return -1;
    s->values = kd_xrealloc(s->values, (s->count + 1) * sizeof *s->values);
    s->values[s->count++] = kd_xstrndup(text, len);
    return 0;
}

/* "1M..64M:x4" or "1K..8K:+1K": from, to, and a factor or a step. */
static int expand_range(const char *text, kd_sweep_spec *s, kd_diag *error)
{
    const char *dots = strstr(text, ".."), *colon = strchr(text, ':');
    if (!dots || !colon || colon < dots || (colon[1] != 'x' && colon[1] != '+')) {
        kd_diag_set(error, KD_MSG_SWEEP_RANGE_FORM, KD_DIAG_NO_SIDE, KD_S(text));
        return -1;
    }
    /* Copies of any length: a range written as expressions must not be cut short. */
    char *from_text = kd_xstrndup(text, (size_t)(dots - text)), *to_text = kd_xstrndup(dots + 2, (size_t)(colon - dots - 2));
    char err[256] = "";
    unsigned long long from, to, by;
    bool bad = kd_parse_count(from_text, &from, err, sizeof err) != 0 ||
               kd_parse_count(to_text, &to, err, sizeof err) != 0 || kd_parse_count(colon + 2, &by, err, sizeof err) != 0 ||
               (colon[1] == 'x' && by < 2) || from > to;
    free(from_text);
    free(to_text);
    if (bad) {
        if (*err)
            kd_diag_set(error, KD_MSG_SWEEP_RANGE_VALUE, KD_DIAG_NO_SIDE, KD_S(text), KD_S(err));
        else
            kd_diag_set(error, KD_MSG_SWEEP_RANGE_ORDER, KD_DIAG_NO_SIDE, KD_S(text));
        return -1;
    }
    for (unsigned long long v = from; v <= to; v = colon[1] == 'x' ? v * by : v + by) {
        char value[32];
        int n = snprintf(value, sizeof value, "%llu", v);
        if (push_value(s, value, (size_t)n) != 0) {
            kd_diag_set(error, KD_MSG_SWEEP_RANGE_TOO_MANY, KD_DIAG_NO_SIDE, KD_S(text), KD_I(MAX_POINTS));
            return -1;
        }
    }
    return 0;
}

static int split_list(const char *list, kd_sweep_spec *s, kd_diag *error, const char *what)
{
    for (const char *p = list; *p;) {
        size_t len = strcspn(p, ",");
        if (len == 0 || push_value(s, p, len) != 0) {
            kd_diag_set(error, KD_MSG_SWEEP_LIST_BAD, KD_DIAG_NO_SIDE, KD_S(what), KD_S(list), KD_I(MAX_POINTS));
            return -1;
        }
        p += len + (p[len] == ',');
    }
    return 0;
}

/* Each point is a -D NAME=VALUE: checked as -D is (compile/build.h), before any build. */
static int check_defines(const kd_sweep_spec *s, kd_diag *error)
{
    for (size_t i = 0; i < s->count; i++) {
        kd_strbuf define = {0}, why = {0};
        kd_sb_printf(&define, "%s=%s", s->parameter, s->values[i]);
        int rc = kd_build_check_define(kd_sb_str(&define), &why);
        if (rc != 0)
            kd_diag_set(error, KD_MSG_SWEEP_DEFINE_BAD, KD_DIAG_NO_SIDE, KD_S(kd_sb_str(&why)));
        kd_sb_free(&define);
        kd_sb_free(&why);
        if (rc != 0)
            return -1;
    }
    return 0;
}

/* Each --n point is an element count: all checked before the first point runs. */
static int check_counts(const kd_sweep_spec *s, kd_diag *error)
{
    for (size_t i = 0; i < s->count; i++) {
        unsigned long long count;
        char why[256];
        if (kd_parse_count(s->values[i], &count, why, sizeof why) != 0) {
            kd_diag_set(error, KD_MSG_SWEEP_COUNT_BAD, KD_DIAG_NO_SIDE, KD_U(i + 1), KD_U(s->count), KD_S(s->values[i]),
                        KD_S(why));
            return -1;
        }
    }
    return 0;
}

int kd_sweep_parse(const char *sweep, const char *n, kd_sweep_spec *out, kd_diag *error)
{
    memset(out, 0, sizeof *out);
    if (sweep) {
        const char *eq = strchr(sweep, '=');
        if (!eq || eq == sweep || !eq[1]) {
            kd_diag_set(error, KD_MSG_SWEEP_FORM, KD_DIAG_NO_SIDE, KD_S(sweep));
            return -1;
        }
        out->parameter = kd_xstrndup(sweep, (size_t)(eq - sweep));
        out->define = true;
        if (split_list(eq + 1, out, error, "--sweep") != 0)
            return -1;
        return check_defines(out, error);
    }
    out->parameter = kd_xstrdup("n");
    if (strstr(n, ".."))
        return expand_range(n, out, error);
    if (split_list(n, out, error, "--n") != 0)
        return -1;
    return check_counts(out, error);
}

void kd_sweep_spec_free(kd_sweep_spec *s)
{
    kd_harness_pool_end(); /* the sweep is over: no spare outlives it */
    for (size_t i = 0; i < s->count; i++)
        free(s->values[i]);
    free(s->values);
    free((char *)s->parameter);
    memset(s, 0, sizeof *s);
}

/* A point's options: the sweep's value in place of --n, or one more -D. */
void kd_sweep_point_setup(const kd_diff_options *base, const kd_sweep_spec *s, size_t i, kd_sweep_point_options *o)
{
    o->diff = *base;
    /* Harnesses for the points after this one start ahead, once its timing is done. */
    kd_harness_pool_point(s->count - 1 - i);
    if (!s->define) {
        o->diff.launch.n = s->values[i];
        return;
    }
    for (size_t d = 0; d < base->frontend.defines.count; d++)
        kd_strlist_push(&o->defines, base->frontend.defines.items[d]);
    kd_sb_printf(&o->define_text, "%s=%s", s->parameter, s->values[i]); /* any length */
    kd_strlist_push(&o->defines, kd_sb_str(&o->define_text));
    o->diff.frontend.defines = o->defines;
}

void kd_sweep_point_options_release(kd_strlist *defines, kd_strbuf *define_text)
{
    free(defines->items); /* the items are borrowed: the base's and define_text */
    *defines = (kd_strlist){0};
    kd_sb_free(define_text);
}
