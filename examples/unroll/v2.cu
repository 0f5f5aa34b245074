// kerndiff: block=256 grid=ceil(n/256) n=4M k=1024
/* unroll, v2 — the same recurrence unrolled by 8. Each step still needs the previous x, so
 * the math and the result are identical (bit for bit); what changes is the loop overhead:
 * one counter update, compare and branch per 8 FMAs instead of per FMA, plus a remainder loop
 * for k % 8.
 *
 * Verified with nvcc 13.0 -arch=sm_90 -lineinfo (PTX opcode counts; SASS from cuobjdump -sass;
 * registers/smem from -Xptxas -v). Expected kerndiff v1 -> v2:
 *   PTX  fma.rn.f32 1 -> 9 (8 in the unrolled body + 1 in the k % 8 remainder loop), bra 3 -> 6
 *        loop body: v1 = 1 fma + add.s32 + setp + bra per step;
 *                   v2 = 8 fma + add.s32 + setp + bra per 8 steps
 *   SASS FFMA 1 -> 9, BRA 3 -> 6; registers 10 -> 12
 *   The FMA chain is still serial, so the gain is only the loop overhead.
 */

#define A 0.999f
#define B 0.001f

__global__ void iterate(const float* x0, float* out, int k, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n)
        return;
    float x = x0[i];
#pragma unroll 8
    for (int s = 0; s < k; ++s)
        x = fmaf(x, A, B);
    out[i] = x;
}
