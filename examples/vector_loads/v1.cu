// kerndiff: block=256 grid=ceil(n/256) n=16M
/* vector_loads, v1 — baseline: out = 2*x + y with one scalar float per thread.
 * Each thread issues two 4-byte loads and one 4-byte store; v2 does the same work with
 * 16-byte accesses.
 *
 * Verified with nvcc 13.0 -arch=sm_90 -lineinfo (PTX opcode counts; SASS from cuobjdump -sass;
 * registers/smem from -Xptxas -v). Expected kerndiff v1 -> v2:
 *   PTX  ld.global.v4.f32 0 -> 2, st.global.v4.f32 0 -> 1, fma.rn.f32 1 -> 5;
 *        ld.global.f32 2 -> 2 and st.global.f32 1 -> 1 (kept only by the scalar tail)
 *   SASS LDG.E.128 0 -> 2, STG.E.128 0 -> 1, FFMA 1 -> 5 (LDG.E 2 -> 2, STG.E 1 -> 1)
 *   registers 12 -> 22
 *   At run time, 4 elements cost 8 loads + 4 stores in v1 and 2 wide loads + 1 wide store in
 *   v2, from a grid 4x smaller; that shows in timing, not in the static counts.
 */

__global__ void saxpy(const float* x, const float* y, float* out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        out[i] = 2.0f * x[i] + y[i];
}
