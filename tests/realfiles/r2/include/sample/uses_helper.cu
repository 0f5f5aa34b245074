// A sample that includes its helper from ../Common, as the CUDA samples do (their build
// passes -I ../../Common; kerndiff must say so when it is missing).
#include "helper_cuda.h"

__global__ void double_it(const float *in, float *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        out[i] = twice(in[i]);
}
