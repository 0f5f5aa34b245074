// kerndiff: block=256 grid=ceil(n/256) n=4M
/* scale.cu that writes through a bad pointer: an illegal address the harness must
 * report as v2's fault, without taking kerndiff down. */
__global__ void scale(const float *x, float *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        ((float *)0x10)[i] = 2.0f * x[i];
}
