// A small "application" for `kerndiff app` on a real GPU: STEPS steps, each three
// elementwise kernels (add, scale, relu) or, built with -DFUSED, one fused kernel doing the
// same; one device-to-host copy of a checksum per step. Each step is an NVTX range named
// "step" (for --range), and CUDA events around all steps give an independent measure of
// the GPU time, appended to the file named by argv[3]. Before each step a spin kernel
// (outside the range) holds the GPU while the step's launches are queued, so the events
// measure the kernels, not the host's launch latency. Built with -DSTART_END, the steps are
// nvtxRangeStartA/nvtxRangeEnd ranges instead of push/pop ones (both are --range's).
// usage: steps N_ELEMENTS STEPS EVENTS_FILE [LAUNCHES_PER_STEP_SCALE]
#include <cstdio>
#include <cstdlib>
#include <nvtx3/nvToolsExt.h>

__global__ void add(const float *a, const float *b, float *y, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) y[i] = a[i] + b[i];
}
__global__ void scale(float *y, float s, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) y[i] *= s;
}
__global__ void relu(float *y, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) y[i] = y[i] > 0.f ? y[i] : 0.f;
}
__global__ void spin(long long cycles)
{
    long long t0 = clock64();
    while (clock64() - t0 < cycles) {}
}
__global__ void fused(const float *a, const float *b, float *y, float s, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) { float v = (a[i] + b[i]) * s; y[i] = v > 0.f ? v : 0.f; }
}

int main(int argc, char **argv)
{
    if (argc < 4) { fprintf(stderr, "usage: steps N STEPS EVENTS_FILE\n"); return 2; }
    int n = atoi(argv[1]), steps = atoi(argv[2]);
    float *a, *b, *y, host;
    cudaMalloc(&a, n * sizeof(float)); cudaMalloc(&b, n * sizeof(float)); cudaMalloc(&y, n * sizeof(float));
    cudaMemset(a, 0, n * sizeof(float)); cudaMemset(b, 0, n * sizeof(float));
    dim3 block(256), grid((n + 255) / 256);
    // Warm-up step outside the ranges and the events.
    fused<<<grid, block>>>(a, b, y, 0.5f, n);
    cudaDeviceSynchronize();
    cudaEvent_t start, stop;
    cudaEventCreate(&start); cudaEventCreate(&stop);
    float total_ms = 0;
    for (int s = 0; s < steps; s++) {
        spin<<<1, 1>>>(2000000);  // about 1 ms
#ifdef START_END
        nvtxRangeId_t range = nvtxRangeStartA("step");
#else
        nvtxRangePushA("step");
#endif
        cudaEventRecord(start);
#ifdef FUSED
        fused<<<grid, block>>>(a, b, y, 0.5f, n);
#else
        add<<<grid, block>>>(a, b, y, n);
        scale<<<grid, block>>>(y, 0.5f, n);
        relu<<<grid, block>>>(y, n);
#endif
        cudaEventRecord(stop);
        cudaMemcpy(&host, y, sizeof host, cudaMemcpyDeviceToHost);  // the step's D2H sync
#ifdef START_END
        nvtxRangeEnd(range);
#else
        nvtxRangePop();
#endif
        float ms;
        cudaEventElapsedTime(&ms, start, stop);
        total_ms += ms;
    }
    cudaError_t err = cudaGetLastError();
    if (err != cudaSuccess) { fprintf(stderr, "CUDA error: %s\n", cudaGetErrorString(err)); return 1; }
    FILE *f = fopen(argv[3], "a");
    if (f) { fprintf(f, "%.6f\n", total_ms); fclose(f); }
    return 0;
}
