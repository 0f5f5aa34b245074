"""sk.py — a Triton kernel whose compiled form needs global scratch (a device-side tensor
descriptor: 128 B a program on sm_90): tests/e2e/capture/triton_py.sh replays a captured launch of
it and checks that the harness is asked for that workspace instead of the program's word."""
import triton
import triton.language as tl


@triton.jit
def sk_kernel(x_ptr, out_ptr, n, BLOCK: tl.constexpr):
    desc = tl.make_tensor_descriptor(x_ptr, shape=[n], strides=[1], block_shape=[BLOCK])
    pid = tl.program_id(0)
    v = desc.load([pid * BLOCK])
    tl.store(out_ptr + pid * BLOCK + tl.arange(0, BLOCK), v)
