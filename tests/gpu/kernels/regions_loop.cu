// kerndiff: block=256 grid=264 n=67584 iters=4096
/* Record cost: a dependent FMA chain with a region around every 16 steps (iters/16 regions
 * per warp, 2 records each). bench/regions_cost.sh times it plain and instrumented: the
 * extra cycles per record, and the overhead in percent. */
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
