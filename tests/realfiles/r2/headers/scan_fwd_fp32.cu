// Split into several files to compile in parallel (one per type), as mamba's
// selective_scan_fwd_fp32.cu: no __global__ of its own; the kernel is the header's.
#include "scan_fwd_kernel.cuh"

template void scan_fwd_cuda<float>(const float *in, float *out, int n, cudaStream_t stream);
