// Row softmax with a warp-shuffle reduction helper; one warp per row of C columns.
__device__ float warpReduceMax(float val) {
    for (int offset = 16; offset > 0; offset /= 2)
        val = fmaxf(val, __shfl_down_sync(0xFFFFFFFF, val, offset));
    return val;
}

__device__ float warpReduceSum(float val) {
    for (int offset = 16; offset > 0; offset /= 2)
        val += __shfl_down_sync(0xFFFFFFFF, val, offset);
    return val;
}

__global__ void softmax_forward_kernel(float *out, const float *inp, int N, int C) {
    int row = (blockIdx.x * blockDim.x + threadIdx.x) / 32;
    int lane = threadIdx.x % 32;
    if (row >= N) return;
    const float *x = inp + row * C;
    float maxval = -INFINITY;
    for (int i = lane; i < C; i += 32) maxval = fmaxf(maxval, x[i]);
    maxval = __shfl_sync(0xFFFFFFFF, warpReduceMax(maxval), 0);
    float sumval = 0.0f;
    for (int i = lane; i < C; i += 32) sumval += expf(x[i] - maxval);
    sumval = __shfl_sync(0xFFFFFFFF, warpReduceSum(sumval), 0);
    for (int i = lane; i < C; i += 32) out[row * C + i] = expf(x[i] - maxval) / sumval;
}
