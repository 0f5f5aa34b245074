#include "wire/client.h"
#include "wire/replay.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "wire/wire_msgs.h"

static int failed(const kd_child *c, kd_reply_status st, const char *doing, kd_strbuf *why)
{
    kd_child_failure_words(c, st, doing, why);
    return -1;
}

static const char *value(const kd_child *c, const char *key) { return kd_proto_value(&c->words, 1, key); }

static void read_device(const kd_child *c, kd_device_info *info)
{
    const char *v = value(c, "device");
    snprintf(info->name, sizeof info->name, "%s", v ? v : "unknown");
    kd_proto_decode(info->name);
    info->sm = (v = value(c, "sm")) ? atoi(v) : 0;
    info->sms = (v = value(c, "sms")) ? atoi(v) : 0;
    info->l2_bytes = (v = value(c, "l2")) ? atol(v) : 0;
    info->driver = (v = value(c, "driver")) ? atoi(v) : 0;
}

int kd_wire_hello(kd_child *c, kd_device_info *info, kd_strbuf *why)
{
    kd_reply_status st = kd_child_call(c, KD_HARNESS_START_MS, "hello %d", KD_PROTOCOL_VERSION);
    if (st != KD_REPLY_OK)
        return failed(c, st, "starting the harness", why);
    const char *version = value(c, "version");
    if (!version || atoi(version) != KD_PROTOCOL_VERSION) {
        kd_diag d = {0};
        kd_diag_set(&d, KD_MSG_WIRE_PROTOCOL_VERSION, KD_DIAG_NO_SIDE, KD_S(version ? version : "?"),
                    KD_U(KD_PROTOCOL_VERSION));
        kd_diag_append_words(&d, why);
        kd_diag_free(&d);
        return -1;
    }
    if (info)
        read_device(c, info);
    return 0;
}

static kd_reply_status send_args(kd_child *c, const kd_launch_spec *spec, const int *share, int timeout_ms)
{
    kd_reply_status st = KD_REPLY_OK;
    for (size_t i = 0; i < spec->nargs && st == KD_REPLY_OK; i++) {
        const kd_launch_arg *a = &spec->args[i];
        if (kd_param_role_is_buffer(a->role)) {
            char shared[24] = "";
            if (share && share[i] >= 0)
                snprintf(shared, sizeof shared, " share=%d", share[i]);
            const char *mode = a->role == KD_ROLE_INPUT ? "in" : a->role == KD_ROLE_INOUT ? "inout" : "out";
            st = kd_child_call(c, timeout_ms, "arg %zu buffer %s %d %llu %s%s", i, kd_dtype_name(a->type.base),
                               a->type.lanes, a->count, mode, shared);
        } else if (a->role == KD_ROLE_STREAM)
            st = kd_child_call(c, timeout_ms, "arg %zu stream", i);
        else if (a->role == KD_ROLE_SCRATCH)
            st = kd_child_call(c, timeout_ms, "arg %zu scratch %llu", i, a->count);
        else
            st = kd_child_call(c, timeout_ms, "arg %zu scalar %s %.17g", i, kd_dtype_name(a->type.base), a->value);
    }
    if (st == KD_REPLY_OK)
        st = kd_child_call(c, timeout_ms, "geometry %u %u %u %u %u %u %llu", spec->grid[0], spec->grid[1],
                           spec->grid[2], spec->block[0], spec->block[1], spec->block[2], spec->dynamic_smem);
    return st;
}

kd_reply_status kd_wire_side(kd_child *c, int slot, int timeout_ms)
{
    return kd_child_call(c, timeout_ms, "side %d", slot);
}

int kd_wire_describe(kd_child *c, int slot, const kd_harness_side *side, const int *share, int timeout_ms,
                     kd_strbuf *why)
{
    kd_reply_status st = slot > 0 ? kd_wire_side(c, slot, timeout_ms) : KD_REPLY_OK;
    if (st != KD_REPLY_OK)
        return failed(c, st, "choosing the side", why);
    char *path = kd_proto_encode(side->load_path);
    st = path ? kd_child_call(c, KD_HARNESS_START_MS, "load %s %s %s", side->load_kind, path, side->load_symbol)
              : KD_REPLY_GARBLED;
    free(path);
    if (st != KD_REPLY_OK)
        return failed(c, st, "loading the kernel", why);
    if (side->replay) { /* wire/replay.h: the capture's parameters, allocations and pointers */
        const char *doing = NULL;
        st = kd_wire_send_replay(c, side->replay, side->spec, slot > 0 ? share : NULL, timeout_ms, &doing);
        return st == KD_REPLY_OK ? 0 : failed(c, st, doing, why);
    }
    st = send_args(c, side->spec, slot > 0 ? share : NULL, timeout_ms);
    if (st != KD_REPLY_OK)
        return failed(c, st, "describing the launch", why);
    /* a slot-1 buffer that shares slot 0's holds slot 0's contents (its fill, if any) */
    for (size_t i = 0; side->fill && i < side->spec->nargs && st == KD_REPLY_OK; i++)
        if (side->fill[i] && !(slot > 0 && share && share[i] >= 0))
            st = kd_wire_fill(c, (unsigned)i, side->fill[i], timeout_ms);
    return st == KD_REPLY_OK ? 0 : failed(c, st, "loading captured buffer contents", why);
}

kd_reply_status kd_wire_fill(kd_child *c, unsigned arg, const char *path, int timeout_ms)
{
    char *encoded = kd_proto_encode(path);
    kd_reply_status st = encoded ? kd_child_call(c, timeout_ms, "fill %u %s", arg, encoded) : KD_REPLY_GARBLED;
    free(encoded);
    return st;
}

kd_reply_status kd_wire_seed(kd_child *c, unsigned long long seed, int timeout_ms)
{
    return kd_child_call(c, timeout_ms, "seed %llu", seed);
}

int kd_harness_describe(kd_child *c, const kd_harness_side *side, unsigned long long seed, int timeout_ms,
                        kd_device_info *info, kd_strbuf *why)
{
    if (kd_wire_hello(c, info, why) != 0 || kd_wire_describe(c, 0, side, NULL, timeout_ms, why) != 0)
        return -1;
    kd_reply_status st = kd_wire_seed(c, seed, timeout_ms);
    return st == KD_REPLY_OK ? 0 : failed(c, st, "describing the launch", why);
}

void kd_wire_send_setup(kd_child *c) { kd_child_send(c, "setup"); }

void kd_wire_send_setup_guarded(kd_child *c) { kd_child_send(c, "setup guard"); }

kd_reply_status kd_wire_buffers(kd_child *c, int timeout_ms, const char **list)
{
    kd_reply_status st = kd_child_call(c, timeout_ms, "buffers");
    *list = st == KD_REPLY_OK ? value(c, "list") : NULL;
    return st == KD_REPLY_OK && !*list ? KD_REPLY_GARBLED : st;
}

int kd_wire_setup_reply(kd_child *c, unsigned long long need_bytes, unsigned long long *bytes, kd_strbuf *why)
{
    kd_reply_status st = kd_child_receive(c, KD_HARNESS_START_MS);
    if (st != KD_REPLY_OK) {
        failed(c, st, "allocating buffers", why);
        if (st == KD_REPLY_ERR && c->words.count >= 2 && strcmp(c->words.word[1], "alloc") == 0) {
            kd_diag d = {0};
            kd_diag_set(&d, KD_MSG_WIRE_NEEDS_MEMORY, KD_DIAG_NO_SIDE, KD_D((double)need_bytes / (1u << 30)));
            kd_diag_append_words(&d, why);
            kd_diag_free(&d);
        }
        return -1;
    }
    const char *v = value(c, "bytes");
    *bytes = v ? strtoull(v, NULL, 10) : 0;
    return 0;
}

kd_reply_status kd_wire_warmup(kd_child *c, int budget_ms, int timeout_ms, kd_warmup_result *out)
{
    memset(out, 0, sizeof *out);
    kd_reply_status st = kd_child_call(c, timeout_ms + budget_ms, "warmup %d", budget_ms);
    if (st != KD_REPLY_OK)
        return st;
    const char *v;
    out->median_ns = (v = value(c, "median_ns")) ? atof(v) : 0;
    out->launches = (v = value(c, "launches")) ? (unsigned)atoi(v) : 0;
    out->stable = (v = value(c, "stable")) && atoi(v) == 1;
    snprintf(out->timer, sizeof out->timer, "%s", (v = value(c, "timer")) ? v : "");
    v = value(c, "timer_note");
    snprintf(out->timer_note, sizeof out->timer_note, "%s", v && strcmp(v, "-") ? v : "");
    kd_proto_decode(out->timer_note);
    return KD_REPLY_OK;
}

kd_reply_status kd_wire_mode_sustained(kd_child *c, unsigned ms, int timeout_ms)
{
    return kd_child_call(c, timeout_ms, "mode sustained %u", ms);
}

kd_reply_status kd_wire_mode(kd_child *c, unsigned batch, int timeout_ms)
{
    return batch ? kd_child_call(c, timeout_ms, "mode batched %u", batch) : kd_child_call(c, timeout_ms, "mode single");
}

kd_reply_status kd_wire_reset(kd_child *c, int timeout_ms) { return kd_child_call(c, timeout_ms, "reset"); }

/* "a,b,c": exactly k positive finite numbers. */
static bool parse_samples(const char *text, int k, double *samples)
{
    int n = 0;
    for (const char *p = text; *p;) {
        char *end;
        double v = strtod(p, &end);
        if (end == p || !(v > 0) || !isfinite(v) || n >= k || (*end && *end != ','))
            return false;
        samples[n++] = v;
        p = *end == ',' ? end + 1 : end;
    }
    return n == k;
}

kd_reply_status kd_wire_time(kd_child *c, int k, int timeout_ms, kd_time_block *out)
{
    kd_reply_status st = kd_child_call(c, timeout_ms, "time %d", k);
    if (st != KD_REPLY_OK)
        return st;
    const char *samples = value(c, "samples"), *clock0 = value(c, "clock0"), *clock1 = value(c, "clock1");
    const char *reasons = value(c, "reasons"), *throttled = value(c, "throttled");
    if (!samples || !clock0 || !clock1 || !reasons || !throttled || !parse_samples(samples, k, out->samples))
        return KD_REPLY_GARBLED;
    out->clock0_mhz = (unsigned)atoi(clock0);
    out->clock1_mhz = (unsigned)atoi(clock1);
    out->reasons = strtoull(reasons, NULL, 16);
    out->throttled = atoi(throttled) != 0;
    const char *kernels = value(c, "kernels"); /* optional: the CUDA harness under CUPTI */
    out->kernels_min = out->kernels_max = 0;
    if (kernels && sscanf(kernels, "%u-%u", &out->kernels_min, &out->kernels_max) != 2)
        return KD_REPLY_GARBLED;
    return KD_REPLY_OK;
}

kd_reply_status kd_wire_place(kd_child *c, unsigned long long placement, int timeout_ms, bool *moved)
{
    kd_reply_status st = kd_child_call(c, timeout_ms, "place %llu", placement);
    const char *v = st == KD_REPLY_OK ? value(c, "moved") : NULL;
    if (st == KD_REPLY_OK && !v)
        return KD_REPLY_GARBLED;
    *moved = v && atoi(v) == 1;
    return st;
}

kd_reply_status kd_wire_audit_prepare(kd_child *c, int timeout_ms)
{
    kd_reply_status st = kd_child_call(c, timeout_ms, "audit-prepare");
    return st == KD_REPLY_OK && !value(c, "bytes") ? KD_REPLY_GARBLED : st;
}

kd_reply_status kd_wire_audit(kd_child *c, unsigned long long seed, const char *path, int timeout_ms,
                              kd_audit_reply *out)
{
    char *encoded = kd_proto_encode(path);
    kd_reply_status st = encoded ? kd_child_call(c, timeout_ms, "audit %llu %s", seed, encoded) : KD_REPLY_GARBLED;
    free(encoded);
    const char *v = st == KD_REPLY_OK ? value(c, "bytes") : NULL;
    const char *changed = st == KD_REPLY_OK ? value(c, "inputs_changed") : NULL;
    if (st == KD_REPLY_OK && (!v || !changed))
        return KD_REPLY_GARBLED;
    out->bytes = v ? strtoull(v, NULL, 10) : 0;
    out->changed_input = changed && strcmp(changed, "-") != 0 ? strtol(changed, NULL, 10) : -1;
    const char *us = st == KD_REPLY_OK ? value(c, "us") : NULL;
    if (!us || sscanf(us, "%lf,%lf,%lf", &out->put_us, &out->launch_us, &out->read_us) != 3)
        out->put_us = out->launch_us = out->read_us = 0; /* only the trace reads them */
    return st;
}

void kd_wire_send_check(kd_child *c, const char *path)
{
    char *encoded = kd_proto_encode(path);
    kd_child_send(c, "check %s", encoded ? encoded : "-");
    free(encoded);
}

kd_reply_status kd_wire_check_reply(kd_child *c, int timeout_ms) { return kd_child_receive(c, timeout_ms); }

long kd_wire_check_overruns(const kd_child *c, kd_overrun *out, size_t max)
{
    const char *v = value(c, "overrun");
    if (!v)
        return -1;
    if (strcmp(v, "-") == 0)
        return 0;
    if (!*v)
        return -1; /* says nothing: not "none" */
    long n = 0;
    for (const char *p = v; *p;) {
        char *end;
        if (*p < '0' || *p > '9')
            return -1;
        unsigned long long arg = strtoull(p, &end, 10), reach;
        if (*end != ':' || end[1] < '0' || end[1] > '9')
            return -1;
        reach = strtoull(end + 1, &end, 10);
        if ((*end && *end != ',') || reach == 0 || arg >= 1024)
            return -1;
        if ((size_t)n < max)
            out[n] = (kd_overrun){(size_t)arg, reach};
        n++;
        if (*end == ',' && !end[1])
            return -1; /* a list cut after its comma */
        p = *end ? end + 1 : end;
    }
    return n;
}

kd_reply_status kd_wire_regions_run(kd_child *c, const kd_wire_regions_request *req, double *record_cycles)
{
    char *encoded = kd_proto_encode(req->path);
    kd_reply_status st = encoded ? kd_child_call(c, req->timeout_ms, "regions %u %u %u %s", req->capacity,
                                                 req->launches, req->block_stride, encoded)
                                 : KD_REPLY_GARBLED;
    free(encoded);
    const char *v = st == KD_REPLY_OK ? value(c, "record_cycles") : NULL;
    if (st == KD_REPLY_OK && !v)
        return KD_REPLY_GARBLED;
    *record_cycles = v ? atof(v) : 0;
    return st;
}

kd_reply_status kd_wire_once(kd_child *c, int timeout_ms) { return kd_child_call(c, timeout_ms, "once"); }
