// kerndiff: block=256 grid=ceil(n/32)*ceil(n/32) n=2048 A=n*n B=n*n C=n*n
/* regions, v2 — the same matmul, double-buffered: the next tile is copied into the other
 * shared buffer with cp.async (__pipeline_memcpy_async) while this one is multiplied, so
 * `load` is only the wait for a copy that was issued a whole `mma` earlier. Outputs match
 * v1 bit for bit (the same k order). See v1.cu for what the diff should show. */
#include <cuda_pipeline.h>
#include <kerndiff/regions.h>

#define TILE 32

__device__ __forceinline__ void issue_tile(float (*As)[TILE], float (*Bs)[TILE], const float *A, const float *B,
                                           int n, int t, int row0, int col, int tx, int ty)
{
    for (int r = ty; r < TILE; r += 8) {
        int a_row = row0 + r, a_col = t * TILE + tx, b_row = t * TILE + r;
        if (a_row < n && a_col < n)
            __pipeline_memcpy_async(&As[r][tx], &A[(size_t)a_row * n + a_col], sizeof(float));
        else
            As[r][tx] = 0.0f;
        if (b_row < n && col < n)
            __pipeline_memcpy_async(&Bs[r][tx], &B[(size_t)b_row * n + col], sizeof(float));
        else
            Bs[r][tx] = 0.0f;
    }
    __pipeline_commit();
}

__global__ void matmul(const float *A, const float *B, float *C, int n)
{
    __shared__ float As[2][TILE][TILE];
    __shared__ float Bs[2][TILE][TILE];
    int tiles = (n + TILE - 1) / TILE;
    int tx = threadIdx.x % TILE, ty = threadIdx.x / TILE;
    int row0 = (blockIdx.x / tiles) * TILE, col = (blockIdx.x % tiles) * TILE + tx;
    float acc[4] = {0, 0, 0, 0};
    issue_tile(As[0], Bs[0], A, B, n, 0, row0, col, tx, ty);
    for (int t = 0; t < tiles; ++t) {
        int cur = t & 1;
        KD_REGION_BEGIN(load);
        if (t + 1 < tiles)
            issue_tile(As[cur ^ 1], Bs[cur ^ 1], A, B, n, t + 1, row0, col, tx, ty);
        __pipeline_wait_prior(t + 1 < tiles ? 1 : 0);
        __syncthreads();
        KD_REGION_END(load);
        KD_REGION_BEGIN(mma);
        for (int k = 0; k < TILE; ++k) {
            float b = Bs[cur][k][tx];
            for (int i = 0; i < 4; ++i)
                acc[i] += As[cur][ty + 8 * i][k] * b;
        }
        __syncthreads();
        KD_REGION_END(mma);
    }
    for (int i = 0; i < 4; ++i)
        if (row0 + ty + 8 * i < n && col < n)
            C[(size_t)(row0 + ty + 8 * i) * n + col] = acc[i];
}
