# Softmax pair, v2: one program per row, the whole row in registers (BLOCK >= n_cols),
# 8 warps, 2 stages. Expected diff against v1.py (4 warps): the same outputs
# (within float tolerance), twice the threads per program (block threads 128 -> 256) and
# fewer registers per thread; the timing says whether more warps per row pay off.
# kerndiff: n_rows=4096 n_cols=1024 row_stride=n_cols BLOCK=1024 num_warps=8 num_stages=2 grid=n_rows x_ptr=n_rows*n_cols out_ptr=n_rows*n_cols
import triton
import triton.language as tl


@triton.jit
def softmax_kernel(out_ptr, x_ptr, row_stride, n_rows, n_cols, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    cols = tl.arange(0, BLOCK)
    mask = cols < n_cols
    x = tl.load(x_ptr + row * row_stride + cols, mask=mask, other=-float("inf"))
    x = x - tl.max(x, axis=0)
    num = tl.exp(x)
    tl.store(out_ptr + row * row_stride + cols, num / tl.sum(num, axis=0), mask=mask)
