# Files as libraries publish them (issue 45, item 5): several kernels in one .ptx (compared,
# not a crash: kd_build_target_of read v2's path before it was set, SIGSEGV), and a template
# nobody instantiates beside plain kernels (the others compared, the template named). Several
# kernels and no --fn is a usage mistake when timing was asked: --no-run asks for the static diff.
cat >"$WORK/k1_multi.cu" <<'CU'
__global__ void inc(float *x, int n) { int i = threadIdx.x; if (i < n) x[i] += 1; }
__global__ void dbl(float *x, int n) { int i = threadIdx.x; if (i < n) x[i] *= 2; }
extern "C" __global__ void sub3(float *x, int n) { int i = threadIdx.x; if (i < n) x[i] -= 3; }
CU
if nvcc -arch=sm_90 -ptx -o "$WORK/k1_multi1.ptx" "$WORK/k1_multi.cu" 2>"$WORK/k1_multi.build"; then
    sed 's/mul\.f32/add.f32/' "$WORK/k1_multi1.ptx" >"$WORK/k1_multi2.ptx"
    run k1_multi_ptx 0 -- --no-run "$WORK/k1_multi1.ptx" "$WORK/k1_multi2.ptx"
    has k1_multi_ptx out '^kerndiff 3 kernels compared'
    has k1_multi_ptx out '^== _Z3dblPfi ==|^== dbl'
else
    fail "k1_multi_ptx: nvcc -ptx" "$WORK/k1_multi.build"
fi

cat >"$WORK/k1_tmpl1.cu" <<'CU'
template <int BLOCK> __global__ void reduce(const float *x, float *y, int n)
{
    __shared__ float s[BLOCK];
    int i = threadIdx.x;
    s[i] = i < n ? x[i] : 0;
    __syncthreads();
    if (i == 0) y[0] = s[0];
}
__global__ void scale(const float *x, float *y, int n) { int i = blockIdx.x * blockDim.x + threadIdx.x; if (i < n) y[i] = 2 * x[i]; }
__global__ void shift(const float *x, float *y, int n) { int i = blockIdx.x * blockDim.x + threadIdx.x; if (i < n) y[i] = x[i] + 1; }
CU
sed 's/x\[i\] + 1/x[i] + 2/' "$WORK/k1_tmpl1.cu" >"$WORK/k1_tmpl2.cu"
run k1_template 0 -- --no-run "$WORK/k1_tmpl1.cu" "$WORK/k1_tmpl2.cu"
has k1_template out '^kerndiff 2 kernels compared: scale, shift'
has k1_template err "^kerndiff: v1 \(.*k1_tmpl1\.cu\): template kernel 'reduce' has no compiled instance, not compared"
# the template alone still says what is missing
run k1_template_fn 3 -- --fn reduce "$WORK/k1_tmpl1.cu" "$WORK/k1_tmpl2.cu"
has k1_template_fn err "kernel 'reduce' has no entry in the PTX; if it is a template, instantiate it"

# Triton kernels as libraries write them (issue 45, item 2): `f = triton.jit(f)` (unsloth's
# form) is a kernel, and an untyped scalar used in arithmetic with a float the kernel computes
# (var + eps, var = tl.sum(x * x) / n_cols) is a float, while n_cols, also a mask bound, and
# stride, a pointer offset, stay ints.
cat >"$WORK/k1_rms.py" <<'PY'
import triton
import triton.language as tl


def _rms_norm_forward(Y, X, W, stride, n_cols, eps, BLOCK_SIZE: tl.constexpr):
    row = tl.program_id(0)
    cols = tl.arange(0, BLOCK_SIZE)
    mask = cols < n_cols
    x = tl.load(X + row * stride + cols, mask=mask, other=0).to(tl.float32)
    w = tl.load(W + cols, mask=mask, other=0)
    var = tl.sum(x * x, axis=0) / n_cols
    inv = tl.math.rsqrt(var + eps)
    tl.store(Y + row * stride + cols, x * inv * w, mask=mask)


_rms_norm_forward = triton.jit(_rms_norm_forward)


@triton.jit
def _gather_rows(Out, Table, Idx, stride, BLOCK: tl.constexpr):
    i = tl.program_id(0)
    tok = tl.load(Idx + i)
    cols = tl.arange(0, BLOCK)
    tl.store(Out + i * stride + cols, tl.load(Table + tok * stride + cols))


# unused or untyped in the kernel: typed by what the wrapper passes (corpus finding 11)
@triton.jit
def _l2norm_bwd(X, DX, DY, epsilon, sm_scale, D, BD: tl.constexpr):
    i = tl.program_id(0)
    cols = tl.arange(0, BD)
    dy = tl.load(DY + i * D + cols, mask=cols < D, other=0.0)
    tl.store(DX + i * D + cols, dy, mask=cols < D)


def l2norm_bwd(x, dy, dx, epsilon: float = 1e-6):
    D = x.shape[1]
    _l2norm_bwd[(x.shape[0],)](x, dx, dy, epsilon, 1 / D ** 0.5, D, BD=triton.next_power_of_2(D))
PY
if python3 -c 'import triton' 2>/dev/null; then
    run k1_triton_wrapped 0 -- list "$WORK/k1_rms.py"
    has k1_triton_wrapped out '^_rms_norm_forward  \(line 5\)'
    has k1_triton_wrapped out '^  float +eps +scalar'
    has k1_triton_wrapped out '^  int +n_cols '
    has k1_triton_wrapped out '^  int +stride '
    # a loaded index (no cast to a float) times a stride: stride stays an int
    lacks k1_triton_wrapped out '^  float +stride'
    has k1_triton_wrapped out '^_gather_rows  \(line 20\)'
    has k1_triton_wrapped out '^  float +epsilon +scalar'
    has k1_triton_wrapped out '^  float +sm_scale +scalar'
    has k1_triton_wrapped out '^  int +D +scalar'
fi

# More of item 2: a jitted copy under another name (`relu = triton.heuristics(...)(triton.jit(
# relu_))`: the kernel is `relu`, the module's attribute), a pointer loaded and stored (in
# place: in-out, seeded and compared, not an output poisoned), a launch through
# torch.library.wrap_triton(k)[grid] inside a @torch.library.custom_op wrapper, and a module
# that imports torch where torch is missing (the wrapper's decorator and a kernel's
# `x: torch.Tensor` annotation are not fatal: the static diff runs).
cat >"$WORK/k1_lib1.py" <<'PY'
import torch
import triton
import triton.language as tl


def relu_(x_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    x = tl.load(x_ptr + offs, mask=offs < n)
    tl.store(x_ptr + offs, tl.maximum(x, 0), mask=offs < n)


relu = triton.heuristics({"BLOCK": lambda args: 1024})(triton.jit(relu_))


@triton.jit
def add_kernel(x_ptr: torch.Tensor, y_ptr, out_ptr, n, BLOCK: tl.constexpr = 1024):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    m = offs < n
    tl.store(out_ptr + offs, tl.load(x_ptr + offs, mask=m) + tl.load(y_ptr + offs, mask=m), mask=m)


@torch.library.custom_op("k1::add", mutates_args=())
def add(x: torch.Tensor, y: torch.Tensor) -> torch.Tensor:
    out = torch.empty_like(x)
    n = x.numel()
    torch.library.wrap_triton(add_kernel)[(triton.cdiv(n, 1024),)](x, y, out, n)
    return out
PY
sed 's/tl.maximum(x, 0)/tl.maximum(x, 0.5)/; s/mask=m) + tl.load/mask=m) - tl.load/' "$WORK/k1_lib1.py" >"$WORK/k1_lib2.py"
if python3 -c 'import triton' 2>/dev/null && ! python3 -c 'import torch' 2>/dev/null; then
    run k1_triton_lib 0 -- list "$WORK/k1_lib1.py"
    has k1_triton_lib out '^relu  \(line 6\)'
    lacks k1_triton_lib out '^relu_  '
    has k1_triton_lib out '^  f32 \* +x_ptr +in-out buffer of f32 \(loaded and stored through in the source\)'
    has k1_triton_lib out '^add_kernel  \(line 16\)'
    has k1_triton_lib out '^  launched at line 26 \(in add\(\)\), which running the file does not reach'
    has k1_triton_lib out '^  f32 \* +out_ptr +output buffer of f32 \(stored through in the source\)'
    run k1_triton_lib_diff 0 -- --no-run "$WORK/k1_lib1.py" "$WORK/k1_lib2.py"
    has k1_triton_lib_diff out '^kerndiff 2 kernels compared'
    lacks k1_triton_lib_diff err 'importing .* failed'
fi

# An alias (`scale = _scale_kernel` at module level, then scale[grid](...)): the launch is
# the kernel's, taken from the file's own call with its constexpr.
cat >"$WORK/k1_alias.py" <<'PY'
import triton
import triton.language as tl


@triton.jit
def _scale_kernel(x_ptr, out_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    m = offs < n
    tl.store(out_ptr + offs, tl.load(x_ptr + offs, mask=m) * 2, mask=m)


scale = _scale_kernel


def main(x, out):
    scale[(4,)](x, out, x.numel(), BLOCK=1024)


if __name__ == "__main__":
    main(None, None)
PY
if python3 -c 'import triton' 2>/dev/null; then
    run k1_alias 0 -- list "$WORK/k1_alias.py"
    has k1_alias out '^  launched by the file at line 16: a diff takes the launch from there'
    has k1_alias out '^  constexprs: BLOCK=1024 \(the file.s call\)'
fi

# What the corpus of issue 45 (tests/corpus/summary.txt) found, written the same ways:
# - a varlen kernel's cu_seqlens, loaded and then used in another load's address, holds ints
#   (was float: Triton refused `pointer + float`);
# - every constexpr without a value is named in the one line (was the first only);
# - a constexpr shaped like a size (SPLIT_SIZE) is not given the element count (was 1M: ptxas ran
#   for minutes), and two assumed block sizes make a 32 x 32 tile, not 1024 x 1024;
# - a @triton.jit helper handed to tl.reduce is not compiled as a kernel;
# - autotune configs written as a comprehension over literal lists are counted even when the
#   decorator comes from a project module that does not import here.
mkdir -p "$WORK/k1_pkg/lib"
: >"$WORK/k1_pkg/lib/__init__.py"
cat >"$WORK/k1_pkg/lib/varlen.py" <<'PY'
import triton
import triton.language as tl

from .missing_cache import cache_autotune


@triton.jit
def _or(a, b):
    return a | b


@triton.jit
def copy_states(X, CU_SEQLENS, STATES, dim, stride, BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr):
    b = tl.program_id(2)
    end = tl.load(CU_SEQLENS + b + 1)
    rows = end - (tl.program_id(1) + 1) * BLOCK_M + tl.arange(0, BLOCK_M)
    cols = tl.program_id(0) * BLOCK_N + tl.arange(0, BLOCK_N)
    x = tl.load(X + rows[:, None] * stride + cols[None, :], mask=cols[None, :] < dim, other=0)
    tl.store(STATES + b * stride + rows[:, None] * stride + cols[None, :], x, mask=cols[None, :] < dim)


@triton.jit
def pack(W, OUT, n, SPLIT_SIZE: tl.constexpr, W_nbits: tl.constexpr, unroll: tl.constexpr):
    offs = tl.program_id(0) * SPLIT_SIZE + tl.arange(0, SPLIT_SIZE)
    w = tl.load(W + offs, mask=offs < n, other=0).to(tl.int32)
    tl.store(OUT + tl.program_id(0), tl.reduce(w << W_nbits, 0, _or))


@cache_autotune(configs=[triton.Config({'BT': bt}, num_warps=w) for bt in [32, 64] for w in [2, 4]], key=['T'])
@triton.jit
def cumsum(S, O, T, BT: tl.constexpr):
    o = tl.program_id(0) * BT + tl.arange(0, BT)
    tl.store(O + o, tl.cumsum(tl.load(S + o, mask=o < T, other=0), 0), mask=o < T)
PY
if python3 -c 'import triton' 2>/dev/null; then
    run k1_corpus_list 0 -- list "$WORK/k1_pkg/lib/varlen.py"
    has k1_corpus_list out '^  const int \* +CU_SEQLENS +input buffer of int'
    has k1_corpus_list out '^  const float \* +X +input buffer of float'
    has k1_corpus_list out 'BLOCK_M \(needs a value: --arg BLOCK_M=VALUE; a static diff with no GPU assumes 32\)'
    has k1_corpus_list out 'SPLIT_SIZE \(needs a value: --arg SPLIT_SIZE=VALUE\)'
    lacks k1_corpus_list out 'SPLIT_SIZE \(the element count'
    has k1_corpus_list out "^  launch: not launchable as described: the tl.constexprs SPLIT_SIZE, W_nbits, unroll of kernel 'pack' need values"
    lacks k1_corpus_list out '^_or  '
    has k1_corpus_list out '^  autotune: 4 configs from '
    run k1_corpus_static 0 -- --no-run --fn copy_states "$WORK/k1_pkg/lib/varlen.py" "$WORK/k1_pkg/lib/varlen.py"
    has k1_corpus_static out '^kerndiff copy_states '
    has k1_corpus_static out 'BLOCK_M=32 \(assumed: .* BLOCK_N=32 \(assumed: '
    run k1_corpus_pack 3 -- --no-run --fn pack "$WORK/k1_pkg/lib/varlen.py" "$WORK/k1_pkg/lib/varlen.py"
    has k1_corpus_pack err "^kerndiff: v1: the tl.constexprs SPLIT_SIZE, W_nbits, unroll of kernel 'pack' need values"
fi

# Block sizes as libraries pass them (unsloth's fp8.py, found on a file outside the corpus): a
# wrapper's launch `BLOCK_SIZE = block_size`, block_size its parameter defaulting to 128, gives
# 128 (was: assumed 1024, and with BLOCK_SIZE on both axes of the tile, a million-element tile
# ptxas compiled for minutes with nothing said); one size on both axes of a tile, assumed,
# counts twice (32 x 32); a GEMM's three assumed sizes are 32 each (were 8: tl.dot refused K < 16);
# a @triton.jit function that returns a value is a device function, not a kernel (unsloth's
# utils.py: its triton_cast was "the kernel", then not found); values loaded and then used in
# tl.cdiv or a bitwise operator come from an int buffer (lightllm's b_seq_len: float failed).
cat >"$WORK/k1_tiles.py" <<'PY'
import triton
import triton.language as tl

TILE = 64


@triton.jit
def dequant(x_ptr, s_ptr, y_ptr, M, N, BLOCK_SIZE: tl.constexpr):
    offs_m = tl.program_id(0) * BLOCK_SIZE + tl.arange(0, BLOCK_SIZE)
    offs_n = tl.program_id(1) * BLOCK_SIZE + tl.arange(0, BLOCK_SIZE)
    offs = offs_m[:, None] * N + offs_n[None, :]
    mask = (offs_m[:, None] < M) & (offs_n[None, :] < N)
    x = tl.load(x_ptr + offs, mask=mask)
    tl.store(y_ptr + offs, x * tl.load(s_ptr), mask=mask)


@triton.jit
def square_tile(x_ptr, y_ptr, N, BLOCK_SIZE: tl.constexpr):
    r = tl.program_id(0) * BLOCK_SIZE + tl.arange(0, BLOCK_SIZE)
    c = tl.arange(0, BLOCK_SIZE)
    o = r[:, None] * N + c[None, :]
    tl.store(y_ptr + o, tl.load(x_ptr + o, mask=o < N * N), mask=o < N * N)


@triton.jit
def gemm(a_ptr, b_ptr, c_ptr, M, N, K, BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr, BLOCK_K: tl.constexpr):
    rm = tl.program_id(0) * BLOCK_M + tl.arange(0, BLOCK_M)
    rn = tl.program_id(1) * BLOCK_N + tl.arange(0, BLOCK_N)
    rk = tl.arange(0, BLOCK_K)
    acc = tl.zeros((BLOCK_M, BLOCK_N), dtype=tl.float32)
    for k in range(0, K, BLOCK_K):
        a = tl.load(a_ptr + rm[:, None] * K + (k + rk)[None, :])
        b = tl.load(b_ptr + (k + rk)[:, None] * N + rn[None, :])
        acc += tl.dot(a, b)
    tl.store(c_ptr + rm[:, None] * N + rn[None, :], acc)


@triton.jit
def scale_rows(x_ptr, N, BLOCK: tl.constexpr):
    o = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    tl.store(x_ptr + o, tl.load(x_ptr + o, mask=o < N) * 2, mask=o < N)


def weight_dequant(x, s, block_size: int = 128):
    M, N = x.size()
    y = x.new_empty(x.shape)
    grid = lambda meta: (triton.cdiv(M, meta["BLOCK_SIZE"]), triton.cdiv(N, meta["BLOCK_SIZE"]))
    dequant[grid](x, s, y, M, N, BLOCK_SIZE=block_size)
    return y


def scale(x):
    scale_rows[(1,)](x, x.numel(), BLOCK=TILE)


@triton.jit
def to_dtype(x, dtype):  # a device function other modules' kernels call: it returns a value
    return x.to(dtype)


@triton.jit
def block_counts(seq_ptr, flags_ptr, out_ptr, n, BLOCK: tl.constexpr = 128):
    o = tl.arange(0, BLOCK)
    lens = tl.load(seq_ptr + o, mask=o < n, other=0)
    f = tl.load(flags_ptr + o, mask=o < n, other=0)
    tl.store(out_ptr + o, tl.cdiv(lens, 16) + (f & 1), mask=o < n)
PY
if python3 -c 'import triton' 2>/dev/null; then
    run k1_tiles_list 0 -- list "$WORK/k1_tiles.py"
    has k1_tiles_list out 'BLOCK_SIZE=128 \(the file.s call\)'
    has k1_tiles_list out 'BLOCK=64 \(the file.s call\)'
    has k1_tiles_list out 'BLOCK_SIZE \(needs a value: --arg BLOCK_SIZE=VALUE; a static diff with no GPU assumes 32\)'
    has k1_tiles_list out 'BLOCK_K \(needs a value: --arg BLOCK_K=VALUE; a static diff with no GPU assumes 32\)'
    lacks k1_tiles_list out '^to_dtype '
    has k1_tiles_list out '^  const i32 \* +seq_ptr +input buffer of i32'
    has k1_tiles_list out '^  const i32 \* +flags_ptr +input buffer of i32'
    run k1_tiles_dequant 0 -- --no-run --fn dequant "$WORK/k1_tiles.py" "$WORK/k1_tiles.py"
    has k1_tiles_dequant out 'BLOCK_SIZE=128'
    lacks k1_tiles_dequant out 'BLOCK_SIZE=1024'
    run k1_tiles_square 0 -- --no-run --fn square_tile "$WORK/k1_tiles.py" "$WORK/k1_tiles.py"
    has k1_tiles_square out 'BLOCK_SIZE=32 \(assumed'
    run k1_tiles_gemm 0 -- --no-run --fn gemm "$WORK/k1_tiles.py" "$WORK/k1_tiles.py"
    has k1_tiles_gemm out 'BLOCK_M=32 \(assumed: .* BLOCK_N=32 \(assumed: .* BLOCK_K=32 \(assumed: '
fi

# Tensor descriptors (item 2): a parameter the kernel calls .load/.store on is a descriptor its
# caller makes on the host (TensorDescriptor), not an int scalar: listed as such, a launch of it
# refused naming --from, and in a file of several kernels left out of the static diff with a
# line while the others are compared; a descriptor the kernel makes from a pointer
# (tl.make_tensor_descriptor(y_ptr, ...)) leaves y_ptr a buffer, stored through.
cat >"$WORK/k1_desc.py" <<'PY'
import triton
import triton.language as tl


@triton.jit
def copy_desc(in_desc, out_desc, M, N, BLOCK_M: tl.constexpr = 64, BLOCK_N: tl.constexpr = 64):
    tile = in_desc.load([tl.program_id(0) * BLOCK_M, tl.program_id(1) * BLOCK_N])
    out_desc.store([tl.program_id(0) * BLOCK_M, tl.program_id(1) * BLOCK_N], tile)


@triton.jit
def copy_made(x_ptr, y_ptr, M, N, BLOCK_M: tl.constexpr = 64, BLOCK_N: tl.constexpr = 64):
    xd = tl.make_tensor_descriptor(x_ptr, shape=[M, N], strides=[N, 1], block_shape=[BLOCK_M, BLOCK_N])
    yd = tl.make_tensor_descriptor(y_ptr, shape=[M, N], strides=[N, 1], block_shape=[BLOCK_M, BLOCK_N])
    yd.store([tl.program_id(0) * BLOCK_M, tl.program_id(1) * BLOCK_N],
             xd.load([tl.program_id(0) * BLOCK_M, tl.program_id(1) * BLOCK_N]))
PY
if python3 -c 'import triton' 2>/dev/null; then
    run k1_desc_list 0 -- list "$WORK/k1_desc.py"
    has k1_desc_list out '^  TensorDescriptor +in_desc +tensor descriptor \(its caller makes it: the launch is taken with --from\)'
    has k1_desc_list out "^  launch: not launchable as described: parameter 'in_desc' is a tensor descriptor, .* --fn copy_desc --from 'CMD'"
    has k1_desc_list out '^  float \* +y_ptr +output buffer of float \(stored through in the source\)'
    run k1_desc_static 0 -- --no-run "$WORK/k1_desc.py" "$WORK/k1_desc.py"
    has k1_desc_static err "^kerndiff: v1 \(.*k1_desc\.py\): kernel 'copy_desc' takes tensor descriptors, which only its caller makes: not compared"
    has k1_desc_static out '^kerndiff copy_made '
    sim "median=10us;median=10us" k1_desc_timed 3 -- --fn copy_desc "$WORK/k1_desc.py" "$WORK/k1_desc.py"
    has k1_desc_timed err "^kerndiff: v1: kernel 'copy_desc' takes tensor descriptors \(in_desc, out_desc\), .* --fn copy_desc --from 'CMD'"
fi

# A kernel defined in an included header gets the launch an inline copy gets (issue 45, item
# 4): its __launch_bounds__(128) and one float a thread of extern __shared__ memory (it had
# block 256 and no dynamic shared memory), found beside the file and through -I.
mkdir -p "$WORK/k1_inc/ops"
cat >"$WORK/k1_inc/ops/block_sum.cuh" <<'CU'
#pragma once
__global__ void __launch_bounds__(128) block_sum(const float *x, float *out, int n)
{
    extern __shared__ float s[];
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    s[threadIdx.x] = i < n ? x[i] : 0.f;
    __syncthreads();
    for (int k = blockDim.x / 2; k > 0; k >>= 1) {
        if (threadIdx.x < k) s[threadIdx.x] += s[threadIdx.x + k];
        __syncthreads();
    }
    if (threadIdx.x == 0) out[blockIdx.x] = s[0];
}
CU
printf '#include "ops/block_sum.cuh"\n' >"$WORK/k1_inc/beside.cu"
printf '#include "block_sum.cuh"\n' >"$WORK/k1_inc/via_i.cu"
run k1_header_beside 0 -- list "$WORK/k1_inc/beside.cu"
has k1_header_beside out '^  launch: .*block 128 \(__launch_bounds__\)  smem 512 B \(assumed\)'
run k1_header_via_i 0 -- list -I "$WORK/k1_inc/ops" "$WORK/k1_inc/via_i.cu"
has k1_header_via_i out '^  launch: .*block 128 \(__launch_bounds__\)  smem 512 B \(assumed\)'
