// prog.cu — the user's program of the capture test (issue 30, tests/gpu/capture/run.sh).
//
// One kernel launched three ways, each with its own sizes and buffers: <<<>>> (launches
// 1..REPS), cudaLaunchKernelEx with a cluster attribute where the GPU has clusters (launches
// REPS+1..2*REPS), and the driver's cuLaunchKernel (2*REPS+1..3*REPS). Each way is launched
// REPS times, each launch timed with its own CUDA events; the program prints one line per way
// with the median, and writes each way's output buffer to OUTDIR/out-WAY.bin. The kernel
// takes a by-value struct holding a device pointer (into the middle of an allocation), so the
// capture must find pointer words inside structs and offsets inside allocations.
//
// Usage: prog OUTDIR      Build: nvcc -O2 -arch=sm_90 -o prog prog.cu -lcuda
#include <cuda.h>
#include <cuda_runtime.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <vector>

struct Extra {
    const float *bias; // points 16 floats into a 512-float allocation
    float scale;
};

__global__ void kd_capture_kernel(float *out, const float *in, Extra e, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        out[i] = in[i] * e.scale + e.bias[i % 256];
}

#define CK(call)                                                                                   \
    do {                                                                                           \
        cudaError_t err_ = (call);                                                                 \
        if (err_ != cudaSuccess) {                                                                 \
            fprintf(stderr, "%s:%d: %s: %s\n", __FILE__, __LINE__, #call, cudaGetErrorString(err_)); \
            exit(1);                                                                               \
        }                                                                                          \
    } while (0)
#define CKD(call)                                                                                  \
    do {                                                                                           \
        CUresult r_ = (call);                                                                      \
        if (r_ != CUDA_SUCCESS) {                                                                  \
            fprintf(stderr, "%s:%d: %s: CUresult %d\n", __FILE__, __LINE__, #call, (int)r_);       \
            exit(1);                                                                               \
        }                                                                                          \
    } while (0)

enum { REPS = 20, BLOCK = 256 };

int main(int argc, char **argv)
{
    if (argc < 2) {
        fprintf(stderr, "usage: %s OUTDIR\n", argv[0]);
        return 2;
    }
    const int sizes[3] = {1 << 20, 3 << 20, 5 << 19};
    const char *ways[3] = {"triple-chevron", "cudaLaunchKernelEx", "cuLaunchKernel"};
    int dev = 0, major = 0;
    CK(cudaGetDevice(&dev));
    CK(cudaDeviceGetAttribute(&major, cudaDevAttrComputeCapabilityMajor, dev));

    std::vector<float> hbias(512);
    for (int i = 0; i < 512; i++)
        hbias[i] = 0.25f * (float)(i % 7) - 0.5f;
    float *bias = nullptr;
    CK(cudaMalloc(&bias, 512 * sizeof(float)));
    CK(cudaMemcpy(bias, hbias.data(), 512 * sizeof(float), cudaMemcpyHostToDevice));

    cudaEvent_t start[REPS], stop[REPS];
    for (int r = 0; r < REPS; r++) {
        CK(cudaEventCreate(&start[r]));
        CK(cudaEventCreate(&stop[r]));
    }
    cudaFunction_t rt_fn;
    CK(cudaGetFuncBySymbol(&rt_fn, (const void *)kd_capture_kernel));
    CUfunction fn = (CUfunction)rt_fn;

    for (int w = 0; w < 3; w++) {
        int n = sizes[w];
        std::vector<float> hin(n);
        for (int i = 0; i < n; i++)
            hin[i] = std::sin(0.001f * (float)i + (float)w);
        float *in = nullptr, *out = nullptr;
        CK(cudaMalloc(&in, n * sizeof(float)));
        CK(cudaMalloc(&out, n * sizeof(float)));
        CK(cudaMemcpy(in, hin.data(), n * sizeof(float), cudaMemcpyHostToDevice));
        CK(cudaMemset(out, 0, n * sizeof(float)));
        CK(cudaDeviceSynchronize());
        Extra e = {bias + 16, 1.5f + (float)w};
        unsigned grid = (unsigned)((n + BLOCK - 1) / BLOCK);
        grid += grid % 2; // even: a cluster of 2 divides it
        int cluster = 0;
        for (int r = 0; r < REPS; r++) {
            CK(cudaEventRecord(start[r]));
            if (w == 0) {
                kd_capture_kernel<<<grid, BLOCK>>>(out, in, e, n);
                CK(cudaGetLastError());
            } else if (w == 1) {
                cudaLaunchConfig_t cfg = {};
                cudaLaunchAttribute attr[1];
                cfg.gridDim = dim3(grid);
                cfg.blockDim = dim3(BLOCK);
                cfg.dynamicSmemBytes = 0;
                cfg.stream = 0;
                if (major >= 9) {
                    attr[0].id = cudaLaunchAttributeClusterDimension;
                    attr[0].val.clusterDim.x = 2;
                    attr[0].val.clusterDim.y = 1;
                    attr[0].val.clusterDim.z = 1;
                    cfg.attrs = attr;
                    cfg.numAttrs = 1;
                    cluster = 2;
                }
                CK(cudaLaunchKernelEx(&cfg, kd_capture_kernel, out, (const float *)in, e, n));
            } else {
                void *args[] = {&out, &in, &e, &n};
                CKD(cuLaunchKernel(fn, grid, 1, 1, BLOCK, 1, 1, 0, 0, args, nullptr));
            }
            CK(cudaEventRecord(stop[r]));
        }
        CK(cudaDeviceSynchronize());
        std::vector<float> ms(REPS);
        for (int r = 0; r < REPS; r++)
            CK(cudaEventElapsedTime(&ms[r], start[r], stop[r]));
        std::sort(ms.begin(), ms.end());
        double median_us = 1000.0 * 0.5 * (ms[(REPS - 1) / 2] + ms[REPS / 2]);
        printf("launch %d way %s first_k %d n %d grid %u block %d cluster %d median_us %.3f\n", w + 1, ways[w],
               w * REPS + 1, n, grid, BLOCK, cluster, median_us);
        fflush(stdout);

        std::vector<float> hout(n);
        CK(cudaMemcpy(hout.data(), out, n * sizeof(float), cudaMemcpyDeviceToHost));
        char path[4096];
        snprintf(path, sizeof path, "%s/out-%d.bin", argv[1], w + 1);
        FILE *f = fopen(path, "wb");
        if (!f || fwrite(hout.data(), sizeof(float), n, f) != (size_t)n || fclose(f) != 0) {
            fprintf(stderr, "cannot write %s\n", path);
            return 1;
        }
        CK(cudaFree(in));
        CK(cudaFree(out));
    }
    CK(cudaFree(bias));
    return 0;
}
