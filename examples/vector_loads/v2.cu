// kerndiff: block=256 grid=ceil(n/1024) n=16M
/* vector_loads, v2 — out = 2*x + y with float4: each thread handles 4 consecutive elements,
 * so a quarter of the threads move the same bytes with 16-byte loads and stores.
 * The thread just past the last full float4 finishes the n % 4 tail with scalar code, so any n
 * works. Needs 16-byte aligned pointers (cudaMalloc gives 256).
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

__device__ float saxpy_one(float x, float y) { return 2.0f * x + y; }

__global__ void saxpy(const float* x, const float* y, float* out, int n)
{
    int t = blockIdx.x * blockDim.x + threadIdx.x;
    int full = n / 4;   // number of whole float4s; 4 * full + 3 < n can't overflow
    if (t < full) {
        float4 a = reinterpret_cast<const float4*>(x)[t];
        float4 b = reinterpret_cast<const float4*>(y)[t];
        float4 r = make_float4(saxpy_one(a.x, b.x), saxpy_one(a.y, b.y),
                               saxpy_one(a.z, b.z), saxpy_one(a.w, b.w));
        reinterpret_cast<float4*>(out)[t] = r;
    } else if (t == full) {
        // At most 3 iterations: kept rolled so the tail does not bloat the code being compared.
#pragma unroll 1
        for (int i = 4 * full; i < n; ++i)
            out[i] = saxpy_one(x[i], y[i]);
    }
}
