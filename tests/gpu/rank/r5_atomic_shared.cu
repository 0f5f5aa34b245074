// kerndiff: block=256 grid=ceil(n/256) n=8M partial=ceil(n/256)
/* Every thread adds into one shared word with atomicAdd: 256 serialised updates a block. */
#define BLOCK 256
__global__ void block_sum(const unsigned* in, unsigned* partial, int n)
{
    __shared__ unsigned total;
    unsigned t = threadIdx.x;
    int i = blockIdx.x * BLOCK + t;
    if (t == 0)
        total = 0;
    __syncthreads();
    atomicAdd(&total, i < n ? in[i] : 0u);
    __syncthreads();
    if (t == 0)
        partial[blockIdx.x] = total;
}
