// kerndiff: block=256 grid=ceil(n/32)*ceil(n/32) n=2048 A=n*n B=n*n C=n*n
/* The overhead of region records on real work (issue 12's cost goal): the 32x32-tiled
 * matmul of examples/regions/v1.cu with 3 regions in its main loop (the loads, the wait at
 * the barrier, the multiply). bench/regions_cost.sh times it plain and instrumented. */
#include <kerndiff/regions.h>

#define TILE 32

__global__ void matmul3(const float *A, const float *B, float *C, int n)
{
    __shared__ float As[TILE][TILE];
    __shared__ float Bs[TILE][TILE];
    int tiles = (n + TILE - 1) / TILE;
    int tx = threadIdx.x % TILE, ty = threadIdx.x / TILE; /* 32 x 8 threads */
    int row0 = (blockIdx.x / tiles) * TILE, col = (blockIdx.x % tiles) * TILE + tx;
    float acc[4] = {0, 0, 0, 0};
    for (int t = 0; t < tiles; ++t) {
        KD_REGION_BEGIN(load);
        for (int r = ty; r < TILE; r += 8) {
            int a_row = row0 + r, a_col = t * TILE + tx, b_row = t * TILE + r;
            As[r][tx] = a_row < n && a_col < n ? A[(size_t)a_row * n + a_col] : 0.0f;
            Bs[r][tx] = b_row < n && col < n ? B[(size_t)b_row * n + col] : 0.0f;
        }
        KD_REGION_END(load);
        KD_REGION_BEGIN(wait);
        __syncthreads();
        KD_REGION_END(wait);
        KD_REGION_BEGIN(mma);
        for (int k = 0; k < TILE; ++k) {
            float b = Bs[k][tx];
            for (int i = 0; i < 4; ++i)
                acc[i] += As[ty + 8 * i][k] * b;
        }
        __syncthreads();
        KD_REGION_END(mma);
    }
    for (int i = 0; i < 4; ++i)
        if (row0 + ty + 8 * i < n && col < n)
            C[(size_t)(row0 + ty + 8 * i) * n + col] = acc[i];
}
