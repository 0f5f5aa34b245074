// kerndiff: block=128 grid=132 n=16896 iters=4096
/* Record cost: a dependent FMA chain with a region around every 16 steps (iters/16 regions
 * per warp, 2 records each). bench/regions_cost.sh times it plain and instrumented: the
 * extra cycles per record, and the overhead in percent. One block of 4 warps per SM (132
 * SMs on H100/H200): one warp per scheduler, so the extra time is what a record adds to a
 * warp's own path, not a share of an issue slot contended by other warps (the bench also
 * runs 16 warps per SM, where the scheduler is the limit). */
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
        KD_REGION_END(step);
    }
    if (i < n)
        out[i] = v;
}
