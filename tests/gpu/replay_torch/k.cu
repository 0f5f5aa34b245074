// k.cu — the kernel of tests/gpu/replay_torch/prog.py (issue 30 must-show): the program builds
// it with torch.utils.cpp_extension.load_inline from this very text, and kerndiff replays the
// captured launch with this file on both sides (inline.sh). No torch header here: kerndiff
// compiles it as it is.
//
// ~150-400 us a launch on an H100 (ITERS dependent FMAs per element, 128K elements), so CUDA
// events' overhead is well under the 2% the must-show allows between the program's median and
// the replay's.
#ifndef ITERS
#define ITERS 40960
#endif

__global__ void kd_torch_kernel(float *out, const float *x, const float *bias, float scale, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        float t = x[i] * scale + bias[i % 256];
        float y = t;
#pragma unroll 16
        for (int k = 0; k < ITERS; k++) // a contraction towards 2t: stays finite, depends on t
            y = fmaf(y, 0.5f, t);
        out[i] = y;
    }
}
