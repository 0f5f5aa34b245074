// kerndiff: block=256 grid=ceil(n/16)*ceil(n/16) n=1024 A=n*n B=n*n C=n*n
/* cublas, v1 — our 16x16 shared-memory tiled SGEMM (the same kernel as
 * examples/matmul/v2.cu): C = A * B for n x n row-major matrices.
 *
 * Expected kerndiff v1 -> v2 (v2 calls cublasSgemm through a custom launcher):
 *   timing: cuBLAS is several times faster at n = 1024 on an H100/H200
 *   correctness: the sums run in a different order, so results differ in the last bits;
 *           run with a tolerance that allows it:  kerndiff --atol 1e-4 --rtol 1e-4 ...
 *   static: v2's side is the launcher, whose file defines no kernel of its own: the
 *           library's kernels are not in the diff. */
#define TILE 16

__global__ void matmul(const float *A, const float *B, float *C, int n)
{
    __shared__ float As[TILE][TILE], Bs[TILE][TILE];
    int tiles = (n + TILE - 1) / TILE;
    int row = (blockIdx.x / tiles) * TILE + threadIdx.x / TILE;
    int col = (blockIdx.x % tiles) * TILE + threadIdx.x % TILE;
    int ty = threadIdx.x / TILE, tx = threadIdx.x % TILE;
    float acc = 0.0f;
    for (int t = 0; t < tiles; t++) {
        int k = t * TILE;
        As[ty][tx] = row < n && k + tx < n ? A[row * n + k + tx] : 0.0f;
        Bs[ty][tx] = k + ty < n && col < n ? B[(k + ty) * n + col] : 0.0f;
        __syncthreads();
        for (int j = 0; j < TILE; j++)
            acc += As[ty][j] * Bs[j][tx];
        __syncthreads();
    }
    if (row < n && col < n)
        C[row * n + col] = acc;
}
