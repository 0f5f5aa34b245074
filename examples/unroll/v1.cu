// kerndiff: block=256 grid=ceil(n/256) n=4M k=1024
/* unroll, v1 — each thread runs k steps of the dependent recurrence x = x*0.999 + 0.001
 * (an FMA chain). `#pragma unroll 1` keeps the loop rolled: without it nvcc would unroll a
 * runtime-count loop by 4 on its own, and there would be no "before".
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
#pragma unroll 1
    for (int s = 0; s < k; ++s)
        x = fmaf(x, A, B);   // fmaf, not x*A+B: the same rounding whatever contraction does
    out[i] = x;
}
