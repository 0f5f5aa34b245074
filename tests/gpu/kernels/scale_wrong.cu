// kerndiff: block=256 grid=ceil(n/256) n=4M
/* scale.cu with a planted wrong result at element 4097 and element 9000 left unwritten:
 * kerndiff must report both. */
__global__ void scale(const float *x, float *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n || i == 9000)
        return;
    out[i] = 2.0f * x[i] + (i == 4097 ? 1.0f : 0.0f);
}
