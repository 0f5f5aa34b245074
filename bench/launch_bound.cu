// A launch-bound program for bench/app_overhead.sh: LAUNCHES launches of a kernel that does
// almost nothing (one block of 32 threads), queued back to back with no synchronisation
// but every BATCH launches, so the run time is the host's launch cost and the collector's
// cost per launch (one kernel record and one API record each) shows in full. Each batch is
// an NVTX range named "step" (for --range).
// usage: launch_bound LAUNCHES [BATCH]
#include <cstdio>
#include <cstdlib>
#include <nvtx3/nvToolsExt.h>

__global__ void tiny(float *y)
{
    y[threadIdx.x] += 1.0f;
}

int main(int argc, char **argv)
{
    if (argc < 2) { fprintf(stderr, "usage: launch_bound LAUNCHES [BATCH]\n"); return 2; }
    long launches = atol(argv[1]), batch = argc > 2 ? atol(argv[2]) : 1000;
    float *y;
    cudaMalloc(&y, 32 * sizeof(float));
    cudaMemset(y, 0, 32 * sizeof(float));
    for (long done = 0; done < launches; done += batch) {
        nvtxRangePushA("step");
        for (long i = done; i < launches && i < done + batch; i++)
            tiny<<<1, 32>>>(y);
        cudaDeviceSynchronize();
        nvtxRangePop();
    }
    cudaError_t err = cudaGetLastError();
    if (err != cudaSuccess) { fprintf(stderr, "CUDA error: %s\n", cudaGetErrorString(err)); return 1; }
    return 0;
}
