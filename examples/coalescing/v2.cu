// kerndiff: block=256 grid=ceil(n/2048) n=16M
/* coalescing, v2 — same work and the same 8 elements per thread, but a block's threads now
 * stride by blockDim.x, so at each step the 32 lanes of a warp read 32 consecutive floats:
 * 128 bytes, 4 sectors. A block covers the same 2048-element span as in v1, so the output is
 * identical.
 *
 * Verified with nvcc 13.0 -arch=sm_90 -lineinfo (PTX opcode counts; SASS from cuobjdump -sass;
 * registers/smem from -Xptxas -v). Expected kerndiff v1 -> v2:
 *   PTX  ld.global.f32 8 -> 8, st.global.f32 8 -> 8 (same memory instructions);
 *        address math add.s64 4 -> 16, mul.wide.s32 2 -> 8: v1 reaches its 8 elements from one
 *        base with immediate offsets [+4 .. +28], v2 computes each address from a runtime stride
 *   SASS LDG.E 8 -> 8, STG.E 8 -> 8, IMAD.WIDE 2 -> 16, BRA 6 -> 2
 *   registers 13 -> 20
 *   The real change (32 sectors per warp load -> 4) is invisible to a static diff: this pair
 *   exists to show that only the timing run can see it.
 */

#define PER_THREAD 8

__global__ void scale(const float* in, float* out, int n)
{
    int first = blockIdx.x * blockDim.x * PER_THREAD + threadIdx.x;
    for (int j = 0; j < PER_THREAD; ++j) {
        int i = first + j * blockDim.x;
        if (i < n)
            out[i] = 2.0f * in[i] + 1.0f;
    }
}
