/* The harness protocol's server (server.h): everything in docs/PROTOCOL.md that is not device
 * work, written once for every vendor. It was two copies (cuda_harness.c, sim_harness.c)
 * before issue 29; a HIP vendor would have been a third. */
#include "server.h"

#include <errno.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

#define OUTPUT_SEED_INDEX 1000
#define GUARD_BYTES (64u << 10) /* `setup guard`: the hole after each buffer, small so that it lands right after */
#define MAX_PARAM_BYTES 32764   /* `arg I bytes`: the driver's limit on a kernel's parameter buffer */
/* A command line: `arg I bytes HEX` of the largest parameter is two hex digits a byte. */
#define MAX_LINE (2 * MAX_PARAM_BYTES + 256)

void kd_proto_reply(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vprintf(fmt, ap);
    va_end(ap);
    putchar('\n');
    fflush(stdout);
}

static double seconds_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

kd_server_arg *kd_server_owner(kd_server *s, kd_server_arg *a)
{
    return a->share >= 0 ? &s->slot[0].args[a->share] : a;
}

static unsigned long long input_seed(const kd_server *s, size_t input_index)
{
    return s->seed + 0x9E3779B97F4A7C15ull * (input_index + 1);
}

const void *kd_server_seeded(kd_server *s, kd_server_arg *a)
{
    if (a->fill)
        return a->fill;
    if (!a->initial && (a->initial = malloc(a->bytes ? a->bytes : 1)) != NULL)
        kd_fill_random(a->dtype, a->initial, (size_t)a->count * (size_t)a->lanes, input_seed(s, a->seed_index));
    return a->initial;
}

static void scalar_bytes(kd_dtype t, double v, unsigned char out[8])
{
    memset(out, 0, 8);
    switch (t) {
    case KD_DT_F32: { float f = (float)v; memcpy(out, &f, 4); break; }
    case KD_DT_F64: memcpy(out, &v, 8); break;
    case KD_DT_F16: { unsigned short h = kd_float_to_half((float)v); memcpy(out, &h, 2); break; }
    case KD_DT_BF16: { unsigned short h = kd_float_to_bf16((float)v); memcpy(out, &h, 2); break; }
    case KD_DT_I8: case KD_DT_U8: { uint8_t x = (uint8_t)(int64_t)v; memcpy(out, &x, 1); break; }
    case KD_DT_I16: case KD_DT_U16: { uint16_t x = (uint16_t)(int64_t)v; memcpy(out, &x, 2); break; }
    case KD_DT_I32: case KD_DT_U32: { uint32_t x = (uint32_t)(int64_t)v; memcpy(out, &x, 4); break; }
    case KD_DT_I64: case KD_DT_U64: { uint64_t x = v < 0 ? (uint64_t)(int64_t)v : (uint64_t)v; memcpy(out, &x, 8); break; }
    default: break;
    }
}

/* HEX (two digits a byte) into a fresh buffer; NULL when it is not hex, empty or too long. */
static unsigned char *parse_hex(const char *hex, size_t *bytes)
{
    size_t len = strlen(hex);
    if (len == 0 || len % 2 || len / 2 > MAX_PARAM_BYTES || strspn(hex, "0123456789abcdefABCDEF") != len)
        return NULL;
    unsigned char *out = malloc(len / 2);
    for (size_t i = 0; out && i < len / 2; i++) {
        char pair[3] = {hex[2 * i], hex[2 * i + 1], '\0'};
        out[i] = (unsigned char)strtoul(pair, NULL, 16);
    }
    *bytes = len / 2;
    return out;
}

/* A new `arg I` forgets what the old one had: its `fill`, its bytes and the patches into them. */
static void forget_arg(kd_server_slot *slot, size_t i)
{
    kd_server_arg *a = &slot->args[i];
    free(a->fill);
    free(a->raw);
    free(a->audit);
    memset(a, 0, sizeof *a);
    a->share = -1;
    slot->arg_ptrs[i] = NULL;
    size_t kept = 0;
    for (size_t k = 0; k < slot->npatches; k++)
        if (slot->patches[k].param != i)
            slot->patches[kept++] = slot->patches[k];
    slot->npatches = kept;
}

/* arg I buffer DTYPE LANES COUNT in|out|inout [share=J] | arg I scalar DTYPE VALUE
 * | arg I stream | arg I scratch BYTES | arg I bytes HEX.  share=J (slot 1 only): use slot
 * 0's buffer J, which has the same size. */
static void arg(kd_server *s, kd_words *w)
{
    char *end;
    unsigned long i = w->count >= 2 ? strtoul(w->word[1], &end, 10) : KD_SERVER_MAX_ARGS;
    if (i >= KD_SERVER_MAX_ARGS || s->ready) {
        kd_proto_reply("err protocol bad arg index (at most %d arguments), or arg after setup", KD_SERVER_MAX_ARGS);
        return;
    }
    kd_server_slot *slot = kd_server_current(s);
    kd_server_arg *a = &slot->args[i];
    forget_arg(slot, i);
    const char *share = kd_proto_value(w, 7, "share");
    if ((w->count == 7 || (w->count == 8 && share)) && strcmp(w->word[2], "buffer") == 0) {
        if (!kd_proto_buffer_mode(w->word[6], &a->is_output, &a->is_inout)) {
            kd_proto_reply("err protocol buffer mode '%s': in, out or inout", w->word[6]);
            return;
        }
        a->is_buffer = true;
        a->dtype = kd_dtype_from_name(w->word[3]);
        a->lanes = atoi(w->word[4]);
        a->count = strtoull(w->word[5], NULL, 10);
        a->bytes = (size_t)a->count * (size_t)a->lanes * kd_dtype_size(a->dtype);
        if (share) {
            unsigned long j = strtoul(share, &end, 10);
            const kd_server_arg *owner = j < KD_SERVER_MAX_ARGS ? &s->slot[0].args[j] : NULL;
            if (s->cur == 0 || *end || !owner || !owner->is_buffer || owner->bytes != a->bytes) {
                kd_proto_reply("err protocol share=%s: only slot 1 shares, with a slot-0 buffer of the same size",
                               share);
                return;
            }
            a->share = (int)j;
        }
        /* a shared buffer's pointer follows slot 0's buffer when `place` moves it */
        slot->arg_ptrs[i] = &kd_server_owner(s, a)->device;
    } else if (w->count == 5 && strcmp(w->word[2], "scalar") == 0) {
        a->dtype = kd_dtype_from_name(w->word[3]);
        scalar_bytes(a->dtype, strtod(w->word[4], NULL), a->scalar);
        slot->arg_ptrs[i] = a->scalar;
    } else if (w->count == 3 && strcmp(w->word[2], "stream") == 0) {
        a->dtype = KD_DT_U64; /* only to pass the check below: the pointer is the stream */
        slot->arg_ptrs[i] = s->ops->stream_arg(s);
    } else if (w->count == 4 && strcmp(w->word[2], "scratch") == 0) {
        a->is_scratch = true;
        a->dtype = KD_DT_U8;
        a->bytes = (size_t)strtoull(w->word[3], NULL, 10);
        slot->arg_ptrs[i] = &a->device; /* stays 0 (a NULL pointer) when no bytes are needed */
    } else if (w->count == 4 && strcmp(w->word[2], "bytes") == 0) {
        /* a replayed launch's by-value parameter, exactly as the program passed it */
        if (!(a->raw = parse_hex(w->word[3], &a->raw_bytes))) {
            kd_proto_reply("err protocol arg %lu bytes: HEX is 1 to %d bytes, two hex digits each", i, MAX_PARAM_BYTES);
            return;
        }
        a->dtype = KD_DT_U8; /* only to pass the check below: the bytes are the parameter */
        slot->arg_ptrs[i] = a->raw;
    } else {
        kd_proto_reply("err protocol usage: arg I buffer DTYPE LANES COUNT in|out|inout [share=J] | arg I scalar DTYPE "
                       "VALUE | arg I stream | arg I scratch BYTES | arg I bytes HEX");
        return;
    }
    if (a->dtype == KD_DT_UNKNOWN || (a->is_buffer && a->lanes <= 0)) {
        slot->arg_ptrs[i] = NULL;
        kd_proto_reply("err protocol unknown dtype %s", w->word[3]);
        return;
    }
    if (i + 1 > slot->nargs)
        slot->nargs = i + 1;
    kd_proto_reply("ok arg");
}

/* fill I PATH: buffer I of the current slot starts with PATH's bytes (a captured launch's
 * data) instead of random ones, in every restore. The file must hold exactly the buffer. */
static void fill(kd_server *s, kd_words *w)
{
    char *end = NULL;
    unsigned long i = w->count == 3 ? strtoul(w->word[1], &end, 10) : KD_SERVER_MAX_ARGS;
    kd_server_slot *slot = kd_server_current(s);
    if (i >= KD_SERVER_MAX_ARGS || *end || s->ready) {
        kd_proto_reply("err protocol usage: fill I PATH (before setup)");
        return;
    }
    kd_server_arg *a = &slot->args[i];
    if (!a->is_buffer || a->share >= 0) {
        kd_proto_reply("err protocol fill %lu: argument %lu is not a buffer of this slot (a shared one keeps slot 0's "
                       "contents)", i, i);
        return;
    }
    kd_proto_decode(w->word[2]);
    const char *path = w->word[2];
    struct stat st;
    if (stat(path, &st) != 0) {
        kd_proto_reply("err load cannot read %s: %s", path, strerror(errno));
        return;
    }
    if (!S_ISREG(st.st_mode)) {
        kd_proto_reply("err load %s is not a regular file", path);
        return;
    }
    if ((unsigned long long)st.st_size != (unsigned long long)a->bytes) {
        kd_proto_reply("err load %s has %lld bytes, argument %lu needs exactly %zu", path, (long long)st.st_size, i,
                       a->bytes);
        return;
    }
    unsigned char *data = malloc(a->bytes ? a->bytes : 1);
    FILE *f = data ? fopen(path, "rb") : NULL;
    size_t got = f ? fread(data, 1, a->bytes, f) : 0;
    bool whole = f && got == a->bytes && fgetc(f) == EOF;
    int err = errno;
    if (f)
        fclose(f);
    if (!data || !whole) {
        free(data);
        kd_proto_reply(data ? "err load reading %s failed (it changed while read?): %s"
                            : "err alloc host memory for %s: %s",
                       path, strerror(err));
        return;
    }
    free(a->fill);
    a->fill = data;
    kd_proto_reply("ok fill bytes=%zu", a->bytes);
}

/* Whether patch p of a slot can be applied: a bytes parameter holding the word, a buffer
 * argument holding the offset (a pointer one past the end is legal C). */
static bool patch_fits(kd_server_slot *slot, const kd_server_patch *p)
{
    const kd_server_arg *param = &slot->args[p->param], *buf = &slot->args[p->buffer];
    return p->param < slot->nargs && p->buffer < slot->nargs && param->raw && p->word + 8 <= param->raw_bytes &&
           buf->is_buffer && p->offset <= buf->bytes;
}

/* patch I WORD J OFFSET: the pointer word at byte WORD of parameter I becomes buffer J's
 * address + OFFSET (set at setup and after every move of the buffers). */
static void patch(kd_server *s, kd_words *w)
{
    kd_server_slot *slot = kd_server_current(s);
    char *e[4] = {NULL, NULL, NULL, NULL};
    unsigned long long v[4] = {0, 0, 0, 0};
    bool parsed = w->count == 5 && !s->ready;
    for (int k = 0; parsed && k < 4; k++) {
        errno = 0;
        v[k] = strtoull(w->word[1 + k], &e[k], 10);
        parsed = *w->word[1 + k] && !*e[k] && errno == 0 && *w->word[1 + k] != '-';
    }
    if (!parsed || v[0] >= KD_SERVER_MAX_ARGS || v[2] >= KD_SERVER_MAX_ARGS) {
        kd_proto_reply("err protocol usage: patch I WORD J OFFSET (before setup)");
        return;
    }
    kd_server_patch p = {(size_t)v[0], (size_t)v[1], (size_t)v[2], v[3]};
    if (!patch_fits(slot, &p)) {
        kd_proto_reply("err protocol patch %llu %llu %llu %llu: argument %llu must be `arg bytes` holding 8 bytes at "
                       "%llu, argument %llu a buffer of at least %llu bytes", v[0], v[1], v[2], v[3], v[0], v[1],
                       v[2], v[3]);
        return;
    }
    kd_server_patch *grown = realloc(slot->patches, (slot->npatches + 1) * sizeof *grown);
    if (!grown) {
        kd_proto_reply("err alloc host memory for a patch");
        return;
    }
    slot->patches = grown;
    slot->patches[slot->npatches++] = p;
    kd_proto_reply("ok patch");
}

/* Buffer argument j's address as the device sees it (the vendor's, as `buffers` says it). */
static unsigned long long buffer_address(kd_server *s, int index, size_t j)
{
    kd_server_slot *slot = &s->slot[index];
    size_t k = 0;
    for (size_t i = 0; i < j; i++)
        k += slot->args[i].is_buffer;
    return s->ops->address(s, index, k, kd_server_owner(s, &slot->args[j])->device);
}

/* Every loaded slot's pointer words, from where its buffers are now (setup, `place`). */
static void apply_patches(kd_server *s)
{
    for (int k = 0; k < KD_PROTO_MAX_SLOTS; k++) {
        kd_server_slot *slot = &s->slot[k];
        for (size_t i = 0; slot->loaded && i < slot->npatches; i++) {
            const kd_server_patch *p = &slot->patches[i];
            unsigned long long address = buffer_address(s, k, p->buffer) + p->offset;
            memcpy(slot->args[p->param].raw + p->word, &address, sizeof address);
        }
    }
}

/* param I: the bytes parameter I of the current slot is passed as now, pointer words
 * patched (what a test compares with `buffers`). */
static void param(kd_server *s, kd_words *w)
{
    char *end = NULL;
    unsigned long i = w->count == 2 ? strtoul(w->word[1], &end, 10) : KD_SERVER_MAX_ARGS;
    kd_server_slot *slot = kd_server_current(s);
    if (i >= KD_SERVER_MAX_ARGS || *end || !slot->args[i].raw) {
        kd_proto_reply("err protocol usage: param I (an `arg I bytes` of this slot)");
        return;
    }
    printf("ok param bytes=");
    for (size_t k = 0; k < slot->args[i].raw_bytes; k++)
        printf("%02x", slot->args[i].raw[k]);
    kd_proto_reply("%s", "");
}

/* A decimal unsigned 32-bit word (strtoul alone takes "-1" and "12x"). */
static bool parse_dim(const char *word, unsigned *out)
{
    char *end = NULL;
    errno = 0;
    unsigned long v = strtoul(word, &end, 10);
    if (!*word || *end || errno || *word == '-' || v > 0xffffffffUL)
        return false;
    *out = (unsigned)v;
    return true;
}

/* geometry GX GY GZ BX BY BZ SMEM [CX CY CZ]: the launch of the current slot; CX CY CZ, the
 * blocks of a cluster (a replayed cluster launch: docs/PROTOCOL.md), each dimension of the
 * grid a multiple of it; none, or 0 0 0, is a launch without clusters. */
static void geometry(kd_server *s, kd_words *w)
{
    unsigned v[10] = {0};
    bool parsed = w->count == 8 || w->count == 11;
    for (size_t k = 0; parsed && k + 1 < w->count; k++)
        parsed = parse_dim(w->word[1 + k], &v[k]);
    if (!parsed) {
        kd_proto_reply("err protocol usage: geometry GX GY GZ BX BY BZ SMEM [CX CY CZ]");
        return;
    }
    bool clustered = v[7] || v[8] || v[9];
    for (int d = 0; clustered && d < 3; d++)
        if (!v[7 + d] || v[d] % v[7 + d]) {
            kd_proto_reply("err protocol geometry: the grid %ux%ux%u is not made of clusters of %ux%ux%u (each "
                           "dimension a multiple, none 0)", v[0], v[1], v[2], v[7], v[8], v[9]);
            return;
        }
    kd_server_slot *slot = kd_server_current(s);
    for (int d = 0; d < 3; d++) {
        slot->grid[d] = v[d];
        slot->block[d] = v[3 + d];
        slot->cluster[d] = v[7 + d];
    }
    slot->smem = v[6];
    if (clustered)
        kd_proto_reply("ok geometry cluster=%ux%ux%u", v[7], v[8], v[9]);
    else
        kd_proto_reply("ok geometry");
}

static bool allocate(kd_server *s, kd_devptr *p, size_t bytes, const char *what)
{
    char why[256] = "";
    if (s->ops->alloc(s, p, bytes, why, sizeof why) == 0)
        return true;
    kd_proto_reply("err alloc %s needs %zu bytes: %s", what, bytes, why);
    return false;
}

/* Allocates and fills one slot's own buffers (a shared one is slot 0's). Inputs are seeded
 * by their order among the slot's inputs, outputs all from one seed, so that an output has
 * the same starting contents on both sides wherever its parameter sits (an in-place kernel
 * reads them). Returns the bytes allocated, or -1 after an error reply. */
static long long set_up_slot(kd_server *s, int index, bool guard)
{
    kd_server_slot *slot = &s->slot[index];
    size_t total = 0, inputs = 0;
    kd_devptr holes[KD_SERVER_MAX_ARGS];
    size_t nholes = 0;
    for (size_t i = 0; i < slot->nargs; i++) {
        kd_server_arg *a = &slot->args[i];
        if (!slot->arg_ptrs[i]) {
            kd_proto_reply("err protocol argument %zu was never given", i);
            return -1;
        }
        if (a->is_scratch && a->bytes) {
            char what[40];
            snprintf(what, sizeof what, "scratch argument %zu", i);
            if (!allocate(s, &a->device, a->bytes, what))
                return -1;
            s->ops->zero(s, a->device, a->bytes, "zeroing scratch");
            total += a->bytes;
        }
        if (!a->is_buffer)
            continue;
        a->seed_index = a->is_output ? OUTPUT_SEED_INDEX : inputs++; /* a filled input still counts */
        if (a->share >= 0)
            continue;
        char what[32];
        snprintf(what, sizeof what, "argument %zu", i);
        /* a captured 0-byte allocation still gets an address of its own; `check`'s bounds
           guard follows the buffer in the same allocation, except under `setup guard` (the
           sanitizer's run): there an overrun must leave the allocation for compute-sanitizer
           to see it, and a guard in the same allocation would hide every access that lands in
           it (a read 1 KiB past an input's end read as clean on an H100) */
        a->guard = guard ? 0 : kd_bounds_guard_bytes(a->bytes);
        if (!allocate(s, &a->device, a->bytes + a->guard, what))
            return -1;
        /* guard: a hole after each buffer, so that an overrun lands in memory no one owns
         * (a tool like compute-sanitizer sees it) instead of in the next buffer. */
        char ignored[8];
        if (guard && s->ops->alloc(s, &holes[nholes], GUARD_BYTES, ignored, sizeof ignored) == 0)
            nholes++;
        total += a->bytes;
        if (!s->ops->restore(s, a, "copying inputs")) {
            kd_proto_reply("err alloc host memory for argument %zu (%zu bytes)", i, a->bytes);
            return -1;
        }
    }
    for (size_t i = 0; i < nholes; i++)
        s->ops->free(s, holes[i]);
    return s->ops->slot_ready(s, index) ? (long long)total : -1;
}

/* A setup that failed gives back what it took, so that it can be tried again (kerndiff
 * retries when the memory of other children is released). */
static void release_buffers(kd_server *s)
{
    for (int k = 0; k < KD_PROTO_MAX_SLOTS; k++)
        for (size_t i = 0; i < s->slot[k].nargs; i++) {
            kd_server_arg *a = &s->slot[k].args[i];
            if (a->share < 0 && a->device)
                s->ops->free(s, a->device);
            if (a->mirror)
                s->ops->free(s, a->mirror);
            a->mirror = 0;
            a->mirror_tried = false;
            a->audit_in = false;
            free(a->initial);
            free(a->audit);
            a->device = 0;
            a->initial = NULL;
            a->audit = NULL;
        }
    s->ops->release(s);
}

static void setup(kd_server *s, kd_words *w)
{
    bool guard = w->count == 2 && strcmp(w->word[1], "guard") == 0;
    if ((w->count != 1 && !guard) || !s->slot[0].loaded || s->ready) {
        kd_proto_reply("err protocol usage: setup [guard], after load, once");
        return;
    }
    for (int k = 0; k < KD_PROTO_MAX_SLOTS; k++)
        for (size_t i = 0; s->slot[k].loaded && i < s->slot[k].npatches; i++)
            if (!patch_fits(&s->slot[k], &s->slot[k].patches[i])) { /* an `arg` changed it since */
                kd_proto_reply("err protocol slot %d: patch of argument %zu no longer fits its arguments", k,
                               s->slot[k].patches[i].param);
                return;
            }
    if (s->ops->before_setup && !s->ops->before_setup(s))
        return;
    long long total = 0;
    for (int k = 0; k < KD_PROTO_MAX_SLOTS; k++) {
        if (!s->slot[k].loaded)
            continue;
        long long bytes = set_up_slot(s, k, guard);
        if (bytes < 0) {
            release_buffers(s);
            return;
        }
        total += bytes;
    }
    if (!s->ops->all_ready(s)) {
        release_buffers(s);
        return;
    }
    s->ready = true;
    apply_patches(s);
    kd_proto_reply("ok setup bytes=%lld", total);
}

/* side S: the slot that load, arg, fill, geometry, warmup, time, check and once address. */
static void side(kd_server *s, kd_words *w)
{
    char *end = NULL;
    unsigned long k = w->count == 2 ? strtoul(w->word[1], &end, 10) : KD_PROTO_MAX_SLOTS;
    if (k >= KD_PROTO_MAX_SLOTS || *end || !*w->word[1] || (k > 0 && !s->slot[k - 1].loaded)) {
        kd_proto_reply("err protocol usage: side 0|1 (slot 1 after slot 0 is loaded)");
        return;
    }
    if (s->ready && !s->slot[k].loaded) {
        kd_proto_reply("err protocol side %lu was not loaded before setup", k);
        return;
    }
    s->cur = (int)k;
    kd_proto_reply("ok side");
}

/* Every output of the current slot (a shared one is slot 0's), in argument order, appended to
 * f: what `check` and `audit` write. Returns the argument whose host copy could not be made
 * (out of memory), or -1; *written counts the bytes. */
static long write_outputs(kd_server *s, FILE *f, const char *doing, size_t *written)
{
    kd_server_slot *slot = kd_server_current(s);
    for (size_t i = 0; i < slot->nargs; i++) {
        kd_server_arg *a = kd_server_owner(s, &slot->args[i]);
        if (!a->is_buffer || !a->is_output)
            continue;
        void *host = malloc(a->bytes ? a->bytes : 1);
        if (!host)
            return (long)i;
        s->ops->download(s, host, a->device, a->bytes, doing);
        *written += fwrite(host, 1, a->bytes, f);
        free(host);
    }
    return -1;
}

/* `check`'s bounds guard, before a run: every buffer's guard (a shared one's is slot 0's) set. */
static void set_guards(kd_server *s)
{
    kd_server_slot *slot = kd_server_current(s);
    for (size_t i = 0; i < slot->nargs; i++) {
        kd_server_arg *a = kd_server_owner(s, &slot->args[i]);
        if (a->is_buffer && a->guard)
            s->ops->guard_set(s, a);
    }
}

/* After a run: the farthest each buffer's guard was written (reach[i], argument order). */
static void read_guards(kd_server *s, size_t reach[KD_SERVER_MAX_ARGS])
{
    kd_server_slot *slot = kd_server_current(s);
    for (size_t i = 0; i < slot->nargs; i++) {
        kd_server_arg *a = kd_server_owner(s, &slot->args[i]);
        size_t r = a->is_buffer && a->guard ? s->ops->guard_reach(s, a) : 0;
        if (r > reach[i])
            reach[i] = r;
    }
}

/* `overrun=I:R,J:R` (or `-`): the buffers whose guard a run of `check` wrote, and how far. */
static void format_overruns(const kd_server_slot *slot, const size_t reach[KD_SERVER_MAX_ARGS], char *out, size_t size)
{
    size_t used = 0;
    out[0] = '\0';
    for (size_t i = 0; i < slot->nargs && used < size; i++)
        if (reach[i]) {
            int n = snprintf(out + used, size - used, "%s%zu:%zu", used ? "," : "", i, reach[i]);
            used += n > 0 ? (size_t)n : 0;
        }
    if (!out[0])
        snprintf(out, size, "-");
}

/* Two runs: with the seeded data in every buffer (what in-place kernels need, and what is
 * compared), then with outputs poisoned (an element still poisoned afterwards was never
 * written); an in-out buffer keeps its seeded data in both (the kernel reads it). Every
 * buffer is restored first: the timing runs may have written inputs too. */
static void check(kd_server *s, kd_words *w)
{
    if (w->count != 2) {
        kd_proto_reply("err protocol usage: check PATH");
        return;
    }
    kd_proto_decode(w->word[1]);
    FILE *f = fopen(w->word[1], "wb");
    if (!f) {
        kd_proto_reply("err protocol cannot write %s", w->word[1]);
        return;
    }
    size_t written = 0, reach[KD_SERVER_MAX_ARGS] = {0};
    kd_server_slot *slot = kd_server_current(s);
    for (int poisoned = 0; poisoned < 2; poisoned++) {
        for (size_t i = 0; i < slot->nargs; i++) {
            kd_server_arg *a = &slot->args[i];
            if (!a->is_buffer || a->share >= 0)
                continue;
            if (poisoned && a->is_output && !a->is_inout) {
                s->ops->poison(s, a);
                continue;
            }
            if (!s->ops->restore(s, a, "restoring buffers")) {
                kd_proto_reply("err alloc host memory for argument %zu (%zu bytes)", i, a->bytes);
                fclose(f);
                return;
            }
        }
        set_guards(s);
        s->ops->launch_and_wait(s, poisoned);
        read_guards(s, reach);
        long short_of = write_outputs(s, f, "reading outputs", &written);
        if (short_of >= 0) {
            kd_proto_reply("err alloc host memory for argument %ld", short_of);
            fclose(f);
            return;
        }
    }
    int failed = ferror(f) || fclose(f) != 0 ? errno : 0;
    if (failed)
        kd_proto_reply("err io writing %s failed: %s", w->word[1], strerror(failed));
    else {
        char overruns[KD_SERVER_MAX_ARGS * 24];
        format_overruns(slot, reach, overruns, sizeof overruns);
        kd_proto_reply("ok check bytes=%zu overrun=%s", written, overruns);
    }
}

/* Argument i's contents for the audit of `seed` when they cannot be rotated on the device:
 * rotated on the host (see audit_rotation), or, for a buffer of one element, which cannot
 * rotate, seeded from the audit's seed. NULL when host memory ran out. */
static void *audit_contents(kd_server *s, kd_server_arg *a, size_t r)
{
    const unsigned char *run = kd_server_seeded(s, a);
    unsigned char *out = run ? malloc(a->bytes ? a->bytes : 1) : NULL;
    if (!out)
        return NULL;
    if (r) { /* out[j] = run[(j + r) % n] */
        memcpy(out, run + r, a->bytes - r);
        memcpy(out + a->bytes - r, run, r);
    } else {
        kd_fill_random(a->dtype, out, (size_t)a->count * (size_t)a->lanes, kd_audit_seed(s->audit_seed, a->seed_index));
    }
    return out;
}

static size_t element_bytes(const kd_server_arg *a) { return kd_dtype_size(a->dtype) * (size_t)a->lanes; }

/* Argument i's index in slot 0's numbering when it shares slot 0's buffer: what its audit
 * contents are drawn for, so both slots' audits of one seed give a shared buffer the same. */
static size_t owner_index(const kd_server_slot *slot, size_t i)
{
    return slot->args[i].share >= 0 ? (size_t)slot->args[i].share : i;
}

/* How far argument i's audit contents are rotated (bytes): the run's seeded contents rotated
 * left by kd_audit_rotation elements (wire/protocol.h): the same values, so the same safety as
 * the run's (an index buffer stays in range) and cheap to make (two copies, not a random
 * generator over gigabytes), at other places, so every output element has another answer. 0:
 * one element, seeded from the audit's seed instead. */
static size_t audit_rotation(const kd_server *s, const kd_server_arg *a, size_t i)
{
    size_t element = element_bytes(a), n = element ? a->bytes / element : 0;
    return kd_audit_rotation(s->audit_seed, i, n) * element;
}

/* Whether `audit` gives buffer a other contents: a random-seeded one up to KD_AUDIT_MAX_BYTES
 * (docs/PROTOCOL.md); a larger one keeps the run's, as a `fill`ed one keeps its captured bytes
 * (other data in a replayed launch's index buffer would send the kernel anywhere). */
static bool audited(const kd_server_arg *a)
{
    return a->is_buffer && !a->fill && a->bytes <= KD_AUDIT_MAX_BYTES;
}

/* Buffer a's mirror, made on its first audit: the seeded contents uploaded once, copied on
 * the device; the rotation is then two device copies. False (the host rotates) without the
 * vendor's copy, or when the device has no room for it (tried once). */
static bool has_mirror(kd_server *s, kd_server_arg *a)
{
    if (a->mirror || a->mirror_tried || !s->ops->copy || !a->bytes)
        return a->mirror != 0;
    a->mirror_tried = true;
    char why[128];
    if (s->ops->alloc(s, &a->mirror, a->bytes, why, sizeof why) != 0) {
        a->mirror = 0;
        return false;
    }
    if (!s->ops->restore(s, a, "giving the buffers the audit's contents")) {
        s->ops->free(s, a->mirror);
        a->mirror = 0;
        return false;
    }
    s->ops->copy(s, &(kd_device_copy){.dst = a->mirror, .src = a->device, .bytes = a->bytes},
                 "keeping a device copy of the seeded contents");
    return true;
}

/* Swaps buffer a's host contents, the run's and the audit's: what kd_server_seeded returns
 * until `audit` swaps them back. */
static void swap_audit(kd_server_arg *a)
{
    void *t = a->initial;
    a->initial = a->audit;
    a->audit = t;
    a->audit_in = !a->audit_in;
}

/* Buffer a (argument i in slot 0's numbering for a shared one) given its audit contents on the
 * device; one that is not audited, the run's. False when host memory ran out. */
static bool put_audit_contents(kd_server *s, kd_server_arg *a, size_t i)
{
    if (!audited(a))
        return s->ops->restore(s, a, "giving the buffers the audit's contents");
    size_t r = audit_rotation(s, a, i);
    if (r && has_mirror(s, a)) {
        /* device[j] = mirror[(j + r) % bytes] */
        s->ops->copy(s, &(kd_device_copy){.dst = a->device, .src = a->mirror, .src_off = r, .bytes = a->bytes - r},
                     "giving the buffers the audit's contents");
        s->ops->copy(s, &(kd_device_copy){.dst = a->device, .src = a->mirror, .dst_off = a->bytes - r, .bytes = r},
                     "giving the buffers the audit's contents");
        return true;
    }
    /* made once a seed: the other slot's audit with the same seed finds a shared buffer's */
    if (!a->audit_in) {
        if (!a->audit && !(a->audit = audit_contents(s, a, r)))
            return false;
        swap_audit(a);
    }
    return s->ops->restore(s, a, "giving the buffers the audit's contents"); /* kd_server_seeded's: the audit's */
}

/* The host copies of another seed's contents are of no more use. */
static void forget_audit(kd_server *s, unsigned long long seed)
{
    if (seed == s->audit_seed)
        return;
    for (int k = 0; k < KD_PROTO_MAX_SLOTS; k++)
        for (size_t i = 0; i < s->slot[k].nargs; i++) {
            free(s->slot[k].args[i].audit);
            s->slot[k].args[i].audit = NULL;
        }
    s->audit_seed = seed;
}

/* Whether input a's sampled bytes (`got`) are what the audit put there: the run's contents
 * rotated by r on the device, or, where the host made them (or the audit leaves the buffer as
 * it is), what kd_server_seeded returns now. */
static bool input_kept(kd_server *s, kd_server_arg *a, size_t r, const kd_audit_sample *smp, const unsigned char *got)
{
    const unsigned char *want = kd_server_seeded(s, a);
    if (!audited(a) || a->audit_in)
        r = 0;
    if (!want)
        return true; /* nothing to compare with: the reply's own allocation failure says so */
    for (size_t j = 0; j < smp->count; j++)
        for (size_t at = smp->first + j * smp->pitch, left = smp->chunk, done = 0; left;) {
            size_t from = (at + done + r) % a->bytes, piece = a->bytes - from < left ? a->bytes - from : left;
            if (memcmp(got + j * smp->chunk + done, want + from, piece) != 0)
                return false;
            done += piece;
            left -= piece;
        }
    return true;
}

/* What an audit reads back (at most three reads an argument): every buffer's sample and, for
 * an input read as a sample, its first and last 1 KiB too: where a kernel that writes one
 * element of its input (a counter in element 0) writes it, which a sample misses. */
typedef struct audit_reads {
    kd_sample_read read[KD_SERVER_MAX_ARGS * 3];
    size_t arg[KD_SERVER_MAX_ARGS * 3]; /* the argument each read is of */
    size_t n;
} audit_reads;

/* Adds a read of buffer a (argument i) into a block of its own; false when host memory ran out. */
static bool add_read(audit_reads *r, const kd_server_arg *a, size_t i, kd_audit_sample smp)
{
    size_t bytes = kd_audit_sample_bytes(&smp);
    void *host = malloc(bytes ? bytes : 1);
    if (!host)
        return false;
    r->read[r->n] = (kd_sample_read){.dst = host, .src = a->device, .sample = smp};
    r->arg[r->n++] = i;
    return true;
}

/* The reads of the current slot's buffers after an audit's launch. Returns the argument whose
 * block could not be had, or -1. */
static long plan_reads(kd_server *s, audit_reads *r)
{
    kd_server_slot *slot = kd_server_current(s);
    for (size_t i = 0; i < slot->nargs; i++) {
        kd_server_arg *a = kd_server_owner(s, &slot->args[i]);
        if (!a->is_buffer || !a->bytes)
            continue;
        kd_audit_sample smp = kd_audit_sample_of(s->audit_seed, a->bytes, element_bytes(a));
        if (!add_read(r, a, i, smp))
            return (long)i;
        size_t chunk = a->bytes < KD_AUDIT_CHUNK_BYTES ? a->bytes : KD_AUDIT_CHUNK_BYTES;
        for (int end = 0; end < 2 && !a->is_output && smp.count > 1; end++) /* two reads: one 2-D copy's pitch would be the buffer */
            if (!add_read(r, a, i, (kd_audit_sample){.first = end ? a->bytes - chunk : 0, .pitch = chunk, .chunk = chunk, .count = 1}))
                return (long)i;
    }
    return -1;
}

/* The planned reads made: waited for once where the vendor can, else one by one. */
static void make_reads(kd_server *s, const audit_reads *r)
{
    if (s->ops->download_samples) {
        s->ops->download_samples(s, r->read, r->n, "reading the audit's buffers back");
        return;
    }
    for (size_t k = 0; k < r->n; k++)
        s->ops->download_sample(s, r->read[k].dst, r->read[k].src, &r->read[k].sample, "reading the audit's buffers back");
}

static void free_reads(audit_reads *r)
{
    for (size_t k = 0; k < r->n; k++)
        free(r->read[k].dst);
    r->n = 0;
}

/* audit-prepare: the current slot's mirrors made now (has_mirror), so that the first audit,
 * inside the timing, costs what the others cost: uploading a 64 MiB buffer's seeded contents
 * was 34 ms of a 0.4 s timing loop on an H200. `bytes=` counts what is mirrored (0: the vendor
 * has no device copy, or no room: the audits rotate on the host). */
static void audit_prepare(kd_server *s)
{
    kd_server_slot *slot = kd_server_current(s);
    size_t bytes = 0;
    for (size_t i = 0; i < slot->nargs; i++) {
        kd_server_arg *a = kd_server_owner(s, &slot->args[i]);
        if (audited(a) && has_mirror(s, a))
            bytes += a->bytes;
    }
    kd_proto_reply("ok audit-prepare bytes=%zu", bytes);
}

/* audit SEED PATH: one untimed launch of the current slot on other data than the timing's
 * (issue 39): every buffer given the run's contents rotated as SEED says (inputs and outputs
 * alike, so the outputs start holding plausible numbers, not a poison the kernel could
 * recognise; on the device from its mirror where the vendor can), launched as a timed sample
 * is (so the kernel cannot tell it from one), each output's sample (kd_audit_sample: all of it
 * up to 256 KiB) written to PATH in argument order, the inputs whose sample it wrote named. The
 * device keeps the audit's contents; the host keeps the run's. kerndiff draws SEED where the
 * kernel cannot see it and compares both slots' files: a kernel whose work depends on earlier
 * launches (skipped once warm, cached by address) leaves other values. */
static void audit(kd_server *s, kd_words *w)
{
    char *end = NULL;
    unsigned long long seed = w->count == 3 ? strtoull(w->word[1], &end, 10) : 0;
    if (w->count != 3 || !end || *end || !s->ops->sample_launch) {
        kd_proto_reply(s->ops->sample_launch ? "err protocol usage: audit SEED PATH"
                                             : "err protocol audit: this harness cannot launch as a sample");
        return;
    }
    kd_proto_decode(w->word[2]);
    FILE *f = fopen(w->word[2], "wb");
    if (!f) {
        kd_proto_reply("err io cannot write %s: %s", w->word[2], strerror(errno));
        return;
    }
    kd_server_slot *slot = kd_server_current(s);
    forget_audit(s, seed);
    long short_of = -1;
    double began = seconds_now();
    for (size_t i = 0; i < slot->nargs && short_of < 0; i++) {
        kd_server_arg *a = kd_server_owner(s, &slot->args[i]);
        if (a->is_buffer && !put_audit_contents(s, a, owner_index(slot, i)))
            short_of = (long)i;
    }
    double put_done = seconds_now();
    if (short_of < 0)
        s->ops->sample_launch(s);
    double launched = seconds_now();
    size_t written = 0;
    /* Every output's sample, and every input's: one the kernel wrote (a `const` cast away: the
     * next launch, or the other side, computes on other data) is named. */
    char changed[KD_SERVER_MAX_ARGS * 4 + 2] = "";
    bool named[KD_SERVER_MAX_ARGS] = {false};
    static audit_reads reads; /* kept off the stack */
    if (short_of < 0 && (short_of = plan_reads(s, &reads)) < 0)
        make_reads(s, &reads);
    for (size_t k = 0; short_of < 0 && k < reads.n; k++) {
        size_t i = reads.arg[k];
        kd_server_arg *a = kd_server_owner(s, &slot->args[i]);
        const kd_sample_read *rd = &reads.read[k];
        if (a->is_output) {
            written += fwrite(rd->dst, 1, kd_audit_sample_bytes(&rd->sample), f);
            continue;
        }
        if (named[i] || input_kept(s, a, audit_rotation(s, a, owner_index(slot, i)), &rd->sample, rd->dst))
            continue;
        named[i] = true;
        snprintf(changed + strlen(changed), sizeof changed - strlen(changed), "%s%zu", *changed ? "," : "", i);
    }
    free_reads(&reads);
    for (size_t i = 0; i < slot->nargs; i++) { /* the run's contents back on the host */
        kd_server_arg *a = kd_server_owner(s, &slot->args[i]);
        if (a->audit_in)
            swap_audit(a);
    }
    int failed = ferror(f) || fclose(f) != 0 ? errno : 0;
    if (short_of >= 0)
        kd_proto_reply("err alloc host memory for argument %ld", short_of);
    else if (failed)
        kd_proto_reply("err io writing %s failed: %s", w->word[2], strerror(failed));
    else /* us=: where the audit's time went in the harness (kerndiff's KERNDIFF_TRACE) */
        kd_proto_reply("ok audit bytes=%zu inputs_changed=%s us=%.0f,%.0f,%.0f", written, *changed ? changed : "-",
                       1e6 * (put_done - began), 1e6 * (launched - put_done), 1e6 * (seconds_now() - launched));
}

/* buffers: where the current slot's buffers sit, so that an address a tool reports (the
 * compute-sanitizer) can be named as a buffer and an element. */
static void buffers(kd_server *s)
{
    kd_server_slot *slot = kd_server_current(s);
    printf("ok buffers list=");
    size_t k = 0;
    for (size_t i = 0; i < slot->nargs; i++) {
        const kd_server_arg *owner = kd_server_owner(s, &slot->args[i]);
        if (!slot->args[i].is_buffer)
            continue;
        printf("%s%zu:0x%llx:%zu", k ? "," : "", i, s->ops->address(s, s->cur, k, owner->device), owner->bytes);
        k++;
    }
    kd_proto_reply("%s", k ? "" : "-");
}

/* reset: every slot's buffers, arguments, patches and geometry dropped, as before the first
 * `load`; the vendor keeps its context and loaded modules (one harness serves every point of a
 * sweep: docs/PROTOCOL.md). */
static void reset(kd_server *s, kd_words *w)
{
    if (w->count != 1) {
        kd_proto_reply("err protocol usage: reset");
        return;
    }
    release_buffers(s);
    for (int k = 0; k < KD_PROTO_MAX_SLOTS; k++) {
        kd_server_slot *slot = &s->slot[k];
        for (size_t i = 0; i < KD_SERVER_MAX_ARGS; i++)
            forget_arg(slot, i);
        free(slot->patches);
        memset(slot, 0, sizeof *slot); /* as the process started */
    }
    s->cur = 0;
    s->ready = false;
    kd_proto_reply("ok reset resets=%u", ++s->resets);
    if (s->ops->reset)
        s->ops->reset(s);
}

/* `hotspots PATH [period=N]`'s checks, for every vendor: after setup, on a loaded slot, with a
 * path. Returns the path (decoded in place), or NULL after the error reply. */
const char *kd_server_hotspots_path(kd_server *s, kd_words *w)
{
    if (!s->ready || !kd_server_current(s)->loaded) {
        kd_proto_reply("err protocol hotspots before setup, or on a slot that was not loaded");
        return NULL;
    }
    if (w->count < 2) {
        kd_proto_reply("err hotspots usage: hotspots PATH [period=N]");
        return NULL;
    }
    kd_proto_decode(w->word[1]);
    return w->word[1];
}

static bool needs_setup(const char *cmd)
{
    static const char *const after_setup[] = {"warmup", "time", "check", "audit", "audit-prepare", "once", "place",
                                              "regions", "buffers"};
    for (size_t i = 0; i < sizeof after_setup / sizeof *after_setup; i++)
        if (strcmp(cmd, after_setup[i]) == 0)
            return true;
    return false;
}

/* Reads one command line; false at the end of input. A line longer than MAX_LINE is read to
 * its end and answered once, as an error (never as two commands). */
static bool read_line(char *line, size_t size, bool *too_long)
{
    if (!fgets(line, (int)size, stdin))
        return false;
    *too_long = !strchr(line, '\n') && strlen(line) == size - 1;
    for (int c = 0; *too_long && (c = getchar()) != EOF && c != '\n';)
        ;
    return true;
}

void kd_server_run(kd_server *s)
{
    static char line[MAX_LINE];
    bool too_long = false;
    while (read_line(line, sizeof line, &too_long)) {
        if (too_long) {
            kd_proto_reply("err protocol line longer than %d bytes", MAX_LINE - 1);
            continue;
        }
        kd_words w;
        kd_proto_split(line, &w);
        if (w.count == 0)
            continue;
        const char *cmd = w.word[0];
        if (needs_setup(cmd) && !s->ready)
            kd_proto_reply("err protocol %s before setup", cmd);
        else if (needs_setup(cmd) && !kd_server_current(s)->loaded) /* `side 1` chosen before a setup without it */
            kd_proto_reply("err protocol %s: slot %d was not loaded", cmd, s->cur);
        else if (!strcmp(cmd, "load")) {
            if (s->ops->load(s, &w))
                kd_server_current(s)->loaded = true;
        } else if (!strcmp(cmd, "arg"))
            arg(s, &w);
        else if (!strcmp(cmd, "fill"))
            fill(s, &w);
        else if (!strcmp(cmd, "patch"))
            patch(s, &w);
        else if (!strcmp(cmd, "param"))
            param(s, &w);
        else if (!strcmp(cmd, "geometry"))
            geometry(s, &w);
        else if (!strcmp(cmd, "seed") && w.count == 2) {
            s->seed = strtoull(w.word[1], NULL, 10);
            if (s->ops->seeded)
                s->ops->seeded(s, s->seed);
            kd_proto_reply("ok seed");
        } else if (!strcmp(cmd, "setup"))
            setup(s, &w);
        else if (!strcmp(cmd, "side"))
            side(s, &w);
        else if (!strcmp(cmd, "check"))
            check(s, &w);
        else if (!strcmp(cmd, "audit-prepare"))
            audit_prepare(s);
        else if (!strcmp(cmd, "audit"))
            audit(s, &w);
        else if (!strcmp(cmd, "buffers"))
            buffers(s);
        else if (!strcmp(cmd, "reset"))
            reset(s, &w);
        else if (!strcmp(cmd, "quit")) {
            kd_proto_reply("ok quit");
            break;
        } else if (!s->ops->command(s, &w))
            kd_proto_reply("err protocol unknown command %s", cmd);
        else if (s->ready)
            apply_patches(s); /* `place` may have moved the buffers the pointer words point into */
    }
}
