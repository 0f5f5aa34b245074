// kerndiff: block=256 grid=ceil(n/256) n=4M
/* The reference for the correctness, fault and hang cases: out = 2x. */
__global__ void scale(const float *x, float *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        out[i] = 2.0f * x[i];
}
