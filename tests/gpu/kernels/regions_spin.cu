// kerndiff: block=128 grid=264 n=33792
/* Region accuracy: each region spins for a known number of cycles (%clock64), so the
 * region table must read 1k, 10k and 100k cycles (within 2%, and within 50 cycles for the
 * short one) more than `spin0`, the same spin asked for 0 cycles: what the spin itself costs
 * to start and to notice its end (its clock read, compare and branch) is in every spin and
 * is no error of the regions. `empty` (nothing between its markers) must read about 0 once a
 * record's cost is subtracted. Two blocks per SM (264 on 132 SMs). tests/gpu/run.sh checks it. */
#include <kerndiff/regions.h>

__device__ __forceinline__ void spin(long long cycles)
{
    long long start = clock64();
    while (clock64() - start < cycles)
        ;
}

__global__ void regions_spin(float *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    for (int rep = 0; rep < 4; rep++) {
        KD_REGION_BEGIN(spin0);
        spin(0);
        KD_REGION_END(spin0);
        KD_REGION_BEGIN(spin1k);
        spin(1000);
        KD_REGION_END(spin1k);
        KD_REGION_BEGIN(spin10k);
        spin(10000);
        KD_REGION_END(spin10k);
        KD_REGION_BEGIN(spin100k);
        spin(100000);
        KD_REGION_END(spin100k);
        KD_REGION_BEGIN(empty);
        KD_REGION_END(empty);
    }
    if (i < n)
        out[i] = (float)i;
}
