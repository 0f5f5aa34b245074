# Matmul pair, v1: C = A @ B in fp16 with fp32 accumulation, 128x128x32 tiles, 8 warps.
# Expected diff against v2.py (64x128x64 tiles, 4 warps): the tile shape shows in the
# shared memory (the "what changed" lines give Triton's figure per side), registers per
# thread and the occupancy table (v1 is register-limited to one block per SM); the timing
# says which tiling feeds the tensor cores better at 4096^3.
# kerndiff: M=4096 N=4096 K=4096 BLOCK_M=128 BLOCK_N=128 BLOCK_K=32 num_warps=8 num_stages=2
# kerndiff: grid=cdiv(M,BLOCK_M)*cdiv(N,BLOCK_N) a_ptr=f16[M*K] b_ptr=f16[K*N] c_ptr=f16[M*N]
# kerndiff: stride_am=K stride_ak=1 stride_bk=N stride_bn=1 stride_cm=N stride_cn=1
import triton
import triton.language as tl


@triton.jit
def matmul_kernel(a_ptr, b_ptr, c_ptr, M, N, K, stride_am, stride_ak, stride_bk, stride_bn, stride_cm, stride_cn,
                  BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr, BLOCK_K: tl.constexpr):
    pid = tl.program_id(0)
    n_blocks = tl.cdiv(N, BLOCK_N)
    pid_m, pid_n = pid // n_blocks, pid % n_blocks
    rm = pid_m * BLOCK_M + tl.arange(0, BLOCK_M)
    rn = pid_n * BLOCK_N + tl.arange(0, BLOCK_N)
    rk = tl.arange(0, BLOCK_K)
    a_ptrs = a_ptr + rm[:, None] * stride_am + rk[None, :] * stride_ak
    b_ptrs = b_ptr + rk[:, None] * stride_bk + rn[None, :] * stride_bn
    acc = tl.zeros((BLOCK_M, BLOCK_N), dtype=tl.float32)
    for k in range(0, tl.cdiv(K, BLOCK_K)):
        a = tl.load(a_ptrs, mask=rk[None, :] < K - k * BLOCK_K, other=0.0)
        b = tl.load(b_ptrs, mask=rk[:, None] < K - k * BLOCK_K, other=0.0)
        acc += tl.dot(a, b)
        a_ptrs += BLOCK_K * stride_ak
        b_ptrs += BLOCK_K * stride_bk
    c_ptrs = c_ptr + rm[:, None] * stride_cm + rn[None, :] * stride_cn
    tl.store(c_ptrs, acc.to(tl.float16), mask=(rm[:, None] < M) & (rn[None, :] < N))
