# CUDA <-> Triton pair, v2: the same per-block scan with tl.cumsum, which is INCLUSIVE:
# out[i] = in[0] + ... + in[i]. `kerndiff blelloch.cu scan.py` must say "outputs differ"
# (see blelloch.cu); the static diff shows Blelloch's shared memory and barriers against
# Triton's warp-shuffle scan.
# kerndiff: n=1M BLOCK=1024 num_warps=4 grid=cdiv(n,BLOCK)
import triton
import triton.language as tl


@triton.jit
def prefix_scan(in_ptr, out_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    x = tl.load(in_ptr + offs, mask=mask, other=0.0)
    tl.store(out_ptr + offs, tl.cumsum(x, axis=0), mask=mask)
