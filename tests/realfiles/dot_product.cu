// Dot product: per-block partial sums in dynamic shared memory (declared as raw bytes and
// cast), then one atomicAdd per block into *result.
extern __shared__ char smem_raw[];

__global__ void dot(const float *a, const float *b, float *result, int n) {
    float *cache = (float *)smem_raw;
    int tid = threadIdx.x;
    float sum = 0.0f;
    for (int i = blockIdx.x * blockDim.x + tid; i < n; i += blockDim.x * gridDim.x) sum += a[i] * b[i];
    cache[tid] = sum;
    __syncthreads();
    for (int s = blockDim.x / 2; s > 0; s >>= 1) {
        if (tid < s) cache[tid] += cache[tid + s];
        __syncthreads();
    }
    if (tid == 0) atomicAdd(result, cache[0]);
}
