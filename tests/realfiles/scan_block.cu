// Inclusive scan of each block (Hillis-Steele), as in the original KernDiff examples: the
// shared array is sized by the block-size macro, so the kernel must run with 128 threads.
#define BLOCK_SIZE 128

__global__ void block_scan(float *output, const float *input, int n) {
    __shared__ float temp[BLOCK_SIZE];
    int tid = threadIdx.x;
    int gid = blockIdx.x * BLOCK_SIZE + tid;
    temp[tid] = gid < n ? input[gid] : 0.0f;
    __syncthreads();
    for (int offset = 1; offset < BLOCK_SIZE; offset *= 2) {
        float add = tid >= offset ? temp[tid - offset] : 0.0f;
        __syncthreads();
        temp[tid] += add;
        __syncthreads();
    }
    if (gid < n) output[gid] = temp[tid];
}
