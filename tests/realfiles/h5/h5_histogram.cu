// Histogram with global atomics: the bins are read and written (in-out).
__global__ void histogram256(const unsigned char *data, unsigned int *bins, int num_elements) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  int stride = blockDim.x * gridDim.x;
  for (; i < num_elements; i += stride) atomicAdd(&bins[data[i]], 1u);
}
