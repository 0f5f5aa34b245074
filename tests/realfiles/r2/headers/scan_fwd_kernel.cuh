// The kernel of a split build, as a project writes it (mamba's selective_scan_fwd_kernel.cuh):
// a template kernel and the launcher template that instantiates it; each .cu of the split
// includes this header and instantiates the launcher for its types.
#pragma once
#include <scan_config.h>

template <typename T, int kNThreads>
__global__ __launch_bounds__(kNThreads) void scan_fwd_kernel(const T *__restrict__ in, T *__restrict__ out, int n)
{
    int i = blockIdx.x * kNThreads + threadIdx.x;
    if (i < n)
        out[i] = in[i] * (T)SCAN_SCALE;
}

template <typename T>
void scan_fwd_cuda(const T *in, T *out, int n, cudaStream_t stream)
{
    scan_fwd_kernel<T, 128><<<(n + 127) / 128, 128, 0, stream>>>(in, out, n);
}
