/* kerndiff/regions.h — time regions inside a CUDA kernel, and diff them between versions.
 *
 *     #include <kerndiff/regions.h>
 *
 *     __global__ void matmul(...)
 *     {
 *         for (int t = 0; t < tiles; t++) {
 *             KD_REGION_BEGIN(load);
 *             ... global -> shared ...
 *             __syncthreads();
 *             KD_REGION_END(load);
 *             KD_REGION(mma);           // scoped: ends where the enclosing block ends
 *             ... inner product ...
 *         }
 *     }
 *
 * Names are identifiers (not strings): kerndiff assigns each an id when it builds the
 * instrumented variant (`kerndiff --regions`), passing -DKERNDIFF_REGIONS and
 * -DKD_REGION_ID_<name>=<id>. In every other build the markers expand to nothing, so the
 * same file is timed plain and profiled instrumented, and the markers can stay in.
 * Regions nest and may sit in loops and in __device__ functions.
 *
 * What a marker does in the instrumented build. kerndiff declares a record context,
 * `kd_region_ctx`, at the top of every kernel body of the file it instruments (on the same
 * line, so diagnostics keep their line numbers). The context lives in registers: the
 * warp's ring in global memory (its place comes from a __constant__ that the harness sets
 * with cuModuleGetGlobal, so the kernel's signature does not change), the ring index, and
 * the last record. A marker reads %clock, stores the *previous* record and keeps the new
 * one, so no record waits for its own clock read (the store on the outside of the region:
 * after an END's clock read, before a BEGIN's); the last is stored when the kernel
 * returns (the context's destructor), with the warp's count and %globaltimer and %clock
 * there, which give the SM clock of the launch. The ring is aligned to its
 * size, so advancing in it is an add and a mask. A record is 8 bytes: the
 * 32-bit %clock and id << 1 | end. At its start the context writes the warp's header:
 * %globaltimer, %smid and %clock, which place warps of all SMs on one time axis.
 *
 * Only a sample of the blocks records: those whose linear index is a multiple of
 * 2^block_shift (kerndiff's --region-blocks; by default about 1 in 8 when the grid has enough
 * blocks). In the other blocks a marker reads the clock and stores nothing (its store is
 * predicated off); where keeping the context live in those blocks would cost the kernel a
 * block per SM, kerndiff defines KD_REGION_BRANCHED and every marker there is a branch
 * around the record instead.
 *
 * A marker orders memory accesses, not arithmetic: the compiler may move a computation that
 * touches no memory across it (a chain of FMAs on registers can drift past the END marker
 * and be timed as nothing). KD_REGION_KEEP(v) pins v there: before an END, v is computed
 * inside the region; after a BEGIN, v's later uses stay after it. v is a variable of a 4- or
 * 8-byte arithmetic type (float, int, double ...), an array of such (float acc[8]), or a
 * struct of 4-byte words (float4). Like the markers, it is nothing in a plain build.
 *
 *     KD_REGION_BEGIN(mma);
 *     for (int k = 0; k < 32; k++) acc[k & 7] += a[k] * b[k];
 *     KD_REGION_KEEP(acc);
 *     KD_REGION_END(mma);
 *
 * Markers are for warp-uniform code (all lanes of a warp reach them together, as with
 * __syncthreads): a warp whose lanes recorded different numbers of markers (markers in
 * lane-divergent branches) is flagged and left out, and kerndiff says how many were.
 *
 * Warp-specialised kernels: KD_REGION_GROUP(name, warps) says that from here on the warp
 * works for the group `name`, whose warps are aligned runs of `warps` warps of the block (4:
 * a Hopper warpgroup), all doing the same. One warp of each run records for it (the first;
 * the others' markers cost a branch), and kerndiff shows each region with the group that
 * recorded it and names the tracks of the timeline by group. Call it in a kernel body, at a
 * point every lane of the warp reaches together, before the warp's first marker (what the
 * other warps of a run recorded before it is not kept); `warps` is 1 to 32. Group names are
 * identifiers, a namespace of their own.
 *
 *     if (warp / 4 == 0) { KD_REGION_GROUP(producer, 4); ... }
 *     else               { KD_REGION_GROUP(consumer, 4); ... }
 *
 * Markers outside a kernel body of the instrumented file (in __device__ functions, or in
 * kernels of included headers) find no local context: `kd_region_ctx` names a
 * namespace-scope fallback there, which keeps the warp's index in shared memory (slower:
 * about 90 cycles a record on H100, against about 27) and writes a second ring of the
 * warp; the host merges both rings by clock. */
#ifndef KERNDIFF_REGIONS_H
#define KERNDIFF_REGIONS_H

#if defined(KERNDIFF_REGIONS) && defined(__CUDACC__)

/* The layout the harness writes into kd_regions before each launch. Keep in step with
 * src/regions/region_records.h and harness/cuda_harness.c (which merges the streams into its file). */
struct kd_region_layout {
    unsigned long long *records; /* [warp][stream][capacity]: stream 0 from the kernel's context,
                                    stream 1 from the fallback; %clock | (id << 1 | end) << 32;
                                    aligned to 8 * capacity bytes */
    unsigned long long *headers; /* [warp][4]: %globaltimer, %smid << 32 | %clock, at the warp's
                                    start (KD_REGION_GROUP sets bits 48..55, its group's id, and
                                    56..63, its warps, of the second); %globaltimer and %clock where
                                    its kernel context ends */
    unsigned *counts;            /* [warp][stream]: records written (dropped: count - capacity);
                                    bit 31 of stream 0's: the warp's lanes disagreed */
    unsigned capacity;           /* records per stream and warp, a power of two */
    unsigned launch;             /* a new value every launch: tags the fallback's shared-memory index */
    unsigned ring_mask;          /* 8 * capacity - 1: read where used, so it needs no register */
    unsigned block_mask;         /* 2^block_shift - 1: a block records when its index & block_mask is 0 */
    unsigned block_shift;        /* the warps of recording block b are those of block b >> block_shift */
};

extern "C" __constant__ kd_region_layout kd_regions;
__constant__ kd_region_layout kd_regions;

static __device__ __forceinline__ unsigned kd_region_clock()
{
    unsigned t;
    asm volatile("mov.u32 %0, %%clock;" : "=r"(t) :: "memory");
    return t;
}

static __device__ __forceinline__ unsigned kd_region_thread_in_block()
{
    return threadIdx.x + blockDim.x * (threadIdx.y + blockDim.y * threadIdx.z);
}

static __device__ __forceinline__ unsigned kd_region_warp_in_block() { return kd_region_thread_in_block() >> 5; }

static __device__ __forceinline__ unsigned kd_region_block()
{
    return blockIdx.x + gridDim.x * (blockIdx.y + gridDim.y * blockIdx.z);
}

/* Whether this block records (block-uniform). With --region-blocks all kerndiff defines
 * KD_REGION_EVERY_BLOCK: no test at all. */
static __device__ __forceinline__ bool kd_region_block_records()
{
#ifdef KD_REGION_EVERY_BLOCK
    return true;
#else
    return (kd_region_block() & kd_regions.block_mask) == 0;
#endif
}

/* The warp's place among the recording blocks' warps: block-major. */
static __device__ __forceinline__ unsigned long long kd_region_warp_slot()
{
    unsigned warps = (blockDim.x * blockDim.y * blockDim.z + 31) >> 5;
    return (unsigned long long)(kd_region_block() >> kd_regions.block_shift) * warps + kd_region_warp_in_block();
}

static __device__ __forceinline__ unsigned long long kd_region_pack(unsigned id, unsigned end, unsigned clock)
{
    return (unsigned long long)(id << 1 | end) << 32 | clock;
}

/* The warp's four header words (see kd_region_layout.headers). */
static __device__ __forceinline__ unsigned long long *kd_region_header(unsigned long long slot)
{
    return kd_regions.headers + 4 * slot;
}

/* %globaltimer and %clock read back to back, for the header's start and end: their spans
 * give the SM clock, and cycles between the two reads (a cold constant-cache miss before
 * the first store is a few hundred) would count in one span and not the other. */
static __device__ __forceinline__ void kd_region_now(unsigned long long &global, unsigned &clock)
{
    asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(global));
    clock = kd_region_clock();
}

static __device__ __forceinline__ void kd_region_write_header(unsigned long long slot)
{
    unsigned long long global;
    unsigned clock, sm;
    kd_region_now(global, clock);
    asm volatile("mov.u32 %0, %%smid;" : "=r"(sm));
    kd_region_header(slot)[0] = global;
    kd_region_header(slot)[1] = (unsigned long long)sm << 32 | clock;
}

/* The fallback's per-warp state in shared memory: this launch and block's tag << 32, bit 31
 * when the warp's header is written, bit 30 when a group's other warp records for this one,
 * and the index. The tag makes initialisation needless. */
#define KD_REGION_HEADER_DONE 0x80000000u
#define KD_REGION_SILENT 0x40000000u
#define KD_REGION_INDEX_MASK 0x3fffffffu
static __device__ __forceinline__ unsigned long long *kd_region_fallback_state()
{
    __shared__ unsigned long long state[32];
    return state;
}

static __device__ __forceinline__ unsigned kd_region_tag()
{
    return (kd_regions.launch * 2654435761u) ^ kd_region_block();
}

/* The fast path: one per kernel body, in registers. Every active lane executes the same
 * stores to the same address with the same value, which the memory system merges into
 * one: no lane election, no branch. */
struct kd_region_context {
    /* Five registers and a predicate live through the kernel: the markers' cost in registers
     * can cost a block per SM (kerndiff reports it), so nothing is kept that can be recomputed. */
    unsigned long long at;      /* the address of the next store: the warp's stream 0 ring,
                                   aligned to its size, so advancing is an add and a mask */
    unsigned long long pending; /* the newest record, not yet stored */
    unsigned index;             /* records so far */
    bool on;                    /* this block records */

    __device__ __forceinline__ kd_region_context()
    {
        index = 0;
        at = 0;
        pending = 0;
        on = kd_region_block_records();
        if (!on)
            return;
        unsigned long long slot = kd_region_warp_slot();
        /* The first store (a placeholder, at index 0) goes to the ring's last slot, which the
         * host does not read unless the ring wraps, and then it holds a real record. */
        at = (unsigned long long)(kd_regions.records + 2 * slot * kd_regions.capacity) + kd_regions.ring_mask - 7;
        kd_region_write_header(slot);
        kd_region_fallback_state()[kd_region_warp_in_block()] =
            (unsigned long long)kd_region_tag() << 32 | KD_REGION_HEADER_DONE;
    }

    /* Stores the previous record, so no store waits for its own clock read. A warp of a
     * block that does not record runs the same instructions with the store predicated off
     * (ptxas then reads the clock with a fixed-latency CS2R): a branch around the record
     * makes every marker wait for the warp's outstanding loads and stores, about 40 cycles
     * a record in the recording warps against 17 (bench/region_record_variants.txt). The
     * branch frees the context's registers in the other blocks, though: when the predicated
     * build would run fewer blocks per SM than the plain one, kerndiff builds it with
     * KD_REGION_BRANCHED. */
    __device__ __forceinline__ void record(unsigned id, unsigned end)
    {
#ifdef KD_REGION_BRANCHED
        if (!on)
            return;
#endif
        /* The bookkeeping goes outside the region: an END reads the clock first, a BEGIN
         * last. Inside it, it would issue while the region's first instructions wait on
         * their operands, adding nothing to a latency-bound region and its whole cost to a
         * short issue-bound one: the calibrated cost could not be subtracted from both. */
        unsigned clock = end ? kd_region_clock() : 0u;
        if (on)
            asm volatile("st.global.u64 [%0], %1;" ::"l"(at), "l"(pending) : "memory");
        at = (at & ~(unsigned long long)kd_regions.ring_mask) | ((at + 8) & kd_regions.ring_mask);
        if (!end)
            clock = kd_region_clock();
        pending = kd_region_pack(id, end, clock);
        index++;
    }

    /* KD_REGION_GROUP: the first warp of each aligned run of `warps` records for the run,
     * and says so in its header; the others stop recording, here and in the fallback. */
    __device__ __forceinline__ void group(unsigned id, unsigned warps)
    {
        if (!on)
            return;
        unsigned warp = kd_region_warp_in_block();
        warps = warps - 1 < 32 ? warps : 1;
        if (warp % warps) {
            on = false;
            kd_region_fallback_state()[warp] |= KD_REGION_SILENT;
            return;
        }
        unsigned short *tag = reinterpret_cast<unsigned short *>(&kd_region_header(kd_region_warp_slot())[1]);
        tag[3] = (unsigned short)(id | warps << 8);
    }

    __device__ __forceinline__ ~kd_region_context()
    {
        if (!on)
            return;
        if (index)
            asm volatile("st.global.u64 [%0], %1;" ::"l"(at), "l"(pending) : "memory");
        unsigned flag = 0;
#if __CUDA_ARCH__ >= 800
        /* Lanes leaving together must have recorded alike (lanes that left early and
         * recorded nothing do not count). */
        unsigned active = __activemask();
        unsigned most = __reduce_max_sync(active, index), least = __reduce_min_sync(active, index ? index : ~0u);
        flag = index && least != most ? KD_REGION_HEADER_DONE : 0u;
#endif
        unsigned long long slot = kd_region_warp_slot();
        if (index)
            atomicMax(&kd_regions.counts[2 * slot], index | flag);
        /* The end of the warp's span: with its start, it places the warp and measures the
         * SM clock (cycles per ns) of this very launch. */
        unsigned long long global;
        unsigned clock;
        kd_region_now(global, clock);
        kd_region_header(slot)[2] = global;
        kd_region_header(slot)[3] = clock;
    }
};

/* The slow path, for markers with no kernel context in scope. */
struct kd_region_fallback {
    __device__ __forceinline__ void record(unsigned id, unsigned end) const
    {
        if (!kd_region_block_records())
            return;
        unsigned clock = kd_region_clock();
        unsigned long long slot = kd_region_warp_slot(), *state = kd_region_fallback_state() + kd_region_warp_in_block();
        bool leader = (kd_region_thread_in_block() & 31) == (unsigned)(__ffs(__activemask()) - 1);
        unsigned tag = kd_region_tag();
        unsigned long long s = *state;
        bool mine = (unsigned)(s >> 32) == tag;
        if (mine && ((unsigned)s & KD_REGION_SILENT))
            return;
        unsigned index = mine ? (unsigned)s & KD_REGION_INDEX_MASK : 0u;
        bool header_done = mine && ((unsigned)s & KD_REGION_HEADER_DONE);
        *state = (unsigned long long)tag << 32 | KD_REGION_HEADER_DONE | (index + 1);
        if (leader) {
            kd_regions.records[(2 * slot + 1) * kd_regions.capacity + (index & (kd_regions.capacity - 1))] =
                kd_region_pack(id, end, clock);
            kd_regions.counts[2 * slot + 1] = index + 1;
            if (!header_done)
                kd_region_write_header(slot);
        }
    }

    /* Groups need the warp's context: outside a kernel body there is none. */
    template <class T = void> __device__ void group(unsigned, unsigned) const
    {
        static_assert(sizeof(T) == 0, "KD_REGION_GROUP belongs in a kernel body of the instrumented file, "
                                      "not in a __device__ function or an included header");
    }
};
static __device__ const kd_region_fallback kd_region_ctx = {};

/* KD_REGION_KEEP: an empty asm that reads and writes v, ordered with the markers' asm. */
static __device__ __forceinline__ void kd_region_keep(float &v) { asm volatile("" : "+f"(v)); }
static __device__ __forceinline__ void kd_region_keep(double &v) { asm volatile("" : "+d"(v)); }
static __device__ __forceinline__ void kd_region_keep(int &v) { asm volatile("" : "+r"(v)); }
static __device__ __forceinline__ void kd_region_keep(unsigned &v) { asm volatile("" : "+r"(v)); }
static __device__ __forceinline__ void kd_region_keep(long long &v) { asm volatile("" : "+l"(v)); }
static __device__ __forceinline__ void kd_region_keep(unsigned long long &v) { asm volatile("" : "+l"(v)); }
/* An array element by element, each by its own type (a float as a float). */
template <class T, unsigned N> static __device__ __forceinline__ void kd_region_keep(T (&v)[N])
{
#pragma unroll
    for (unsigned i = 0; i < N; i++)
        kd_region_keep(v[i]);
}
/* Anything else (float4, a struct) word by word. */
template <class T> static __device__ __forceinline__ void kd_region_keep(T &v)
{
    static_assert(sizeof(T) % 4 == 0, "KD_REGION_KEEP wants 4- or 8-byte arithmetic values, arrays of them, or structs of 4-byte words");
    unsigned *word = reinterpret_cast<unsigned *>(&v);
#pragma unroll
    for (unsigned i = 0; i < sizeof(T) / 4; i++)
        asm volatile("" : "+r"(word[i]));
}

template <class Context> struct kd_region_scope {
    Context &context;
    unsigned id;
    __device__ __forceinline__ kd_region_scope(Context &c, unsigned i) : context(c), id(i) { context.record(id, 0); }
    __device__ __forceinline__ ~kd_region_scope() { context.record(id, 1); }
};

#define KD_REGION_BEGIN(name) kd_region_ctx.record(KD_REGION_ID_##name, 0)
#define KD_REGION_END(name) kd_region_ctx.record(KD_REGION_ID_##name, 1)
#define KD_REGION_KEEP(v) kd_region_keep(v)
#define KD_REGION_GROUP(name, warps) kd_region_ctx.group(KD_REGION_GROUP_ID_##name, (warps))
#define KD_REGION_CAT2(a, b) a##b
#define KD_REGION_CAT(a, b) KD_REGION_CAT2(a, b)
#define KD_REGION(name)                                                                                            \
    kd_region_scope<decltype(kd_region_ctx)> KD_REGION_CAT(kd_region_scope_, __LINE__)(kd_region_ctx,              \
                                                                                         KD_REGION_ID_##name)

/* What the instrumented build inserts after the `{` of every kernel body. */
#define KD_REGION_KERNEL_CONTEXT kd_region_context kd_region_ctx;

#else

#define KD_REGION_BEGIN(name) ((void)0)
#define KD_REGION_END(name) ((void)0)
#define KD_REGION(name) ((void)0)
#define KD_REGION_KEEP(v) ((void)0)
#define KD_REGION_GROUP(name, warps) ((void)0)

#endif
#endif
