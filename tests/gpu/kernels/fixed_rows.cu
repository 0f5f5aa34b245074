// kerndiff: block=256
/* Hard-codes its size (1024 rows of 1024 floats), like one of the original KernDiff's example
 * pairs: with kerndiff's default n (1M) it is right, with a smaller --n it writes past `out`.
 * tests/gpu/run.sh runs it with --n 64K and expects the fault explained as `out`[65536]. */
__global__ void fixed_rows(const float *x, float *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    (void)n;
    for (int k = i; k < 1024 * 1024; k += gridDim.x * blockDim.x)
        out[k] = x[k % 1024] * 2.0f;
}
