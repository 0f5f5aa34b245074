#!/bin/sh
# GPU check of issue 45 item 3 (PyTorch C++/CUDA extension files): two versions of a
# LeetCUDA-style elementwise op (a __global__ kernel, a host function taking torch::Tensor
# that launches it with <<<>>>, PYBIND11_MODULE at the end; v2 four floats a thread) built by
# kerndiff with no flag but what a user gives, against the real torch headers: the static diff
# (exit 0, both kernels' registers), `kerndiff list` (the roles from the compiled code), then
# the timed diff with the launch taken from a caller that builds the extension with
# torch.utils.cpp_extension.load (in a temporary folder, no network) and calls it:
# `kerndiff --fn KERNEL --from 'python3 caller.py' v1.cu v2.cu` (exit 0, a timed verdict).
# Needs python3 with torch (2.11 was the target) and nvcc on PATH or in /usr/local/cuda/bin,
# and an NVIDIA GPU. PYTHON=PATH uses another interpreter (then passed as --python).
#   tests/gpu/torch_extension.sh BUILD_DIR   (< 3 min; results: $OUT/results-torch-extension.txt)
set -u
build=${1:-build}
root=$(cd "$(dirname "$0")/../.." && pwd)
case $build in /*) ;; *) build=$root/$build ;; esac
kd=$build/kerndiff
work=${WORK:-$(mktemp -d)}
mkdir -p "$work" && work=$(cd "$work" && pwd)
out=${OUT:-$work}
mkdir -p "$out"
summary=$out/results-torch-extension.txt
: >"$summary"
export PATH="$PATH:/usr/local/cuda/bin" NO_COLOR=1 KERNDIFF_WIDTH=0 XDG_CACHE_HOME="$work/cache"
# load() builds in the folder the caller names; its lock and its default folder stay in $work
export TORCH_EXTENSIONS_DIR="$work/torch_extensions"
py=${PYTHON:-python3}
python_flag=""
[ -n "${PYTHON:-}" ] && python_flag="--python $PYTHON"
passes=0 fails=0
say() { echo "$*" | tee -a "$summary"; }
ok() { passes=$((passes + 1)); say "ok   $*"; }
bad() { fails=$((fails + 1)); say "FAIL $*"; }
check() { msg=$1; shift; if "$@" >/dev/null 2>&1; then ok "$msg"; else bad "$msg"; fi; }
keep() { cp "$@" "$out"/ 2>/dev/null; }
last() { grep -v '^$' "$1" 2>/dev/null | tail -1 | cut -c1-300; }
finish() {
    say "torch_extension.sh: $passes passed, $fails failed (folder $work)"
    [ "$fails" = 0 ] && exit 0
    exit 1
}
say "$(date -u '+%Y-%m-%d %H:%M:%S UTC')  GPU: $(nvidia-smi --query-gpu=name,driver_version --format=csv,noheader 2>/dev/null | head -1)"
say "python: $("$py" -c 'import sys, torch; print(sys.executable, sys.version.split()[0], "torch", torch.__version__, "cuda", torch.version.cuda, "ninja", __import__("torch.utils.cpp_extension").utils.cpp_extension.is_ninja_available())' 2>&1 | tail -1)"
say "nvcc: $(nvcc --version 2>/dev/null | grep -i release | head -1)"
for f in "$kd" "$build/kerndiff-harness" "$build/libkerndiff-inject.so"; do
    [ -e "$f" ] || { bad "missing $f (make BUILD=$build all)"; finish; }
done
check "torch imports in $py" "$py" -c 'import torch.utils.cpp_extension'

# --- the extension, two versions, as LeetCUDA writes its ops ----------------------------------
cd "$work" || exit 1
cat >v1.cu <<'CU'
#include <cuda_runtime.h>
#include <torch/extension.h>
#include <torch/types.h>

#define STRINGFY(str) #str
#define TORCH_BINDING_COMMON_EXTENSION(func) m.def(STRINGFY(func), &func, STRINGFY(func));

// c = a + b, one float a thread; grid(N/256), block(256)
__global__ void elementwise_add_f32_kernel(float *a, float *b, float *c, int N) {
  int idx = blockIdx.x * blockDim.x + threadIdx.x;
  if (idx < N)
    c[idx] = a[idx] + b[idx];
}

void elementwise_add_f32(torch::Tensor a, torch::Tensor b, torch::Tensor c) {
  TORCH_CHECK(a.is_cuda() && b.is_cuda() && c.is_cuda(), "tensors must be on the GPU");
  TORCH_CHECK(a.scalar_type() == torch::kFloat32, "a must be float32");
  const int N = a.numel();
  dim3 block(256);
  dim3 grid((N + 256 - 1) / 256);
  elementwise_add_f32_kernel<<<grid, block>>>(reinterpret_cast<float *>(a.data_ptr()),
                                              reinterpret_cast<float *>(b.data_ptr()),
                                              reinterpret_cast<float *>(c.data_ptr()), N);
}

PYBIND11_MODULE(TORCH_EXTENSION_NAME, m) {
  TORCH_BINDING_COMMON_EXTENSION(elementwise_add_f32)
}
CU
cat >v2.cu <<'CU'
#include <cuda_runtime.h>
#include <torch/extension.h>
#include <torch/types.h>

#define STRINGFY(str) #str
#define TORCH_BINDING_COMMON_EXTENSION(func) m.def(STRINGFY(func), &func, STRINGFY(func));
#define FLOAT4(value) (reinterpret_cast<float4 *>(&(value))[0])

// c = a + b, four floats a thread (128-bit loads and stores), a scalar tail
__global__ void elementwise_add_f32_kernel(float *a, float *b, float *c, int N) {
  int idx = 4 * (blockIdx.x * blockDim.x + threadIdx.x);
  if (idx + 3 < N) {
    float4 reg_a = FLOAT4(a[idx]);
    float4 reg_b = FLOAT4(b[idx]);
    float4 reg_c;
    reg_c.x = reg_a.x + reg_b.x;
    reg_c.y = reg_a.y + reg_b.y;
    reg_c.z = reg_a.z + reg_b.z;
    reg_c.w = reg_a.w + reg_b.w;
    FLOAT4(c[idx]) = reg_c;
  } else {
    for (int i = idx; i < N; i++)
      c[i] = a[i] + b[i];
  }
}

void elementwise_add_f32(torch::Tensor a, torch::Tensor b, torch::Tensor c) {
  TORCH_CHECK(a.is_cuda() && b.is_cuda() && c.is_cuda(), "tensors must be on the GPU");
  TORCH_CHECK(a.scalar_type() == torch::kFloat32, "a must be float32");
  const int N = a.numel();
  dim3 block(256 / 4);
  dim3 grid((N + 256 - 1) / 256);
  elementwise_add_f32_kernel<<<grid, block>>>(reinterpret_cast<float *>(a.data_ptr()),
                                              reinterpret_cast<float *>(b.data_ptr()),
                                              reinterpret_cast<float *>(c.data_ptr()), N);
}

PYBIND11_MODULE(TORCH_EXTENSION_NAME, m) {
  TORCH_BINDING_COMMON_EXTENSION(elementwise_add_f32)
}
CU
# The caller: builds v1 as the user's project would (load(), or setuptools where ninja is
# missing: no network either way) and calls it once. kerndiff times its own builds of v1 and v2
# with this launch (v1's grid: v2's extra threads find no work and return).
cat >caller.py <<'PY'
import importlib, os, sys
import torch
from torch.utils import cpp_extension

here = os.path.dirname(os.path.abspath(__file__))
name = "kd_elementwise_v1"
build = os.path.join(here, "ext_build")
os.makedirs(build, exist_ok=True)
source = os.path.join(here, "v1.cu")
if cpp_extension.is_ninja_available():
    ext = cpp_extension.load(name=name, sources=[source], build_directory=build, verbose=False)
else:
    from setuptools import setup
    setup(name=name, ext_modules=[cpp_extension.CUDAExtension(name, [source])],
          cmdclass={"build_ext": cpp_extension.BuildExtension.with_options(use_ninja=False)},
          script_args=["-q", "build_ext", "--build-lib", build, "--build-temp", os.path.join(build, "tmp")])
    sys.path.insert(0, build)
    ext = importlib.import_module(name)
n = 1 << 24
a = torch.randn(n, device="cuda")
b = torch.randn(n, device="cuda")
c = torch.empty_like(a)
ext.elementwise_add_f32(a, b, c)
torch.cuda.synchronize()
assert torch.allclose(c, a + b), "the extension computed something else"
print("caller: ok")
PY

# --- 1. the static diff: real torch headers, no flag (-v: the trace says torch was asked) -----
# KERNDIFF_NO_GPU: the static part alone; the timed diff is part 4.
start=$(date +%s)
# shellcheck disable=SC2086 # python_flag is two words or none
KERNDIFF_NO_GPU=1 "$kd" $python_flag -v v1.cu v2.cu >"$work/static.txt" 2>"$work/static.err"
rc=$?
keep "$work/static.txt" "$work/static.err"
check "static diff: exit 0 (exit $rc: $(last "$work/static.err"))" test $rc -eq 0
check "static diff: asked torch for its headers (trace: a PyTorch extension)" grep -q 'a PyTorch extension (torch/extension.h): torch ' "$work/static.err"
check "static diff: both kernels' registers" grep -Eq '^  registers/thread +[0-9]+ +[0-9]+' "$work/static.txt"
check "static diff: v2's 128-bit loads seen" grep -q '128-bit global loads appeared' "$work/static.txt"
say "     $(grep -m1 'registers/thread' "$work/static.txt")  ($(($(date +%s) - start)) s, cold builds)"
say "     $(grep -m1 'PyTorch extension' "$work/static.err" | cut -c1-200)"

# --- 2. list: the kernel and its roles from the compiled code ---------------------------------
# shellcheck disable=SC2086
KERNDIFF_NO_GPU=1 "$kd" list $python_flag v1.cu >"$work/list.txt" 2>"$work/list.err"
rc=$?
keep "$work/list.txt" "$work/list.err"
check "list: exit 0 (exit $rc: $(last "$work/list.err"))" test $rc -eq 0
check "list: a is an input (from the compiled code)" grep -Eq '^  float \* +a +input buffer of float \(never written' "$work/list.txt"
check "list: c is an output (from the compiled code)" grep -Eq '^  float \* +c +output buffer of float \(written' "$work/list.txt"

# --- 3. the caller alone: load() builds v1 and runs it -----------------------------------------
start=$(date +%s)
"$py" caller.py >"$work/caller.txt" 2>"$work/caller.err"
rc=$?
keep "$work/caller.txt" "$work/caller.err"
check "caller.py alone: builds the extension and runs it (exit $rc: $(last "$work/caller.err"))" grep -q '^caller: ok' "$work/caller.txt"
say "     caller.py: $(($(date +%s) - start)) s (the extension's build, kept in ext_build/)"

# --- 4. the timed diff, the launch taken from the caller --------------------------------------
start=$(date +%s)
# shellcheck disable=SC2086
"$kd" $python_flag --fn elementwise_add_f32_kernel --from "$py caller.py" --no-ncu --max-time 5 \
    --json "$work/timed.json" v1.cu v2.cu >"$work/timed.txt" 2>"$work/timed.err"
rc=$?
keep "$work/timed.txt" "$work/timed.err" "$work/timed.json"
check "--from '$py caller.py': exit 0 (exit $rc: $(last "$work/timed.err"))" test $rc -eq 0
verdict=$("$py" -c "import json,sys; print(json.load(open(sys.argv[1]))['runtime']['verdict'])" "$work/timed.json" 2>/dev/null)
check "--from: a timed verdict (got '${verdict:-none}')" sh -c "case '$verdict' in faster|slower|'no significant difference') exit 0;; esac; exit 1"
check "--from: both sides compute what the program computed" sh -c "grep -q '^v1 still computes what the program computed' '$work/timed.txt' && grep -q '^v2 still computes what the program computed' '$work/timed.txt'"
say "     $(grep -E '^(no significant|v2 is|v1 is)' "$work/timed.txt" | head -1)  ($(($(date +%s) - start)) s)"
finish
