// kerndiff: block=256 grid=ceil(n/256) n=16M partial=ceil(n/256)
/* reduction, v1 — per-block sum: partial[b] = sum of in[b*256 .. b*256+255] (missing elements
 * past n count as 0). Classic shared-memory tree: halve the active threads each step,
 * with a __syncthreads() after every step, down to a single thread.
 *
 * Verified with nvcc 13.0 -arch=sm_90 -lineinfo (PTX opcode counts; SASS from cuobjdump -sass;
 * registers/smem from -Xptxas -v). Expected kerndiff v1 -> v2:
 *   PTX  bar.sync 9 -> 4, ld.shared.f32 17 -> 7, st.shared.f32 9 -> 4, shfl.sync.down.b32 0 -> 5
 *   SASS BAR.SYNC.DEFER_BLOCKING 9 -> 4, LDS 17 -> 7, STS 9 -> 4, SHFL.DOWN 0 -> 5,
 *        80 -> 64 instructions
 *   registers 12 -> 12, shared memory 1024 -> 1024 bytes
 */

#define BLOCK 256   // must match the launch: the tree assumes exactly this many threads

__global__ void block_sum(const float* in, float* partial, int n)
{
    __shared__ float s[BLOCK];
    int i = blockIdx.x * BLOCK + threadIdx.x;
    s[threadIdx.x] = i < n ? in[i] : 0.0f;
    __syncthreads();

    for (int stride = BLOCK / 2; stride > 0; stride /= 2) {
        if (threadIdx.x < stride)
            s[threadIdx.x] += s[threadIdx.x + stride];
        __syncthreads();
    }
    if (threadIdx.x == 0)
        partial[blockIdx.x] = s[0];
}
