#include "util/jtable.h"

#include "util/xalloc.h"

#include <limits.h>
#include <math.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

/* Members are reached by offset; memcpy keeps that free of alignment and aliasing doubts. */
#define AT(base, off) ((char *)(base) + (off))
#define CAT(base, off) ((const char *)(base) + (off))

static bool flag_at(const void *base, size_t off)
{
    bool b;
    memcpy(&b, CAT(base, off), sizeof b);
    return b;
}

static void set_flag(void *base, size_t off, bool b) { memcpy(AT(base, off), &b, sizeof b); }

size_t kd_jtype_size(kd_jtype type)
{
    switch (type) {
    case KD_J_BOOL: return sizeof(bool);
    case KD_J_INT: case KD_J_ENUM: return sizeof(int);
    case KD_J_UINT: return sizeof(unsigned);
    case KD_J_LONG: return sizeof(long);
    case KD_J_SIZE: return sizeof(size_t);
    case KD_J_ULL: return sizeof(unsigned long long);
    case KD_J_DOUBLE: return sizeof(double);
    case KD_J_STRING: case KD_J_BORROWED: case KD_J_DOUBLES: return sizeof(void *);
    case KD_J_TEXT: case KD_J_OBJECT: case KD_J_PAIR: case KD_J_ARRAY: case KD_J_CUSTOM: break;
    }
    return 0;
}

static json_t *number_or_fail(double v) { return isfinite(v) ? json_real(v) : NULL; }

static json_t *write_field(const kd_jfield *f, const void *base)
{
    const char *p = CAT(base, f->offset);
    switch (f->type) {
    case KD_J_BOOL: return json_boolean(flag_at(base, f->offset));
    case KD_J_INT: case KD_J_ENUM: {
        int v;
        memcpy(&v, p, sizeof v);
        if (f->type == KD_J_INT)
            return json_integer(v);
        const char *id = v >= 0 && v < f->nnames ? f->name(v) : NULL;
        return id ? json_string(id) : NULL;
    }
    case KD_J_UINT: { unsigned v; memcpy(&v, p, sizeof v); return json_integer((json_int_t)v); }
    case KD_J_LONG: { long v; memcpy(&v, p, sizeof v); return json_integer((json_int_t)v); }
    case KD_J_SIZE: { size_t v; memcpy(&v, p, sizeof v); return json_integer((json_int_t)v); }
    case KD_J_ULL: { unsigned long long v; memcpy(&v, p, sizeof v); return json_integer((json_int_t)v); }
    case KD_J_DOUBLE: {
        double v;
        memcpy(&v, p, sizeof v);
        return !isfinite(v) && f->nullable ? json_null() : number_or_fail(v);
    }
    case KD_J_STRING: case KD_J_BORROWED: {
        const char *s;
        memcpy(&s, p, sizeof s);
        return s ? json_string(s) : f->nullable ? json_null() : NULL;
    }
    case KD_J_TEXT: return json_stringn(p, strnlen(p, f->size));
    case KD_J_DOUBLES: {
        const double *v;
        size_t n;
        memcpy(&v, p, sizeof v);
        memcpy(&n, CAT(base, f->count), sizeof n);
        json_t *a = json_array();
        for (size_t i = 0; a && i < n; i++)
            if (json_array_append_new(a, number_or_fail(v[i])) != 0) {
                json_decref(a);
                a = NULL;
            }
        return a;
    }
    case KD_J_OBJECT: return kd_jtable_write(f->sub, p);
    case KD_J_PAIR: case KD_J_ARRAY: {
        const char *items = p;
        size_t n = 2;
        if (f->type == KD_J_ARRAY) {
            memcpy(&items, p, sizeof items);
            memcpy(&n, CAT(base, f->count), sizeof n);
        }
        json_t *a = json_array();
        for (size_t i = 0; a && i < n; i++)
            if (json_array_append_new(a, kd_jtable_write(f->sub, items + i * f->size)) != 0) {
                json_decref(a);
                a = NULL;
            }
        return a;
    }
    case KD_J_CUSTOM: return f->write(base);
    }
    return NULL;
}

json_t *kd_jtable_write(const kd_jtable *t, const void *base)
{
    json_t *o = json_object();
    for (size_t i = 0; o && i < t->count; i++) {
        const kd_jfield *f = &t->fields[i];
        json_t *v;
        if (f->has_when && !flag_at(base, f->when)) {
            if (f->omit)
                continue;
            v = json_null();
        } else {
            v = write_field(f, base);
            if (!v && f->type == KD_J_CUSTOM && f->omit)
                continue;
        }
        /* set_new releases v on failure too, and fails on NULL. */
        if (json_object_set_new(o, f->key, v) != 0) {
            json_decref(o);
            o = NULL;
        }
    }
    return o;
}

static void print_path(const kd_jpath *at, kd_strbuf *err)
{
    if (!at)
        return;
    print_path(at->up, err);
    if (at->key)
        kd_sb_printf(err, "%s%s", at->up ? "." : "", at->key);
    else
        kd_sb_printf(err, "[%zu]", at->index);
}

int kd_jfail(const kd_jpath *at, kd_strbuf *err, const char *fmt, ...)
{
    print_path(at, err);
    kd_sb_puts(err, at ? ": " : "");
    char msg[256];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    kd_sb_puts(err, msg);
    return -1;
}

static const char *range_text(kd_jrange r)
{
    switch (r) {
    case KD_J_NONNEG: return "a number >= 0";
    case KD_J_POSITIVE: return "a positive number";
    case KD_J_FRACTION: return "a number from 0 to 1";
    case KD_J_ANY: break;
    }
    return "a number";
}

static bool in_range(double v, kd_jrange r)
{
    switch (r) {
    case KD_J_NONNEG: return v >= 0;
    case KD_J_POSITIVE: return v > 0;
    case KD_J_FRACTION: return v >= 0 && v <= 1;
    case KD_J_ANY: break;
    }
    return true;
}

static int read_double(json_t *v, kd_jrange r, double *out, const kd_jpath *at, kd_strbuf *err)
{
    if (!json_is_number(v) || !in_range(json_number_value(v), r))
        return kd_jfail(at, err, "must be %s", range_text(r));
    *out = json_number_value(v);
    return 0;
}

/* The integers a C type holds: [lo, hi]. */
typedef struct int_range {
    long long lo;
    unsigned long long hi;
} int_range;

/* An integer within the type's range and the field's. */
static int read_integer(json_t *v, const kd_jfield *f, int_range type, json_int_t *out, const kd_jpath *at,
                        kd_strbuf *err)
{
    long long lo = type.lo;
    unsigned long long hi = type.hi;
    json_int_t x = json_integer_value(v);
    if (f->range == KD_J_NONNEG || f->range == KD_J_POSITIVE)
        lo = f->range == KD_J_POSITIVE ? 1 : 0;
    if (!json_is_integer(v) || x < lo || (x > 0 && (unsigned long long)x > hi))
        return kd_jfail(at, err, "must be an integer%s", lo > 0 ? " > 0" : lo == 0 ? " >= 0" : "");
    *out = x;
    return 0;
}

static int read_string(json_t *v, const kd_jfield *f, const char **out, const kd_jpath *at, kd_strbuf *err)
{
    if (json_is_null(v) && f->nullable) {
        *out = NULL;
        return 0;
    }
    if (!json_is_string(v))
        return kd_jfail(at, err, "must be a string%s", f->nullable ? " or null" : "");
    *out = json_string_value(v);
    return 0;
}

static int read_items(const kd_jfield *f, json_t *v, char *items, size_t n, const kd_jpath *at, kd_strbuf *err)
{
    for (size_t i = 0; i < n; i++) {
        kd_jpath item = {at, NULL, i};
        if (kd_jtable_read(f->sub, json_array_get(v, i), items + i * f->size, &item, err) != 0)
            return -1;
    }
    return 0;
}

static int read_field(const kd_jfield *f, json_t *v, void *base, const kd_jpath *at, kd_strbuf *err)
{
    char *p = AT(base, f->offset);
    json_int_t x = 0;
    switch (f->type) {
    case KD_J_BOOL:
        if (!json_is_boolean(v))
            return kd_jfail(at, err, "must be true or false");
        set_flag(base, f->offset, json_is_true(v));
        return 0;
    case KD_J_INT: {
        if (read_integer(v, f, (int_range){INT_MIN, INT_MAX}, &x, at, err) != 0)
            return -1;
        int i = (int)x;
        memcpy(p, &i, sizeof i);
        return 0;
    }
    case KD_J_UINT: {
        if (read_integer(v, f, (int_range){0, UINT_MAX}, &x, at, err) != 0)
            return -1;
        unsigned u = (unsigned)x;
        memcpy(p, &u, sizeof u);
        return 0;
    }
    case KD_J_LONG: {
        if (read_integer(v, f, (int_range){LONG_MIN, LONG_MAX}, &x, at, err) != 0)
            return -1;
        long l = (long)x;
        memcpy(p, &l, sizeof l);
        return 0;
    }
    case KD_J_SIZE: {
        if (read_integer(v, f, (int_range){0, SIZE_MAX}, &x, at, err) != 0)
            return -1;
        size_t z = (size_t)x;
        memcpy(p, &z, sizeof z);
        return 0;
    }
    case KD_J_ULL: {
        if (read_integer(v, f, (int_range){0, ULLONG_MAX}, &x, at, err) != 0)
            return -1;
        unsigned long long u = (unsigned long long)x;
        memcpy(p, &u, sizeof u);
        return 0;
    }
    case KD_J_DOUBLE: {
        double d = NAN;
        if (json_is_null(v) && f->nullable)
            ; /* a value JSON cannot hold: NaN or an infinity */
        else if (read_double(v, f->range, &d, at, err) != 0)
            return -1;
        memcpy(p, &d, sizeof d);
        return 0;
    }
    case KD_J_ENUM: {
        const char *id = json_string_value(v);
        for (int i = 0; id && i < f->nnames; i++)
            if (f->name(i) && !strcmp(f->name(i), id)) {
                memcpy(p, &i, sizeof i);
                return 0;
            }
        kd_strbuf known = {0};
        for (int i = 0; i < f->nnames; i++)
            if (f->name(i))
                kd_sb_printf(&known, "%s\"%s\"", known.len ? ", " : "", f->name(i));
        kd_jfail(at, err, "must be one of %s", kd_sb_str(&known));
        kd_sb_free(&known);
        return -1;
    }
    case KD_J_STRING: case KD_J_BORROWED: {
        const char *s;
        if (read_string(v, f, &s, at, err) != 0)
            return -1;
        if (f->type == KD_J_STRING && s)
            s = kd_xstrdup(s);
        memcpy(p, &s, sizeof s);
        return 0;
    }
    case KD_J_TEXT: {
        const char *s;
        if (read_string(v, f, &s, at, err) != 0)
            return -1;
        if (json_string_length(v) >= f->size || strlen(s) != json_string_length(v))
            return kd_jfail(at, err, "must be a string of fewer than %zu bytes without NUL", f->size);
        memcpy(p, s, strlen(s) + 1);
        return 0;
    }
    case KD_J_DOUBLES: {
        if (!json_is_array(v))
            return kd_jfail(at, err, "must be an array of numbers");
        size_t n = json_array_size(v);
        double *d = kd_xcalloc(n + 1, sizeof *d);
        memcpy(p, &d, sizeof d);
        memcpy(AT(base, f->count), &n, sizeof n);
        for (size_t i = 0; i < n; i++) {
            kd_jpath item = {at, NULL, i};
            if (read_double(json_array_get(v, i), f->range, &d[i], &item, err) != 0)
                return -1;
        }
        return 0;
    }
    case KD_J_OBJECT: return kd_jtable_read(f->sub, v, p, at, err);
    case KD_J_PAIR:
        if (!json_is_array(v) || json_array_size(v) != 2)
            return kd_jfail(at, err, "must be an array of two objects (v1, v2)");
        return read_items(f, v, p, 2, at, err);
    case KD_J_ARRAY: {
        if (!json_is_array(v))
            return kd_jfail(at, err, "must be an array");
        size_t n = json_array_size(v);
        char *items = kd_xcalloc(n + 1, f->size);
        memcpy(p, &items, sizeof items);
        memcpy(AT(base, f->count), &n, sizeof n);
        return read_items(f, v, items, n, at, err);
    }
    case KD_J_CUSTOM: return f->read ? f->read(v, base, at, err) : 0;
    }
    return kd_jfail(at, err, "unknown field type");
}

int kd_jtable_read(const kd_jtable *t, json_t *value, void *base, const kd_jpath *at, kd_strbuf *err)
{
    if (!json_is_object(value))
        return kd_jfail(at, err, "must be an object");
    for (size_t i = 0; i < t->count; i++) {
        const kd_jfield *f = &t->fields[i];
        if (f->type == KD_J_CUSTOM && !f->read)
            continue; /* derived from what is read: nothing to check */
        kd_jpath here = {at, f->key, 0};
        json_t *v = json_object_get(value, f->key);
        if (f->has_when) {
            bool absent = !v || json_is_null(v);
            /* An earlier field (occupancy "valid") may already have said it must be there. */
            if (absent && f->omit && flag_at(base, f->when))
                return kd_jfail(&here, err, "is missing");
            if (absent && !v && !f->omit && !f->optional)
                return kd_jfail(&here, err, "is missing (null when there is none)");
            set_flag(base, f->when, !absent);
            if (absent)
                continue;
        } else if (!v) {
            if (f->optional)
                continue;
            return kd_jfail(&here, err, "is missing");
        }
        if (read_field(f, v, base, &here, err) != 0)
            return -1;
    }
    return 0;
}
