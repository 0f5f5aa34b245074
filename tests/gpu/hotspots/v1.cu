// kerndiff GPU test (tests/gpu/hotspots.sh): v1 reads a[] with a stride between threads.
extern "C" __global__ void gather(const float *__restrict__ a, float *__restrict__ out, unsigned mask, unsigned stride)
{
    unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
    float sum = 0.f, x = (float)i, y = 1.f, z = 2.f;
    for (unsigned k = 0; k < 32; k++) {
        sum += a[(i * stride + k) & mask];
        x = x * 1.0001f + 0.5f;
        y = y * 0.9999f + x;
        z = z * 1.0002f + y;
    }
    out[i] = sum + x + y + z;
}
