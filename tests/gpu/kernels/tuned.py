# An autotuned Triton kernel (tests/gpu/run.sh): kerndiff uses the config that --arg selects,
# else times each briefly and keeps the fastest, and says which.
# kerndiff: n=16M grid=cdiv(n,BLOCK)
import triton
import triton.language as tl


@triton.autotune(configs=[triton.Config({"BLOCK": 256}, num_warps=2), triton.Config({"BLOCK": 1024}, num_warps=8)],
                 key=["n"])
@triton.jit
def scale(x_ptr, out_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    tl.store(out_ptr + offs, tl.load(x_ptr + offs, mask=mask) * 2.0, mask=mask)
