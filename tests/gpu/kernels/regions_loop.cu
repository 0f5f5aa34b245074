// kerndiff: block=128 grid=132 n=16896 iters=4096
/* Record cost (bench/regions_cost.sh times each kernel plain and instrumented: the extra
 * cycles per record, and the overhead in percent). Two shapes, iters/16 regions per warp,
 * 2 records each:
 *   regions_loop        a region around every 16 steps of a dependent FMA chain: a record
 *                       among work, whose latency leaves issue slots for its instructions
 *   regions_loop_empty  empty regions, records back to back: a record's whole cost
 * The empty asm pins the chain's value inside its region: the compiler may move arithmetic
 * across a marker (a marker orders memory, not registers), and without it the FMAs leave
 * the regions. One block of 4 warps per SM (132 SMs on H100/H200): one warp per scheduler,
 * so the extra time is what a record adds to a warp's own path, not a share of an issue
 * slot contended by other warps (the bench also runs 16 warps per SM, where it is). */
#include <kerndiff/regions.h>

__global__ void regions_loop(const float *x, float *out, int iters, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    float v = i < n ? x[i] : 0.0f, a = 0.999f, b = 0.001f;
    for (int k = 0; k < iters; k += 16) {
        KD_REGION_BEGIN(step);
#pragma unroll
        for (int j = 0; j < 16; j++)
            v = fmaf(v, a, b);
        asm volatile("" : "+f"(v));
        KD_REGION_END(step);
    }
    if (i < n)
        out[i] = v;
}

__global__ void regions_loop_empty(const float *x, float *out, int iters, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    float v = i < n ? x[i] : 0.0f, a = 0.999f, b = 0.001f;
    for (int k = 0; k < iters; k += 16) {
        KD_REGION_BEGIN(step);
        KD_REGION_END(step);
    }
#pragma unroll 1
    for (int k = 0; k < iters; k++)
        v = fmaf(v, a, b);
    if (i < n)
        out[i] = v;
}
