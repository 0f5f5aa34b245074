// 3x3 box blur of a pitched single-channel image (pitch in elements, >= width).
__global__ void box_blur(const float *in, float *out, int width, int height, int pitch) {
    int x = blockIdx.x * blockDim.x + threadIdx.x;
    int y = blockIdx.y * blockDim.y + threadIdx.y;
    if (x < width && y < height) {
        float sum = 0.0f;
        int count = 0;
        for (int dy = -1; dy <= 1; ++dy)
            for (int dx = -1; dx <= 1; ++dx) {
                int xx = min(max(x + dx, 0), width - 1), yy = min(max(y + dy, 0), height - 1);
                sum += in[yy * pitch + xx];
                ++count;
            }
        out[y * pitch + x] = sum / count;
    }
}
