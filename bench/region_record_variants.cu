/* The record designs behind include/kerndiff/regions.h, measured apart from kerndiff:
 *   bench/region_record_variants.sh > bench/region_record_variants.txt   (on a GPU)
 * Each variant is a record context as the header's (a ring per warp in global memory,
 * records into it); a kernel runs `n` regions per warp, each either empty (records back to
 * back) or around 16 steps of a dependent FMA chain (records among work), and times its
 * loop with %clock64. Extra cycles per record = (cycles with the variant - cycles with no
 * records) / records, the best of 5 runs, averaged over warps. "every block records" shows
 * what a record costs a recording warp; "only block 0 records" what the markers cost the
 * others under block sampling (nearly every warp there is not recording). */
#include <cstdio>
#include <cstdlib>
#include <cuda_runtime.h>

struct rings {
    unsigned long long *base; /* warp w's ring at base + w * capacity, aligned to its size */
    unsigned ring_bytes;      /* 8 * capacity */
    unsigned block_mask;      /* a block records when its index & block_mask is 0 */
};

__device__ __forceinline__ unsigned clock32()
{
    unsigned t;
    asm volatile("mov.u32 %0, %%clock;" : "=r"(t)::"memory");
    return t;
}
__device__ __forceinline__ unsigned warp_id() { return (blockIdx.x * blockDim.x + threadIdx.x) >> 5; }
__device__ __forceinline__ unsigned long long ring_of(rings r)
{
    return (unsigned long long)r.base + (unsigned long long)warp_id() * r.ring_bytes;
}

struct no_records {
    __device__ no_records(rings) {}
    __device__ void record(unsigned, unsigned) {}
};

/* The shipped record: 64 bits (%clock | (id << 1 | end) << 32); the previous record stored,
 * so no store waits for its clock read; address add and mask; SAMPLED: a branch around it.
 * CLOCK64: the clock read as %clock64, record %clock64 << 8 | id << 1 | end: ptxas reads a
 * 64-bit clock with CS2R, whose result is ready at a fixed latency, where a 32-bit %clock
 * goes through S2UR to a uniform register and its first use waits on a scoreboard.
 * DENSE: every warp's ring one record long, the rings 16 bytes apart (the layout kerndiff
 * timed the instrumented kernel with before it kept the recorded rings for that). */
template <bool SAMPLED, bool CLOCK64 = false, bool DENSE = false> struct record64 {
    unsigned long long at, pending;
    unsigned mask;
    bool on;
    __device__ record64(rings r)
    {
        mask = DENSE ? 7 : r.ring_bytes - 1;
        at = DENSE ? (unsigned long long)r.base + 16ull * warp_id() : ring_of(r);
        pending = 0;
        on = (blockIdx.x & r.block_mask) == 0;
    }
    __device__ __forceinline__ void record(unsigned id, unsigned end)
    {
        if (SAMPLED && !on)
            return;
        unsigned long long next;
        if (CLOCK64) {
            unsigned long long t;
            asm volatile("mov.u64 %0, %%clock64;" : "=l"(t)::"memory");
            next = t << 8 | (id << 1 | end);
        } else {
            next = (unsigned long long)(id << 1 | end) << 32 | clock32();
        }
        asm volatile("st.global.u64 [%0], %1;" ::"l"(at), "l"(pending) : "memory");
        at = (at & ~(unsigned long long)mask) | ((at + 8) & mask);
        pending = next;
    }
};

/* 32 bits: the low 24 bits of %clock << 8 | id << 1 | end (a host unwraps the clock).
 * SAMPLING 0: every block, no test; 1: a branch around the record; 2: only the store
 * predicated (every block reads the clock and advances). LANE0: only lane 0 stores. */
template <int SAMPLING, bool LANE0> struct record32 {
    unsigned long long ring;
    unsigned offset, pending, mask;
    bool on, writer;
    __device__ record32(rings r)
    {
        mask = r.ring_bytes / 2 - 1;
        ring = ring_of(r);
        offset = 0;
        pending = 0;
        on = (blockIdx.x & r.block_mask) == 0;
        writer = (threadIdx.x & 31) == 0;
    }
    __device__ __forceinline__ void record(unsigned id, unsigned end)
    {
        if (SAMPLING == 1 && !on)
            return;
        unsigned t = clock32();
        if ((SAMPLING != 2 || on) && (!LANE0 || writer))
            asm volatile("st.global.u32 [%0], %1;" ::"l"(ring | (offset & mask)), "r"(pending) : "memory");
        offset += 4;
        pending = t << 8 | id << 1 | end;
    }
};

/* The floors: a clock read and pack with no store; a store with no clock read. */
struct clock_only {
    unsigned acc;
    __device__ clock_only(rings) { acc = 0; }
    __device__ __forceinline__ void record(unsigned id, unsigned end) { acc ^= clock32() << 8 | id << 1 | end; }
    __device__ ~clock_only()
    {
        if (acc == 12345u)
            asm volatile("trap;");
    }
};
struct store_only {
    unsigned long long ring;
    unsigned offset, mask;
    __device__ store_only(rings r)
    {
        mask = r.ring_bytes / 2 - 1;
        ring = ring_of(r);
        offset = 0;
    }
    __device__ __forceinline__ void record(unsigned, unsigned)
    {
        asm volatile("st.global.u32 [%0], %1;" ::"l"(ring | (offset & mask)), "r"(offset) : "memory");
        offset += 4;
    }
};

template <class Record, int WORK> __global__ void regions(rings r, float *sink, long long *cycles, int n)
{
    Record rec(r);
    float v = threadIdx.x * 1e-3f, a = 0.999f, b = 0.001f;
    __syncthreads();
    long long t0 = clock64();
    for (int k = 0; k < n; k++) {
        rec.record(3, 0);
#pragma unroll
        for (int j = 0; j < WORK; j++)
            v = fmaf(v, a, b);
        asm volatile("" : "+f"(v)); /* keeps the chain inside the region */
        rec.record(3, 1);
    }
    long long t1 = clock64();
    if (v == 12345.f)
        sink[0] = v;
    if ((threadIdx.x & 31) == 0)
        cycles[warp_id()] = t1 - t0;
}

struct shape {
    int blocks, threads, n;
    rings r;
    float *sink;
    long long *cycles;
};

template <class Record, int WORK> static double mean_cycles(const shape &s)
{
    int warps = s.blocks * s.threads / 32;
    long long *host = (long long *)malloc(sizeof(long long) * warps);
    double best = 1e300;
    for (int rep = 0; rep < 5; rep++) {
        regions<Record, WORK><<<s.blocks, s.threads>>>(s.r, s.sink, s.cycles, s.n);
        cudaError_t e = cudaDeviceSynchronize();
        if (e != cudaSuccess) {
            fprintf(stderr, "region_record_variants: %s\n", cudaGetErrorString(e));
            exit(1);
        }
        cudaMemcpy(host, s.cycles, sizeof(long long) * warps, cudaMemcpyDeviceToHost);
        double sum = 0;
        for (int i = 0; i < warps; i++)
            sum += host[i];
        if (sum / warps < best)
            best = sum / warps;
    }
    free(host);
    return best;
}

template <class Record, int WORK> static void row(const char *name, const shape &s)
{
    double extra = mean_cycles<Record, WORK>(s) - mean_cycles<no_records, WORK>(s);
    printf("  %-58s %6.1f\n", name, extra / (2.0 * s.n));
}

template <int WORK> static void table(shape s, unsigned block_mask)
{
    s.r.block_mask = block_mask;
    printf("%s, %d warps per SM (block %d, grid %d), %s: extra cycles per record\n",
           WORK ? "16 dependent FMAs per region" : "empty regions", s.threads / 32 * (s.blocks / 132), s.threads,
           s.blocks, block_mask ? "only block 0 records" : "every block records");
    row<record64<false>, WORK>("64-bit, store the previous (shipped, --region-blocks all)", s);
    row<record64<true>, WORK>("64-bit, sampling branch (shipped, default)", s);
    row<record64<false, true>, WORK>("64-bit from %clock64 (CS2R), no sampling test", s);
    row<record64<true, true>, WORK>("64-bit from %clock64 (CS2R), sampling branch", s);
    if (!block_mask)
        row<record64<false, false, true>, WORK>("64-bit (shipped), one-record rings 16 B apart", s);
    row<record32<0, false>, WORK>("32-bit, store the previous, no sampling test", s);
    row<record32<1, false>, WORK>("32-bit, sampling branch", s);
    row<record32<2, false>, WORK>("32-bit, sampling by a predicated store", s);
    row<record32<0, true>, WORK>("32-bit, lane 0 stores", s);
    if (!block_mask) {
        row<clock_only, WORK>("floor: clock read and pack, no store", s);
        row<store_only, WORK>("floor: a 32-bit store, no clock read", s);
    }
}

int main()
{
    cudaDeviceProp p;
    if (cudaGetDeviceProperties(&p, 0) != cudaSuccess) {
        fprintf(stderr, "region_record_variants: no GPU\n");
        return 1;
    }
    printf("# %s, %d SMs\n", p.name, p.multiProcessorCount);
    const unsigned capacity = 1024, max_warps = 264 * 8;
    shape s = {132, 128, 512, {}, nullptr, nullptr};
    s.r.ring_bytes = 8 * capacity;
    unsigned long long *raw;
    cudaMalloc(&raw, (size_t)max_warps * s.r.ring_bytes + s.r.ring_bytes);
    s.r.base = (unsigned long long *)(((size_t)raw + s.r.ring_bytes - 1) & ~(size_t)(s.r.ring_bytes - 1));
    cudaMalloc(&s.sink, 4);
    cudaMalloc(&s.cycles, max_warps * sizeof(long long));
    for (unsigned block_mask : {0u, ~0u}) {
        s.blocks = 132, s.threads = 128;
        table<0>(s, block_mask);
        table<16>(s, block_mask);
        s.blocks = 264, s.threads = 256;
        table<16>(s, block_mask);
    }
    return 0;
}
