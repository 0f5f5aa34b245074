// In the style of the CUDA samples' Common/helper_cuda.h: a helper the kernels include.
#pragma once
__device__ __forceinline__ float twice(float v) { return 2.0f * v; }
