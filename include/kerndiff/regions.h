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
 * What a marker does in the instrumented build: the first active lane of the warp reads
 * %clock64 and stores one 8-byte record (region id, begin/end, 56 clock bits) into the
 * warp's ring in global memory, whose place comes from a __constant__ that the harness
 * sets (cuModuleGetGlobal), so the kernel's signature does not change. The ring keeps the
 * newest records; the count written tells how many were dropped. The warp's first record
 * also stores %globaltimer and %smid, which places warps of all SMs on one time axis. The
 * per-warp ring index lives in shared memory (8 bytes a warp), tagged by launch and block
 * so that no initialisation is needed. */
#ifndef KERNDIFF_REGIONS_H
#define KERNDIFF_REGIONS_H

#if defined(KERNDIFF_REGIONS) && defined(__CUDACC__)

/* The layout the harness writes into kd_regions before each launch. Keep in step with
 * src/regions/records.h (the host's reader). */
struct kd_region_layout {
    unsigned long long *records; /* [warp][capacity] */
    unsigned long long *headers; /* [warp][2]: globaltimer, smid << 32 | low 32 clock bits, at the first record */
    unsigned *counts;            /* [warp]: records the warp wrote (dropped: count - capacity) */
    unsigned capacity;           /* records per warp, a power of two */
    unsigned launch;             /* a new value every launch: tags the shared-memory index */
};

extern "C" __constant__ kd_region_layout kd_regions;
__constant__ kd_region_layout kd_regions;

#define KD_REGION_CLOCK_BITS 56

/* Every lane computes the same index and writes the same state (no lane waits for
 * another's store, and there is no divergent branch to reconverge); only the first active
 * lane stores the record. The header branch is the same for the whole warp. */
static __device__ __forceinline__ void kd_region_record(unsigned id, unsigned long long end)
{
    __shared__ unsigned long long kd_region_state[32];
    unsigned long long now;
    asm volatile("mov.u64 %0, %%clock64;" : "=l"(now));
    unsigned thread = threadIdx.x + blockDim.x * (threadIdx.y + blockDim.y * threadIdx.z);
    unsigned warp = thread >> 5;
    bool leader = (thread & 31) == (unsigned)(__ffs(__activemask()) - 1);
    unsigned block = blockIdx.x + gridDim.x * (blockIdx.y + gridDim.y * blockIdx.z);
    unsigned warps = (blockDim.x * blockDim.y * blockDim.z + 31) >> 5;
    unsigned long long slot = (unsigned long long)block * warps + warp;
    unsigned tag = (kd_regions.launch * 2654435761u) ^ block;
    unsigned long long state = kd_region_state[warp];
    unsigned index = (unsigned)(state >> 32) == tag ? (unsigned)state : 0u;
    kd_region_state[warp] = ((unsigned long long)tag << 32) | (index + 1);
    if (leader) {
        kd_regions.records[slot * kd_regions.capacity + (index & (kd_regions.capacity - 1))] =
            ((unsigned long long)id << 57) | (end << KD_REGION_CLOCK_BITS) |
            (now & ((1ull << KD_REGION_CLOCK_BITS) - 1));
        kd_regions.counts[slot] = index + 1;
    }
    if (index == 0) {
        unsigned long long global;
        unsigned sm;
        asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(global));
        asm volatile("mov.u32 %0, %%smid;" : "=r"(sm));
        if (leader) {
            kd_regions.headers[2 * slot] = global;
            kd_regions.headers[2 * slot + 1] = ((unsigned long long)sm << 32) | (now & 0xffffffffull);
        }
    }
}

struct kd_region_scope {
    unsigned id;
    __device__ __forceinline__ explicit kd_region_scope(unsigned i) : id(i) { kd_region_record(i, 0); }
    __device__ __forceinline__ ~kd_region_scope() { kd_region_record(id, 1); }
};

#define KD_REGION_BEGIN(name) kd_region_record(KD_REGION_ID_##name, 0)
#define KD_REGION_END(name) kd_region_record(KD_REGION_ID_##name, 1)
#define KD_REGION_CAT2(a, b) a##b
#define KD_REGION_CAT(a, b) KD_REGION_CAT2(a, b)
#define KD_REGION(name) kd_region_scope KD_REGION_CAT(kd_region_scope_, __LINE__)(KD_REGION_ID_##name)

#else

#define KD_REGION_BEGIN(name) ((void)0)
#define KD_REGION_END(name) ((void)0)
#define KD_REGION(name) ((void)0)

#endif
#endif
