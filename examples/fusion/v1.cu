// kerndiff: n=16M
/* fusion, v1 — y = relu(2x + 1) as a pipeline of three kernels, each a full pass over
 * memory: scale writes tmp1, shift reads it and writes tmp2, activate reads tmp2 and
 * writes y. A custom launcher (<kerndiff/launcher.h>) runs them in order on kerndiff's
 * stream, so the measured time is the whole pipeline, gaps between kernels included.
 *
 * Expected kerndiff v1 -> v2 (v2 fuses the three into one kernel):
 *   static: the launcher side sums its three kernels: PTX ld.global 3 -> 1, st.global 3 -> 1
 *   timing: about 3x less DRAM traffic (6 passes of n floats -> 2), so v2 is roughly 2-3x
 *           faster at n = 16M
 *   correctness: y compared in full and bit-identical (2x is exact, so fusing changes no
 *           rounding); tmp1 and tmp2 exist only in v1 and are reported as not compared. */
#include <kerndiff/launcher.h>

__global__ void scale(const float *x, float *t, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        t[i] = 2.0f * x[i];
}

__global__ void shift(const float *t, float *u, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        u[i] = t[i] + 1.0f;
}

__global__ void activate(const float *u, float *y, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        y[i] = fmaxf(u[i], 0.0f);
}

KERNDIFF_LAUNCHER void run(const float *x, float *tmp1, float *tmp2, float *y, int n, cudaStream_t stream)
{
    int blocks = (n + 255) / 256;
    scale<<<blocks, 256, 0, stream>>>(x, tmp1, n);
    shift<<<blocks, 256, 0, stream>>>(tmp1, tmp2, n);
    activate<<<blocks, 256, 0, stream>>>(tmp2, y, n);
}
