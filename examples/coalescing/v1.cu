// kerndiff: block=256 grid=ceil(n/2048) n=16M
/* coalescing, v1 — out = 2*in + 1, each thread owning a contiguous chunk of 8 elements
 * (the CPU habit). At any one load, neighbouring lanes are 8 floats = 32 bytes apart, so a
 * warp's 32 loads touch 32 different 32-byte sectors instead of 4.
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
    int first = (blockIdx.x * blockDim.x + threadIdx.x) * PER_THREAD;
    for (int j = 0; j < PER_THREAD; ++j) {
        int i = first + j;
        if (i < n)
            out[i] = 2.0f * in[i] + 1.0f;
    }
}
