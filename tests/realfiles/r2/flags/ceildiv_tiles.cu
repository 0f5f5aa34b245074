// A tiled kernel in the style of a PyTorch extension's (a quantized matmul's): a constexpr
// host helper called from device code, which nvcc refuses unless the project's build passes
// --expt-relaxed-constexpr (PyTorch's CUDAExtension does). kerndiff's first line names it.
// kerndiff: n=64K block=256 grid=ceil(n/256)
constexpr int ceildiv(int a, int b) { return (a + b - 1) / b; }

__global__ void tile_sum(const float *__restrict__ in, float *__restrict__ out, int n)
{
    int tiles = ceildiv(n, 256);
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        out[i] = in[i] * (float)tiles;
}
