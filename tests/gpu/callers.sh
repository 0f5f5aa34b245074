#!/bin/sh
# GPU check of issue 45 item 1 (the caller is found): a Triton kernel in a library module
# (mypkg/ops/rms.py: the kernel and its wrapper rms_norm, no launch the file reaches) whose
# launch kerndiff takes, with no flag, from the project's own pytest test that calls the
# wrapper, run with capture as --from runs it (in the project's root), the report naming it;
# then git mode; then --from 'python3 -m pytest -k CASE tests/x.py' (and plain `pytest` when it
# is on PATH) given by the user; then a caller that fails before the launch (said, the launch
# described instead). Needs python3 with torch, Triton (3.4-3.6) and pytest, and an NVIDIA GPU.
#   tests/gpu/callers.sh BUILD_DIR      (< 3 min; results: $OUT/callers-summary.txt and the logs)
set -u
build=${1:-build}
root=$(cd "$(dirname "$0")/../.." && pwd)
case $build in /*) ;; *) build=$root/$build ;; esac
kd=$build/kerndiff
work=${WORK:-$(mktemp -d)}
mkdir -p "$work" && work=$(cd "$work" && pwd)
out=${OUT:-$work}
mkdir -p "$out"
summary=$out/callers-summary.txt
: >"$summary"
export PATH="$PATH:/usr/local/cuda/bin" NO_COLOR=1 KERNDIFF_WIDTH=0 XDG_CACHE_HOME="$work/cache"
passes=0 fails=0
say() { echo "$*" | tee -a "$summary"; }
ok() { passes=$((passes + 1)); say "ok   $*"; }
bad() { fails=$((fails + 1)); say "FAIL $*"; }
check() { msg=$1; shift; if "$@" >/dev/null 2>&1; then ok "$msg"; else bad "$msg"; fi; }
keep() { cp "$@" "$out"/ 2>/dev/null; }
finish() {
    say "callers.sh: $passes passed, $fails failed (folder $work)"
    [ "$fails" = 0 ] && exit 0
    exit 1
}
for f in "$kd" "$build/kerndiff-harness" "$build/libkerndiff-inject.so"; do
    [ -e "$f" ] || { bad "missing $f (make BUILD=$build all)"; finish; }
done
say "GPU: $(nvidia-smi --query-gpu=name,driver_version --format=csv,noheader 2>/dev/null | head -1)"
say "python3: $(python3 -c 'import sys, torch, triton; print(sys.version.split()[0], "torch", torch.__version__, "triton", triton.__version__)' 2>&1 | tail -1)"
check "pytest importable in python3" python3 -c 'import pytest'

# --- the project -------------------------------------------------------------------------
proj=$work/proj
rm -rf "$proj"
mkdir -p "$proj/mypkg/ops" "$proj/tests" "$proj/benchmarks"
touch "$proj/mypkg/__init__.py" "$proj/mypkg/ops/__init__.py"
# as a project whose tests run with plain `pytest` says it (`python3 -m pytest` puts the
# working folder on sys.path itself; `pytest` alone needs this, or its tests cannot import mypkg)
printf '[tool.pytest.ini_options]\npythonpath = ["."]\n' >"$proj/pyproject.toml"
cat >"$proj/mypkg/ops/rms.py" <<'PY'
import triton
import triton.language as tl


@triton.jit
def _rms_kernel(Y, X, W, stride, n_cols, eps, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    cols = tl.arange(0, BLOCK)
    mask = cols < n_cols
    x = tl.load(X + row * stride + cols, mask=mask, other=0).to(tl.float32)
    w = tl.load(W + cols, mask=mask, other=0).to(tl.float32)
    var = tl.sum(x * x, axis=0) / n_cols
    y = x * tl.math.rsqrt(var + eps) * w
    tl.store(Y + row * stride + cols, y.to(Y.dtype.element_ty), mask=mask)


def rms_norm(x, w, eps=1e-6):
    y = x.new_empty(x.shape)
    _rms_kernel[(x.shape[0],)](y, x, w, x.stride(0), x.shape[1], eps, BLOCK=triton.next_power_of_2(x.shape[1]),
                               num_warps=4)
    return y
PY
cat >"$proj/tests/test_rms_norm.py" <<'PY'
import pytest
import torch
from mypkg.ops.rms import rms_norm


@pytest.mark.parametrize("n,dtype", [(1024, torch.float16), (4096, torch.float32)])
def test_rms_norm(n, dtype):
    torch.manual_seed(0)
    x = torch.randn(2048, n, device="cuda", dtype=dtype)
    w = torch.rand(n, device="cuda", dtype=dtype)
    y = rms_norm(x, w)
    ref = (x.float() * torch.rsqrt(x.float().pow(2).mean(-1, keepdim=True) + 1e-6) * w.float()).to(dtype)
    torch.testing.assert_close(y, ref, atol=2e-2, rtol=2e-2)


def test_broken_before_launch():
    raise RuntimeError("this test fails before it launches anything")
PY
cat >"$proj/benchmarks/bench_rms.py" <<'PY'
import mypkg.ops.rms  # noqa: F401  (imports only: ranked last)
PY
(cd "$proj" && git init -q && git add -A && git -c user.email=kd@x -c user.name=kd commit -qm base)
check "the project's own test passes (python3 -m pytest -x -q -k 1024 tests/test_rms_norm.py)" \
    sh -c "cd '$proj' && python3 -m pytest -x -q -k 1024 tests/test_rms_norm.py"

# --- 1. no flag: the caller is found, run with capture, and named --------------------------
(cd "$proj" && "$kd" --no-ncu --max-time 5 --json "$work/found.json" mypkg/ops/rms.py mypkg/ops/rms.py \
    >"$work/found.txt" 2>"$work/found.err")
rc=$?
keep "$work/found.txt" "$work/found.err" "$work/found.json"
check "found A/A: exit 0 (exit $rc: $(grep -v '^$' "$work/found.err" | tail -1))" test $rc -eq 0
check "found: stderr names the caller: launch taken from tests/test_rms_norm.py::test_rms_norm, its 1st launch" \
    grep -q '^kerndiff: _rms_kernel: launch taken from tests/test_rms_norm.py::test_rms_norm, its 1st launch (calls rms_norm()' "$work/found.err"
check "found: the report names the caller" grep -q 'launch taken from tests/test_rms_norm.py::test_rms_norm, its 1st launch (found by kerndiff)' "$work/found.txt"
check "found: JSON replay.caller" python3 -c "import json,sys; d=json.load(open(sys.argv[1])); sys.exit(0 if d['replay']['caller']=='tests/test_rms_norm.py::test_rms_norm' else 1)" "$work/found.json"
check "found: both sides compute what the program computed" sh -c "grep -q '^v1 still computes what the program computed' '$work/found.txt' && grep -q '^v2 still computes what the program computed' '$work/found.txt'"
say "     $(grep -E '^(no significant|v2 is|v1 is)' "$work/found.txt" | head -1)"
say "     $(grep -m1 'program:' "$work/found.txt" | cut -c1-220)"

# --- 2. git mode: HEAD against a changed working tree, same caller ---------------------------
sed -i 's/num_warps=4)/num_warps=8)/' "$proj/mypkg/ops/rms.py"
sed -i 's/var = tl.sum(x \* x, axis=0) \/ n_cols/var = tl.sum(x * x, axis=0) * (1.0 \/ n_cols)/' "$proj/mypkg/ops/rms.py"
(cd "$proj" && "$kd" --no-ncu --max-time 5 --json "$work/git.json" mypkg/ops/rms.py >"$work/git.txt" 2>"$work/git.err")
rc=$?
keep "$work/git.txt" "$work/git.err" "$work/git.json"
check "git mode: exit 0 (exit $rc: $(grep -v '^$' "$work/git.err" | tail -1))" test $rc -eq 0
check "git mode: launch taken from the test" grep -q 'launch taken from tests/test_rms_norm.py::test_rms_norm' "$work/git.err"
say "     $(grep -E '^(no significant|v2 is|v1 is)' "$work/git.txt" | head -1)"
(cd "$proj" && git checkout -q -- mypkg/ops/rms.py)

# --- 3. --from 'pytest -k CASE tests/x.py' given by the user ---------------------------------
(cd "$proj" && "$kd" --fn _rms_kernel --from 'python3 -m pytest -x -q -k "4096" tests/test_rms_norm.py' --no-ncu \
    --max-time 3 --json "$work/from.json" mypkg/ops/rms.py mypkg/ops/rms.py >"$work/from.txt" 2>"$work/from.err")
rc=$?
keep "$work/from.txt" "$work/from.err" "$work/from.json"
check "--from 'python3 -m pytest -k 4096 ...': exit 0 (exit $rc: $(grep -v '^$' "$work/from.err" | tail -1))" test $rc -eq 0
check "--from: the report names the program" grep -q 'program: python3 -m pytest -x -q -k 4096 tests/test_rms_norm.py' "$work/from.txt"
check "--from: JSON replay.program is the user's words" python3 -c "import json,sys; d=json.load(open(sys.argv[1])); sys.exit(0 if d['replay']['program'][-1]=='tests/test_rms_norm.py' else 1)" "$work/from.json"
check "--from: no caller found or run by kerndiff (the user's launch)" sh -c "! grep -q 'launch taken from' '$work/from.err'"
if command -v pytest >/dev/null 2>&1; then
    (cd "$proj" && "$kd" --fn _rms_kernel --from 'pytest -k 1024 tests/test_rms_norm.py' --no-ncu --max-time 3 \
        mypkg/ops/rms.py mypkg/ops/rms.py >"$work/from_pytest.txt" 2>"$work/from_pytest.err")
    rc=$?
    keep "$work/from_pytest.txt" "$work/from_pytest.err"
    check "--from 'pytest -k 1024 tests/test_rms_norm.py': exit 0 (exit $rc: $(grep -v '^$' "$work/from_pytest.err" | tail -1))" test $rc -eq 0
else
    say "     (no pytest on PATH: --from 'pytest ...' not tried; python3 -m pytest was)"
fi

# --- 4. the best caller fails before the launch: said, and the launch described ---------------
cat >"$proj/tests/test_rms_norm.py" <<'PY'
from mypkg.ops.rms import rms_norm


def test_rms_norm():
    raise RuntimeError("fails before it launches")
    rms_norm(None, None)
PY
(cd "$proj" && "$kd" --no-ncu --max-time 2 mypkg/ops/rms.py mypkg/ops/rms.py >"$work/failing.txt" 2>"$work/failing.err")
rc=$?
keep "$work/failing.txt" "$work/failing.err"
check "failing caller: said in one line (did not give the launch; described instead)" \
    grep -q "its caller tests/test_rms_norm.py::test_rms_norm did not give the launch: .*the launch is described instead" "$work/failing.err"
check "failing caller: no crash (exit $rc is 0 or 3)" sh -c "[ $rc = 0 ] || [ $rc = 3 ]"
finish
