"""Median of triton.testing.do_bench (which zeroes 256 MiB before each repetition, so L2 is
flushed as in kerndiff) for examples/triton/block_size/v2.py's add_kernel at N elements.
Needs torch (Triton's runtime driver imports it). Prints the median in nanoseconds.
usage: python3 triton_do_bench.py N"""
import importlib.util
import sys

import torch
import triton

n = int(sys.argv[1])
spec = importlib.util.spec_from_file_location("v2", "examples/triton/block_size/v2.py")
mod = importlib.util.module_from_spec(spec)
spec.loader.exec_module(mod)
x, y = torch.rand(n, device="cuda"), torch.rand(n, device="cuda")
out = torch.empty_like(x)
grid = (triton.cdiv(n, 1024),)
ms = triton.testing.do_bench(lambda: mod.add_kernel[grid](x, y, out, n, BLOCK=1024, num_warps=8),
                             warmup=100, rep=2000, return_mode="median")
print(f"{ms * 1e6:.1f}")
