// A sliding-window sum as a template (the block size a template argument, as CUB-style code
// writes it): block b sums x[b*TILE .. b*TILE + 2*TILE), so the last block reads TILE elements
// past the end of an x of grid*TILE elements: a read the bounds guard cannot see.
template <int TILE>
__global__ void window_sum(const float *x, float *y, int n)
{
    __shared__ float t[TILE];
    float s = 0;
    for (int k = threadIdx.x; k < 2 * TILE; k += blockDim.x)
        s += x[blockIdx.x * TILE + k];
    t[threadIdx.x] = s;
    __syncthreads();
    if (threadIdx.x == 0) {
        float a = 0;
        for (int k = 0; k < TILE; k++)
            a += t[k];
        if (blockIdx.x < n) y[blockIdx.x] = a;
    }
}
template __global__ void window_sum<256>(const float *, float *, int);
