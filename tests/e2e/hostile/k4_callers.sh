# The caller is found (issue 45 item 1): a Triton kernel whose module does not launch it (a
# library's wrapper does) gets the project's tests, benchmarks and scripts that reach it,
# found statically (nothing imported or run), ranked by how directly, each said in one line
# with the --from that runs it; none found, one line says so. Without a GPU nothing is run.
# Hostile file names are passed as words and printed escaped; a symlink loop and a huge tree
# keep the walk bounded.
k4_kernel() { # the module: a kernel and the wrapper that launches it
    cat <<'PY'
import triton
import triton.language as tl


@triton.jit
def _rms_kernel(Y, X, W, stride, n_cols, eps, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    cols = tl.arange(0, BLOCK)
    mask = cols < n_cols
    x = tl.load(X + row * stride + cols, mask=mask, other=0).to(tl.float32)
    w = tl.load(W + cols, mask=mask, other=0)
    var = tl.sum(x * x, axis=0) / n_cols
    tl.store(Y + row * stride + cols, x * tl.math.rsqrt(var + eps) * w, mask=mask)


def rms_norm(x, w, eps=1e-6):
    y = x.new_empty(x.shape)
    _rms_kernel[(x.shape[0],)](y, x, w, x.stride(0), x.shape[1], eps, BLOCK=triton.next_power_of_2(x.shape[1]))
    return y
PY
}
if python3 -c 'import triton' 2>/dev/null; then
K4=$WORK/k4_proj
mkdir -p "$K4/mypkg/ops" "$K4/tests" "$K4/benchmarks" "$K4/scripts"
touch "$K4/pyproject.toml" "$K4/mypkg/__init__.py" "$K4/mypkg/ops/__init__.py"
k4_kernel >"$K4/mypkg/ops/rms.py"
# every caller would leave a mark if anything ran it (or imported it)
cat >"$K4/tests/test_rms.py" <<PY
open("$WORK/k4_ran_test", "w").close()
import pytest
import torch
from mypkg.ops.rms import rms_norm


def helper(x, w):
    return rms_norm(x, w)


def test_other():
    assert 1 + 1 == 2


def test_indirect():
    x = torch.randn(4, 64, device="cuda")
    helper(x, torch.ones(64, device="cuda"))


@pytest.mark.parametrize("n", [1024])
def test_rms_norm(n):
    x = torch.randn(4, n, device="cuda")
    assert rms_norm(x, torch.ones(n, device="cuda")).shape == x.shape
PY
printf 'open("%s/k4_ran_bench", "w").close()\nimport mypkg.ops.rms as rms\nprint(rms)\n' "$WORK" >"$K4/benchmarks/bench_rms.py"
# a script whose __main__ block calls the wrapper through a relative-free dotted import
cat >"$K4/scripts/run_rms.py" <<'PY'
from mypkg.ops import rms as R


def main():
    import torch
    R.rms_norm(torch.randn(2, 8, device="cuda"), torch.ones(8, device="cuda"))


if __name__ == "__main__":
    main()
PY
# a file that is neither test nor benchmark nor script, and does not import the module: never a caller
printf 'def rms_norm():\n    pass\n' >"$K4/mypkg/other.py"
run k4_found 0 -- --n 64K "$K4/mypkg/ops/rms.py" "$K4/mypkg/ops/rms.py"
has k4_found err "^kerndiff: .*k4_proj/mypkg/ops/rms\.py does not launch _rms_kernel itself \(only through rms_norm\); its callers, best first \(not run: --n describes the launch; run from .*k4_proj\):$"
has k4_found err "^kerndiff:   1\. tests/test_rms\.py::test_rms_norm calls rms_norm\(\): --fn _rms_kernel --from '[^ ]*python[0-9.]* -m pytest -x -q tests/test_rms\.py::test_rms_norm'$"
has k4_found err "^kerndiff:   2\. tests/test_rms\.py::test_indirect calls helper\(\) -> rms_norm\(\): "
has k4_found err "^kerndiff:   3\. scripts/run_rms\.py calls main\(\) -> R\.rms_norm\(\): --fn _rms_kernel --from '[^ ]*python[0-9.]* -m scripts\.run_rms'$"
lacks k4_found err 'test_other|mypkg/other\.py|  4\. '
[ -e "$WORK/k4_ran_test" ] || [ -e "$WORK/k4_ran_bench" ] && fail "k4_found: a caller was run or imported" || ok "k4_found: no caller run"
# the whole list, the benchmark that only imports the module last
cp "$K4/mypkg/ops/rms.py" "$WORK/k4_rms_copy.py"
python3 scripts/kerndiff-triton.py callers "$K4/mypkg/ops/rms.py" "" >"$WORK/k4_list.out" 2>"$WORK/k4_list.err"
python3 - "$WORK/k4_list.out" >"$WORK/k4_order.out" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
for c in d["candidates"]:
    print(c["rank"], c["kind"], c["file"] + ("::" + c["test"] if c["test"] else ""))
PY
if diff <(printf '%s\n' "1 test tests/test_rms.py::test_rms_norm" "2 test tests/test_rms.py::test_indirect" \
    "2 script scripts/run_rms.py" "3 benchmark benchmarks/bench_rms.py") "$WORK/k4_order.out" >"$WORK/k4_order.diff"; then
    ok "k4_order: direct test, indirect test, script, importing benchmark"
else fail "k4_order: the candidates' order" "$WORK/k4_order.diff"; fi
# C's order ranks tests before scripts at one rank, as the helper does (source/callers.c)
# --no-run and launch flags are said as why nothing is run; with --grid too
run k4_no_run 0 -- --no-run "$K4/mypkg/ops/rms.py" "$K4/mypkg/ops/rms.py"
has k4_no_run err '\(not run: --no-run; run from '
run k4_no_gpu 0 -- --arg eps=1e-6 --arg BLOCK=64 "$K4/mypkg/ops/rms.py" "$K4/mypkg/ops/rms.py"
has k4_no_gpu err '\(not run: --arg describes the launch; '

# git mode: the root is the git top level, the file the working tree's
if command -v git >/dev/null; then
    K4G=$WORK/k4_git
    mkdir -p "$K4G/lib/kern" "$K4G/tests"
    k4_kernel >"$K4G/lib/kern/norm.py"
    printf 'from lib.kern.norm import rms_norm\n\ndef test_norm():\n    rms_norm(None, None)\n' >"$K4G/tests/norm_test.py"
    (cd "$K4G" && git init -q && git add -A && git -c user.email=k4@x -c user.name=k4 commit -qm k4) 2>/dev/null
    sed -i 's/other=0)\.to/other=0.0).to/' "$K4G/lib/kern/norm.py"
    run k4_git 0 -- --no-run "$K4G/lib/kern/norm.py"
    has k4_git err "^kerndiff:   1\. tests/norm_test\.py::test_norm calls rms_norm\(\): .* -m pytest -x -q tests/norm_test\.py::test_norm'$"
    has k4_git err "run from .*k4_git\):$"
fi

# the module's own __main__ block reaches the launch: the file launches it itself, no callers said
K4M=$WORK/k4_main
mkdir -p "$K4M"
{ k4_kernel; printf '\n\nif __name__ == "__main__":\n    import torch\n    rms_norm(torch.randn(2, 8, device="cuda"), torch.ones(8, device="cuda"))\n'; } >"$K4M/rms_main.py"
run k4_main 0 -- --no-run "$K4M/rms_main.py" "$K4M/rms_main.py"
lacks k4_main err 'its callers|no test, benchmark or script'

# no caller: one line says so, names --from 'CMD' and the likeliest files
K4N=$WORK/k4_none
mkdir -p "$K4N/tests"
touch "$K4N/setup.py"
k4_kernel >"$K4N/norm_ops.py"
printf 'import numpy\nrms_norm = None  # mentions the wrapper, imports another module\n\ndef test_x():\n    pass\n' \
    >"$K4N/tests/test_unrelated.py"
run k4_none 0 -- --n 64K "$K4N/norm_ops.py" "$K4N/norm_ops.py"
has k4_none err "^kerndiff: .*norm_ops\.py does not launch _rms_kernel itself, and no test, benchmark or script in .*k4_none reaches it \(2 Python files read\); the likeliest \(tests/test_unrelated\.py\) do not import it as written: the launch is described; to take it from a program that makes it: --fn _rms_kernel --from 'CMD'$"
[ "$(grep -c 'does not launch' "$WORK/k4_none.err")" = 1 ] && ok "k4_none: one line" || fail "k4_none: one line" "$WORK/k4_none.err"

# hostile names: spaces, quotes, $(...), backquotes and a terminal escape in a test file's name
K4H=$WORK/k4_hostile
mkdir -p "$K4H/tests"
touch "$K4H/pyproject.toml"
k4_kernel >"$K4H/hops.py"
HOSTILE_NAME=$(printf "test_a b'c\$(touch k4_pwned)\`id\`\033[31m.py")
printf 'from hops import rms_norm\n\ndef test_h():\n    rms_norm(1, 2)\n' >"$K4H/tests/$HOSTILE_NAME"
run k4_hostile 0 -- --no-run "$K4H/hops.py" "$K4H/hops.py"
has k4_hostile err "^kerndiff:   1\. tests/test_a b'c.*test_h calls rms_norm\(\): --fn _rms_kernel --from "
if grep -q "$(printf '\033')" "$WORK/k4_hostile.err"; then fail "k4_hostile: a raw escape byte printed" "$WORK/k4_hostile.err"
else ok "k4_hostile: the escape byte printed escaped"; fi
[ -e k4_pwned ] || [ -e "$K4H/k4_pwned" ] || [ -e "$K4H/tests/k4_pwned" ] && fail "k4_hostile: \$(...) in a name ran" || ok "k4_hostile: nothing in a name ran"
# the helper's argument vector keeps the name whole: one word, the node id
python3 scripts/kerndiff-triton.py callers "$K4H/hops.py" "" >"$WORK/k4_hargv.out"
python3 - "$WORK/k4_hargv.out" "$HOSTILE_NAME" <<'PY' && ok "k4_hostile_argv: the name is one word" || fail "k4_hostile_argv: the name split" "$WORK/k4_hargv.out"
import json, sys
argv = json.load(open(sys.argv[1]))["candidates"][0]["argv"]
sys.exit(0 if argv[-1] == "tests/" + sys.argv[2] + "::test_h" else 1)
PY

# a symlink loop and a huge tree: the walk ends, bounded, and says so
K4B=$WORK/k4_big
mkdir -p "$K4B/tests/deep"
touch "$K4B/pyproject.toml"
k4_kernel >"$K4B/bops.py"
ln -s .. "$K4B/tests/deep/loop"
ln -s "$K4B" "$K4B/tests/self"
python3 - "$K4B/tests/many" <<'PY'
import os, sys
os.makedirs(sys.argv[1])
for i in range(4200):
    with open(os.path.join(sys.argv[1], "test_%04d.py" % i), "w") as f:
        f.write("def test_x():\n    pass\n")
PY
started=$SECONDS
run k4_big 0 -- --n 64K "$K4B/bops.py" "$K4B/bops.py"
has k4_big err "no test, benchmark or script in .*k4_big reaches it \(4000 Python files read, stopped at the bound on files\)"
[ $((SECONDS - started)) -lt 60 ] && ok "k4_big: bounded in time" || fail "k4_big: took $((SECONDS - started)) s"

# --from 'pytest -k CASE tests/x.py' (a Python caller): split into words, never through a shell;
# with no GPU it says so and runs nothing
run k4_from 5 -- --fn _rms_kernel --from "pytest -k 'rms and not other' tests/test_rms.py; touch $WORK/k4_from_ran" \
    "$K4/mypkg/ops/rms.py" "$K4/mypkg/ops/rms.py"
has k4_from err 'GPU'
[ -e "$WORK/k4_from_ran" ] || [ -e "$WORK/k4_ran_test" ] && fail "k4_from: something ran" || ok "k4_from: nothing ran"
fi
