// kerndiff: block=256 grid=ceil(n/256) n=8M partial=ceil(n/256)
/* Sequential addressing down to 64, then the last warp unrolled with shuffles. */
#define BLOCK 256
__global__ void block_sum(const unsigned* in, unsigned* partial, int n)
{
    __shared__ unsigned s[BLOCK];
    unsigned t = threadIdx.x;
    int i = blockIdx.x * BLOCK + t;
    s[t] = i < n ? in[i] : 0u;
    __syncthreads();
    for (unsigned stride = BLOCK / 2; stride > 32; stride /= 2) {
        if (t < stride)
            s[t] += s[t + stride];
        __syncthreads();
    }
    if (t < 32) {
        unsigned v = s[t] + s[t + 32];
        for (int o = 16; o > 0; o /= 2)
            v += __shfl_down_sync(0xffffffffu, v, o);
        if (t == 0)
            partial[blockIdx.x] = v;
    }
}
