// kerndiff: block=256 grid=ceil(n/256) n=8M partial=ceil(n/256)
/* One thread of the block adds the 256 values one after another (the others only load). */
#define BLOCK 256
__global__ void block_sum(const unsigned* in, unsigned* partial, int n)
{
    __shared__ unsigned s[BLOCK];
    unsigned t = threadIdx.x;
    int i = blockIdx.x * BLOCK + t;
    s[t] = i < n ? in[i] : 0u;
    __syncthreads();
    if (t == 0) {
        unsigned v = 0;
        for (int k = 0; k < BLOCK; k++)
            v += s[k];
        partial[blockIdx.x] = v;
    }
}
