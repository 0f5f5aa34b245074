// kerndiff: block=256 grid=ceil(n/256) n=8M partial=ceil(n/256)
/* Warp shuffles: each warp sums its 32 values in registers, then one warp sums the 8. */
#define BLOCK 256
__global__ void block_sum(const unsigned* in, unsigned* partial, int n)
{
    __shared__ unsigned w[BLOCK / 32];
    unsigned t = threadIdx.x;
    int i = blockIdx.x * BLOCK + t;
    unsigned v = i < n ? in[i] : 0u;
    for (int o = 16; o > 0; o /= 2)
        v += __shfl_down_sync(0xffffffffu, v, o);
    if (t % 32 == 0)
        w[t / 32] = v;
    __syncthreads();
    if (t < 32) {
        v = t < BLOCK / 32 ? w[t] : 0u;
        for (int o = 4; o > 0; o /= 2)
            v += __shfl_down_sync(0xffffffffu, v, o);
        if (t == 0)
            partial[blockIdx.x] = v;
    }
}
