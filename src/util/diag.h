/* What the engine has to say, as data (issue 29: words only in report/). A message is an id,
 * the side it concerns and typed values; its sentence is a format in report/'s tables
 * (report/diag_text.c gathers the report/words_*.c files). Below report/ nothing writes a
 * sentence to a stream: code says `kd_say(KD_MSG_X, side, KD_S(path), KD_I(n))`, and the
 * top layer's sink (main.c installs report/'s, which writes stderr) words it.
 *
 * Ids: an area (one per folder, below) in the high bits, a number in the low bits. Each
 * area's ids are an enum in its folder's `<area>_msgs.h`; the formats for them are in
 * report/words_<area>.c, with the number of values each takes, so a call that gives a
 * different number of values is caught (it renders a marker, never reads past its values;
 * tests/unit/test_diag.c checks every table). */
#ifndef KD_UTIL_DIAG_H
#define KD_UTIL_DIAG_H

#include <stddef.h>

#include "util/strbuf.h"

typedef enum kd_diag_area {
    KD_AREA_UTIL = 1,
    KD_AREA_CLI,
    KD_AREA_BACKEND,
    KD_AREA_TRITON,
    KD_AREA_COMPILE,
    KD_AREA_SOURCE,
    KD_AREA_LAUNCH,
    KD_AREA_STATIC,
    KD_AREA_DIFF,
    KD_AREA_MEASURE,
    KD_AREA_NCU,
    KD_AREA_SANITIZER,
    KD_AREA_REGIONS,
    KD_AREA_WIRE,
    KD_AREA_APP,
    KD_AREA_WORKFLOW,
    KD_AREA_GIT,
    KD_AREA_GPU,
    KD_AREA_CHECK,
    KD_AREA_COUNT
} kd_diag_area;

#define KD_DIAG_ID(area, n) (((int)(area) << 10) | (n))
#define KD_DIAG_AREA(id) ((id) >> 10)

/* The side a message concerns: none, v1 or v2 (data: the words say "v1:" where they must). */
enum { KD_DIAG_NO_SIDE = 0 };

/* KD_DIAG_MSG: a value that is itself a message (a reason inside a sentence: "timing v1:
 * {1}" where {1} is the harness's failure), worded by its own format where `{N}` stands. */
typedef enum kd_diag_kind { KD_DIAG_STR, KD_DIAG_INT, KD_DIAG_UINT, KD_DIAG_DBL, KD_DIAG_MSG } kd_diag_kind;

struct kd_diag;
typedef struct kd_diag_arg {
    kd_diag_kind kind;
    union {
        const char *s; /* NULL renders as "(null)" */
        long long i;
        unsigned long long u;
        double d;
        const struct kd_diag *m; /* NULL renders as "(null)" */
    } v;
} kd_diag_arg;

#define KD_S(x) ((kd_diag_arg){.kind = KD_DIAG_STR, .v.s = (x)})
#define KD_I(x) ((kd_diag_arg){.kind = KD_DIAG_INT, .v.i = (long long)(x)})
#define KD_U(x) ((kd_diag_arg){.kind = KD_DIAG_UINT, .v.u = (unsigned long long)(x)})
#define KD_D(x) ((kd_diag_arg){.kind = KD_DIAG_DBL, .v.d = (double)(x)})
#define KD_M(x) ((kd_diag_arg){.kind = KD_DIAG_MSG, .v.m = (x)})

#define KD_DIAG_MAX_ARGS 10

/* A message held as a value (an error handed up to the caller, a note kept for later): its
 * strings and inner messages are copies it owns (kd_diag_free). */
typedef struct kd_diag {
    int id; /* 0: no message */
    int side;
    size_t nargs;
    kd_diag_arg args[KD_DIAG_MAX_ARGS];
} kd_diag;

/* Say it now: to the installed sink (nothing installed: kept as the last message, for
 * tests). At least one value: kd_say(KD_MSG_X, side, KD_S(a)); none: kd_say0. */
#define kd_say(id, side, ...)                                                                                          \
    kd_say_args((id), (side), (const kd_diag_arg[]){__VA_ARGS__},                                                      \
                sizeof((const kd_diag_arg[]){__VA_ARGS__}) / sizeof(kd_diag_arg))
#define kd_say0(id, side) kd_say_args((id), (side), NULL, 0)
void kd_say_args(int id, int side, const kd_diag_arg *args, size_t nargs);

/* Keep it in *d instead (an error for the caller to report): strings copied. */
#define kd_diag_set(d, id, side, ...)                                                                                  \
    kd_diag_set_args((d), (id), (side), (const kd_diag_arg[]){__VA_ARGS__},                                            \
                     sizeof((const kd_diag_arg[]){__VA_ARGS__}) / sizeof(kd_diag_arg))
#define kd_diag_set0(d, id, side) kd_diag_set_args((d), (id), (side), NULL, 0)
void kd_diag_set_args(kd_diag *d, int id, int side, const kd_diag_arg *args, size_t nargs);
/* Say a kept message now (to the sink), e.g. an error handed up. */
void kd_diag_say(const kd_diag *d);
void kd_diag_free(kd_diag *d);

/* A copy of src into *d (freeing what d held): strings and inner messages copied. */
void kd_diag_copy(kd_diag *d, const kd_diag *src);

/* The words of a message appended to a text, for a reason that still travels up as text (a
 * `kd_strbuf *why` chain): the format is report/'s, which main.c installs next to the sink
 * (kd_diag_set_words(kd_diag_text)), as a test that checks words does; none installed, the id
 * and values as they are. New code hands the kd_diag itself up instead. */
typedef void (*kd_diag_words_fn)(const kd_diag *d, kd_strbuf *out);
void kd_diag_set_words(kd_diag_words_fn fn);
void kd_diag_append_words(const kd_diag *d, kd_strbuf *out);
/* One value as it is, with no format of its own ("%g" for a double, an inner message's
 * words): what both renderers write for a placeholder without a spec. */
void kd_diag_arg_append(const kd_diag_arg *a, kd_strbuf *out);

/* Where messages go: the top layer installs report/'s sink (kd_diag_to_stderr). */
typedef void (*kd_diag_sink)(const kd_diag *d, void *ctx);
void kd_diag_set_sink(kd_diag_sink sink, void *ctx);
/* The sink installed now (NULL: none), so that a caller may watch what is said and hand it on. */
void kd_diag_get_sink(kd_diag_sink *sink, void **ctx);
/* With no sink installed, the last message said (for tests); its strings live until the next. */
const kd_diag *kd_diag_last(void);

#endif
