/* A replayed launch told to a harness (wire/replay.h; docs/PROTOCOL.md "Replayed launches"). */
#include "wire/replay.h"

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/strbuf.h"
#include "util/xalloc.h"
#include "wire/protocol.h"

/* `arg I bytes HEX` of the program's bytes. */
static kd_reply_status send_param(kd_child *c, size_t i, const unsigned char *bytes, size_t n, int timeout_ms)
{
    kd_strbuf hex = {0};
    for (size_t k = 0; k < n; k++)
        kd_sb_printf(&hex, "%02x", bytes[k]);
    kd_reply_status st = kd_child_call(c, timeout_ms, "arg %zu bytes %s", i, kd_sb_str(&hex));
    kd_sb_free(&hex);
    return st;
}

/* The scratch argument for the k-th trailing scratch pointer (the spec's KD_ROLE_SCRATCH
 * arguments are named "(global scratch)", "(profile scratch)"), or NULL: none needs bytes. */
static const kd_launch_arg *nth_scratch(const kd_launch_spec *spec, size_t k)
{
    static const char *const names[2] = {"(global scratch)", "(profile scratch)"};
    for (size_t j = 0; j < spec->nargs; j++)
        if (spec->args[j].role == KD_ROLE_SCRATCH && spec->args[j].name && strcmp(spec->args[j].name, names[k]) == 0)
            return &spec->args[j];
    return NULL;
}

kd_reply_status kd_wire_send_replay(kd_child *c, const kd_replay *r, const kd_launch_spec *spec, const int *share,
                                    int timeout_ms, const char **doing)
{
    const kd_capture *cap = &r->cap;
    const size_t P = cap->nparams;
    kd_reply_status st = KD_REPLY_OK;
    *doing = "describing the captured parameters";
    /* a Triton launch's trailing scratch pointers: the side's own workspace where its compiled
       kernel needs one (spec's KD_ROLE_SCRATCH arguments, in order), else the program's word */
    const size_t nscratch = kd_capture_triton_scratch(cap);
    bool workspace[2] = {false, false};
    for (size_t i = 0; i < P && st == KD_REPLY_OK; i++) {
        const kd_launch_arg *scratch = NULL;
        if (i >= P - nscratch && i - (P - nscratch) < 2)
            scratch = nth_scratch(spec, i - (P - nscratch));
        if (scratch) {
            workspace[i - (P - nscratch)] = true;
            st = kd_child_call(c, timeout_ms, "arg %zu scratch %llu", i, scratch->count);
            continue;
        }
        size_t n = 0;
        const unsigned char *bytes = kd_replay_param(r, i, &n);
        st = send_param(c, i, bytes, n, timeout_ms);
    }
    *doing = "describing the captured allocations";
    for (size_t j = 0; j < spec->nargs && j < r->nbuffers && st == KD_REPLY_OK; j++) {
        const kd_launch_arg *a = &spec->args[j];
        char shared[24] = "";
        if (share && share[j] >= 0)
            snprintf(shared, sizeof shared, " share=%zu", P + (size_t)share[j]);
        st = kd_child_call(c, timeout_ms, "arg %zu buffer %s %d %llu %s%s", P + j, kd_dtype_name(a->type.base),
                           a->type.lanes, a->count, a->role == KD_ROLE_INOUT ? "inout" : "in", shared);
    }
    *doing = "loading the captured contents";
    for (size_t j = 0; j < spec->nargs && j < r->nbuffers && st == KD_REPLY_OK; j++) {
        if (share && share[j] >= 0)
            continue;
        char *path = kd_proto_encode(r->buffers[j].before_path);
        st = path ? kd_child_call(c, timeout_ms, "fill %zu %s", P + j, path) : KD_REPLY_GARBLED;
        free(path);
    }
    *doing = "rebasing the captured pointers";
    for (size_t k = 0; k < cap->npointers && st == KD_REPLY_OK; k++) {
        const kd_capture_pointer *p = &cap->pointers[k];
        /* the parameter holding the word (params are sorted by offset and do not overlap) */
        size_t i = 0;
        while (i < P && !(p->word >= cap->params[i].offset && p->word < cap->params[i].offset + cap->params[i].size))
            i++;
        if (i == P)
            continue; /* padding between parameters: the reader refuses it; nothing reads it */
        if (i >= P - nscratch && i - (P - nscratch) < 2 && workspace[i - (P - nscratch)])
            continue; /* the harness's workspace, not the program's pointer */
        st = kd_child_call(c, timeout_ms, "patch %zu %u %zu %llu", i, p->word - cap->params[i].offset, P + p->alloc,
                           (unsigned long long)(p->offset - cap->allocs[p->alloc].span_start));
    }
    *doing = "describing the launch";
    /* a cluster launch is replayed in the program's clusters (`geometry ... CX CY CZ`) */
    char cluster[48] = "";
    if (cap->cluster[0] || cap->cluster[1] || cap->cluster[2])
        snprintf(cluster, sizeof cluster, " %u %u %u", cap->cluster[0], cap->cluster[1], cap->cluster[2]);
    if (st == KD_REPLY_OK)
        st = kd_child_call(c, timeout_ms, "geometry %u %u %u %u %u %u %llu%s", spec->grid[0], spec->grid[1],
                           spec->grid[2], spec->block[0], spec->block[1], spec->block[2], spec->dynamic_smem, cluster);
    return st;
}
