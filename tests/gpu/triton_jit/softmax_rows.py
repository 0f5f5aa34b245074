"""Fused row-wise softmax: one program per row, num_warps and num_stages chosen at the call
site from the row size and the device (as Triton's softmax tutorial does)."""
import torch
import triton
import triton.language as tl
from triton.runtime import driver

DEVICE = triton.runtime.driver.active.get_active_torch_device()
properties = driver.active.utils.get_device_properties(DEVICE.index)
SIZE_SMEM = properties["max_shared_mem"]


@triton.jit
def softmax_kernel(output_ptr, input_ptr, input_row_stride, output_row_stride, n_cols, BLOCK_SIZE: tl.constexpr):
    row_idx = tl.program_id(0)
    row_start_ptr = input_ptr + row_idx * input_row_stride
    col_offsets = tl.arange(0, BLOCK_SIZE)
    mask = col_offsets < n_cols
    row = tl.load(row_start_ptr + col_offsets, mask=mask, other=-float('inf'))
    row_minus_max = row - tl.max(row, axis=0)
    numerator = tl.exp(row_minus_max)
    denominator = tl.sum(numerator, axis=0)
    tl.store(output_ptr + row_idx * output_row_stride + col_offsets, numerator / denominator, mask=mask)


def softmax(x):
    n_rows, n_cols = x.shape
    BLOCK_SIZE = triton.next_power_of_2(n_cols)
    num_warps = 8
    num_stages = 4 if SIZE_SMEM > 200000 else 2
    y = torch.empty_like(x)
    k = softmax_kernel[(n_rows, )](y, x, x.stride(0), y.stride(0), n_cols, BLOCK_SIZE=BLOCK_SIZE,
                                   num_warps=num_warps, num_stages=num_stages)
    return y, k


def make_inputs():
    torch.manual_seed(0)
    return (torch.randn(32768, 4000, device=DEVICE), )


def the_launch(inputs):
    return softmax(*inputs)[1]


if __name__ == "__main__":
    inputs = make_inputs()
    the_launch(inputs)
    print(triton.testing.do_bench(lambda: softmax(*inputs)))
