/* kerndiff-harness — the measuring child of a CUDA diff. It speaks the line protocol of
 * docs/PROTOCOL.md on stdin/stdout, so a kernel that faults or hangs takes down only this
 * process. It holds one side (isolation: the correctness check, the counter pass) or both
 * (the timing pass): then the two kernels run in one context on the same buffers, and
 * `place` moves those buffers between rounds, so a placement is never confused with a
 * change of code. CUDA is reached through the driver API (dlopen), so the
 * same binary runs on any driver and needs no CUDA headers to build.
 *
 * Timing of one sample: flush L2 (memset of twice its size), queue a spin kernel that
 * holds the stream until the host releases a flag, record the start event, launch, record
 * the stop event, release. The launch is queued while the stream is held, so launch
 * overhead stays outside the events; the flush stays outside too. The time is the span
 * from the first kernel's start to the last kernel's end as CUPTI's activity records give
 * it (the clock ncu's gpu__time_duration uses); without CUPTI, the events' elapsed time. */
#include <dlfcn.h>
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "cuda_driver.h"
#include "cupti_timer.h"
#include "gpu/nvml.h"
#include "wire/protocol.h"
#include "util/dtype.h"
#include "launch/spec.h"
#include "regions/proton.h"
#include "regions/records.h"

#define MAX_ARGS KD_LAUNCH_MAX_ARGS /* what kerndiff passes at most (launch/spec.h) */
#define OUTPUT_SEED_INDEX 1000
#define SPIN_TIMEOUT_NS 2000000000ull /* a spin kernel never holds the stream longer */
#define GUARD_BYTES (64u << 10) /* `setup guard`: the hole after each buffer, small so that it lands right after */

/* Holds the stream until *flag != 0 or the timeout passes (so a lost release never hangs). */
static const char spin_ptx[] =
    ".version 7.0\n.target sm_70\n.address_size 64\n"
    ".visible .entry kd_spin(.param .u64 flag, .param .u64 timeout)\n{\n"
    "  .reg .pred %p<3>;\n  .reg .b32 %r<2>;\n  .reg .b64 %rd<6>;\n"
    "  ld.param.u64 %rd1, [flag];\n  ld.param.u64 %rd2, [timeout];\n"
    "  mov.u64 %rd3, %globaltimer;\n"
    "WAIT:\n  ld.volatile.u32 %r1, [%rd1];\n  setp.ne.u32 %p1, %r1, 0;\n  @%p1 bra DONE;\n"
    "  mov.u64 %rd4, %globaltimer;\n  sub.u64 %rd5, %rd4, %rd3;\n"
    "  setp.lt.u64 %p2, %rd5, %rd2;\n  @%p2 bra WAIT;\n"
    "DONE:\n  ret;\n}\n";

typedef int (*launcher_fn)(void **args, void *stream);

typedef struct harness_arg {
    bool is_buffer, is_output;  /* is_output: compared (written to the check file) */
    bool is_inout;              /* an output the kernel also reads: seeded in both check runs, never poisoned */
    bool is_scratch;            /* compiler workspace: zeroed, never seeded, compared or moved */
    int share;                  /* slot 1 only: the slot-0 argument whose buffer this one uses, or -1 */
    kd_dtype dtype;
    int lanes;
    unsigned long long count;   /* elements of the (vector) type */
    size_t bytes;
    CUdeviceptr device;
    void *initial;              /* the seeded data, to restore before `check` */
    unsigned char scalar[8];
} harness_arg;

/* The device-side layout of include/kerndiff/regions.h (struct kd_region_layout). */
typedef struct region_layout {
    CUdeviceptr records, headers, counts;
    unsigned capacity, launch, ring_mask, block_mask, block_shift;
} region_layout;

/* One side: its kernel or launcher, its arguments and its launch geometry. */
typedef struct harness_slot {
    CUmodule module;            /* direct mode: the cubin */
    CUdeviceptr regions_global; /* an instrumented cubin's kd_regions (0: a plain cubin) */
    region_layout timing_regions; /* what kd_regions holds outside `regions`: see set_up_regions */
    CUdeviceptr timing_records;   /* the allocation timing_regions.records lies in (aligned within it) */
    CUfunction kernel;          /* direct mode */
    launcher_fn launcher;       /* custom launcher mode */
    harness_arg args[MAX_ARGS];
    void *arg_ptrs[MAX_ARGS];
    size_t nargs;
    unsigned grid[3], block[3], smem;
} harness_slot;

typedef struct harness {
    kd_cuda cu;
    CUdevice dev;
    CUcontext ctx;
    CUstream stream;
    harness_slot slot[KD_PROTO_MAX_SLOTS];
    harness_slot *cur;          /* the slot `side` selected (slot 0 until then) */
    CUdeviceptr pad;            /* the allocation in front of the buffers' current placement */
    CUfunction spin;
    volatile uint32_t *flag;
    CUdeviceptr flag_device;
    CUevent start, stop;
    CUdeviceptr flush;
    size_t flush_bytes;
    unsigned long long seed;
    unsigned batch;             /* 0: one launch per sample, L2 flushed */
    bool ready;
    kd_nvml *nvml;
    unsigned char flush_value;
    unsigned region_launches;   /* tags of `regions` launches; 1 is the idle layout's */
    enum { TIMER_UNSET, TIMER_CUPTI, TIMER_EVENTS } timer;
    char timer_note[128];       /* why events are used, when they are */
} harness;


/* Any CUDA failure after setup may leave a sticky error: report and leave. */
static bool cuda_ok(harness *h, CUresult rc, const char *what)
{
    if (rc == 0)
        return true;
    char text[256];
    kd_proto_reply("err cuda %s failed: %s", what, kd_cuda_describe(&h->cu, rc, text, sizeof text));
    exit(3);
}

static void hello(harness *h)
{
    int sm_major = 0, sm_minor = 0, sms = 0, l2 = 0, driver = 0;
    char name[128] = "unknown", pci[32] = "";
    h->cu.DeviceGetAttribute(&sm_major, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR, h->dev);
    h->cu.DeviceGetAttribute(&sm_minor, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR, h->dev);
    h->cu.DeviceGetAttribute(&sms, CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT, h->dev);
    h->cu.DeviceGetAttribute(&l2, CU_DEVICE_ATTRIBUTE_L2_CACHE_SIZE, h->dev);
    h->cu.DeviceGetName(name, sizeof name, h->dev);
    h->cu.DeviceGetPCIBusId(pci, sizeof pci, h->dev);
    h->cu.DriverGetVersion(&driver);
    char *device = kd_proto_encode(name);
    kd_proto_reply("ok hello version=%d device=%s sm=%d sms=%d l2=%d driver=%d pci=%s", KD_PROTOCOL_VERSION,
          device ? device : "unknown", sm_major * 10 + sm_minor, sms, l2, driver, pci);
    free(device);
    h->flush_bytes = 2 * (size_t)(l2 > 0 ? l2 : 64 << 20);
    char why[128];
    h->nvml = kd_nvml_open(pci, why, sizeof why);
}

static void load(harness *h, kd_words *w)
{
    if (w->count == 4 && strcmp(w->word[1], "cubin") == 0) {
        kd_proto_decode(w->word[2]);
        CUmodule mod;
        CUresult rc = h->cu.ModuleLoad(&mod, w->word[2]);
        h->cur->module = mod;
        char text[256];
        if (rc != 0) {
            kd_proto_reply("err load cannot load %s: %s", w->word[2], kd_cuda_describe(&h->cu, rc, text, sizeof text));
            return;
        }
        if ((rc = h->cu.ModuleGetFunction(&h->cur->kernel, mod, w->word[3])) != 0) {
            kd_proto_reply("err load no entry %s: %s", w->word[3], kd_cuda_describe(&h->cu, rc, text, sizeof text));
            return;
        }
        kd_proto_reply("ok load");
    } else if (w->count == 4 && strcmp(w->word[1], "launcher") == 0) {
        kd_proto_decode(w->word[2]);
        void *so = dlopen(w->word[2], RTLD_NOW | RTLD_LOCAL);
        void *fn = so ? dlsym(so, w->word[3]) : NULL;
        if (!fn) {
            kd_proto_reply("err load cannot load launcher %s from %s: %s", w->word[3], w->word[2], dlerror());
            return;
        }
        memcpy(&h->cur->launcher, &fn, sizeof fn);
        kd_proto_reply("ok load");
    } else {
        kd_proto_reply("err protocol usage: load cubin PATH ENTRY | load launcher PATH SYMBOL");
    }
}

static void scalar_bytes(kd_dtype t, double v, unsigned char out[8])
{
    memset(out, 0, 8);
    switch (t) {
    case KD_DT_F32: { float f = (float)v; memcpy(out, &f, 4); break; }
    case KD_DT_F64: memcpy(out, &v, 8); break;
    case KD_DT_F16: { unsigned short s = kd_float_to_half((float)v); memcpy(out, &s, 2); break; }
    case KD_DT_BF16: { unsigned short s = kd_float_to_bf16((float)v); memcpy(out, &s, 2); break; }
    case KD_DT_I8: case KD_DT_U8: { uint8_t x = (uint8_t)(int64_t)v; memcpy(out, &x, 1); break; }
    case KD_DT_I16: case KD_DT_U16: { uint16_t x = (uint16_t)(int64_t)v; memcpy(out, &x, 2); break; }
    case KD_DT_I32: case KD_DT_U32: { uint32_t x = (uint32_t)(int64_t)v; memcpy(out, &x, 4); break; }
    case KD_DT_I64: case KD_DT_U64: { uint64_t x = v < 0 ? (uint64_t)(int64_t)v : (uint64_t)v; memcpy(out, &x, 8); break; }
    default: break;
    }
}

/* arg <i> buffer <dtype> <lanes> <count> <in|out> [share=<j>]  |  arg <i> scalar <dtype> <value>
 * | arg <i> stream | arg <i> scratch <bytes>.  share=j (slot 1 only): use slot 0's buffer j,
 * which has the same size. */
static void arg(harness *h, kd_words *w)
{
    char *end;
    unsigned long i = w->count >= 2 ? strtoul(w->word[1], &end, 10) : MAX_ARGS;
    if (i >= MAX_ARGS || h->ready) {
        kd_proto_reply("err protocol bad arg index (at most %d arguments), or arg after setup", MAX_ARGS);
        return;
    }
    harness_slot *slot = h->cur;
    harness_arg *a = &slot->args[i];
    memset(a, 0, sizeof *a);
    a->share = -1;
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
        slot->arg_ptrs[i] = &a->device;
        if (share) {
            unsigned long j = strtoul(share, &end, 10);
            const harness_arg *owner = j < MAX_ARGS ? &h->slot[0].args[j] : NULL;
            if (slot == &h->slot[0] || *end || !owner || !owner->is_buffer || owner->bytes != a->bytes) {
                kd_proto_reply("err protocol share=%s: only slot 1 shares, with a slot-0 buffer of the same size",
                               share);
                return;
            }
            a->share = (int)j;
            slot->arg_ptrs[i] = &h->slot[0].args[j].device; /* follows the buffer when `place` moves it */
        }
    } else if (w->count == 5 && strcmp(w->word[2], "scalar") == 0) {
        a->dtype = kd_dtype_from_name(w->word[3]);
        scalar_bytes(a->dtype, strtod(w->word[4], NULL), a->scalar);
        slot->arg_ptrs[i] = a->scalar;
    } else if (w->count == 3 && strcmp(w->word[2], "stream") == 0) {
        a->dtype = KD_DT_U64; /* only to pass the check below: the pointer is the stream */
        slot->arg_ptrs[i] = &h->stream;
    } else if (w->count == 4 && strcmp(w->word[2], "scratch") == 0) {
        a->is_scratch = true;
        a->dtype = KD_DT_U8;
        a->bytes = (size_t)strtoull(w->word[3], NULL, 10);
        slot->arg_ptrs[i] = &a->device; /* stays 0 (a NULL pointer) when no bytes are needed */
    } else {
        kd_proto_reply("err protocol usage: arg I buffer DTYPE LANES COUNT in|out [share=J] | arg I scalar DTYPE VALUE | "
                       "arg I stream | arg I scratch BYTES");
        return;
    }
    if (a->dtype == KD_DT_UNKNOWN || (a->is_buffer && a->lanes <= 0)) {
        kd_proto_reply("err protocol unknown dtype %s", w->word[3]);
        return;
    }
    if (i + 1 > slot->nargs)
        slot->nargs = i + 1;
    kd_proto_reply("ok arg");
}

static void geometry(harness *h, kd_words *w)
{
    if (w->count != 8) {
        kd_proto_reply("err protocol usage: geometry GX GY GZ BX BY BZ SMEM");
        return;
    }
    for (int d = 0; d < 3; d++) {
        h->cur->grid[d] = (unsigned)strtoul(w->word[1 + d], NULL, 10);
        h->cur->block[d] = (unsigned)strtoul(w->word[4 + d], NULL, 10);
    }
    h->cur->smem = (unsigned)strtoul(w->word[7], NULL, 10);
    kd_proto_reply("ok geometry");
}

static bool allocate(harness *h, CUdeviceptr *p, size_t bytes, const char *what)
{
    CUresult rc = h->cu.MemAlloc(p, bytes ? bytes : 1);
    if (rc == 0)
        return true;
    char text[256];
    kd_proto_reply("err alloc %s needs %zu bytes: %s", what, bytes, kd_cuda_describe(&h->cu, rc, text, sizeof text));
    return false;
}

static unsigned long long input_seed(const harness *h, size_t input_index)
{
    return h->seed + 0x9E3779B97F4A7C15ull * (input_index + 1);
}

static bool loaded(const harness_slot *slot) { return slot->kernel || slot->launcher; }

static unsigned long long slot_blocks(const harness_slot *slot)
{
    return (unsigned long long)slot->grid[0] * slot->grid[1] * slot->grid[2];
}

static unsigned slot_warps_per_block(const harness_slot *slot)
{
    return (slot->block[0] * slot->block[1] * slot->block[2] + 31) / 32;
}

static unsigned long long slot_warps(const harness_slot *slot) { return slot_blocks(slot) * slot_warps_per_block(slot); }

/* The blocks that record when one in 2^shift does (those whose index is a multiple of it). */
static unsigned long long recording_blocks(const harness_slot *slot, unsigned shift)
{
    return ((slot_blocks(slot) - 1) >> shift) + 1;
}

/* An instrumented kernel writes records wherever kd_regions points, on every launch: before
 * `regions` it points at rings of one record per warp and stream (the same instructions run, the
 * records overwrite each other), and after it at the rings `regions` recorded into, so that
 * timing the instrumented kernel afterwards times the stores that were recorded. (The
 * one-record rings make stores cheaper than real rings do: the warps of a block all store
 * into one line that stays in L2; bench/region_record_variants.txt.) */
static bool set_up_regions(harness *h, harness_slot *slot)
{
    size_t bytes;
    if (!slot->module || h->cu.ModuleGetGlobal(&slot->regions_global, &bytes, slot->module, "kd_regions") != 0 ||
        bytes != sizeof(region_layout)) {
        slot->regions_global = 0;
        return true;
    }
    region_layout *l = &slot->timing_regions;
    size_t warps = (size_t)slot_warps(slot);
    l->capacity = 1;
    l->launch = 1;
    l->ring_mask = 7;
    if (!allocate(h, &slot->timing_records, 2 * 8 * warps, "region records") ||
        !allocate(h, &l->headers, 8 * KD_REGION_HEADER_WORDS * warps, "region headers") ||
        !allocate(h, &l->counts, 2 * 4 * warps, "region counts"))
        return false;
    l->records = slot->timing_records;
    cuda_ok(h, h->cu.MemcpyHtoD(slot->regions_global, l, sizeof *l), "setting kd_regions");
    return true;
}

/* Frees a layout's buffers (its records through `records_allocation`, which they lie in). */
static void free_layout(harness *h, region_layout *l, CUdeviceptr *records_allocation)
{
    CUdeviceptr *buffer[] = {records_allocation, &l->headers, &l->counts};
    for (size_t i = 0; i < 3; i++)
        if (*buffer[i]) {
            h->cu.MemFree(*buffer[i]);
            *buffer[i] = 0;
        }
    l->records = 0;
}

/* Allocates and fills one slot's own buffers (a shared one is slot 0's). Inputs are seeded
 * by their order among the slot's inputs, outputs all from one seed, so that an output has
 * the same starting contents on both sides wherever its parameter sits (an in-place kernel
 * reads them). Returns the bytes allocated, or -1 after an error reply. */
static long long set_up_slot(harness *h, harness_slot *slot, bool guard)
{
    size_t total = 0, inputs = 0;
    CUdeviceptr holes[MAX_ARGS];
    size_t nholes = 0;
    for (size_t i = 0; i < slot->nargs; i++) {
        harness_arg *a = &slot->args[i];
        if (!slot->arg_ptrs[i]) {
            kd_proto_reply("err protocol argument %zu was never given", i);
            return -1;
        }
        if (a->is_scratch && a->bytes) {
            char what[40];
            snprintf(what, sizeof what, "scratch argument %zu", i);
            if (!allocate(h, &a->device, a->bytes, what))
                return -1;
            cuda_ok(h, h->cu.MemsetD8(a->device, 0, a->bytes), "zeroing scratch");
            total += a->bytes;
        }
        if (!a->is_buffer)
            continue;
        size_t seed_index = a->is_output ? OUTPUT_SEED_INDEX : inputs++;
        if (a->share >= 0)
            continue;
        char what[32];
        snprintf(what, sizeof what, "argument %zu", i);
        if (!allocate(h, &a->device, a->bytes, what))
            return -1;
        /* guard: a hole after each buffer, so that an overrun lands in memory no one owns
         * (a tool like compute-sanitizer sees it) instead of in the next buffer. */
        if (guard && h->cu.MemAlloc(&holes[nholes], GUARD_BYTES) == 0)
            nholes++;
        total += a->bytes;
        size_t elements = (size_t)a->count * (size_t)a->lanes;
        void *host = malloc(a->bytes ? a->bytes : 1);
        if (!host) {
            kd_proto_reply("err alloc host memory for argument %zu (%zu bytes)", i, a->bytes);
            return -1;
        }
        kd_fill_random(a->dtype, host, elements, input_seed(h, seed_index));
        cuda_ok(h, h->cu.MemcpyHtoD(a->device, host, a->bytes), "copying inputs");
        a->initial = host;
    }
    for (size_t i = 0; i < nholes; i++)
        h->cu.MemFree(holes[i]);
    if (!set_up_regions(h, slot))
        return -1;
    if (slot->kernel && slot->smem > 48 * 1024)
        cuda_ok(h, h->cu.FuncSetAttribute(slot->kernel, CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES,
                                          (int)slot->smem),
                "raising the dynamic shared memory limit");
    return (long long)total;
}

/* A setup that failed gives back what it took, so that it can be tried again (kerndiff
 * retries when the memory of other children is released). */
static void release_buffers(harness *h)
{
    for (int s = 0; s < KD_PROTO_MAX_SLOTS; s++)
        for (size_t i = 0; i < h->slot[s].nargs; i++) {
            harness_arg *a = &h->slot[s].args[i];
            if (a->share < 0 && a->device)
                h->cu.MemFree(a->device);
            free(a->initial);
            a->device = 0;
            a->initial = NULL;
        }
    if (h->flush)
        h->cu.MemFree(h->flush);
    h->flush = 0;
    for (int s = 0; s < KD_PROTO_MAX_SLOTS; s++)
        free_layout(h, &h->slot[s].timing_regions, &h->slot[s].timing_records);
}

static void setup(harness *h, kd_words *w)
{
    bool guard = w->count == 2 && strcmp(w->word[1], "guard") == 0;
    if ((w->count != 1 && !guard) || !loaded(&h->slot[0]) || h->ready) {
        kd_proto_reply("err protocol usage: setup [guard], after load, once");
        return;
    }
    long long total = 0;
    for (int s = 0; s < KD_PROTO_MAX_SLOTS; s++) {
        if (!loaded(&h->slot[s]))
            continue;
        long long bytes = set_up_slot(h, &h->slot[s], guard);
        if (bytes < 0) {
            release_buffers(h);
            return;
        }
        total += bytes;
    }
    if (!allocate(h, &h->flush, h->flush_bytes, "the L2 flush buffer")) {
        release_buffers(h);
        return;
    }
    h->ready = true;
    kd_proto_reply("ok setup bytes=%lld", total);
}

/* side <slot>: the slot that load, arg, geometry, warmup, time, check and once address. */
static void side(harness *h, kd_words *w)
{
    char *end = NULL;
    unsigned long s = w->count == 2 ? strtoul(w->word[1], &end, 10) : KD_PROTO_MAX_SLOTS;
    if (s >= KD_PROTO_MAX_SLOTS || *end || (s > 0 && !loaded(&h->slot[s - 1]))) {
        kd_proto_reply("err protocol usage: side 0|1 (slot 1 after slot 0 is loaded)");
        return;
    }
    if (h->ready && !loaded(&h->slot[s])) {
        kd_proto_reply("err protocol side %lu was not loaded before setup", s);
        return;
    }
    h->cur = &h->slot[s];
    kd_proto_reply("ok side");
}

/* place <u64>: moves every buffer to a fresh allocation behind a pad whose size comes from
 * the value, copying the contents on the device, so that the next samples see another
 * placement in GPU memory (the time of a kernel depends on it by up to a few percent).
 * When there is no room for a second copy the buffers stay: moved=0. */
static void place(harness *h, kd_words *w)
{
    if (w->count != 2) {
        kd_proto_reply("err protocol usage: place VALUE");
        return;
    }
    unsigned long long value = strtoull(w->word[1], NULL, 10);
    size_t pad_bytes = (size_t)(value % 256 + 1) * (128u << 10); /* 128 KiB .. 32 MiB */
    cuda_ok(h, h->cu.CtxSynchronize(), "synchronizing before moving buffers");
    CUdeviceptr pad = 0;
    bool moved = h->cu.MemAlloc(&pad, pad_bytes) == 0;
    CUdeviceptr fresh[KD_PROTO_MAX_SLOTS][MAX_ARGS] = {{0}};
    for (int s = 0; s < KD_PROTO_MAX_SLOTS && moved; s++)
        for (size_t i = 0; i < h->slot[s].nargs && moved; i++) {
            harness_arg *a = &h->slot[s].args[i];
            if (a->is_buffer && a->share < 0)
                moved = h->cu.MemAlloc(&fresh[s][i], a->bytes ? a->bytes : 1) == 0;
        }
    for (int s = 0; s < KD_PROTO_MAX_SLOTS; s++)
        for (size_t i = 0; i < h->slot[s].nargs; i++) {
            harness_arg *a = &h->slot[s].args[i];
            if (!fresh[s][i])
                continue;
            if (moved) {
                cuda_ok(h, h->cu.MemcpyDtoD(fresh[s][i], a->device, a->bytes), "moving a buffer");
                cuda_ok(h, h->cu.MemFree(a->device), "freeing a buffer");
                a->device = fresh[s][i];
            } else {
                cuda_ok(h, h->cu.MemFree(fresh[s][i]), "freeing a buffer");
            }
        }
    if (moved) {
        if (h->pad)
            cuda_ok(h, h->cu.MemFree(h->pad), "freeing the placement pad");
        h->pad = pad;
    } else if (pad) {
        cuda_ok(h, h->cu.MemFree(pad), "freeing the placement pad");
    }
    kd_proto_reply("ok place moved=%d pad=%zu", moved, moved ? pad_bytes : 0);
}

static void launch(harness *h)
{
    harness_slot *slot = h->cur;
    if (slot->launcher) {
        int rc = slot->launcher(slot->arg_ptrs, h->stream);
        if (rc != 0) {
            kd_proto_reply("err launch the launcher returned %d", rc);
            exit(3);
        }
        return;
    }
    cuda_ok(h, h->cu.LaunchKernel(slot->kernel, slot->grid[0], slot->grid[1], slot->grid[2], slot->block[0],
                                  slot->block[1], slot->block[2], slot->smem, h->stream, slot->arg_ptrs, NULL),
            "launching the kernel");
}

static void hold_stream(harness *h)
{
    atomic_store((_Atomic uint32_t *)h->flag, 0);
    unsigned long long timeout = SPIN_TIMEOUT_NS;
    void *params[] = {&h->flag_device, &timeout};
    cuda_ok(h, h->cu.LaunchKernel(h->spin, 1, 1, 1, 1, 1, 1, 0, h->stream, params, NULL), "holding the stream");
}

/* One sample in nanoseconds per launch. */
static double sample(harness *h)
{
    unsigned launches = h->batch ? h->batch : 1;
    if (!h->batch) /* a different byte each time, so the memset cannot be elided */
        cuda_ok(h, h->cu.MemsetD8Async(h->flush, h->flush_value++, h->flush_bytes, h->stream), "flushing L2");
    hold_stream(h);
    cuda_ok(h, h->cu.EventRecord(h->start, h->stream), "recording an event");
    for (unsigned i = 0; i < launches; i++)
        launch(h);
    cuda_ok(h, h->cu.EventRecord(h->stop, h->stream), "recording an event");
    atomic_store((_Atomic uint32_t *)h->flag, 1);
    cuda_ok(h, h->cu.EventSynchronize(h->stop), "running the kernel");
    kd_kernel_span span;
    if (h->timer == TIMER_CUPTI) {
        if (kd_cupti_collect(&span) == 0 && span.kernels > 0 && span.last_end > span.first_start)
            return (double)(span.last_end - span.first_start) / launches;
        /* Records went missing: stay consistent for the rest of the run. */
        h->timer = TIMER_EVENTS;
        snprintf(h->timer_note, sizeof h->timer_note, "CUPTI returned no kernel records");
    }
    float ms = 0;
    cuda_ok(h, h->cu.EventElapsedTime(&ms, h->start, h->stop), "reading the events");
    return (double)ms * 1e6 / launches;
}

/* CUPTI starts at the first warm-up, not at start-up: a harness run under ncu (run-once
 * mode) must leave the profiling interfaces to ncu. */
static void choose_timer(harness *h)
{
    if (h->timer != TIMER_UNSET)
        return;
    const char *force = getenv("KERNDIFF_TIMER");
    if (force && strcmp(force, "events") == 0) {
        h->timer = TIMER_EVENTS;
        snprintf(h->timer_note, sizeof h->timer_note, "KERNDIFF_TIMER=events");
        return;
    }
    h->timer = kd_cupti_start(h->timer_note, sizeof h->timer_note) == 0 ? TIMER_CUPTI : TIMER_EVENTS;
}

static int by_value(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

static double median_of(double *v, size_t n)
{
    double tmp[16];
    memcpy(tmp, v, n * sizeof *v);
    qsort(tmp, n, sizeof *tmp, by_value);
    return n % 2 ? tmp[n / 2] : 0.5 * (tmp[n / 2 - 1] + tmp[n / 2]);
}

static double now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

/* Launch until the median of the last 5 samples is within 1% of the 5 before (or the
 * budget is spent): first launches pay module loading, clock ramp-up and cold TLBs. */
static void warmup(harness *h, kd_words *w)
{
    double budget = w->count == 2 ? strtod(w->word[1], NULL) : 1000;
    choose_timer(h);
    double window[10];
    unsigned launches = 0;
    double start = now_ms(), med = 0;
    for (;;) {
        window[launches % 10] = sample(h);
        launches++;
        if (launches >= 10) {
            double recent[5], earlier[5];
            for (int i = 0; i < 5; i++) {
                recent[i] = window[(launches - 1 - i) % 10];
                earlier[i] = window[(launches - 6 - i) % 10];
            }
            double a = median_of(recent, 5), b = median_of(earlier, 5);
            med = a;
            if (fabs(a - b) <= 0.01 * b || now_ms() - start > budget || launches >= 2000)
                break;
        }
    }
    char *note = kd_proto_encode(h->timer_note);
    kd_proto_reply("ok warmup launches=%u median_ns=%.1f stable=%d timer=%s timer_note=%s", launches, med,
          now_ms() - start <= budget, h->timer == TIMER_CUPTI ? "cupti" : "events", note && *note ? note : "-");
    free(note);
}

static void mode(harness *h, kd_words *w)
{
    if (w->count == 2 && strcmp(w->word[1], "single") == 0)
        h->batch = 0;
    else if (w->count == 3 && strcmp(w->word[1], "batched") == 0 && atoi(w->word[2]) > 0)
        h->batch = (unsigned)atoi(w->word[2]);
    else {
        kd_proto_reply("err protocol usage: mode single | mode batched N");
        return;
    }
    kd_proto_reply("ok mode");
}

static void time_samples(harness *h, kd_words *w)
{
    int k = w->count == 2 ? atoi(w->word[1]) : 0;
    if (k <= 0 || k > 100000) {
        kd_proto_reply("err protocol usage: time K (1..100000)");
        return;
    }
    unsigned clock0 = 0, clock1 = 0;
    unsigned long long r0 = 0, r1 = 0;
    if (h->nvml) {
        kd_nvml_sm_clock(h->nvml, &clock0);
        kd_nvml_clock_reasons(h->nvml, &r0);
    }
    double *samples = malloc((size_t)k * sizeof *samples);
    if (!samples) {
        kd_proto_reply("err alloc host memory for %d samples", k);
        return;
    }
    for (int i = 0; i < k; i++)
        samples[i] = sample(h);
    if (h->nvml) {
        kd_nvml_sm_clock(h->nvml, &clock1);
        kd_nvml_clock_reasons(h->nvml, &r1);
    }
    unsigned long long reasons = (r0 | r1) & ~(unsigned long long)KD_REASON_GPU_IDLE;
    printf("ok time clock0=%u clock1=%u reasons=0x%llx throttled=%d samples=", clock0, clock1, reasons,
           (reasons & KD_REASONS_THROTTLE) != 0);
    for (int i = 0; i < k; i++)
        printf("%s%.1f", i ? "," : "", samples[i]);
    kd_proto_reply("%s", "");
    free(samples);
}

/* Fills an output with the poison pattern, on the device when the pattern is one word. */
static void poison_output(harness *h, harness_arg *a)
{
    size_t elements = (size_t)a->count * (size_t)a->lanes, size = kd_dtype_size(a->dtype);
    unsigned char pattern[8] = {0};
    kd_fill_poison(a->dtype, pattern, 1);
    uint16_t p16;
    uint32_t p32;
    memcpy(&p16, pattern, 2);
    memcpy(&p32, pattern, 4);
    if (size == 1)
        cuda_ok(h, h->cu.MemsetD8(a->device, pattern[0], elements), "poisoning outputs");
    else if (size == 2)
        cuda_ok(h, h->cu.MemsetD16(a->device, p16, elements), "poisoning outputs");
    else if (size == 4)
        cuda_ok(h, h->cu.MemsetD32(a->device, p32, elements), "poisoning outputs");
    else {
        void *host = malloc(a->bytes ? a->bytes : 1);
        if (!host) {
            kd_proto_reply("err alloc host memory to poison an output (%zu bytes)", a->bytes);
            exit(3);
        }
        kd_fill_poison(a->dtype, host, elements);
        cuda_ok(h, h->cu.MemcpyHtoD(a->device, host, a->bytes), "poisoning outputs");
        free(host);
    }
}

/* Two runs: with the seeded data in every buffer (what in-place kernels need, and what is
 * compared), then with outputs poisoned (an element still poisoned afterwards was never
 * written); an in-out buffer keeps its seeded data in both (the kernel reads it). Every
 * buffer is restored first: the timing runs may have written inputs too. */
static void check(harness *h, kd_words *w)
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
    size_t written = 0;
    harness_slot *slot = h->cur;
    for (int poisoned = 0; poisoned < 2; poisoned++) {
        for (size_t i = 0; i < slot->nargs; i++) {
            harness_arg *a = &slot->args[i];
            if (!a->is_buffer || a->share >= 0)
                continue;
            if (poisoned && a->is_output && !a->is_inout)
                poison_output(h, a);
            else
                cuda_ok(h, h->cu.MemcpyHtoD(a->device, a->initial, a->bytes), "restoring buffers");
        }
        launch(h);
        cuda_ok(h, h->cu.StreamSynchronize(h->stream), "running the kernel");
        for (size_t i = 0; i < slot->nargs; i++) {
            harness_arg *a = slot->args[i].share >= 0 ? &h->slot[0].args[slot->args[i].share] : &slot->args[i];
            if (!a->is_buffer || !a->is_output)
                continue;
            void *host = malloc(a->bytes ? a->bytes : 1);
            if (!host) {
                kd_proto_reply("err alloc host memory for argument %zu", i);
                fclose(f);
                return;
            }
            cuda_ok(h, h->cu.MemcpyDtoH(host, a->device, a->bytes), "reading outputs");
            written += fwrite(host, 1, a->bytes, f);
            free(host);
        }
    }
    int failed = ferror(f) || fclose(f) != 0 ? errno : 0;
    if (failed)
        kd_proto_reply("err io writing %s failed: %s", w->word[1], strerror(failed));
    else
        kd_proto_reply("ok check bytes=%zu", written);
}

static int by_u64(const void *a, const void *b)
{
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return (x > y) - (x < y);
}

/* The cost of a record in cycles: the median span of the empty regions that the
 * instrumented build's calibration kernel records (one warp, 32 begin/end pairs with
 * nothing between). 0 when the module has no such kernel. */
static unsigned long long record_cost(harness *h, harness_slot *slot, CUdeviceptr global, region_layout layout)
{
    CUfunction calibrate;
    if (h->cu.ModuleGetFunction(&calibrate, slot->module, "kd_region_calibrate") != 0)
        return 0;
    uint64_t records[64], spans[32];
    layout.capacity = 64;
    layout.ring_mask = 8 * 64 - 1;
    layout.launch = ++h->region_launches;
    cuda_ok(h, h->cu.MemsetD32(layout.counts, 0, 2), "clearing region counts");
    cuda_ok(h, h->cu.MemcpyHtoD(global, &layout, sizeof layout), "setting kd_regions");
    cuda_ok(h, h->cu.LaunchKernel(calibrate, 1, 1, 1, 32, 1, 1, 0, h->stream, NULL, NULL), "calibrating regions");
    cuda_ok(h, h->cu.StreamSynchronize(h->stream), "calibrating regions");
    cuda_ok(h, h->cu.MemcpyDtoH(records, layout.records, sizeof records), "reading calibration records");
    for (int i = 0; i < 32; i++) /* stream 0 of warp 0; the low 32 bits are the clock */
        spans[i] = (uint32_t)((uint32_t)records[2 * i + 1] - (uint32_t)records[2 * i]);
    qsort(spans, 32, sizeof *spans, by_u64);
    return spans[16];
}

/* One launch's device rings (counts [warp][2], headers [warp][4], records [warp][2][capacity],
 * as include/kerndiff/regions.h writes them) as the file's launch block, into `out`. */
static void merge_launch(const unsigned char *device, size_t warps, uint32_t capacity, unsigned char *out)
{
    const uint32_t *counts = (const uint32_t *)device;
    const uint64_t *headers = (const uint64_t *)(device + 8 * warps);
    const uint64_t *records = headers + KD_REGION_HEADER_WORDS * warps;
    uint32_t *file_counts = (uint32_t *)out;
    uint64_t *file_headers = (uint64_t *)(out + 4 * warps), *file_records = file_headers + KD_REGION_HEADER_WORDS * warps;
    memcpy(file_headers, headers, 8 * KD_REGION_HEADER_WORDS * warps);
    for (size_t w = 0; w < warps; w++) {
        const uint64_t *streams[2] = {records + 2 * w * capacity, records + (2 * w + 1) * capacity};
        uint32_t clock0 = (uint32_t)headers[KD_REGION_HEADER_WORDS * w + KD_REGION_HEADER_START];
        file_counts[w] = kd_region_merge_streams(streams, &counts[2 * w], capacity, clock0, file_records + w * capacity);
    }
}

/* A Triton cubin built with Proton's instrumentation: its profile scratch, the second of
 * its scratch arguments (docs/PROTOCOL.md `arg I scratch`), when it has bytes; else NULL. */
static harness_arg *proton_scratch(harness_slot *slot)
{
    unsigned seen = 0;
    for (size_t i = 0; i < slot->nargs && !slot->launcher; i++)
        if (slot->args[i].is_scratch && ++seen == 2)
            return slot->args[i].bytes ? &slot->args[i] : NULL;
    return NULL;
}

/* `regions` for a Triton side (src/regions/proton.h): LAUNCHES launches, L2 flushed and the
 * profile scratch zeroed before each, Proton's per-warp circular buffers read back and
 * converted into PATH's record file. Every block records (STRIDE is not used: Proton has no
 * block sampling), Proton sizes its buffers (nor is CAPACITY) and there is no calibration
 * kernel (record_cycles=0). */
static void regions_proton(harness *h, harness_slot *slot, harness_arg *scratch, unsigned long launches,
                           const char *path)
{
    unsigned long long blocks = slot_blocks(slot);
    uint32_t warps_per_cta = slot_warps_per_block(slot);
    size_t cta_bytes = blocks ? scratch->bytes / blocks : 0;
    kd_region_file_header head = {KD_REGION_MAGIC, KD_REGION_VERSION, (uint32_t)slot_warps(slot), 0,
                                  (uint32_t)launches, warps_per_cta, 1, (uint32_t)blocks};
    unsigned char *device = malloc(scratch->bytes), *host = NULL;
    FILE *f = fopen(path, "wb");
    if (!device || !f || !cta_bytes || blocks * warps_per_cta > UINT32_MAX) {
        kd_proto_reply("err alloc cannot hold %zu bytes of Proton's buffers, or open %s", scratch->bytes, path);
        free(device);
        if (f)
            fclose(f);
        return;
    }
    char why[256] = "";
    size_t bytes = 0;
    for (unsigned long l = 0; l < launches && !*why; l++) {
        cuda_ok(h, h->cu.MemsetD8(scratch->device, 0, scratch->bytes), "clearing the profile scratch");
        cuda_ok(h, h->cu.MemsetD8Async(h->flush, h->flush_value++, h->flush_bytes, h->stream), "flushing L2");
        launch(h);
        cuda_ok(h, h->cu.StreamSynchronize(h->stream), "running the instrumented kernel");
        cuda_ok(h, h->cu.MemcpyDtoH(device, scratch->device, scratch->bytes), "reading the profile scratch");
        if (!host) {
            head.capacity = kd_proton_capacity(device, cta_bytes, warps_per_cta, why, sizeof why);
            bytes = head.capacity ? kd_region_launch_bytes(head.warps, head.capacity) : 0;
            host = bytes ? malloc(bytes) : NULL;
            if (head.capacity && !host)
                snprintf(why, sizeof why, "cannot hold %zu bytes of records", bytes);
            if (host)
                fwrite(&head, sizeof head, 1, f);
        }
        if (host && kd_proton_to_records(device, cta_bytes, (uint32_t)blocks, warps_per_cta, head.capacity, host, why,
                                         sizeof why) == 0)
            fwrite(host, 1, bytes, f);
    }
    free(device);
    free(host);
    int failed = ferror(f) || fclose(f) != 0 ? errno : 0;
    if (*why)
        kd_proto_reply("err load the kernel's profile scratch is not Proton's: %s", why);
    else if (failed)
        kd_proto_reply("err io writing %s failed: %s", path, strerror(failed));
    else
        kd_proto_reply("ok regions warps=%u launches=%lu bytes=%zu record_cycles=0 blocks=%llu", head.warps, launches,
                       sizeof head + launches * bytes, blocks);
}

/* regions CAPACITY LAUNCHES STRIDE PATH: LAUNCHES launches of the current slot's
 * instrumented kernel, L2 flushed before each, with one block in STRIDE recording; every
 * recording warp's ring of CAPACITY records collected and written to PATH
 * (src/regions/records.h). Afterwards kd_regions keeps pointing at these rings, so timing the
 * instrumented kernel measures the instrumentation that was recorded (set_up_regions). */
static void regions(harness *h, kd_words *w)
{
    harness_slot *slot = h->cur;
    unsigned long capacity = w->count == 5 ? strtoul(w->word[1], NULL, 10) : 0;
    unsigned long launches = w->count == 5 ? strtoul(w->word[2], NULL, 10) : 0;
    unsigned long stride = w->count == 5 ? strtoul(w->word[3], NULL, 10) : 0;
    if (!capacity || (capacity & (capacity - 1)) || capacity > (1u << 20) || !launches || launches > 1000 ||
        !stride || (stride & (stride - 1)) || stride > (1u << 30)) {
        kd_proto_reply("err protocol usage: regions CAPACITY LAUNCHES STRIDE PATH (CAPACITY and STRIDE powers of two)");
        return;
    }
    unsigned shift = 0;
    while ((1ul << shift) < stride)
        shift++;
    kd_proto_decode(w->word[4]);
    CUdeviceptr global = slot->regions_global;
    harness_arg *proton = global ? NULL : proton_scratch(slot);
    if (proton) {
        regions_proton(h, slot, proton, launches, w->word[4]);
        return;
    }
    if (!global || slot->launcher) {
        kd_proto_reply("err load the kernel has no kd_regions: it was not built with KERNDIFF_REGIONS (or is a launcher)");
        return;
    }
    unsigned long long blocks = recording_blocks(slot, shift);
    unsigned warps_per_block = slot_warps_per_block(slot);
    kd_region_file_header head = {KD_REGION_MAGIC, KD_REGION_VERSION, (uint32_t)(blocks * warps_per_block),
                                  (uint32_t)capacity, (uint32_t)launches, warps_per_block, (uint32_t)stride,
                                  (uint32_t)slot_blocks(slot)};
    size_t bytes = kd_region_launch_bytes(head.warps, head.capacity);
    size_t counts_bytes = 2 * 4 * (size_t)head.warps, headers_bytes = 8 * KD_REGION_HEADER_WORDS * (size_t)head.warps,
           records_bytes = 2 * 8 * (size_t)head.warps * capacity, device_bytes = counts_bytes + headers_bytes + records_bytes;
    region_layout layout = {.capacity = (unsigned)capacity, .ring_mask = 8 * (unsigned)capacity - 1,
                            .block_mask = (unsigned)stride - 1, .block_shift = shift};
    unsigned char *host = calloc(1, bytes), *device = malloc(device_bytes);
    FILE *f = fopen(w->word[4], "wb");
    if (!host || !device || !f || slot_warps(slot) > UINT32_MAX) {
        kd_proto_reply("err alloc cannot hold %zu bytes of records, or open %s", bytes + device_bytes, w->word[4]);
        free(host);
        free(device);
        if (f)
            fclose(f);
        return;
    }
    /* Each ring must be aligned to its size (8 * capacity bytes): allocate that much more. */
    CUdeviceptr records_allocation = 0;
    if (!allocate(h, &layout.counts, counts_bytes, "region counts") ||
        !allocate(h, &layout.headers, headers_bytes, "region headers") ||
        !allocate(h, &records_allocation, records_bytes + 8 * capacity, "region records")) {
        free_layout(h, &layout, &records_allocation);
        free(host);
        free(device);
        fclose(f);
        return;
    }
    layout.records = (records_allocation + 8 * capacity - 1) & ~(CUdeviceptr)(8 * capacity - 1);
    fwrite(&head, sizeof head, 1, f);
    for (unsigned long l = 0; l < launches; l++) {
        /* A tag never used before: shared memory keeps the fallback's index of earlier launches. */
        layout.launch = ++h->region_launches;
        cuda_ok(h, h->cu.MemsetD32(layout.counts, 0, 2 * head.warps), "clearing region counts");
        /* A warp with no kernel context writes no end to its header: 0 says so. */
        cuda_ok(h, h->cu.MemsetD32(layout.headers, 0, 2 * KD_REGION_HEADER_WORDS * head.warps), "clearing region headers");
        cuda_ok(h, h->cu.MemcpyHtoD(global, &layout, sizeof layout), "setting kd_regions");
        cuda_ok(h, h->cu.MemsetD8Async(h->flush, h->flush_value++, h->flush_bytes, h->stream), "flushing L2");
        launch(h);
        cuda_ok(h, h->cu.StreamSynchronize(h->stream), "running the instrumented kernel");
        cuda_ok(h, h->cu.MemcpyDtoH(device, layout.counts, counts_bytes), "reading region counts");
        cuda_ok(h, h->cu.MemcpyDtoH(device + counts_bytes, layout.headers, headers_bytes), "reading region headers");
        cuda_ok(h, h->cu.MemcpyDtoH(device + counts_bytes + headers_bytes, layout.records, records_bytes),
                "reading region records");
        merge_launch(device, head.warps, head.capacity, host);
        fwrite(host, 1, bytes, f);
    }
    free(device);
    free(host);
    /* The calibration needs 64 records of room: every buffer has at least one warp's worth. */
    unsigned long long cost = capacity >= 64 ? record_cost(h, slot, global, layout) : 0;
    free_layout(h, &slot->timing_regions, &slot->timing_records);
    slot->timing_regions = layout;
    slot->timing_records = records_allocation;
    cuda_ok(h, h->cu.MemcpyHtoD(global, &layout, sizeof layout), "setting kd_regions");
    int failed = ferror(f) || fclose(f) != 0 ? errno : 0;
    if (failed)
        kd_proto_reply("err io writing %s failed: %s", w->word[4], strerror(failed));
    else
        kd_proto_reply("ok regions warps=%u launches=%lu bytes=%zu record_cycles=%llu blocks=%llu", head.warps,
                       launches, sizeof head + launches * bytes, cost, blocks);
}

/* buffers: where the current slot's buffers sit, so that an address a tool reports (the
 * compute-sanitizer) can be named as a buffer and an element. */
static void buffers(harness *h)
{
    harness_slot *slot = h->cur;
    printf("ok buffers list=");
    const char *sep = "";
    for (size_t i = 0; i < slot->nargs; i++) {
        const harness_arg *a = &slot->args[i];
        const harness_arg *owner = a->share >= 0 ? &h->slot[0].args[a->share] : a;
        if (!a->is_buffer)
            continue;
        printf("%s%zu:0x%llx:%zu", sep, i, (unsigned long long)owner->device, owner->bytes);
        sep = ",";
    }
    kd_proto_reply("%s", *sep ? "" : "-");
}

static void once(harness *h)
{
    cuda_ok(h, h->cu.CtxSynchronize(), "synchronizing");
    cuda_ok(h, h->cu.ProfilerStart(), "starting the profiler range");
    launch(h);
    cuda_ok(h, h->cu.StreamSynchronize(h->stream), "running the kernel");
    cuda_ok(h, h->cu.ProfilerStop(), "stopping the profiler range");
    kd_proto_reply("ok once");
}

static int start_cuda(harness *h)
{
    char why[256];
    if (kd_cuda_load(&h->cu, why, sizeof why) != 0) {
        fprintf(stderr, "kerndiff-harness: %s\n", why);
        kd_proto_reply("err cuda %s", why);
        return -1;
    }
    CUresult rc = h->cu.Init(0);
    if (rc == 0)
        rc = h->cu.DeviceGet(&h->dev, 0);
    /* The primary context is the one the CUDA runtime uses, so custom launchers built with
     * the runtime API share our buffers and stream. */
    if (rc == 0)
        rc = h->cu.DevicePrimaryCtxRetain(&h->ctx, h->dev);
    if (rc == 0)
        rc = h->cu.CtxSetCurrent(h->ctx);
    CUmodule spin_module;
    if (rc == 0)
        rc = h->cu.ModuleLoadData(&spin_module, spin_ptx);
    if (rc == 0)
        rc = h->cu.ModuleGetFunction(&h->spin, spin_module, "kd_spin");
    if (rc == 0)
        rc = h->cu.StreamCreate(&h->stream, CU_STREAM_NON_BLOCKING);
    if (rc == 0)
        rc = h->cu.EventCreate(&h->start, CU_EVENT_DEFAULT);
    if (rc == 0)
        rc = h->cu.EventCreate(&h->stop, CU_EVENT_DEFAULT);
    void *flag = NULL;
    if (rc == 0)
        rc = h->cu.MemHostAlloc(&flag, sizeof(uint32_t), CU_MEMHOSTALLOC_DEVICEMAP | CU_MEMHOSTALLOC_PORTABLE);
    if (rc == 0)
        rc = h->cu.MemHostGetDevicePointer(&h->flag_device, flag, 0);
    if (rc != 0) {
        kd_proto_reply("err cuda starting CUDA failed: %s", kd_cuda_describe(&h->cu, rc, why, sizeof why));
        return -1;
    }
    h->flag = flag;
    return 0;
}

int main(void)
{
    static harness h;
    h.cur = &h.slot[0];
    h.region_launches = 1;
    if (start_cuda(&h) != 0)
        return 2;
    char line[4096];
    while (fgets(line, sizeof line, stdin)) {
        kd_words w;
        kd_proto_split(line, &w);
        if (w.count == 0)
            continue;
        const char *cmd = w.word[0];
        bool needs_setup = !strcmp(cmd, "warmup") || !strcmp(cmd, "time") || !strcmp(cmd, "check") ||
                           !strcmp(cmd, "once") || !strcmp(cmd, "place") || !strcmp(cmd, "regions") ||
                           !strcmp(cmd, "buffers");
        if (needs_setup && !h.ready)
            kd_proto_reply("err protocol %s before setup", cmd);
        else if (!strcmp(cmd, "hello"))
            hello(&h);
        else if (!strcmp(cmd, "load"))
            load(&h, &w);
        else if (!strcmp(cmd, "arg"))
            arg(&h, &w);
        else if (!strcmp(cmd, "geometry"))
            geometry(&h, &w);
        else if (!strcmp(cmd, "seed") && w.count == 2) {
            h.seed = strtoull(w.word[1], NULL, 10);
            kd_proto_reply("ok seed");
        } else if (!strcmp(cmd, "setup"))
            setup(&h, &w);
        else if (!strcmp(cmd, "side"))
            side(&h, &w);
        else if (!strcmp(cmd, "place"))
            place(&h, &w);
        else if (!strcmp(cmd, "warmup"))
            warmup(&h, &w);
        else if (!strcmp(cmd, "mode"))
            mode(&h, &w);
        else if (!strcmp(cmd, "time"))
            time_samples(&h, &w);
        else if (!strcmp(cmd, "check"))
            check(&h, &w);
        else if (!strcmp(cmd, "once"))
            once(&h);
        else if (!strcmp(cmd, "regions"))
            regions(&h, &w);
        else if (!strcmp(cmd, "buffers"))
            buffers(&h);
        else if (!strcmp(cmd, "quit")) {
            kd_proto_reply("ok quit");
            break;
        } else
            kd_proto_reply("err protocol unknown command %s", cmd);
    }
    kd_nvml_close(h.nvml);
    return 0;
}
