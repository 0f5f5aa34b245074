# Block-size pair, v2: each program adds 1024 elements with 8 warps.
# Expected diff against v1.py: v2's programs are 4x larger (BLOCK 1024, num_warps 8), so
# the grid shrinks 4x; the PTX/SASS show wider per-thread work (more LDG per thread, all
# 128-bit because n and the pointers are specialised as divisible by 16).
# kerndiff: n=16M BLOCK=1024 num_warps=8 grid=cdiv(n,BLOCK)
import triton
import triton.language as tl


@triton.jit
def add_kernel(x_ptr, y_ptr, out_ptr, n_elements, BLOCK: tl.constexpr):
    pid = tl.program_id(0)
    offs = pid * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n_elements
    x = tl.load(x_ptr + offs, mask=mask)
    y = tl.load(y_ptr + offs, mask=mask)
    tl.store(out_ptr + offs, x + y, mask=mask)
