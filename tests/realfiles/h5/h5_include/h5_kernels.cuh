// Kernels shared by several programs, in a header as llm.c-style projects keep them.
#pragma once
typedef unsigned int uint;
#if defined(ENABLE_FP32)
typedef float floatX;
#else
#include <cuda_bf16.h>
typedef __nv_bfloat16 floatX;
#endif

__global__ void residual_forward(floatX *out, floatX *inp1, floatX *inp2, uint N) {
  uint idx = blockIdx.x * blockDim.x + threadIdx.x;
  if (idx < N) out[idx] = (floatX)((float)inp1[idx] + (float)inp2[idx]);
}

__global__ void scale_inplace(float *x, float factor, int numElements) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < numElements) x[i] *= factor;
}
