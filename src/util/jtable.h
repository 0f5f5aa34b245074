/* jtable.h — a JSON object described once, as a table of fields (key, C type, where the
 * value lives in a struct, whether it may be absent, its range), from which both the
 * writer and a validating reader are derived: a key is spelled in one place, and what is
 * written can always be read back. The reader checks every type and range and says where
 * a document is wrong ("runtime.sides[1].samples_ns[3]: must be a positive number"); it
 * never trusts the input's shape. */
#ifndef KD_UTIL_JTABLE_H
#define KD_UTIL_JTABLE_H

#include <jansson.h>
#include <stdbool.h>
#include <stddef.h>
#include "util/strbuf.h"

typedef enum kd_jtype {
    KD_J_BOOL, KD_J_INT, KD_J_UINT, KD_J_LONG, KD_J_SIZE, KD_J_ULL, KD_J_DOUBLE,
    KD_J_STRING,   /* char *, owned: strdup'ed when read */
    KD_J_BORROWED, /* const char *: when read, points into the document, which must outlive it */
    KD_J_TEXT,     /* char[size] */
    KD_J_ENUM,     /* an enum; `name(value)` is its id for values 0..count-1 */
    KD_J_DOUBLES,  /* double * with its size_t count at `count` */
    KD_J_OBJECT,   /* a nested table over the struct at `offset` */
    KD_J_PAIR,     /* two structs at `offset`, `size` bytes apart, each an object of `sub` */
    KD_J_ARRAY,    /* a pointer to `size`-byte structs, their size_t count at `count` */
    KD_J_CUSTOM,   /* `write` and `read` (NULL: derived, written only; the reader skips it) */
} kd_jtype;

/* Ranges of numbers (doubles are always finite: JSON has no NaN). */
typedef enum kd_jrange { KD_J_ANY = 0, KD_J_NONNEG, KD_J_POSITIVE, KD_J_FRACTION } kd_jrange;

/* Where the reader is: a chain of keys and indexes, for error messages. */
typedef struct kd_jpath {
    const struct kd_jpath *up;
    const char *key;   /* NULL: an array element */
    size_t index;
} kd_jpath;

typedef struct kd_jtable kd_jtable;

typedef struct kd_jfield {
    const char *key;
    kd_jtype type;
    size_t offset;              /* from the start of the struct the table describes */
    size_t size;                /* the member's size (TEXT: the buffer; PAIR/ARRAY: one element) */
    kd_jrange range;
    bool nullable;              /* STRING/BORROWED: NULL is written as null; DOUBLE: a non-finite
                                   value is written as null and read back as NaN */
    bool optional;              /* the key may be missing (read as zero) */
    bool has_when;              /* the value exists only when the bool at `when` is true: */
    size_t when;                /* written as null when it is false (omitted with `omit`), and
                                   the reader sets it from null/value, or requires the value
                                   when an earlier field already made it true */
    bool omit;                  /* CUSTOM: a NULL from `write` leaves the key out */
    size_t count;               /* DOUBLES/ARRAY: offset of the size_t count */
    int nnames;                 /* ENUM: values 0..nnames-1 */
    const char *(*name)(int value);
    const kd_jtable *sub;       /* OBJECT/PAIR/ARRAY */
    json_t *(*write)(const void *base);          /* CUSTOM: a new reference or NULL */
    int (*read)(json_t *value, void *base, const kd_jpath *at, kd_strbuf *err); /* 0 or -1 */
} kd_jfield;

struct kd_jtable {
    const kd_jfield *fields;
    size_t count;
};

/* Table entries: the key, the member, its type (numbers and strings by their C type). */
#define KD_J_MEMBER(T, m) .offset = offsetof(T, m), .size = sizeof(((T *)0)->m)
#define KD_J_FIELD(k, T, m)                                                                        \
    .key = (k), KD_J_MEMBER(T, m),                                                                 \
    .type = _Generic(((T *)0)->m, bool: KD_J_BOOL, int: KD_J_INT, unsigned: KD_J_UINT,             \
                     long: KD_J_LONG, unsigned long: KD_J_SIZE, unsigned long long: KD_J_ULL,      \
                     double: KD_J_DOUBLE, char *: KD_J_STRING, const char *: KD_J_BORROWED)
#define KD_J_TEXT_FIELD(k, T, m) .key = (k), .type = KD_J_TEXT, KD_J_MEMBER(T, m)
#define KD_J_ENUM_FIELD(k, T, m, fn, n) .key = (k), .type = KD_J_ENUM, KD_J_MEMBER(T, m), .name = (fn), .nnames = (n)
#define KD_J_OBJECT_FIELD(k, T, m, table) .key = (k), .type = KD_J_OBJECT, KD_J_MEMBER(T, m), .sub = &(table)
/* A nested object whose fields are in the same struct. */
#define KD_J_GROUP_FIELD(k, table) .key = (k), .type = KD_J_OBJECT, .sub = &(table)
#define KD_J_PAIR_FIELD(k, T, m, table)                                                           \
    .key = (k), .type = KD_J_PAIR, .offset = offsetof(T, m), .size = sizeof(((T *)0)->m[0]), .sub = &(table)
#define KD_J_ARRAY_FIELD(k, T, m, n, table)                                                       \
    .key = (k), .type = KD_J_ARRAY, .offset = offsetof(T, m), .size = sizeof(*((T *)0)->m),      \
    .count = offsetof(T, n), .sub = &(table)
#define KD_J_DOUBLES_FIELD(k, T, m, n) .key = (k), .type = KD_J_DOUBLES, KD_J_MEMBER(T, m), .count = offsetof(T, n)
#define KD_J_WHEN(T, flag) .has_when = true, .when = offsetof(T, flag)
#define KD_J_TABLE(fields) {(fields), sizeof(fields) / sizeof *(fields)}

/* The object `t` describes, from the struct at `base`; NULL on allocation failure or a
 * value JSON cannot hold (a non-finite double). */
json_t *kd_jtable_write(const kd_jtable *t, const void *base);

/* Reads `value` (an object) into the zeroed struct at `base`. Returns 0, or -1 with
 * "PATH: what is wrong" in err; what it allocated stays in the struct for its owner's free
 * function (counts always match what was allocated). */
int kd_jtable_read(const kd_jtable *t, json_t *value, void *base, const kd_jpath *at, kd_strbuf *err);

/* Appends "PATH: message" to err and returns -1: for CUSTOM readers. */
int kd_jfail(const kd_jpath *at, kd_strbuf *err, const char *fmt, ...) __attribute__((format(printf, 3, 4)));

/* The expected C size of a scalar or pointer field type (0 for TEXT, OBJECT, PAIR, ARRAY, CUSTOM):
 * tests check every table against it. */
size_t kd_jtype_size(kd_jtype type);

#endif
