"""triton_prog.py — a PyTorch script launching a Triton kernel (tk.py beside it; issue 30
must-show, run by tests/gpu/replay_torch/triton.sh, which captures its first launch of
kd_triton_kernel with `kerndiff capture` and replays it with `kerndiff --launch`).

Timed as kerndiff times one launch: one warm-up launch (the one captured; it also compiles),
then 20 launches, each after a 256 MiB write (the L2 flushed, outside the events) with the events
and the launch queued behind it (the host's launch overhead stays outside them too). Prints
`median_us X`; with OUTDIR, writes the PTX Triton compiled to OUTDIR/kd_triton_kernel.ptx.

usage: python3 triton_prog.py [OUTDIR]"""
import os
import sys

import torch
import triton

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from tk import kd_triton_kernel  # noqa: E402

REPS = 20
N = 1 << 20
BLOCK = 1024
ITERS = 5120


def main():
    torch.manual_seed(0)
    dev = "cuda"
    flush = torch.empty(256 << 20, dtype=torch.uint8, device=dev)
    x = torch.randn(N, device=dev)
    bias = torch.randn(300, device=dev)
    out = torch.zeros(N, device=dev)
    grid = (triton.cdiv(N, BLOCK),)

    def launch():
        return kd_triton_kernel[grid](x, bias, out, 1.5, N, BLOCK=BLOCK, ITERS=ITERS, num_warps=4)

    compiled = launch()  # the warm-up: the launch `kerndiff capture` takes
    torch.cuda.synchronize()
    if len(sys.argv) > 1:
        with open(os.path.join(sys.argv[1], "kd_triton_kernel.ptx"), "w") as f:
            f.write(compiled.asm["ptx"])
    start = [torch.cuda.Event(enable_timing=True) for _ in range(REPS)]
    stop = [torch.cuda.Event(enable_timing=True) for _ in range(REPS)]
    for r in range(REPS):
        torch.cuda.synchronize()
        flush.fill_(r & 0xFF)
        start[r].record()
        launch()
        stop[r].record()
    torch.cuda.synchronize()
    us = sorted(1000.0 * a.elapsed_time(b) for a, b in zip(start, stop))
    median = 0.5 * (us[(REPS - 1) // 2] + us[REPS // 2])
    print("launches %d median_us %.3f min_us %.3f max_us %.3f" % (REPS + 1, median, us[0], us[-1]), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
