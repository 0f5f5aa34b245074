"""prog.py — a PyTorch program calling a kernel built with torch.utils.cpp_extension.load_inline
(issue 30 must-show; tests/gpu/replay_torch/inline.sh runs it, captures its first launch of
kd_torch_kernel with `kerndiff capture` and replays it with `kerndiff --launch`).

Its tensors come from torch's caching allocator: 512 KiB each, so they share one 2 MiB segment
of the small pool and sit at offsets inside it (a small tensor made first takes the segment's
start). The kernel's text is k.cu beside this file (kerndiff is given that file).

Timed as kerndiff times one launch: one warm-up launch (the one captured), then 20 launches,
each after a 256 MiB write (the L2 flushed, outside the events) with the events and the launch
queued behind it (the host's launch overhead stays outside them too). Prints
`median_us X` and the tensors' offsets in their segments.

usage: python3 prog.py   (TORCH_EXTENSIONS_DIR: where load_inline builds)"""
import os
import sys

import torch
from torch.utils.cpp_extension import load_inline

HERE = os.path.dirname(os.path.abspath(__file__))
REPS = 20
N = 1 << 17  # 128K floats = 512 KiB: the small pool (at most 1 MiB), 2 MiB segments

with open(os.path.join(HERE, "k.cu")) as f:
    kernel_text = f.read()
# Launched on stream 0, torch's default stream (the events below are recorded on it too).
cuda_source = kernel_text + r"""
void kd_torch_launch(float *out, const float *x, const float *bias, float scale, int n)
{
    kd_torch_kernel<<<(n + 255) / 256, 256>>>(out, x, bias, scale, n);
}
"""
cpp_source = r"""
#include <torch/extension.h>
void kd_torch_launch(float *out, const float *x, const float *bias, float scale, int n);
void run(torch::Tensor out, torch::Tensor x, torch::Tensor bias, double scale)
{
    TORCH_CHECK(out.is_cuda() && x.is_cuda() && bias.is_cuda(), "CUDA tensors");
    TORCH_CHECK(out.is_contiguous() && x.is_contiguous() && bias.is_contiguous(), "contiguous tensors");
    TORCH_CHECK(out.numel() == x.numel() && bias.numel() >= 256, "sizes");
    kd_torch_launch(out.data_ptr<float>(), x.data_ptr<float>(), bias.data_ptr<float>(), (float)scale, (int)x.numel());
}
"""


def main():
    # -O0 for the binding's C++ (torch's headers make it the slow part of the build; what it
    # does is outside the timed events); the kernel's nvcc flags are torch's own
    ext = load_inline(name="kd_replay_torch", cpp_sources=cpp_source, cuda_sources=cuda_source, functions=["run"],
                      extra_cflags=["-O0"], verbose=False)
    torch.manual_seed(0)
    dev = "cuda"
    flush = torch.empty(256 << 20, dtype=torch.uint8, device=dev)
    first = torch.zeros(1000, device=dev)  # the segment's start: the tensors below sit after it
    x = torch.randn(N, device=dev)
    bias = torch.randn(300, device=dev)
    out = torch.zeros(N, device=dev)
    segment = torch.cuda.memory_snapshot()
    where = {}
    for seg in segment:
        for name, t in (("x", x), ("bias", bias), ("out", out)):
            p = t.data_ptr()
            if seg["address"] <= p < seg["address"] + seg["total_size"]:
                where[name] = (p - seg["address"], seg["total_size"])
    print("offsets " + " ".join("%s=%d/%d" % (k, v[0], v[1]) for k, v in sorted(where.items())), flush=True)

    ext.run(out, x, bias, 1.5)  # the warm-up: the launch `kerndiff capture` takes
    torch.cuda.synchronize()
    start = [torch.cuda.Event(enable_timing=True) for _ in range(REPS)]
    stop = [torch.cuda.Event(enable_timing=True) for _ in range(REPS)]
    for r in range(REPS):
        torch.cuda.synchronize()
        flush.fill_(r & 0xFF)
        start[r].record()
        ext.run(out, x, bias, 1.5)
        stop[r].record()
    torch.cuda.synchronize()
    us = sorted(1000.0 * a.elapsed_time(b) for a, b in zip(start, stop))
    median = 0.5 * (us[(REPS - 1) // 2] + us[REPS // 2])
    print("launches %d median_us %.3f min_us %.3f max_us %.3f" % (REPS + 1, median, us[0], us[-1]), flush=True)
    del first
    return 0


if __name__ == "__main__":
    sys.exit(main())
