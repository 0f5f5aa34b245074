// kerndiff: block=256 grid=ceil(n/16)*ceil(n/16) n=1024 A=n*n B=n*n C=n*n
/* matmul, v2 — C = A * B tiled through shared memory: the block loads a 16x16 tile of A and
 * of B once, then every thread reads 16 products' worth of operands from shared memory.
 * Out-of-range tile entries load as 0, and k runs in the same order as v1, so each C element
 * is the same chain of multiply-adds (plus 0*0 terms that leave it unchanged): results match
 * v1 bit for bit.
 *
 * Verified with nvcc 13.0 -arch=sm_90 -lineinfo (PTX opcode counts; SASS from cuobjdump -sass;
 * registers/smem from -Xptxas -v). Expected kerndiff v1 -> v2:
 *   PTX  ld.global.f32 10 -> 2, ld.shared.f32 0 -> 32, st.shared.f32 0 -> 2, bar.sync 0 -> 2,
 *        fma.rn.f32 5 -> 16 (v1's k loop unrolled by 4 + remainder; v2's 16-step tile loop
 *        fully unrolled)
 *   SASS LDG.E 58 -> 2, LDS 0 -> 16, LDS.128 0 -> 4, STS 0 -> 2, BAR.SYNC 0 -> 2, FFMA 29 -> 16,
 *        296 -> 144 instructions
 *   ptxas shared memory 0 -> 2048 bytes, barriers 0 -> 1, registers 32 -> 31
 */

#define TILE 16

__global__ void matmul(const float* A, const float* B, float* C, int n)
{
    __shared__ float As[TILE][TILE];
    __shared__ float Bs[TILE][TILE];
    int tiles = (n + TILE - 1) / TILE;
    int ty = threadIdx.x / TILE, tx = threadIdx.x % TILE;
    int row = (blockIdx.x / tiles) * TILE + ty;
    int col = (blockIdx.x % tiles) * TILE + tx;

    float acc = 0.0f;
    for (int t = 0; t < tiles; ++t) {
        int a_col = t * TILE + tx, b_row = t * TILE + ty;
        As[ty][tx] = (row < n && a_col < n) ? A[(size_t)row * n + a_col] : 0.0f;
        Bs[ty][tx] = (b_row < n && col < n) ? B[(size_t)b_row * n + col] : 0.0f;
        __syncthreads();
        for (int k = 0; k < TILE; ++k)
            acc += As[ty][k] * Bs[k][tx];
        __syncthreads();   // the next iteration overwrites the tiles
    }
    if (row < n && col < n)
        C[(size_t)row * n + col] = acc;
}
