// kerndiff: block=256 grid=ceil(n/256) n=16M partial=ceil(n/256)
/* reduction, v2 — same per-block sum, but once 32 partial sums remain the first warp finishes
 * with __shfl_down_sync in registers: no shared-memory round trips and no block barriers for
 * the last 5 steps. The additions pair exactly the same elements in the same order as v1's
 * tree (lane i adds lane i+stride), so the partial sums match v1 bit for bit.
 *
 * Verified with nvcc 13.0 -arch=sm_90 -lineinfo (PTX opcode counts; SASS from cuobjdump -sass;
 * registers/smem from -Xptxas -v). Expected kerndiff v1 -> v2:
 *   PTX  bar.sync 9 -> 4, ld.shared.f32 17 -> 7, st.shared.f32 9 -> 4, shfl.sync.down.b32 0 -> 5
 *   SASS BAR.SYNC.DEFER_BLOCKING 9 -> 4, LDS 17 -> 7, STS 9 -> 4, SHFL.DOWN 0 -> 5,
 *        80 -> 64 instructions
 *   registers 12 -> 12, shared memory 1024 -> 1024 bytes
 */

#define BLOCK 256   // must match the launch: the tree assumes exactly this many threads
#define WARP 32

__global__ void block_sum(const float* in, float* partial, int n)
{
    __shared__ float s[BLOCK];
    int i = blockIdx.x * BLOCK + threadIdx.x;
    s[threadIdx.x] = i < n ? in[i] : 0.0f;
    __syncthreads();

    for (int stride = BLOCK / 2; stride >= WARP; stride /= 2) {
        if (threadIdx.x < stride)
            s[threadIdx.x] += s[threadIdx.x + stride];
        __syncthreads();
    }
    if (threadIdx.x < WARP) {
        float v = s[threadIdx.x];
        for (int stride = WARP / 2; stride > 0; stride /= 2)
            v += __shfl_down_sync(0xffffffffu, v, stride);
        if (threadIdx.x == 0)
            partial[blockIdx.x] = v;
    }
}
