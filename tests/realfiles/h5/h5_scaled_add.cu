// An ordinary C++ kernel, compiled with `nvcc -ptx` by the e2e check (a mangled .entry).
__global__ void scaled_add(const float *a, const float *b, float *out, float alpha, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = alpha * a[i] + b[i];
}
