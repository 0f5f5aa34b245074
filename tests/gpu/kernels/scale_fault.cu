// kerndiff: block=256 grid=ceil(n/256) n=4M
/* scale.cu that writes far outside its buffer: an illegal address the harness must
 * report as v2's fault, without taking kerndiff down. */
__global__ void scale(const float *x, float *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        out[i + (1 << 30)] = 2.0f * x[i];
}
