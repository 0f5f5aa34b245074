// kerndiff: block=256 grid=ceil(n/256) n=270336 iters=5000
/* A compute-bound kernel whose time is proportional to `iters`: each thread runs a
 * dependent FMA chain. n fills an H100/H200 (132 SMs x 2048 threads). tests/gpu/run.sh
 * times it against itself (A/A) and against 3% more iterations (--call v2:iters=...). */
__global__ void fma_loop(const float *x, float *out, int iters, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n)
        return;
    float v = x[i], a = 0.999f, b = 0.001f * x[i];
#pragma unroll 4
    for (int k = 0; k < iters; k++)
        v = fmaf(v, a, b);
    out[i] = v;
}
