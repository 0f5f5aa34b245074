// kerndiff GPU test (tests/gpu/hotspots.sh): v2 reads a[] coalesced: neighbouring threads,
// neighbouring floats. Everything else is v1's (one line further down).
extern "C" __global__ void gather(const float *__restrict__ a, float *__restrict__ out, unsigned mask, unsigned stride)
{
    unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
    float sum = 0.f, x = (float)i, y = 1.f, z = 2.f;
    for (unsigned k = 0; k < 32; k++) {
        sum += a[(k * stride + i) & mask];
        x = x * 1.0001f + 0.5f;
        y = y * 0.9999f + x;
        z = z * 1.0002f + y;
    }
    out[i] = sum + x + y + z;
}
