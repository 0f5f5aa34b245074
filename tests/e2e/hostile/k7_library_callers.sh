# Callers through the project's other modules (issue 45, the corpus's item 5): a kernels module
# launched by another module's autograd Function and reached through a package re-export
# (attorch's layout), a wrapper that launches through a local alias chosen per branch and is
# called through a module-level alias (gemlite's and fla's), a file of several kernels with
# no flags (its callers are looked for and said, each with the kernel its launch gives), and a
# kernel launched through jax_triton.triton_call (said to be a JAX launch). Read, never run.
if python3 -c 'import triton' 2>/dev/null; then
K7=$WORK/k7_proj
mkdir -p "$K7/normpkg" "$K7/tests"
touch "$K7/pyproject.toml"
cat >"$K7/normpkg/norm_kernels.py" <<'PY'
import triton
import triton.language as tl


@triton.jit
def norm_forward_kernel(x_ptr, y_ptr, n_cols, eps, BLOCK_SIZE: tl.constexpr, affine: tl.constexpr):
    row = tl.program_id(0)
    cols = tl.arange(0, BLOCK_SIZE)
    mask = cols < n_cols
    x = tl.load(x_ptr + row * n_cols + cols, mask=mask, other=0.0)
    var = tl.sum(x * x, axis=0) / n_cols
    y = x * tl.math.rsqrt(var + eps)
    if affine:
        y = y * 2.0
    tl.store(y_ptr + row * n_cols + cols, y, mask=mask)


@triton.jit
def norm_backward_kernel(dy_ptr, dx_ptr, n_cols, BLOCK_SIZE: tl.constexpr, affine: tl.constexpr):
    row = tl.program_id(0)
    cols = tl.arange(0, BLOCK_SIZE)
    mask = cols < n_cols
    dy = tl.load(dy_ptr + row * n_cols + cols, mask=mask, other=0.0)
    tl.store(dx_ptr + row * n_cols + cols, dy * (2.0 if affine else 1.0), mask=mask)
PY
cat >"$K7/normpkg/norm_layer.py" <<PY
open("$WORK/k7_ran_layer", "w").close()
import torch
from torch import nn
from triton import next_power_of_2

from .norm_kernels import norm_backward_kernel, norm_forward_kernel


class NormAutoGrad(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x, eps):
        y = torch.empty_like(x)
        norm_forward_kernel[(x.shape[0],)](x, y, x.shape[1], eps,
                                           BLOCK_SIZE=next_power_of_2(x.shape[1]), affine=False)
        return y

    @staticmethod
    def backward(ctx, dy):
        dx = torch.empty_like(dy)
        norm_backward_kernel[(dy.shape[0],)](dy, dx, dy.shape[1],
                                             BLOCK_SIZE=next_power_of_2(dy.shape[1]), affine=False)
        return dx, None


class Norm(nn.Module):
    def __init__(self, eps=1e-6):
        super().__init__()
        self.eps = eps

    def forward(self, x):
        return NormAutoGrad.apply(x, self.eps)
PY
cat >"$K7/normpkg/__init__.py" <<'PY'
"""A package that re-exports its layers, as libraries do."""
from .norm_layer import Norm
PY
cat >"$K7/tests/test_norm_layer.py" <<PY
open("$WORK/k7_ran_test", "w").close()
import pytest
import torch

import normpkg


def test_norm():
    x = torch.randn(8, 128, device="cuda")
    assert normpkg.Norm()(x).shape == x.shape


@pytest.mark.parametrize("layer", ["Norm"])
def test_norm_by_name(layer):
    x = torch.randn(8, 128, device="cuda")
    assert getattr(normpkg, layer)()(x).shape == x.shape
PY
# imports the package, reaches nothing of the kernel: never a caller (not even "imports the module")
printf 'import normpkg\n\n\ndef test_version():\n    assert normpkg.__doc__\n' >"$K7/tests/test_other.py"

run k7_layer 3 -- "$K7/normpkg/norm_kernels.py" "$K7/normpkg/norm_kernels.py"
has k7_layer err "^kerndiff: v1: .*tl\.constexpr"
has k7_layer err "^kerndiff: .*k7_proj/normpkg/norm_kernels\.py launches none of its kernels itself \(only through normpkg\.norm_layer\.NormAutoGrad\); their callers, best first, each with the kernel its launch gives \(not run: no GPU: .*; run from .*k7_proj\):$"
has k7_layer err "^kerndiff:   1\. tests/test_norm_layer\.py::test_norm calls normpkg\.Norm\(\): --fn norm_forward_kernel --from '[^ ]*python[0-9.]* -m pytest -x -q tests/test_norm_layer\.py::test_norm'$"
has k7_layer err "^kerndiff:   2\. tests/test_norm_layer\.py::test_norm_by_name calls getattr\(normpkg, \.\.\.\)\(\): --fn norm_forward_kernel "
lacks k7_layer err 'test_other|no test, benchmark or script|  3\. '
# the first line on stderr is the refusal, naming the flag (the callers are the other way)
head -n 1 "$WORK/k7_layer.err" | grep -q 'needs* a* *values*' && ok "k7_layer: the refusal first" || fail "k7_layer: the refusal first" "$WORK/k7_layer.err"
run k7_layer_fn 3 -- --fn norm_backward_kernel "$K7/normpkg/norm_kernels.py" "$K7/normpkg/norm_kernels.py"
has k7_layer_fn err "does not launch norm_backward_kernel itself \(only through normpkg\.norm_layer\.NormAutoGrad\); its callers"
has k7_layer_fn err "^kerndiff:   1\. tests/test_norm_layer\.py::test_norm calls normpkg\.Norm\(\): --fn norm_backward_kernel "

# a wrapper whose launch goes through a local alias chosen per branch, called through a
# module-level alias of the wrapper
mkdir -p "$K7/normpkg/kernels"
touch "$K7/normpkg/kernels/__init__.py"
cat >"$K7/normpkg/kernels/gemv_kernels.py" <<'PY'
import torch
import triton
import triton.language as tl


@triton.jit
def gemv_INT_kernel(x_ptr, w_ptr, y_ptr, K, BLOCK_K: tl.constexpr, W_nbits: tl.constexpr):
    n = tl.program_id(0)
    k = tl.arange(0, BLOCK_K)
    acc = tl.sum(tl.load(x_ptr + k, mask=k < K, other=0.0) * tl.load(w_ptr + n * K + k, mask=k < K, other=0.0), axis=0)
    tl.store(y_ptr + n, acc)


@triton.jit
def gemv_MX_kernel(x_ptr, w_ptr, y_ptr, K, BLOCK_K: tl.constexpr, W_nbits: tl.constexpr):
    n = tl.program_id(0)
    k = tl.arange(0, BLOCK_K)
    acc = tl.sum(tl.load(x_ptr + k, mask=k < K, other=0.0) * tl.load(w_ptr + n * K + k, mask=k < K, other=0.0), axis=0)
    tl.store(y_ptr + n, acc * 0.5)


def gemv_forward(x, W, mx=False):
    y = torch.empty(W.shape[0], device=x.device, dtype=torch.float32)
    if mx:
        gemv_kernel = gemv_MX_kernel
    else:
        gemv_kernel = gemv_INT_kernel
    gemv_kernel[(W.shape[0],)](x, W, y, x.shape[0], BLOCK_K=triton.next_power_of_2(x.shape[0]), W_nbits=8)
    return y


gemv = gemv_forward
PY
printf 'from normpkg.kernels.gemv_kernels import gemv\n\n\ndef test_gemv():\n    gemv(None, None)\n' >"$K7/tests/test_a_gemv.py"
# the module's own test (named for it) first among callers as near
printf 'from normpkg.kernels.gemv_kernels import gemv\n\n\ndef test_own():\n    gemv(None, None)\n' \
    >"$K7/tests/test_gemv_kernels.py"
# a library module that registers the wrapper at import: no caller (importing it runs nothing)
printf 'from .kernels.gemv_kernels import gemv\n\nREGISTRY = {}\nREGISTRY.setdefault("gemv", gemv)\nprint(gemv)\n' \
    >"$K7/normpkg/registry.py"
# gemlite's dispatch: a class whose attribute is the wrapper, in a table another module indexes
cat >>"$K7/normpkg/kernels/gemv_kernels.py" <<'PY'


class gemv_ops:
    kernel = [gemv_INT_kernel, gemv_MX_kernel]
    forward = gemv_forward
PY
cat >"$K7/normpkg/core.py" <<'PY'
from .kernels.gemv_kernels import gemv_ops

MAPPING = {"GEMV": gemv_ops}


def forward_functional(x, W, matmul_type="GEMV"):
    return MAPPING[matmul_type].forward(x, W)
PY
printf 'from normpkg.core import forward_functional\n\n\ndef test_dispatch():\n    forward_functional(None, None)\n' \
    >"$K7/tests/test_dispatch.py"
run k7_alias 3 -- "$K7/normpkg/kernels/gemv_kernels.py" "$K7/normpkg/kernels/gemv_kernels.py"
has k7_alias err "gemv_kernels\.py launches none of its kernels itself \(only through gemv_forward\); their callers"
has k7_alias err "^kerndiff:   1\. tests/test_gemv_kernels\.py::test_own calls gemv\(\): --fn gemv_INT_kernel "
has k7_alias err "^kerndiff:   2\. tests/test_a_gemv\.py::test_gemv calls gemv\(\): --fn gemv_INT_kernel "
has k7_alias err "^kerndiff:   3\. tests/test_dispatch\.py::test_dispatch calls forward_functional\(\): --fn gemv_INT_kernel "
python3 scripts/kerndiff-triton.py callers "$K7/normpkg/kernels/gemv_kernels.py" "" >"$WORK/k7_alias_callers.json"
if grep -q 'registry' "$WORK/k7_alias_callers.json"; then fail "k7_alias: a library module's registration is a caller" "$WORK/k7_alias_callers.json"
else ok "k7_alias: a library module's registration is no caller"; fi
# list: the launch through the alias is the file's own (in gemv_forward), for both kernels
run k7_alias_list 0 -- list "$K7/normpkg/kernels/gemv_kernels.py"
python3 scripts/kerndiff-triton.py list "$K7/normpkg/kernels/gemv_kernels.py" >"$WORK/k7_alias_list.json"
python3 - "$WORK/k7_alias_list.json" <<'PY' && ok "k7_alias_list: both kernels launched in gemv_forward" || fail "k7_alias_list: the alias's launch" "$WORK/k7_alias_list.json"
import json, sys
ks = {k["name"]: k["launches_unreached"] for k in json.load(open(sys.argv[1]))["kernels"]}
want = [{"line": 28, "in": "gemv_forward"}]
sys.exit(0 if ks.get("gemv_INT_kernel") == want and ks.get("gemv_MX_kernel") == want else 1)
PY

# a file of several kernels that nothing in its project reaches: one line says so, for them all
K7N=$WORK/k7_none
mkdir -p "$K7N/tests"
touch "$K7N/setup.py"
cp "$K7/normpkg/norm_kernels.py" "$K7N/norm_kernels.py"
printf 'def test_x():\n    assert True\n' >"$K7N/tests/test_x.py"
run k7_none 3 -- "$K7N/norm_kernels.py" "$K7N/norm_kernels.py"
has k7_none err "^kerndiff: .*k7_none/norm_kernels\.py launches none of its kernels itself, and no test, benchmark or script in .*k7_none reaches them \(2 Python files read\): the launches are described; to take one from a program that makes it: --fn NAME --from 'CMD'$"

# jax_triton.triton_call: a JAX launch, said as such (not "no caller reaches it")
K7J=$WORK/k7_jax
mkdir -p "$K7J"
touch "$K7J/pyproject.toml"
cat >"$K7J/add.py" <<'PY'
import jax
import jax.numpy as jnp
import jax_triton as jt
import triton
import triton.language as tl


@triton.jit
def add_kernel(x_ptr, y_ptr, length, output_ptr, block_size: tl.constexpr):
    pid = tl.program_id(axis=0)
    offsets = pid * block_size + tl.arange(0, block_size)
    mask = offsets < length
    tl.store(output_ptr + offsets, tl.load(x_ptr + offsets, mask=mask) + tl.load(y_ptr + offsets, mask=mask), mask=mask)


def add(x, y):
    out_shape = jax.ShapeDtypeStruct(shape=x.shape, dtype=x.dtype)
    return jt.triton_call(x, y, x.size, kernel=add_kernel, out_shape=out_shape,
                          grid=(x.size // 8,), block_size=8)


if __name__ == "__main__":
    print(add(jnp.arange(8), jnp.arange(8)))
PY
run k7_jax 3 -- "$K7J/add.py" "$K7J/add.py"
has k7_jax err "^kerndiff: .*k7_jax/add\.py launches add_kernel through jax_triton\.triton_call \(line 18\), a JAX launch: kerndiff captures PyTorch and CUDA launches, not JAX's"
lacks k7_jax err 'no test, benchmark or script|its callers'
# torch.library ops (bitsandbytes' layout): a backend module registers the wrapper module's
# function for an op, tests call torch.ops.NS.NAME, the public API calls the op too; an op
# registered for another device only is said, never taken as a caller.
K7O=$WORK/k7_ops
mkdir -p "$K7O/quantlib/backends/triton" "$K7O/quantlib/backends/xpu" "$K7O/tests"
touch "$K7O/pyproject.toml" "$K7O/quantlib/backends/__init__.py" "$K7O/quantlib/backends/triton/__init__.py" \
    "$K7O/quantlib/backends/xpu/__init__.py"
cat >"$K7O/quantlib/backends/triton/kernels.py" <<'PY'
import triton
import triton.language as tl


@triton.jit
def absmax_quant_kernel(x_ptr, q_ptr, absmax_ptr, n, BLOCK: tl.constexpr):
    pid = tl.program_id(0)
    offs = pid * BLOCK + tl.arange(0, BLOCK)
    x = tl.load(x_ptr + offs, mask=offs < n, other=0.0)
    m = tl.max(tl.abs(x), axis=0)
    tl.store(absmax_ptr + pid, m)
    tl.store(q_ptr + offs, (x / m * 127.0).to(tl.int8), mask=offs < n)


@triton.jit
def dequant_kernel(q_ptr, absmax_ptr, y_ptr, n, BLOCK: tl.constexpr):
    pid = tl.program_id(0)
    offs = pid * BLOCK + tl.arange(0, BLOCK)
    q = tl.load(q_ptr + offs, mask=offs < n, other=0)
    tl.store(y_ptr + offs, q.to(tl.float32) * tl.load(absmax_ptr + pid) / 127.0, mask=offs < n)


def quantize_impl(x, q, absmax, block=256):
    absmax_quant_kernel[(triton.cdiv(x.numel(), block),)](x, q, absmax, x.numel(), BLOCK=block)


def dequantize_impl(q, absmax, y, block=256):
    dequant_kernel[(triton.cdiv(q.numel(), block),)](q, absmax, y, q.numel(), BLOCK=block)
PY
cat >"$K7O/quantlib/backends/triton/ops.py" <<'PY'
import torch

from . import kernels


def quantize(A, blocksize):
    q = torch.empty_like(A, dtype=torch.int8)
    absmax = torch.empty(-(-A.numel() // blocksize), device=A.device)
    kernels.quantize_impl(A, q, absmax, blocksize)
    return q, absmax


def dequantize(q, absmax, blocksize):
    y = torch.empty_like(q, dtype=torch.float32)
    kernels.dequantize_impl(q, absmax, y, blocksize)
    return y
PY
cat >"$K7O/quantlib/backends/cuda_ops.py" <<'PY'
from torch.library import register_kernel

from .triton import ops as triton_ops

register_kernel("quantlib::quantize_blockwise", "cuda")(triton_ops.quantize)
PY
cat >"$K7O/quantlib/backends/xpu/ops.py" <<'PY'
import torch

from ..triton import ops as triton_ops


@torch.library.register_kernel("quantlib::dequantize_blockwise", "xpu")
def _(q, absmax, blocksize):
    return triton_ops.dequantize(q, absmax, blocksize)
PY
cat >"$K7O/quantlib/functional.py" <<'PY'
import torch


def quantize_blockwise(A, blocksize=256):
    return torch.ops.quantlib.quantize_blockwise.default(A, blocksize)
PY
cat >"$K7O/quantlib/__init__.py" <<'PY'
from . import functional
PY
cat >"$K7O/tests/test_ops.py" <<'PY'
import pytest
import torch


@pytest.mark.parametrize("blocksize", [256, 1024])
def test_quantize_blockwise(blocksize):
    A = torch.randn(4096, device="cuda")
    q, absmax = torch.ops.quantlib.quantize_blockwise(A, blocksize)
    assert q.dtype == torch.int8
PY
cat >"$K7O/tests/test_functional.py" <<'PY'
import torch

import quantlib.functional as F


def test_roundtrip():
    q, absmax = F.quantize_blockwise(torch.randn(1024, device="cuda"))
PY
run k7_ops 0 -- --fn absmax_quant_kernel "$K7O/quantlib/backends/triton/kernels.py" "$K7O/quantlib/backends/triton/kernels.py"
has k7_ops err "^kerndiff:   1\. tests/test_ops\.py::test_quantize_blockwise calls torch\.ops\.quantlib\.quantize_blockwise\(\): --fn absmax_quant_kernel "
has k7_ops err "^kerndiff:   2\. tests/test_functional\.py::test_roundtrip calls F\.quantize_blockwise\(\): --fn absmax_quant_kernel "
run k7_ops_xpu 0 -- --fn dequant_kernel "$K7O/quantlib/backends/triton/kernels.py" "$K7O/quantlib/backends/triton/kernels.py"
has k7_ops_xpu err "does not launch dequant_kernel itself, and no test, benchmark or script in .*k7_ops reaches it \([0-9]+ Python files read\); the torch\.ops that reach the kernel are registered for other devices only \(quantlib::dequantize_blockwise for xpu\): on an NVIDIA GPU they run another kernel"
lacks k7_ops_xpu err "  1\. "

# a kernel handed to its wrapper as an argument (kernl's layer_norm: the autograd Function
# launches `implementation[(M,)](...)`), the tests passing it through a table of lambdas
K7H=$WORK/k7_handed
mkdir -p "$K7H/normlib" "$K7H/test"
touch "$K7H/pyproject.toml" "$K7H/normlib/__init__.py"
cat >"$K7H/normlib/layer_norm.py" <<'PY'
import torch
import triton
import triton.language as tl


@triton.jit
def _norm_single_pass(Out, A, N, eps, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    cols = tl.arange(0, BLOCK)
    a = tl.load(A + row * N + cols, mask=cols < N, other=0.0)
    tl.store(Out + row * N + cols, a / tl.sqrt(tl.sum(a * a, axis=0) / N + eps), mask=cols < N)


@triton.jit
def _norm_two_pass(Out, A, N, eps, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    cols = tl.arange(0, BLOCK)
    a = tl.load(A + row * N + cols, mask=cols < N, other=0.0)
    tl.store(Out + row * N + cols, a * eps, mask=cols < N)


class Norm(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x, eps, implementation):
        out = torch.empty_like(x)
        implementation[(x.shape[0],)](out, x, x.shape[1], eps, BLOCK=triton.next_power_of_2(x.shape[1]))
        return out


def norm(x, eps, implementation=_norm_single_pass):
    return Norm.apply(x, eps, implementation)
PY
cat >"$K7H/test/test_norm.py" <<'PY'
import pytest
import torch

from normlib.layer_norm import _norm_single_pass, norm

implementations = {
    "torch": lambda eps: lambda x: torch.nn.functional.layer_norm(x, x.shape[-1:], eps=eps),
    "triton": lambda eps: lambda x: norm(x, eps, _norm_single_pass),
}


@pytest.mark.parametrize("implementation", implementations.keys())
def test_norm(implementation):
    x = torch.randn(64, 128, device="cuda")
    implementations[implementation](1e-5)(x)
PY
run k7_handed 0 -- --fn _norm_single_pass "$K7H/normlib/layer_norm.py" "$K7H/normlib/layer_norm.py"
has k7_handed err "^kerndiff:   1\. test/test_norm\.py::test_norm calls implementations\(\) -> .*: --fn _norm_single_pass "
# the other kernel is never passed by the tests: no caller of it
run k7_handed_two 0 -- --fn _norm_two_pass "$K7H/normlib/layer_norm.py" "$K7H/normlib/layer_norm.py"
lacks k7_handed_two err "test_norm\.py::test_norm"

[ -e "$WORK/k7_ran_layer" ] || [ -e "$WORK/k7_ran_test" ] && fail "k7: a caller was run or imported" || ok "k7: nothing run"
fi
