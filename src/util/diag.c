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

const kd_diag *kd_diag_last(void)
{
    return &last;
}

void kd_diag_free(kd_diag *d)
{
    for (size_t i = 0; i < d->nargs; i++)
        if (d->args[i].kind == KD_DIAG_STR)
            free((char *)d->args[i].v.s);
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
