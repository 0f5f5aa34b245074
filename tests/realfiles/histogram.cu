// 256-bin byte histogram: per-block bins in shared memory, merged with atomics. The bins
// buffer is read and written (accumulated into), never just written.
#define NUM_BINS 256

__global__ void histogram256(const unsigned char *data, unsigned int *bins, int n) {
    __shared__ unsigned int local[NUM_BINS];
    int tid = threadIdx.x;
    local[tid] = 0;
    __syncthreads();
    for (int i = blockIdx.x * blockDim.x + tid; i < n; i += blockDim.x * gridDim.x)
        atomicAdd(&local[data[i]], 1u);
    __syncthreads();
    atomicAdd(&bins[tid], local[tid]);
}
