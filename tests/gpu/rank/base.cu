// kerndiff: block=256 grid=ceil(n/256) n=8M partial=ceil(n/256)
/* Reduction family for `kerndiff rank` (tests/gpu/rank/run.sh): every variant computes
 * partial[b] = sum of in[b*256 .. b*256+255] (unsigned: the sum wraps the same in any order,
 * so every correct variant matches the baseline exactly). The baseline: interleaved
 * addressing with a modulo test, the divergent textbook first version. */
#define BLOCK 256
__global__ void block_sum(const unsigned* in, unsigned* partial, int n)
{
    __shared__ unsigned s[BLOCK];
    unsigned t = threadIdx.x;
    int i = blockIdx.x * BLOCK + t;
    s[t] = i < n ? in[i] : 0u;
    __syncthreads();
    for (unsigned stride = 1; stride < BLOCK; stride *= 2) {
        if (t % (2 * stride) == 0)
            s[t] += s[t + stride];
        __syncthreads();
    }
    if (t == 0)
        partial[blockIdx.x] = s[0];
}
