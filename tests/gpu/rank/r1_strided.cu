// kerndiff: block=256 grid=ceil(n/256) n=8M partial=ceil(n/256)
/* Interleaved addressing without the modulo: contiguous active threads, strided shared
 * memory (bank conflicts). */
#define BLOCK 256
__global__ void block_sum(const unsigned* in, unsigned* partial, int n)
{
    __shared__ unsigned s[BLOCK];
    unsigned t = threadIdx.x;
    int i = blockIdx.x * BLOCK + t;
    s[t] = i < n ? in[i] : 0u;
    __syncthreads();
    for (unsigned stride = 1; stride < BLOCK; stride *= 2) {
        unsigned k = 2 * stride * t;
        if (k < BLOCK)
            s[k] += s[k + stride];
        __syncthreads();
    }
    if (t == 0)
        partial[blockIdx.x] = s[0];
}
