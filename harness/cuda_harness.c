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
 * it (the clock ncu's gpu__time_duration uses); without CUPTI, the events' elapsed time.
 *
 * Sustained load (`mode sustained MS`, kerndiff --load sustained): the GPU is kept busy as
 * triton.testing.do_bench keeps it, so that a power-bound kernel runs at the clock it gets
 * under load (an autotuned Triton matmul: 191 us one launch at a time, 213 us back to back on
 * an H100). Before a slot's block of samples (the first after `mode`, a `place` or the other
 * slot's block), (flush, launch) pairs back to back for MS ms; then `time K` queues K more
 * (flush, event, launch, event) with no host sync between them, and each launch's duration is
 * its CUPTI activity record (the events' elapsed time without CUPTI). The flush here is
 * do_bench's cache clear (zeros over 256 MiB), whose length sets the load's duty cycle. */
#include <dlfcn.h>
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

#include "cuda_driver.h"
#include "counters_reply.h"
#include "cupti_profiler.h"
#include "cupti_timer.h"
#include "cupti_pcsampling.h"
#include "server.h"
#include "gpu/nvml.h"
#include "util/dtype.h"
#include "launch/spec.h"
#include "regions/proton.h"
#include "regions/region_records.h"

#define MAX_ARGS KD_SERVER_MAX_ARGS
#define SPIN_TIMEOUT_NS 2000000000ull /* a spin kernel never holds the stream longer */
#define STAGING_MAX_BYTES ((size_t)4 << 20) /* an audit reads 256 KiB a buffer (wire/protocol.h) */

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

/* Reads one word of every 32-byte sector of p (ld.global.cg: through L2, not L1). After the
 * flush's memset, which leaves L2 full of dirty lines, this evicts them (their write-back
 * happens now) and leaves L2 holding clean lines no kernel uses: a counter pass that starts
 * after it neither finds its data in L2 nor pays for the flush's write-backs (measured on an
 * H100 without it: +20 MB of DRAM writes and +5% duration on a 110 us copy against ncu,
 * tests/gpu/results-counters.txt). A store into p only when the XOR of what it read is a magic
 * value keeps the loads from being removed. */
static const char touch_ptx[] =
    ".version 7.0\n.target sm_70\n.address_size 64\n"
    ".visible .entry kd_touch(.param .u64 p, .param .u64 sectors)\n{\n"
    "  .reg .pred %p<3>;\n  .reg .b32 %r<8>;\n  .reg .b64 %rd<12>;\n"
    "  ld.param.u64 %rd1, [p];\n  ld.param.u64 %rd2, [sectors];\n"
    "  mov.u32 %r1, %ctaid.x;\n  mov.u32 %r2, %ntid.x;\n  mov.u32 %r3, %tid.x;\n  mov.u32 %r4, %nctaid.x;\n"
    "  cvt.u64.u32 %rd3, %r1;\n  cvt.u64.u32 %rd4, %r2;\n  cvt.u64.u32 %rd5, %r3;\n  cvt.u64.u32 %rd6, %r4;\n"
    "  mul.lo.u64 %rd7, %rd3, %rd4;\n  add.u64 %rd7, %rd7, %rd5;\n  mul.lo.u64 %rd8, %rd6, %rd4;\n"
    "  mov.u32 %r5, 0;\n"
    "LOOP:\n  setp.ge.u64 %p1, %rd7, %rd2;\n  @%p1 bra END;\n"
    "  shl.b64 %rd9, %rd7, 5;\n  add.u64 %rd10, %rd1, %rd9;\n  ld.global.cg.u32 %r6, [%rd10];\n"
    "  xor.b32 %r5, %r5, %r6;\n  add.u64 %rd7, %rd7, %rd8;\n  bra LOOP;\n"
    "END:\n  setp.ne.u32 %p2, %r5, 1515870810;\n  @%p2 bra DONE;\n  st.global.u32 [%rd1], %r5;\n"
    "DONE:\n  ret;\n}\n";

typedef int (*launcher_fn)(void **args, void *stream);

/* The device-side layout of include/kerndiff/regions.h (struct kd_region_layout). */
typedef struct region_layout {
    CUdeviceptr records, headers, counts;
    unsigned capacity, launch, ring_mask, block_mask, block_shift;
} region_layout;

/* One side: its kernel or launcher (its arguments and launch geometry are the server's slot
 * of the same index, `srv`). */
typedef struct harness_slot {
    kd_server_slot *srv;
    CUmodule module;            /* direct mode: the cubin */
    CUdeviceptr regions_global; /* an instrumented cubin's kd_regions (0: a plain cubin) */
    region_layout timing_regions; /* what kd_regions holds outside `regions`: see set_up_regions */
    CUdeviceptr timing_records;   /* the allocation timing_regions.records lies in (aligned within it) */
    CUfunction kernel;          /* direct mode */
    launcher_fn launcher;       /* custom launcher mode */
    double median_ns;           /* its last warm-up's median: sizes the sustained load's steps */
    unsigned kernels_per_launch; /* CUPTI's kernel records per launch (a launcher may run several) */
} harness_slot;

typedef struct harness {
    /* `time`'s block: the fewest and most kernels CUPTI recorded in one sample (0: none counted) */
    unsigned block_kernels_min, block_kernels_max;
    kd_cuda cu;
    CUdevice dev;
    CUcontext ctx;
    CUstream stream;
    harness_slot slot[KD_PROTO_MAX_SLOTS];
    CUdeviceptr pad;            /* the allocation in front of the buffers' current placement */
    CUfunction spin;
    volatile uint32_t *flag;
    CUdeviceptr flag_device;
    CUevent start, stop;
    CUdeviceptr flush;
    size_t flush_bytes;
    CUdeviceptr load_flush;     /* the sustained load's cache clear, do_bench's (LOAD_FLUSH_BYTES) */
    size_t load_flush_bytes;    /* 0 until first needed; flush_bytes when it could not be had */
    unsigned batch;             /* 0: one launch per sample, L2 flushed */
    unsigned sustained_ms;      /* `mode sustained MS`: 0 unless the GPU is kept under load */
    bool load_due;              /* the next block starts with the sustained load */
    int loaded_slot;            /* the slot whose launches made the last load */
    CUevent *pair_events;       /* sustained samples' events: start, stop per launch */
    size_t pair_event_count;
    CUevent mark[2];            /* the load's progress marks (bounds how far the host runs ahead) */
    kd_nvml *nvml;
    unsigned char flush_value;
    unsigned region_launches;   /* tags of `regions` launches; 1 is the idle layout's */
    enum { TIMER_UNSET, TIMER_CUPTI, TIMER_EVENTS } timer;
    char timer_note[128];       /* why events are used, when they are */
    CUfunction touch;           /* kd_touch (touch_ptx), loaded by the first counter pass */
    bool touch_tried;
    void *staging;              /* pinned host memory an audit's samples are read into (0: none yet) */
    size_t staging_bytes;
} harness;

/* The protocol's server (harness/server.h) and this vendor's state: one of each per process. */
static kd_server server;
static harness state;

/* The slot `side` selected (slot 0 until then). */
static harness_slot *current(harness *h) { return &h->slot[server.cur]; }


/* Any CUDA failure after setup may leave a sticky error: report and leave. */
static bool cuda_ok(harness *h, CUresult rc, const char *what)
{
    if (rc == 0)
        return true;
    char text[256];
    kd_proto_reply("err cuda %s failed: %s", what, kd_cuda_describe(&h->cu, rc, text, sizeof text));
    exit(3);
}

/* Host to device, finished when it returns. The launches go to h->stream, created
 * non-blocking: it does not wait for the legacy stream, where cuMemcpyHtoD from pageable
 * memory may still be moving the data when it returns (and where cuMemset* runs, which is
 * why every memset here is the Async one on h->stream). An H100 check run found an output
 * poisoned after the launch had written it: "never written" for all 4M elements. */
static void upload(harness *h, CUdeviceptr dst, const void *src, size_t bytes, const char *doing)
{
    /* after what the launches' stream still holds (an audit's copies, cuda_copy): the legacy
       stream this copy runs on does not wait for a non-blocking one */
    cuda_ok(h, h->cu.StreamSynchronize(h->stream), doing);
    cuda_ok(h, h->cu.MemcpyHtoD(dst, src, bytes), doing);
    cuda_ok(h, h->cu.CtxSynchronize(), doing);
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
    if (!h->nvml) /* a second hello (a sweep's kept harness, a spare's check) keeps the first's */
        h->nvml = kd_nvml_open(pci, why, sizeof why);
}

/* Modules loaded by this process, by path and the file's identity: a harness that serves a
 * sweep's points (`reset`) loads each distinct build once. A file changed since is loaded
 * again, and so is one the other slot holds now (an A/A diff of one cubin): each slot keeps
 * module globals of its own (an instrumented build's kd_regions). */
enum { MAX_MODULES = 16 };
static struct loaded_module {
    char *path;
    struct stat st;
    CUmodule module;
} modules[MAX_MODULES];
static size_t nmodules;

static bool same_file(const struct stat *a, const struct stat *b)
{
    return a->st_dev == b->st_dev && a->st_ino == b->st_ino && a->st_size == b->st_size &&
           a->st_mtim.tv_sec == b->st_mtim.tv_sec && a->st_mtim.tv_nsec == b->st_mtim.tv_nsec;
}

static bool held_by_other_slot(const harness *h, CUmodule m)
{
    for (int k = 0; k < KD_PROTO_MAX_SLOTS; k++)
        if (k != server.cur && h->slot[k].module == m)
            return true;
    return false;
}

static CUresult load_module(harness *h, CUmodule *mod, const char *path)
{
    struct stat st;
    bool known = stat(path, &st) == 0;
    for (size_t i = 0; known && i < nmodules; i++)
        if (strcmp(modules[i].path, path) == 0 && same_file(&modules[i].st, &st) &&
            !held_by_other_slot(h, modules[i].module)) {
            *mod = modules[i].module;
            return 0;
        }
    CUresult rc = h->cu.ModuleLoad(mod, path);
    char *copy = rc == 0 && known && nmodules < MAX_MODULES ? strdup(path) : NULL;
    if (copy)
        modules[nmodules++] = (struct loaded_module){copy, st, *mod};
    return rc;
}

static bool load(harness *h, kd_words *w)
{
    if (w->count == 4 && strcmp(w->word[1], "cubin") == 0) {
        kd_proto_decode(w->word[2]);
        CUmodule mod = NULL;
        CUresult rc = load_module(h, &mod, w->word[2]);
        current(h)->module = mod;
        char text[256];
        if (rc != 0) {
            kd_proto_reply("err load cannot load %s: %s", w->word[2], kd_cuda_describe(&h->cu, rc, text, sizeof text));
            return false;
        }
        if ((rc = h->cu.ModuleGetFunction(&current(h)->kernel, mod, w->word[3])) != 0) {
            kd_proto_reply("err load no entry %s: %s", w->word[3], kd_cuda_describe(&h->cu, rc, text, sizeof text));
            return false;
        }
        kd_proto_reply("ok load");
        return true;
    } else if (w->count == 4 && strcmp(w->word[1], "launcher") == 0) {
        kd_proto_decode(w->word[2]);
        void *so = dlopen(w->word[2], RTLD_NOW | RTLD_LOCAL);
        void *fn = so ? dlsym(so, w->word[3]) : NULL;
        if (!fn) {
            kd_proto_reply("err load cannot load launcher %s from %s: %s", w->word[3], w->word[2], dlerror());
            return false;
        }
        memcpy(&current(h)->launcher, &fn, sizeof fn);
        kd_proto_reply("ok load");
        return true;
    }
    kd_proto_reply("err protocol usage: load cubin PATH ENTRY | load launcher PATH SYMBOL");
    return false;
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

static unsigned long long slot_blocks(const harness_slot *slot)
{
    return (unsigned long long)slot->srv->grid[0] * slot->srv->grid[1] * slot->srv->grid[2];
}

static unsigned slot_warps_per_block(const harness_slot *slot)
{
    return (slot->srv->block[0] * slot->srv->block[1] * slot->srv->block[2] + 31) / 32;
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
    upload(h, slot->regions_global, l, sizeof *l, "setting kd_regions");
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
        for (size_t i = 0; i < h->slot[s].srv->nargs && moved; i++) {
            kd_server_arg *a = &h->slot[s].srv->args[i];
            if (a->is_buffer && a->share < 0)
                moved = h->cu.MemAlloc(&fresh[s][i], a->bytes + a->guard) == 0; /* its guard moves with it */
        }
    for (int s = 0; s < KD_PROTO_MAX_SLOTS; s++)
        for (size_t i = 0; i < h->slot[s].srv->nargs; i++) {
            kd_server_arg *a = &h->slot[s].srv->args[i];
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
    h->load_due = h->sustained_ms > 0; /* the move left the GPU idle: load it again */
    kd_proto_reply("ok place moved=%d pad=%zu", moved, moved ? pad_bytes : 0);
}

/* A launch in clusters (`geometry ... CX CY CZ`, a replayed cluster launch): cuLaunchKernelEx
 * with the cluster dimension attribute. A GPU or kernel that refuses the cluster (before sm_90,
 * too many blocks in it, a kernel compiled with other __cluster_dims__) fails the launch with
 * the cluster named: kerndiff never launches it without one instead. */
static void launch_cluster(harness *h, harness_slot *slot)
{
    kd_server_slot *g = slot->srv;
    char what[96];
    snprintf(what, sizeof what, "launching the kernel in clusters of %ux%ux%u blocks", g->cluster[0], g->cluster[1],
             g->cluster[2]);
    if (!h->cu.LaunchKernelEx) {
        kd_proto_reply("err cuda %s failed: the driver has no cuLaunchKernelEx (CUDA 12.0 or later launches "
                       "clusters)", what);
        exit(3);
    }
    CUlaunchAttribute attr;
    memset(&attr, 0, sizeof attr);
    attr.id = CU_LAUNCH_ATTRIBUTE_CLUSTER_DIMENSION;
    attr.value.clusterDim.x = g->cluster[0];
    attr.value.clusterDim.y = g->cluster[1];
    attr.value.clusterDim.z = g->cluster[2];
    CUlaunchConfig config = {g->grid[0], g->grid[1], g->grid[2], g->block[0], g->block[1], g->block[2], g->smem,
                             h->stream, &attr, 1};
    cuda_ok(h, h->cu.LaunchKernelEx(&config, slot->kernel, g->arg_ptrs, NULL), what);
}

static void launch(harness *h)
{
    harness_slot *slot = current(h);
    if (slot->launcher) {
        int rc = slot->launcher(slot->srv->arg_ptrs, h->stream);
        if (rc != 0) {
            kd_proto_reply("err launch the launcher returned %d", rc);
            exit(3);
        }
        return;
    }
    kd_server_slot *g = slot->srv;
    if (g->cluster[0]) {
        launch_cluster(h, slot);
        return;
    }
    cuda_ok(h, h->cu.LaunchKernel(slot->kernel, g->grid[0], g->grid[1], g->grid[2], g->block[0], g->block[1],
                                  g->block[2], g->smem, h->stream, g->arg_ptrs, NULL),
            "launching the kernel");
}

static void hold_stream(harness *h)
{
    atomic_store((_Atomic uint32_t *)h->flag, 0);
    unsigned long long timeout = SPIN_TIMEOUT_NS;
    void *params[] = {&h->flag_device, &timeout};
    cuda_ok(h, h->cu.LaunchKernel(h->spin, 1, 1, 1, 1, 1, 1, 0, h->stream, params, NULL), "holding the stream");
}

/* A persisting-L2 access window that a launcher set (cudaStreamSetAttribute) keeps its lines
 * through the flush's memset (llm.c#851: 3,530 against 714 GB/s): put them back to normal
 * before every sample (issue 39). Best effort: a driver without the call leaves L2 as is. */
static void reset_persisting_l2(harness *h)
{
    static CUresult (*reset)(void);
    static bool resolved;
    if (!resolved) {
        void *f = dlsym(h->cu.lib, "cuCtxResetPersistingL2Cache");
        memcpy(&reset, &f, sizeof f);
        resolved = true;
    }
    if (reset)
        reset();
}

/* One sample in nanoseconds per launch. */
static double sample(harness *h)
{
    unsigned launches = h->batch ? h->batch : 1;
    reset_persisting_l2(h);
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
        /* Every stream, not only the timed one: a launcher's kernels on another stream are
         * in the sample's span, and counted (issue 39). */
        cuda_ok(h, h->cu.CtxSynchronize(), "waiting for every stream");
        if (kd_cupti_collect(&span) == 0 && span.kernels > 0 && span.last_end > span.first_start) {
            current(h)->kernels_per_launch = span.kernels / launches ? span.kernels / launches : 1;
            if (!h->block_kernels_max || span.kernels < h->block_kernels_min)
                h->block_kernels_min = span.kernels;
            if (span.kernels > h->block_kernels_max)
                h->block_kernels_max = span.kernels;
            return (double)(span.last_end - span.first_start) / launches;
        }
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
    current(h)->median_ns = med;
    char *note = kd_proto_encode(h->timer_note);
    kd_proto_reply("ok warmup launches=%u median_ns=%.1f stable=%d timer=%s timer_note=%s", launches, med,
          now_ms() - start <= budget, h->timer == TIMER_CUPTI ? "cupti" : "events", note && *note ? note : "-");
    free(note);
}

static void mode(harness *h, kd_words *w)
{
    unsigned sustained = 0, batch = 0;
    if (!kd_proto_mode(w, &batch, &sustained)) {
        kd_proto_reply("err protocol usage: mode single | mode batched N | mode sustained MS (1..%d)",
                       KD_PROTO_MAX_SUSTAINED_MS);
        return;
    }
    h->batch = batch;
    h->sustained_ms = sustained;
    h->load_due = sustained > 0;
    h->loaded_slot = -1;
    kd_proto_reply("ok mode");
}

/* triton.testing.do_bench clears the cache before every call with cache.zero_() on a buffer
 * of 256 MiB (Triton 3.6, get_empty_cache_for_benchmark). Under load its length sets how much
 * of the time the GPU spends on the kernel, hence the power drawn and the clock: with our
 * 2 x L2 flush (100 MB on an H100, ~35 us against ~90 us) an autotuned matmul ran 222-227 us
 * back to back where do_bench's steady state is 214 us (tests/gpu/results-triton-load-sweep.txt). */
#define LOAD_FLUSH_BYTES ((size_t)256 << 20)

/* The sustained load's flush buffer, made when first needed (kept until `reset`'s release);
 * where the GPU has no room for it, the L2 flush buffer serves, at its own length. */
static void load_flush_ready(harness *h)
{
    if (h->load_flush_bytes)
        return;
    if (h->flush_bytes < LOAD_FLUSH_BYTES && h->cu.MemAlloc(&h->load_flush, LOAD_FLUSH_BYTES) == 0) {
        h->load_flush_bytes = LOAD_FLUSH_BYTES;
        return;
    }
    h->load_flush = h->flush;
    h->load_flush_bytes = h->flush_bytes;
}

/* One (flush, launch) pair of the sustained load, queued; `start`/`stop` (or NULL) around the
 * launch. The flush is the timed launch's own, as do_bench's cache.zero_() before each call:
 * zeros over 256 MiB (LOAD_FLUSH_BYTES). */
static void queue_pair(harness *h, CUevent start, CUevent stop)
{
    load_flush_ready(h);
    cuda_ok(h, h->cu.MemsetD8Async(h->load_flush, 0, h->load_flush_bytes, h->stream), "clearing the cache");
    if (start)
        cuda_ok(h, h->cu.EventRecord(start, h->stream), "recording an event");
    launch(h);
    if (stop)
        cuda_ok(h, h->cu.EventRecord(stop, h->stream), "recording an event");
}

/* The sustained load: (flush, launch) pairs of the current slot back to back for `ms` of wall
 * clock. The host queues a step of pairs, then waits for the step before the last one, so the
 * GPU always has work queued while the host never runs more than two steps ahead (a queue of
 * a thousand launches would outlast the load by as much). A step is about a quarter of the
 * load, one to eight pairs, from the warm-up's median. Returns with the last steps queued:
 * the samples queued next find the GPU busy. */
static void sustain(harness *h, double ms)
{
    double pair_ns = current(h)->median_ns > 0 ? current(h)->median_ns : 1e5;
    unsigned step = (unsigned)fmax(1, fmin(8, ms * 1e6 / 4 / pair_ns));
    double start = now_ms();
    for (unsigned k = 0;; k++) {
        for (unsigned i = 0; i < step; i++)
            queue_pair(h, NULL, NULL);
        cuda_ok(h, h->cu.EventRecord(h->mark[k % 2], h->stream), "recording an event");
        if (k > 0)
            cuda_ok(h, h->cu.EventSynchronize(h->mark[(k - 1) % 2]), "running the sustained load");
        if (now_ms() - start >= ms)
            break;
    }
}

/* Room for k (start, stop) event pairs: made when first needed, kept for the next blocks. */
static bool pair_events(harness *h, size_t k)
{
    if (h->pair_event_count >= 2 * k)
        return true;
    CUevent *grown = realloc(h->pair_events, 2 * k * sizeof *grown);
    if (!grown)
        return false;
    h->pair_events = grown;
    for (size_t i = h->pair_event_count; i < 2 * k; i++)
        cuda_ok(h, h->cu.EventCreate(&h->pair_events[i], CU_EVENT_DEFAULT), "creating events");
    h->pair_event_count = 2 * k;
    return true;
}

/* k launches' durations from CUPTI: the last k x (kernels per launch) records of the queue,
 * each launch its first kernel's start to its last kernel's end. False when records are
 * missing (the caller uses the events). */
static bool sustained_from_cupti(harness *h, int k, double *samples)
{
    kd_kernel_record *rec = NULL;
    size_t n = 0;
    unsigned per = current(h)->kernels_per_launch ? current(h)->kernels_per_launch : 1;
    bool ok = kd_cupti_collect_each(&rec, &n) == 0 && n >= (size_t)k * per;
    for (int i = 0; ok && i < k; i++) {
        const kd_kernel_record *first = &rec[n - (size_t)(k - i) * per], *last = first + per - 1;
        ok = last->end > first->start;
        samples[i] = (double)(last->end - first->start);
    }
    free(rec);
    return ok;
}

/* `time K` under the sustained load: the load first when due (after `mode`, a `place`, or a
 * block of the other slot), then K (flush, launch) pairs queued back to back, one sync at the
 * end. The SM clock is read while the GPU is busy: after the load, and once the pairs are
 * queued. */
static bool sustained_samples(harness *h, int k, double *samples, unsigned *clock0, unsigned *clock1)
{
    if (!pair_events(h, (size_t)k))
        return false;
    if (h->load_due || h->loaded_slot != server.cur) {
        sustain(h, h->sustained_ms);
        h->load_due = false;
        h->loaded_slot = server.cur;
    }
    if (h->nvml)
        kd_nvml_sm_clock(h->nvml, clock0);
    for (int i = 0; i < k; i++)
        queue_pair(h, h->pair_events[2 * i], h->pair_events[2 * i + 1]);
    if (h->nvml)
        kd_nvml_sm_clock(h->nvml, clock1);
    cuda_ok(h, h->cu.EventSynchronize(h->pair_events[2 * k - 1]), "running the kernel");
    if (h->timer == TIMER_CUPTI && sustained_from_cupti(h, k, samples))
        return true;
    if (h->timer == TIMER_CUPTI) { /* records went missing: stay consistent for the rest of the run */
        h->timer = TIMER_EVENTS;
        snprintf(h->timer_note, sizeof h->timer_note, "CUPTI returned too few kernel records");
    }
    for (int i = 0; i < k; i++) {
        float ms = 0;
        cuda_ok(h, h->cu.EventElapsedTime(&ms, h->pair_events[2 * i], h->pair_events[2 * i + 1]), "reading the events");
        samples[i] = (double)ms * 1e6;
    }
    return true;
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
    if (!samples || (h->sustained_ms && !sustained_samples(h, k, samples, &clock0, &clock1))) {
        kd_proto_reply("err alloc host memory for %d samples", k);
        free(samples);
        return;
    }
    h->block_kernels_min = h->block_kernels_max = 0;
    for (int i = 0; i < k && !h->sustained_ms; i++)
        samples[i] = sample(h);
    if (h->nvml) { /* under the sustained load, the clocks were read while the GPU was busy */
        if (!h->sustained_ms)
            kd_nvml_sm_clock(h->nvml, &clock1);
        kd_nvml_clock_reasons(h->nvml, &r1);
    }
    unsigned long long reasons = (r0 | r1) & ~(unsigned long long)KD_REASON_GPU_IDLE;
    printf("ok time clock0=%u clock1=%u reasons=0x%llx throttled=%d ", clock0, clock1, reasons,
           (reasons & KD_REASONS_THROTTLE) != 0);
    if (h->block_kernels_max && !h->sustained_ms)
        printf("kernels=%u-%u ", h->block_kernels_min, h->block_kernels_max);
    printf("samples=");
    for (int i = 0; i < k; i++)
        printf("%s%.1f", i ? "," : "", samples[i]);
    kd_proto_reply("%s", "");
    free(samples);
}

/* Fills an output with the poison pattern, on the device when the pattern is one word. */
static void poison_output(harness *h, kd_server_arg *a)
{
    size_t elements = (size_t)a->count * (size_t)a->lanes, size = kd_dtype_size(a->dtype);
    unsigned char pattern[8] = {0};
    kd_fill_poison(a->dtype, pattern, 1);
    uint16_t p16;
    uint32_t p32;
    memcpy(&p16, pattern, 2);
    memcpy(&p32, pattern, 4);
    if (size == 1)
        cuda_ok(h, h->cu.MemsetD8Async(a->device, pattern[0], elements, h->stream), "poisoning outputs");
    else if (size == 2)
        cuda_ok(h, h->cu.MemsetD16Async(a->device, p16, elements, h->stream), "poisoning outputs");
    else if (size == 4)
        cuda_ok(h, h->cu.MemsetD32Async(a->device, p32, elements, h->stream), "poisoning outputs");
    else {
        void *host = malloc(a->bytes ? a->bytes : 1);
        if (!host) {
            kd_proto_reply("err alloc host memory to poison an output (%zu bytes)", a->bytes);
            exit(3);
        }
        kd_fill_poison(a->dtype, host, elements);
        upload(h, a->device, host, a->bytes, "poisoning outputs");
        free(host);
    }
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
    cuda_ok(h, h->cu.MemsetD32Async(layout.counts, 0, 2, h->stream), "clearing region counts");
    upload(h, global, &layout, sizeof layout, "setting kd_regions");
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
static kd_server_arg *proton_scratch(harness_slot *slot)
{
    unsigned seen = 0;
    for (size_t i = 0; i < slot->srv->nargs && !slot->launcher; i++)
        if (slot->srv->args[i].is_scratch && ++seen == 2)
            return slot->srv->args[i].bytes ? &slot->srv->args[i] : NULL;
    return NULL;
}

/* `regions` for a Triton side (src/regions/proton.h): LAUNCHES launches, L2 flushed and the
 * profile scratch zeroed before each, Proton's per-warp circular buffers read back and
 * converted into PATH's record file. Every block records (STRIDE is not used: Proton has no
 * block sampling), Proton sizes its buffers (nor is CAPACITY) and there is no calibration
 * kernel (record_cycles=0). */
static void regions_proton(harness *h, harness_slot *slot, kd_server_arg *scratch, unsigned long launches,
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
        cuda_ok(h, h->cu.MemsetD8Async(scratch->device, 0, scratch->bytes, h->stream), "clearing the profile scratch");
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
        kd_proton_scratch proton = {device, cta_bytes, (uint32_t)blocks, warps_per_cta};
        if (host && kd_proton_to_records(&proton, head.capacity, host, why, sizeof why) == 0)
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
 * (src/regions/region_records.h). Afterwards kd_regions keeps pointing at these rings, so timing the
 * instrumented kernel measures the instrumentation that was recorded (set_up_regions). */
static void regions(harness *h, kd_words *w)
{
    harness_slot *slot = current(h);
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
    kd_server_arg *proton = global ? NULL : proton_scratch(slot);
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
        cuda_ok(h, h->cu.MemsetD32Async(layout.counts, 0, 2 * head.warps, h->stream), "clearing region counts");
        /* A warp with no kernel context writes no end to its header: 0 says so. */
        cuda_ok(h, h->cu.MemsetD32Async(layout.headers, 0, 2 * KD_REGION_HEADER_WORDS * head.warps, h->stream), "clearing region headers");
        upload(h, global, &layout, sizeof layout, "setting kd_regions");
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
    upload(h, global, &layout, sizeof layout, "setting kd_regions");
    int failed = ferror(f) || fclose(f) != 0 ? errno : 0;
    if (failed)
        kd_proto_reply("err io writing %s failed: %s", w->word[4], strerror(failed));
    else
        kd_proto_reply("ok regions warps=%u launches=%lu bytes=%zu record_cycles=%llu blocks=%llu", head.warps,
                       launches, sizeof head + launches * bytes, cost, blocks);
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

static bool cuda_restore(kd_server *s, kd_server_arg *a, const char *doing);

/* The entries `names` (NULL-terminated) of the PTX module `ptx` into fns, for the counter
 * passes' preparation kernels, loaded on first use. On failure every one is NULL and stderr
 * says that `what` did not load and what follows for the passes (`consequence`). */
static void prep_kernels(harness *h, const char *ptx, const char *const *names, CUfunction *fns, const char *what,
                         const char *consequence)
{
    CUmodule m;
    CUresult rc = ptx ? h->cu.ModuleLoadData(&m, ptx) : CUDA_ERROR_OUT_OF_MEMORY;
    for (size_t i = 0; names[i] && rc == 0; i++)
        rc = h->cu.ModuleGetFunction(&fns[i], m, names[i]);
    if (rc == 0)
        return;
    for (size_t i = 0; names[i]; i++)
        fns[i] = NULL;
    char text[256];
    fprintf(stderr, "kerndiff-harness: %s did not load (%s): %s\n", what,
            kd_cuda_describe(&h->cu, rc, text, sizeof text), consequence);
}

/* kd_icache's PTX (KD_CUPTI_PREP_ICACHE): ICACHE_INSNS dependent multiply-adds of distinct
 * constants, straight-line (~16 bytes of SASS each, 384 KiB: more than an SM's instruction
 * caches hold), the result stored only if it equals a value it never takes, so that none is
 * dropped. malloc'ed; NULL when out of memory. */
enum { ICACHE_INSNS = 24576 };
static char *icache_ptx(void)
{
    static const char head[] = ".version 7.4\n.target sm_80\n.address_size 64\n"
                               ".visible .entry kd_icache(.param .u64 p, .param .u32 m)\n{\n"
                               "  .reg .pred %p<2>;\n  .reg .b32 %r<3>;\n  .reg .b64 %rd<2>;\n"
                               "  ld.param.u64 %rd1, [p];\n  ld.param.u32 %r2, [m];\n  mov.u32 %r1, %tid.x;\n",
                      tail[] = "  setp.ne.u32 %p1, %r1, 1515870810;\n  @%p1 bra DONE;\n  st.global.u32 [%rd1], %r1;\n"
                               "DONE:\n  ret;\n}\n";
    size_t size = sizeof head + sizeof tail + (size_t)ICACHE_INSNS * 48;
    char *ptx = malloc(size), *end = ptx;
    if (!ptx)
        return NULL;
    end += sprintf(end, "%s", head);
    for (unsigned i = 0; i < ICACHE_INSNS; i++)
        end += sprintf(end, "  mad.lo.u32 %%r1, %%r1, %%r2, %u;\n", i * 2654435761u + 1);
    sprintf(end, "%s", tail);
    return ptx;
}

/* Runs kd_icache on every SM, a warp on each of its partitions (KD_CUPTI_PREP_ICACHE). */
static void evict_instructions(harness *h)
{
    static CUfunction icache;
    static int sms;
    static bool tried;
    if (!tried) {
        tried = true;
        static const char *const names[] = {"kd_icache", NULL};
        char *ptx = icache_ptx();
        prep_kernels(h, ptx, names, &icache, "the instruction-cache eviction kernel",
                     "counter passes start with the kernel's instructions cached");
        free(ptx);
        h->cu.DeviceGetAttribute(&sms, CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT, h->dev);
    }
    if (!icache)
        return;
    unsigned multiplier = 3;
    void *params[] = {&h->flush, &multiplier};
    cuda_ok(h, h->cu.LaunchKernel(icache, (unsigned)(sms > 0 ? 2 * sms : 264), 1, 1, 128, 1, 1, 0, h->stream, params,
                                  NULL),
            "evicting instructions from the SMs' caches");
}

/* Reads one word per 64 KiB of a 4 GiB buffer of its own (1 GiB where that does not fit) with
 * kd_stride (KD_CUPTI_PREP_TLB): the translations the kernel's buffers left in the GPU's TLBs
 * are evicted, as a profiler that starts each pass from scratch may leave them. */
static void evict_translations(harness *h, CUfunction stride)
{
    static CUdeviceptr buffer;
    static unsigned long long bytes;
    static bool tried;
    if (!tried) {
        tried = true;
        for (bytes = 4ull << 30; bytes >= (1ull << 30) && h->cu.MemAlloc(&buffer, bytes) != 0; bytes /= 2)
            ;
        if (bytes < (1ull << 30)) {
            buffer = 0;
            fprintf(stderr, "kerndiff-harness: no GPU memory for the TLB eviction buffer: counter passes start with "
                            "the last pass's translations\n");
        }
    }
    if (!buffer)
        return;
    unsigned long long step = 64 << 10, count = bytes / step;
    void *params[] = {&buffer, &count, &step};
    cuda_ok(h, h->cu.LaunchKernel(stride, 256, 1, 1, 256, 1, 1, 0, h->stream, params, NULL),
            "evicting address translations");
}

/* Before each counter pass: the slot's buffers back to their seeded contents (every one before
 * the first pass; an in-out buffer before each, so that each pass reads what the first read),
 * scratch zeroed, then L2 prepared as kd_cupti_l2_prep() says (KERNDIFF_COUNTER_PREP, the
 * steps of cupti_profiler.h; tests/gpu/counters_experiment.sh compares them with ncu). The
 * default: the flush's memset, then kd_touch reads it (see touch_ptx). */
static void before_counter_pass(void *ctx, size_t pass)
{
    /* kd_discard: one 128-byte L2 line per thread and loop step, invalidated without being
     * written back (the flush buffer's contents are never read). kd_stride: one word every
     * `stride` bytes (ld.global.cg), so that the kernel finds its pages' translations. */
    static const char prep_ptx[] =
        ".version 7.4\n.target sm_80\n.address_size 64\n"
        ".visible .entry kd_discard(.param .u64 p, .param .u64 lines)\n{\n"
        "  .reg .pred %p<2>;\n  .reg .b32 %r<5>;\n  .reg .b64 %rd<10>;\n"
        "  ld.param.u64 %rd1, [p];\n  ld.param.u64 %rd2, [lines];\n"
        "  mov.u32 %r1, %ctaid.x;\n  mov.u32 %r2, %ntid.x;\n  mov.u32 %r3, %tid.x;\n  mov.u32 %r4, %nctaid.x;\n"
        "  cvt.u64.u32 %rd3, %r1;\n  cvt.u64.u32 %rd4, %r2;\n  cvt.u64.u32 %rd5, %r3;\n  cvt.u64.u32 %rd6, %r4;\n"
        "  mul.lo.u64 %rd7, %rd3, %rd4;\n  add.u64 %rd7, %rd7, %rd5;\n  mul.lo.u64 %rd8, %rd6, %rd4;\n"
        "LOOP:\n  setp.ge.u64 %p1, %rd7, %rd2;\n  @%p1 bra END;\n"
        "  shl.b64 %rd9, %rd7, 7;\n  add.u64 %rd9, %rd1, %rd9;\n  discard.global.L2 [%rd9], 128;\n"
        "  add.u64 %rd7, %rd7, %rd8;\n  bra LOOP;\n"
        "END:\n  ret;\n}\n"
        ".visible .entry kd_stride(.param .u64 p, .param .u64 count, .param .u64 stride)\n{\n"
        "  .reg .pred %p<3>;\n  .reg .b32 %r<8>;\n  .reg .b64 %rd<12>;\n"
        "  ld.param.u64 %rd1, [p];\n  ld.param.u64 %rd2, [count];\n  ld.param.u64 %rd11, [stride];\n"
        "  mov.u32 %r1, %ctaid.x;\n  mov.u32 %r2, %ntid.x;\n  mov.u32 %r3, %tid.x;\n  mov.u32 %r4, %nctaid.x;\n"
        "  cvt.u64.u32 %rd3, %r1;\n  cvt.u64.u32 %rd4, %r2;\n  cvt.u64.u32 %rd5, %r3;\n  cvt.u64.u32 %rd6, %r4;\n"
        "  mul.lo.u64 %rd7, %rd3, %rd4;\n  add.u64 %rd7, %rd7, %rd5;\n  mul.lo.u64 %rd8, %rd6, %rd4;\n"
        "  mov.u32 %r5, 0;\n"
        "LOOP:\n  setp.ge.u64 %p1, %rd7, %rd2;\n  @%p1 bra END;\n"
        "  mul.lo.u64 %rd9, %rd7, %rd11;\n  add.u64 %rd10, %rd1, %rd9;\n  ld.global.cg.u32 %r6, [%rd10];\n"
        "  xor.b32 %r5, %r5, %r6;\n  add.u64 %rd7, %rd7, %rd8;\n  bra LOOP;\n"
        "END:\n  setp.ne.u32 %p2, %r5, 1515870810;\n  @%p2 bra DONE;\n  st.global.u32 [%rd1], %r5;\n"
        "DONE:\n  ret;\n}\n";
    enum { PAGE = 64 << 10, CU_LIMIT_PERSISTING_L2 = 6 };
    static int steps = -1;
    static CUfunction discard, stride;
    static CUresult (*set_limit)(int, size_t), (*reset_persisting)(void);
    harness *h = ctx;
    if (steps < 0) {
        steps = (int)kd_cupti_l2_prep();
        static const char *const names[] = {"kd_discard", "kd_stride", NULL};
        CUfunction fns[2] = {NULL, NULL};
        if (steps & (KD_CUPTI_PREP_DISCARD | KD_CUPTI_PREP_PAGES | KD_CUPTI_PREP_TLB))
            prep_kernels(h, prep_ptx, names, fns, "the L2 preparation kernels",
                         "counter passes go without them");
        discard = fns[0];
        stride = fns[1];
        void *f = dlsym(h->cu.lib, "cuCtxSetLimit");
        memcpy(&set_limit, &f, sizeof f);
        f = dlsym(h->cu.lib, "cuCtxResetPersistingL2Cache");
        memcpy(&reset_persisting, &f, sizeof f);
    }
    kd_server_slot *slot = kd_server_current(&server);
    for (size_t i = 0; i < slot->nargs; i++) {
        kd_server_arg *a = &slot->args[i];
        /* After the first pass only what the kernel reads and writes: an input is not written
         * (that is what makes it one) and an output's old contents are not read, so copying
         * them again (hundreds of MB, every pass) would change no counter. */
        if (!a->is_buffer || a->share >= 0 || (pass > 0 && !a->is_inout && !a->is_scratch))
            continue;
        if (a->is_scratch) {
            if (a->bytes)
                cuda_ok(h, h->cu.MemsetD8Async(a->device, 0, a->bytes, h->stream), "zeroing scratch");
        } else if (!cuda_restore(&server, a, "restoring buffers between counter passes")) {
            kd_proto_reply("err alloc host memory for argument %zu (%zu bytes)", i, a->bytes);
            exit(3);
        }
    }
    if (steps & KD_CUPTI_PREP_ICACHE) /* first: its code passes through L2, which the flush then clears */
        evict_instructions(h);
    if ((steps & KD_CUPTI_PREP_TLB) && stride) /* first too: its reads pass through L2 */
        evict_translations(h, stride);
    if (steps & KD_CUPTI_PREP_MEMSET)
        cuda_ok(h, h->cu.MemsetD8Async(h->flush, h->flush_value++, h->flush_bytes, h->stream), "flushing L2");
    if ((steps & KD_CUPTI_PREP_TOUCH) && !h->touch_tried) {
        static const char *const names[] = {"kd_touch", NULL};
        h->touch_tried = true;
        prep_kernels(h, touch_ptx, names, &h->touch, "the L2 clean-up kernel",
                     "counter passes start with the flush's dirty lines in L2");
    }
    if ((steps & KD_CUPTI_PREP_TOUCH) && h->touch) {
        unsigned long long sectors = h->flush_bytes / 32;
        void *params[] = {&h->flush, &sectors};
        cuda_ok(h, h->cu.LaunchKernel(h->touch, 1024, 1, 1, 256, 1, 1, 0, h->stream, params, NULL),
                "cleaning L2 after the flush");
    }
    if ((steps & KD_CUPTI_PREP_DISCARD) && discard) {
        unsigned long long lines = h->flush_bytes / 128;
        void *params[] = {&h->flush, &lines};
        cuda_ok(h, h->cu.LaunchKernel(discard, 1024, 1, 1, 256, 1, 1, 0, h->stream, params, NULL),
                "discarding the flush's lines from L2");
    }
    for (size_t i = 0; (steps & KD_CUPTI_PREP_PAGES) && stride && i < slot->nargs; i++) {
        kd_server_arg *a = &slot->args[i];
        if (!a->is_buffer || a->share >= 0 || !a->device || !a->bytes)
            continue;
        unsigned long long count = (a->bytes + PAGE - 1) / PAGE, step = PAGE;
        void *params[] = {&a->device, &count, &step};
        cuda_ok(h, h->cu.LaunchKernel(stride, 64, 1, 1, 256, 1, 1, 0, h->stream, params, NULL),
                "reading the buffers' pages");
    }
    cuda_ok(h, h->cu.StreamSynchronize(h->stream), "flushing L2");
    /* Best effort: a driver without these (or a GPU without persisting L2) leaves L2 as is. */
    if ((steps & KD_CUPTI_PREP_LIMIT) && set_limit && set_limit(CU_LIMIT_PERSISTING_L2, 1 << 20) == 0)
        set_limit(CU_LIMIT_PERSISTING_L2, 0);
    if ((steps & KD_CUPTI_PREP_RESET) && reset_persisting)
        reset_persisting();
}

static void counter_launch(void *ctx)
{
    harness *h = ctx;
    launch(h);
    cuda_ok(h, h->cu.StreamSynchronize(h->stream), "running the kernel");
}

/* Replies `err counters unavailable|unknown|failed WHY` for a profile that did not succeed;
 * false (nothing said) for one that did. */
static bool refused(kd_cupti_status st, const char *why)
{
    if (st == KD_CUPTI_UNAVAILABLE)
        kd_proto_reply("err counters unavailable %s", why);
    else if (st == KD_CUPTI_UNKNOWN)
        kd_proto_reply("err counters unknown %s", why);
    else if (st != KD_CUPTI_OK)
        kd_proto_reply("err counters failed %s", why);
    return st != KD_CUPTI_OK;
}

/* `prepare-counters NAME[,NAME...]`: the host work of a later `counters` with these names
 * (cupti_profiler.h's kd_cupti_prepare), done while kerndiff waits on the other children.
 * The timer is left as it is: nothing is launched or profiled. */
static void prepare_counters(harness *h, kd_words *w)
{
    const char *names[KD_COUNTERS_MAX_METRICS];
    long n = kd_counters_names(w, names, KD_COUNTERS_MAX_METRICS);
    if (n < 0)
        return;
    if (!server.ready) {
        kd_proto_reply("err protocol prepare-counters before setup");
        return;
    }
    double ms = 0;
    char why[1024];
    kd_cupti_status st = kd_cupti_prepare(
        &(kd_cupti_request){.ctx = h->ctx, .device = (int)h->dev, .metrics = names, .n = (size_t)n}, &ms, why,
        sizeof why);
    if (!refused(st, why))
        kd_proto_reply("ok prepare-counters ms=%.1f", ms);
}

/* `counters NAME[,NAME...]`: the current slot's launch profiled in this process
 * (cupti_profiler.h), as many passes as the metrics need. */
static void counters(harness *h, kd_words *w)
{
    const char *names[KD_COUNTERS_MAX_METRICS];
    long n = kd_counters_names(w, names, KD_COUNTERS_MAX_METRICS);
    if (n < 0)
        return;
    if (!server.ready || !kd_server_current(&server)->loaded) {
        kd_proto_reply("err protocol counters before setup");
        return;
    }
    cuda_ok(h, h->cu.CtxSynchronize(), "synchronizing");
    /* A harness handed over by the timing pass still records kernel activity; with it on, the
     * H100 gave 0 for every SASS-instrumented metric and 1.5x the instructions. The next
     * timing command starts the timer again. */
    if (h->timer == TIMER_CUPTI) {
        kd_cupti_stop();
        h->timer = TIMER_UNSET;
    }
    kd_cupti_pass_ops ops = {.ctx = h, .before_pass = before_counter_pass, .launch = counter_launch};
    kd_cupti_result r;
    char why[1024];
    kd_cupti_status st = kd_cupti_profile(
        &(kd_cupti_request){.ctx = h->ctx, .device = (int)h->dev, .metrics = names, .n = (size_t)n, .ops = &ops}, &r,
        why, sizeof why);
    if (refused(st, why))
        return;
    const char *kernels[KD_CUPTI_MAX_RANGES];
    for (size_t k = 0; k < r.ranges; k++)
        kernels[k] = r.names[k];
    kd_counters_reply_profiler(r.cupti_version, r.l2);
    kd_counters_reply(r.ranges, kernels, r.values, (size_t)n, r.passes, r.kernel_replay ? "kernel" : "user");
    free(r.values);
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
    for (int i = 0; i < 2 && rc == 0; i++)
        rc = h->cu.EventCreate(&h->mark[i], 0x2 /* CU_EVENT_DISABLE_TIMING: a mark is only waited on */);
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

/* The device-operations table (harness/vendor.h): the server's buffers live in CUDA memory. */
static int cuda_alloc(kd_server *s, kd_devptr *p, size_t bytes, char *why, size_t why_size)
{
    harness *h = s->vendor;
    CUresult rc = h->cu.MemAlloc(p, bytes ? bytes : 1);
    if (rc != 0)
        kd_cuda_describe(&h->cu, rc, why, why_size);
    return rc;
}

static void cuda_free(kd_server *s, kd_devptr p)
{
    harness *h = s->vendor;
    h->cu.MemFree(p);
}

static bool cuda_restore(kd_server *s, kd_server_arg *a, const char *doing)
{
    harness *h = s->vendor;
    const void *contents = kd_server_seeded(s, a);
    if (contents)
        upload(h, a->device, contents, a->bytes, doing);
    return contents != NULL;
}

/* After what the launches' stream holds (an audit's copies): the copy itself is on the legacy
 * stream, which does not wait for a non-blocking one. */
static void cuda_download(kd_server *s, void *dst, kd_devptr src, size_t bytes, const char *doing)
{
    harness *h = s->vendor;
    cuda_ok(h, h->cu.StreamSynchronize(h->stream), doing);
    cuda_ok(h, h->cu.MemcpyDtoH(dst, src, bytes), doing);
}

/* On the launches' stream, ordered before the next launch, copy and download there; not
 * waited for (an audit's six copies each waited for cost a sync each, inside the timing). */
static void cuda_copy(kd_server *s, const kd_device_copy *c, const char *doing)
{
    harness *h = s->vendor;
    if (!c->bytes)
        return;
    cuda_ok(h, h->cu.MemcpyDtoDAsync(c->dst + c->dst_off, c->src + c->src_off, c->bytes, h->stream), doing);
}

/* Pinned host memory of at least `bytes` for an audit's samples, NULL where none can be had
 * (the sample is then read into pageable memory). A 2-D copy into pageable memory is staged by
 * the driver row by row; into pinned memory it is one transfer. */
static void *staging(harness *h, size_t bytes)
{
    if (h->staging_bytes >= bytes)
        return h->staging;
    if (h->staging)
        h->cu.MemFreeHost(h->staging);
    h->staging = NULL;
    h->staging_bytes = 0;
    if (bytes > STAGING_MAX_BYTES || h->cu.MemHostAlloc(&h->staging, bytes, 0) != 0) {
        h->staging = NULL;
        return NULL;
    }
    h->staging_bytes = bytes;
    return h->staging;
}

/* Queues one 2-D copy on the launches' stream: `count` rows of `chunk` bytes, `pitch` apart
 * on the device, packed at host. */
static void queue_sample(harness *h, void *host, kd_devptr src, const kd_audit_sample *smp, const char *doing)
{
    CUDA_MEMCPY2D c = {.srcMemoryType = CU_MEMORYTYPE_DEVICE, .srcDevice = src + smp->first, .srcPitch = smp->pitch,
                       .dstMemoryType = CU_MEMORYTYPE_HOST, .dstHost = host, .dstPitch = smp->chunk,
                       .WidthInBytes = smp->chunk, .Height = smp->count};
    if (smp->chunk && smp->count)
        cuda_ok(h, h->cu.Memcpy2DAsync(&c, h->stream), doing);
}

static void cuda_download_sample(kd_server *s, void *dst, kd_devptr src, const kd_audit_sample *smp, const char *doing)
{
    harness *h = s->vendor;
    size_t bytes = kd_audit_sample_bytes(smp);
    void *pinned = staging(h, bytes);
    queue_sample(h, pinned ? pinned : dst, src, smp, doing);
    cuda_ok(h, h->cu.StreamSynchronize(h->stream), doing);
    if (pinned && bytes)
        memcpy(dst, pinned, bytes);
}

/* Every read queued into one pinned block, one wait, then each copied out. Reads that do not
 * fit the staging block go one by one. */
static void cuda_download_samples(kd_server *s, const kd_sample_read *reads, size_t n, const char *doing)
{
    harness *h = s->vendor;
    size_t total = 0;
    for (size_t i = 0; i < n; i++)
        total += kd_audit_sample_bytes(&reads[i].sample);
    unsigned char *pinned = total <= STAGING_MAX_BYTES ? staging(h, total) : NULL;
    if (!pinned) {
        for (size_t i = 0; i < n; i++)
            cuda_download_sample(s, reads[i].dst, reads[i].src, &reads[i].sample, doing);
        return;
    }
    for (size_t i = 0, at = 0; i < n; at += kd_audit_sample_bytes(&reads[i].sample), i++)
        queue_sample(h, pinned + at, reads[i].src, &reads[i].sample, doing);
    cuda_ok(h, h->cu.StreamSynchronize(h->stream), doing);
    for (size_t i = 0, at = 0; i < n; at += kd_audit_sample_bytes(&reads[i].sample), i++)
        if (kd_audit_sample_bytes(&reads[i].sample))
            memcpy(reads[i].dst, pinned + at, kd_audit_sample_bytes(&reads[i].sample));
}

static void cuda_zero(kd_server *s, kd_devptr p, size_t bytes, const char *doing)
{
    harness *h = s->vendor;
    cuda_ok(h, h->cu.MemsetD8Async(p, 0, bytes, h->stream), doing);
}

static void cuda_poison(kd_server *s, kd_server_arg *a) { poison_output(s->vendor, a); }

static void cuda_guard_set(kd_server *s, kd_server_arg *a)
{
    harness *h = s->vendor;
    cuda_ok(h, h->cu.MemsetD8Async(a->device + a->bytes, KD_BOUNDS_GUARD_BYTE, a->guard, h->stream),
            "setting the bounds guard");
}

static size_t cuda_guard_reach(kd_server *s, kd_server_arg *a)
{
    harness *h = s->vendor;
    unsigned char *host = malloc(a->guard);
    if (!host)
        return 0; /* no host memory to look: the check's own reads will say so */
    cuda_ok(h, h->cu.StreamSynchronize(h->stream), "reading the bounds guard");
    cuda_ok(h, h->cu.MemcpyDtoH(host, a->device + a->bytes, a->guard), "reading the bounds guard");
    size_t reach = a->guard;
    while (reach && host[reach - 1] == KD_BOUNDS_GUARD_BYTE)
        reach--;
    free(host);
    return reach;
}

static void cuda_launch_and_wait(kd_server *s, int check_run)
{
    harness *h = s->vendor;
    (void)check_run;
    launch(h);
    cuda_ok(h, h->cu.StreamSynchronize(h->stream), "running the kernel");
}

static void cuda_sample_launch(kd_server *s) { (void)sample(s->vendor); }

static void *cuda_stream_arg(kd_server *s) { return &((harness *)s->vendor)->stream; }

static unsigned long long cuda_address(kd_server *s, int slot, size_t k, kd_devptr p)
{
    (void)s, (void)slot, (void)k;
    return p;
}

static bool cuda_load(kd_server *s, kd_words *w) { return load(s->vendor, w); }

/* After a slot's buffers: its instrumented kernel's idle rings, its shared memory limit. */
static bool cuda_slot_ready(kd_server *s, int index)
{
    harness *h = s->vendor;
    harness_slot *slot = &h->slot[index];
    if (!set_up_regions(h, slot))
        return false;
    if (slot->kernel && slot->srv->smem > 48 * 1024)
        cuda_ok(h, h->cu.FuncSetAttribute(slot->kernel, CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES,
                                          (int)slot->srv->smem),
                "raising the dynamic shared memory limit");
    /* more than 8 blocks in a cluster (16 on an H100) is allowed only when asked for; a GPU
     * that has no such size refuses the launch, which says so */
    const unsigned *c = slot->srv->cluster;
    if (slot->kernel && (unsigned long long)c[0] * c[1] * c[2] > 8)
        h->cu.FuncSetAttribute(slot->kernel, CU_FUNC_ATTRIBUTE_NON_PORTABLE_CLUSTER_SIZE_ALLOWED, 1);
    return true;
}

static bool cuda_all_ready(kd_server *s)
{
    harness *h = s->vendor;
    return allocate(h, &h->flush, h->flush_bytes, "the L2 flush buffer");
}

static void cuda_release(kd_server *s)
{
    harness *h = s->vendor;
    if (h->load_flush && h->load_flush != h->flush)
        h->cu.MemFree(h->load_flush);
    h->load_flush = 0;
    h->load_flush_bytes = 0;
    if (h->flush)
        h->cu.MemFree(h->flush);
    h->flush = 0;
    for (int k = 0; k < KD_PROTO_MAX_SLOTS; k++)
        free_layout(h, &h->slot[k].timing_regions, &h->slot[k].timing_records);
}

/* After `reset`: the slots' kernels, the placement pad and the timing mode forgotten (the
 * buffers, the flush buffer and the region rings went with the server's release); the
 * context, the loaded modules and the timer stay. */
static void cuda_reset(kd_server *s)
{
    harness *h = s->vendor;
    if (h->pad)
        h->cu.MemFree(h->pad);
    h->pad = 0;
    for (int k = 0; k < KD_PROTO_MAX_SLOTS; k++)
        h->slot[k] = (harness_slot){.srv = &s->slot[k]};
    h->batch = h->sustained_ms = 0;
    h->load_due = false;
    h->loaded_slot = -1;
    kd_kernel_span ignored;
    if (h->timer == TIMER_CUPTI) /* records of this point's last launches: not the next one's */
        kd_cupti_collect(&ignored);
}

static bool cuda_command(kd_server *s, kd_words *w)
{
    harness *h = s->vendor;
    const char *cmd = w->word[0];
    if (!strcmp(cmd, "hello"))
        hello(h);
    else if (!strcmp(cmd, "place"))
        place(h, w);
    else if (!strcmp(cmd, "warmup"))
        warmup(h, w);
    else if (!strcmp(cmd, "mode"))
        mode(h, w);
    else if (!strcmp(cmd, "time"))
        time_samples(h, w);
    else if (!strcmp(cmd, "once"))
        once(h);
    else if (!strcmp(cmd, "counters"))
        counters(h, w);
    else if (!strcmp(cmd, "prepare-counters"))
        prepare_counters(h, w);
    else if (!strcmp(cmd, "regions"))
        regions(h, w);
    else if (!strcmp(cmd, "hotspots"))
        kd_pcs_command(s, w, h->ctx, (int)h->dev, NULL, cuda_launch_and_wait);
    else
        return false;
    return true;
}

static const kd_vendor cuda_vendor = {
    .name = "kerndiff-harness",
    .alloc = cuda_alloc,
    .free = cuda_free,
    .restore = cuda_restore,
    .download = cuda_download,
    .download_sample = cuda_download_sample,
    .download_samples = cuda_download_samples,
    .copy = cuda_copy,
    .zero = cuda_zero,
    .poison = cuda_poison,
    .guard_set = cuda_guard_set,
    .guard_reach = cuda_guard_reach,
    .launch_and_wait = cuda_launch_and_wait,
    .sample_launch = cuda_sample_launch,
    .stream_arg = cuda_stream_arg,
    .address = cuda_address,
    .command = cuda_command,
    .load = cuda_load,
    .slot_ready = cuda_slot_ready,
    .all_ready = cuda_all_ready,
    .release = cuda_release,
    .reset = cuda_reset,
};

int main(void)
{
    harness *h = &state;
    server.ops = &cuda_vendor;
    server.vendor = h;
    for (int k = 0; k < KD_PROTO_MAX_SLOTS; k++)
        h->slot[k].srv = &server.slot[k];
    h->region_launches = 1;
    if (start_cuda(h) != 0)
        return 2;
    kd_server_run(&server);
    kd_nvml_close(h->nvml);
    return 0;
}
