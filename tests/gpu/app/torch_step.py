"""A PyTorch "application" for `kerndiff app` on a real GPU: STEPS steps of relu(x * a + b)
on a large tensor, either eager (three elementwise kernels per step) or torch.compile'd
(one fused Triton kernel). Each step is an NVTX range "step" (for --range); CUDA events
around each step give an independent GPU time, summed and appended to EVENTS_FILE. Before
each step torch.cuda._sleep (outside the range) holds the GPU while the step is queued, so
the events measure the kernels, not Python's launch latency.
usage: torch_step.py eager|compiled STEPS EVENTS_FILE"""
import sys

import torch

mode, steps, events_file = sys.argv[1], int(sys.argv[2]), sys.argv[3]
x = torch.randn(1 << 26, device="cuda")
a, b = torch.randn_like(x), torch.randn_like(x)


def step(x, a, b):
    return torch.relu(x * a + b)


fn = torch.compile(step) if mode == "compiled" else step
for _ in range(3):  # warm-up (and compilation) outside the ranges
    fn(x, a, b)
torch.cuda.synchronize()
total = 0.0
for _ in range(steps):
    torch.cuda._sleep(2_000_000)  # about 1 ms
    torch.cuda.nvtx.range_push("step")
    start, stop = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
    start.record()
    y = fn(x, a, b)
    stop.record()
    y[0].item()  # one device-to-host sync per step
    torch.cuda.nvtx.range_pop()
    total += start.elapsed_time(stop)
with open(events_file, "a") as f:
    f.write(f"{total:.6f}\n")
