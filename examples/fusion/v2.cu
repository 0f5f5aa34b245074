// kerndiff: block=256 grid=ceil(n/256) n=16M
/* fusion, v2 — the three passes of v1 fused into one kernel: x is read once and y written
 * once. A plain kernel: kerndiff compares it with v1's launcher because both are named
 * `run`. See v1.cu for what the diff should show. */
__global__ void run(const float *x, float *y, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        y[i] = fmaxf(2.0f * x[i] + 1.0f, 0.0f);
}
