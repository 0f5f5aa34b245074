// kerndiff: block=384 grid=264 n=101376
/* Warp groups (KD_REGION_GROUP): a warp-specialised block of three warpgroups (12 warps),
 * the first a producer whose `produce` region spins 2k cycles, the other two consumers whose
 * `consume` region spins 6k. One warp of each warpgroup records for it, so 3 warps a block
 * record and 9 do not; the region table must show `produce` [producer] and `consume`
 * [consumer] at their cycle counts, and the trace name each track by its group.
 * tests/gpu/run.sh checks it. */
#include <kerndiff/regions.h>

__device__ __forceinline__ void spin(long long cycles)
{
    long long start = clock64();
    while (clock64() - start < cycles)
        ;
}

__global__ void regions_groups(float *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    unsigned warpgroup = threadIdx.x / 128;
    if (warpgroup == 0) {
        KD_REGION_GROUP(producer, 4);
        for (int rep = 0; rep < 4; rep++) {
            KD_REGION(produce);
            spin(2000);
        }
    } else {
        KD_REGION_GROUP(consumer, 4);
        for (int rep = 0; rep < 4; rep++) {
            KD_REGION(consume);
            spin(6000);
        }
    }
    if (i < n)
        out[i] = (float)i;
}
