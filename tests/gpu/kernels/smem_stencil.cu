// kerndiff: block=256 grid=ceil(n/256) n=4M
/* A shared-memory kernel: each block stages its tile plus a halo in shared memory, then
 * every thread sums 9 neighbours from it. At n = 4M about 45 us on an H100, where one
 * allocation sequence made it 0.6% faster in every process (bench/aa_campaign.sh). */
#define RADIUS 4
__global__ void smem_stencil(const float *in, float *out, int n)
{
    __shared__ float tile[256 + 2 * RADIUS];
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    int t = threadIdx.x + RADIUS;
    tile[t] = i < n ? in[i] : 0.0f;
    if (threadIdx.x < RADIUS) {
        int left = i - RADIUS, right = i + blockDim.x;
        tile[t - RADIUS] = left >= 0 ? in[left] : 0.0f;
        tile[t + blockDim.x] = right < n ? in[right] : 0.0f;
    }
    __syncthreads();
    if (i >= n)
        return;
    float sum = 0.0f;
    for (int k = -RADIUS; k <= RADIUS; k++)
        sum += tile[t + k];
    out[i] = sum;
}
