/* Planted defects for the sanitizer pass (issue 13): each kernel has exactly one, with
 * extern "C" names so that the recorder can load them by name. tests/gpu/sanitizer/record.sh
 * runs each under compute-sanitizer through the harness and keeps the output as fixtures
 * (tests/fixtures/sanitizer). All take (const float *x, float *out, int n), n = 1024,
 * launched as 4 blocks of 256 threads unless the recorder says otherwise. */

/* memcheck: writes out[i + 1], so thread 1023 writes out[1024], one past the end. */
extern "C" __global__ void oob_write(const float *x, float *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        out[i + 1] = x[i];
}

/* memcheck: reads x[i + 2], so threads 1022 and 1023 read past the end. */
extern "C" __global__ void oob_read(const float *x, float *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        out[i] = x[i + 2];
}

/* racecheck: each thread reads its neighbour's shared slot with no barrier between. */
extern "C" __global__ void smem_race(const float *x, float *out, int n)
{
    __shared__ float s[256];
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    s[threadIdx.x] = i < n ? x[i] : 0.0f;
    float v = s[(threadIdx.x + 1) % 256];
    if (i < n)
        out[i] = v;
}

/* synccheck: only half of each block reaches the barrier. */
extern "C" __global__ void divergent_sync(const float *x, float *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    float v = i < n ? x[i] : 0.0f;
    if (threadIdx.x < 128)
        __syncthreads();
    if (i < n)
        out[i] = v;
}

/* initcheck: reads device-heap memory nothing wrote. */
extern "C" __global__ void uninit_read(const float *x, float *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    float *scratch = (float *)malloc(sizeof(float));
    if (i < n)
        out[i] = x[i] + (scratch ? *scratch : 0.0f);
    free(scratch);
}

/* memcheck: a 128-float shared array indexed by a 256-thread block (a too-large --block). */
extern "C" __global__ void smem_overflow(const float *x, float *out, int n)
{
    __shared__ float s[128];
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    s[threadIdx.x] = i < n ? x[i] : 0.0f;
    __syncthreads();
    if (i < n)
        out[i] = s[threadIdx.x];
}

/* No defect: the clean reference. */
extern "C" __global__ void clean_copy(const float *x, float *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        out[i] = x[i];
}

/* synccheck: __syncwarp() names all 32 lanes but only half of them reach it. */
extern "C" __global__ void warp_sync_half(const float *x, float *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    float v = i < n ? x[i] : 0.0f;
    if ((threadIdx.x & 31) < 16)
        __syncwarp();
    if (i < n)
        out[i] = v;
}

/* synccheck: lanes 16..31 call __syncwarp with a mask that leaves them out. */
extern "C" __global__ void warp_sync_bad_mask(const float *x, float *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    float v = i < n ? x[i] : 0.0f;
    if ((threadIdx.x & 31) >= 16)
        __syncwarp(0x0000ffffu);
    if (i < n)
        out[i] = v;
}
