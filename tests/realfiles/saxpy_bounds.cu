// y = a*x + y with a helper device function, compiled for at most 512 threads a block.
#define MAX_THREADS 512

__device__ __forceinline__ float fma_step(float a, float x, float y) { return fmaf(a, x, y); }

__global__ void __launch_bounds__(MAX_THREADS)
saxpy(int n, float a, const float *__restrict__ x, float *__restrict__ y) {
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x)
        y[i] = fma_step(a, x[i], y[i]);
}
