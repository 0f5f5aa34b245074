// kerndiff: block=256 grid=ceil(n/16)*ceil(n/16) n=1024 A=n*n B=n*n C=n*n
/* matmul, v1 — naive C = A * B for n x n row-major matrices, one output element per thread.
 * Every multiply-add reads one float of A and one of B straight from global memory.
 * The launch is 1-D: blockIdx.x picks a 16x16 output tile, threads act as 16x16.
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
    int tiles = (n + TILE - 1) / TILE;
    int row = (blockIdx.x / tiles) * TILE + threadIdx.x / TILE;
    int col = (blockIdx.x % tiles) * TILE + threadIdx.x % TILE;
    if (row >= n || col >= n)
        return;

    float acc = 0.0f;
    for (int k = 0; k < n; ++k)
        acc += A[(size_t)row * n + k] * B[(size_t)k * n + col];
    C[(size_t)row * n + col] = acc;
}
