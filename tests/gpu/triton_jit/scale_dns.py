"""A kernel whose length is never specialised (do_not_specialize): Triton compiles one kernel
for every n, so n stays an i32 argument without a divisibility attribute."""
import torch
import triton
import triton.language as tl

DEVICE = triton.runtime.driver.active.get_active_torch_device()


@triton.jit(do_not_specialize=["n"])
def scale_kernel(x_ptr, out_ptr, n, alpha, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    tl.store(out_ptr + offs, tl.load(x_ptr + offs, mask=mask) * alpha, mask=mask)


def scale(x, alpha):
    out = torch.empty_like(x)
    n = x.numel()
    return out, scale_kernel[(triton.cdiv(n, 2048), )](x, out, n, alpha, BLOCK=2048, num_warps=4)


def make_inputs():
    torch.manual_seed(0)
    return torch.rand(1 << 26, device=DEVICE), 0.5


def the_launch(inputs):
    return scale(*inputs)[1]


if __name__ == "__main__":
    inputs = make_inputs()
    the_launch(inputs)
    print(triton.testing.do_bench(lambda: scale(*inputs)))
