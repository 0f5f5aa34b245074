// y = A x with rows of A read as float4 (cols4 = columns / 4), one thread per row.
__global__ void matvec_rows_float4(const float4 *A, const float4 *x, float *y, int rows, int cols4) {
    int r = blockIdx.x * blockDim.x + threadIdx.x;
    if (r < rows) {
        float acc = 0.0f;
        for (int c = 0; c < cols4; ++c) {
            float4 a = A[r * cols4 + c];
            float4 v = x[c];
            acc += a.x * v.x + a.y * v.y + a.z * v.z + a.w * v.w;
        }
        y[r] = acc;
    }
}
