/* Messages as data (util/diag.h): kept or handed to the installed sink; never worded here. */
#include "util/diag.h"

#include <stdlib.h>
#include <string.h>

#include "util/xalloc.h"

static kd_diag_sink sink_fn;
static void *sink_ctx;
static kd_diag last;

void kd_diag_set_sink(kd_diag_sink sink, void *ctx)
{
    sink_fn = sink;
    sink_ctx = ctx;
}

void kd_diag_get_sink(kd_diag_sink *sink, void **ctx)
{
    *sink = sink_fn;
    *ctx = sink_ctx;
}

const kd_diag *kd_diag_last(void)
{
    return &last;
}

void kd_diag_free(kd_diag *d)
{
    for (size_t i = 0; i < d->nargs; i++)
        if (d->args[i].kind == KD_DIAG_STR)
            free((char *)d->args[i].v.s);
        else if (d->args[i].kind == KD_DIAG_MSG && d->args[i].v.m) {
            kd_diag *inner = (kd_diag *)d->args[i].v.m;
            kd_diag_free(inner);
            free(inner);
        }
    memset(d, 0, sizeof *d);
}

void kd_diag_set_args(kd_diag *d, int id, int side, const kd_diag_arg *args, size_t nargs)
{
    kd_diag_free(d);
    d->id = id;
    d->side = side;
    /* More values than a message can hold are dropped; the renderer then sees a count
     * unlike its table's and says so instead of reading past them. */
    d->nargs = nargs > KD_DIAG_MAX_ARGS ? KD_DIAG_MAX_ARGS : nargs;
    for (size_t i = 0; i < d->nargs; i++) {
        d->args[i] = args[i];
        if (args[i].kind == KD_DIAG_STR && args[i].v.s)
            d->args[i].v.s = kd_xstrdup(args[i].v.s);
        else if (args[i].kind == KD_DIAG_MSG && args[i].v.m) {
            kd_diag *inner = kd_xcalloc(1, sizeof *inner);
            kd_diag_copy(inner, args[i].v.m);
            d->args[i].v.m = inner;
        }
    }
}

void kd_diag_copy(kd_diag *d, const kd_diag *src)
{
    if (d == src)
        return;
    kd_diag copy = {0};
    kd_diag_set_args(&copy, src->id, src->side, src->args, src->nargs); /* src may live inside d */
    kd_diag_free(d);
    *d = copy;
}

static kd_diag_words_fn words_fn;

void kd_diag_set_words(kd_diag_words_fn fn)
{
    words_fn = fn;
}

void kd_diag_append_words(const kd_diag *d, kd_strbuf *out)
{
    if (words_fn) {
        words_fn(d, out);
        return;
    }
    /* No words linked in (a unit test of a lower floor): the message as data. */
    kd_sb_printf(out, "[message %d", d->id);
    for (size_t i = 0; i < d->nargs; i++) {
        kd_sb_puts(out, i ? ", " : ": ");
        kd_diag_arg_append(&d->args[i], out);
    }
    kd_sb_puts(out, "]");
}

void kd_diag_arg_append(const kd_diag_arg *a, kd_strbuf *out)
{
    switch (a->kind) {
    case KD_DIAG_STR: kd_sb_puts(out, a->v.s ? a->v.s : "(null)"); break;
    case KD_DIAG_INT: kd_sb_printf(out, "%lld", a->v.i); break;
    case KD_DIAG_UINT: kd_sb_printf(out, "%llu", a->v.u); break;
    case KD_DIAG_DBL: kd_sb_printf(out, "%g", a->v.d); break;
    case KD_DIAG_MSG:
        if (a->v.m)
            kd_diag_append_words(a->v.m, out);
        else
            kd_sb_puts(out, "(null)");
        break;
    }
}

void kd_diag_say(const kd_diag *d)
{
    if (!d->id)
        return;
    if (sink_fn)
        sink_fn(d, sink_ctx);
    else if (d != &last)
        kd_diag_set_args(&last, d->id, d->side, d->args, d->nargs);
}

void kd_say_args(int id, int side, const kd_diag_arg *args, size_t nargs)
{
    if (sink_fn) {
        kd_diag d = {.id = id, .side = side, .nargs = nargs > KD_DIAG_MAX_ARGS ? KD_DIAG_MAX_ARGS : nargs};
        if (d.nargs)
            memcpy(d.args, args, d.nargs * sizeof *args);
        sink_fn(&d, sink_ctx);
        return;
    }
    kd_diag_set_args(&last, id, side, args, nargs);
}
