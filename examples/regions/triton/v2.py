# Triton regions, v2: row sums, one program per row, the row read BLOCK=1024 columns at a
# time. Proton's scopes (Triton 3.5+) mark each step: `load` issues a tile's load, `add`
# waits for it and accumulates (Triton's loads complete at first use), `reduce` sums and
# stores. Run `kerndiff --regions --trace t.json examples/regions/triton/v1.py
# examples/regions/triton/v2.py`: v2 reads 1024 columns a step, so its `load` and `add`
# instances are 8x fewer and each longer; `reduce` sums a wider accumulator.
# The scopes cost nothing without --regions: they compile to no code unless kerndiff
# builds the instrumented variant.
# kerndiff: n_rows=4096 n_cols=4096 BLOCK=1024 num_warps=4 grid=n_rows x_ptr=n_rows*n_cols out_ptr=n_rows
import triton
import triton.language as tl
import triton.profiler.language as pl


@triton.jit
def row_sum(x_ptr, out_ptr, n_rows, n_cols, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    acc = tl.zeros([BLOCK], dtype=tl.float32)
    for start in range(0, n_cols, BLOCK):
        cols = start + tl.arange(0, BLOCK)
        with pl.scope("load"):
            x = tl.load(x_ptr + row * n_cols + cols, mask=cols < n_cols, other=0.0)
        with pl.scope("add"):
            acc += x
    with pl.scope("reduce"):
        tl.store(out_ptr + row, tl.sum(acc, axis=0))
