// An accumulating kernel: y is read and written (in-out), x only read.
__global__ void acc(const float *x, float *y, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        y[i] += x[i];
}
