// kerndiff: block=256 grid=ceil(n/1024) n=8M partial=ceil(n/256)
/* Warp shuffles, four 256-element chunks per block (a quarter of the blocks): each warp
 * sums 32 values of every chunk with shuffles. */
#define BLOCK 256
#define CHUNKS 4
__global__ void block_sum(const unsigned* in, unsigned* partial, int n)
{
    __shared__ unsigned w[CHUNKS][BLOCK / 32];
    unsigned t = threadIdx.x;
    for (int c = 0; c < CHUNKS; c++) {
        int i = (blockIdx.x * CHUNKS + c) * BLOCK + t;
        unsigned v = i < n ? in[i] : 0u;
        for (int o = 16; o > 0; o /= 2)
            v += __shfl_down_sync(0xffffffffu, v, o);
        if (t % 32 == 0)
            w[c][t / 32] = v;
    }
    __syncthreads();
    if (t < CHUNKS * 32) {
        unsigned c = t / 32, l = t % 32;
        unsigned v = l < BLOCK / 32 ? w[c][l] : 0u;
        for (int o = 4; o > 0; o /= 2)
            v += __shfl_down_sync(0xffffffffu, v, o);
        unsigned b = blockIdx.x * CHUNKS + c;
        if (l == 0 && b * BLOCK < (unsigned)n)
            partial[b] = v;
    }
}
