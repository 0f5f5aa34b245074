#include "wire/session.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int failed(const kd_child *c, kd_reply_status st, const char *doing, kd_strbuf *why)
{
    kd_sb_printf(why, "%s: ", doing);
    kd_child_describe_failure(c, st, why);
    return -1;
}

static void read_device(const kd_child *c, kd_device_info *info)
{
    const char *v = kd_proto_value(&c->words, 1, "device");
    snprintf(info->name, sizeof info->name, "%s", v ? v : "unknown");
    kd_proto_decode(info->name);
    info->sm = (v = kd_proto_value(&c->words, 1, "sm")) ? atoi(v) : 0;
    info->sms = (v = kd_proto_value(&c->words, 1, "sms")) ? atoi(v) : 0;
    info->l2_bytes = (v = kd_proto_value(&c->words, 1, "l2")) ? atol(v) : 0;
    info->driver = (v = kd_proto_value(&c->words, 1, "driver")) ? atoi(v) : 0;
}

static kd_reply_status send_args(kd_child *c, const kd_launch_spec *spec, int timeout_ms)
{
    kd_reply_status st = KD_REPLY_OK;
    for (size_t i = 0; i < spec->nargs && st == KD_REPLY_OK; i++) {
        const kd_launch_arg *a = &spec->args[i];
        if (a->role == KD_ROLE_INPUT || a->role == KD_ROLE_OUTPUT)
            st = kd_child_call(c, timeout_ms, "arg %zu buffer %s %d %llu %s", i, kd_dtype_name(a->type.base),
                               a->type.lanes, a->count, a->role == KD_ROLE_INPUT ? "in" : "out");
        else if (a->role == KD_ROLE_STREAM)
            st = kd_child_call(c, timeout_ms, "arg %zu stream", i);
        else
            st = kd_child_call(c, timeout_ms, "arg %zu scalar %s %.17g", i, kd_dtype_name(a->type.base), a->value);
    }
    if (st == KD_REPLY_OK)
        st = kd_child_call(c, timeout_ms, "geometry %u %u %u %u %u %u %llu", spec->grid[0], spec->grid[1],
                           spec->grid[2], spec->block[0], spec->block[1], spec->block[2], spec->dynamic_smem);
    return st;
}

int kd_harness_describe(kd_child *c, const kd_harness_side *side, unsigned long long seed, int timeout_ms,
                        kd_device_info *info, kd_strbuf *why)
{
    kd_reply_status st = kd_child_call(c, KD_HARNESS_START_MS, "hello %d", KD_PROTOCOL_VERSION);
    if (st != KD_REPLY_OK)
        return failed(c, st, "starting the harness", why);
    const char *version = kd_proto_value(&c->words, 1, "version");
    if (!version || atoi(version) != KD_PROTOCOL_VERSION) {
        kd_sb_printf(why, "the harness speaks protocol %s, kerndiff speaks %d: reinstall kerndiff",
                     version ? version : "?", KD_PROTOCOL_VERSION);
        return -1;
    }
    if (info)
        read_device(c, info);
    char *path = kd_proto_encode(side->load_path);
    st = kd_child_call(c, KD_HARNESS_START_MS, "load %s %s %s", side->load_kind, path, side->load_symbol);
    free(path);
    if (st != KD_REPLY_OK)
        return failed(c, st, "loading the kernel", why);
    st = send_args(c, side->spec, timeout_ms);
    if (st == KD_REPLY_OK)
        st = kd_child_call(c, timeout_ms, "seed %llu", seed);
    return st == KD_REPLY_OK ? 0 : failed(c, st, "describing the launch", why);
}

int kd_harness_setup_reply(kd_child *c, const kd_launch_spec *spec, unsigned long long *bytes, kd_strbuf *why)
{
    kd_reply_status st = kd_child_receive(c, KD_HARNESS_START_MS);
    if (st != KD_REPLY_OK) {
        failed(c, st, "allocating buffers", why);
        if (st == KD_REPLY_ERR && c->words.count >= 2 && strcmp(c->words.word[1], "alloc") == 0)
            kd_sb_printf(why, " (this launch needs %.2f GiB of GPU memory: reduce --n or --buf)",
                         (double)kd_launch_spec_bytes(spec) / (1u << 30));
        return -1;
    }
    const char *v = kd_proto_value(&c->words, 1, "bytes");
    *bytes = v ? strtoull(v, NULL, 10) : 0;
    return 0;
}
