// kerndiff: n=1M out=1 partial=ceil(n/256)
/* crossover, v2 — the same sum in two kernels: each block reduces 256 values in shared
 * memory into partial[], then one block adds the partials and makes one atomicAdd. Two
 * launches cost more than v1 on tiny inputs; no contention makes it far faster on large
 * ones. See v1.cu. */
#include <kerndiff/launcher.h>

__global__ void block_sums(const int *x, unsigned long long *partial, int n)
{
    __shared__ unsigned long long s[256];
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    s[threadIdx.x] = i < n ? (unsigned long long)x[i] : 0;
    __syncthreads();
    for (int stride = blockDim.x / 2; stride > 0; stride /= 2) {
        if (threadIdx.x < stride)
            s[threadIdx.x] += s[threadIdx.x + stride];
        __syncthreads();
    }
    if (threadIdx.x == 0)
        partial[blockIdx.x] = s[0];
}

__global__ void finish(const unsigned long long *partial, unsigned long long *out, int blocks)
{
    __shared__ unsigned long long s[1024];
    unsigned long long mine = 0;
    for (int i = threadIdx.x; i < blocks; i += blockDim.x)
        mine += partial[i];
    s[threadIdx.x] = mine;
    __syncthreads();
    for (int stride = blockDim.x / 2; stride > 0; stride /= 2) {
        if (threadIdx.x < stride)
            s[threadIdx.x] += s[threadIdx.x + stride];
        __syncthreads();
    }
    if (threadIdx.x == 0)
        atomicAdd(out, s[0]);
}

KERNDIFF_LAUNCHER void sum(const int *x, unsigned long long *partial, unsigned long long *out, int n,
                           cudaStream_t stream)
{
    int blocks = (n + 255) / 256;
    block_sums<<<blocks, 256, 0, stream>>>(x, partial, n);
    finish<<<1, 1024, 0, stream>>>(partial, out, blocks);
}
