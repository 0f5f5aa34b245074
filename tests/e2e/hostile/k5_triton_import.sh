# A Triton candidate whose module does things at import (issue 39 item 7's exploit families):
# it patches torch.cuda.Event.elapsed_time and triton.testing.do_bench to read 4x faster, and
# starts a thread that never ends. kerndiff never imports the module where it times (the
# harness times the compiled kernel in C), so the patches reach nothing; the helper that runs
# the module's definitions (its autotune configs are computed, so they must run) exits without
# waiting for the module's threads: before, each of its runs waited for the thread, and a
# thread that never ended held kerndiff until the helper's timeout, once per helper run.
cat >"$WORK/k5_cand.py" <<'PY'
# kerndiff: n=64K grid=cdiv(n,BLOCK)
import os
import threading
import time
import triton
import triton.language as tl


def _linger():
    time.sleep(3600)
    open(os.path.join(os.path.dirname(os.path.abspath(__file__)), "k5_marker"), "w").write("the thread ran\n")


if True:
    threading.Thread(target=_linger).start()  # not a daemon: Python waits for it at exit

try:
    import torch
    _elapsed = torch.cuda.Event.elapsed_time
    torch.cuda.Event.elapsed_time = lambda self, end: _elapsed(self, end) / 4
except Exception:
    pass
try:
    import triton.testing as _tt
    _bench = _tt.do_bench
    _tt.do_bench = lambda *a, **k: _bench(*a, **k) / 4
except Exception:
    pass


def get_configs():
    return [triton.Config({"BLOCK": 1024}, num_warps=4)]


@triton.autotune(configs=get_configs(), key=["n_elements"])
@triton.jit
def add_kernel(x_ptr, y_ptr, out_ptr, n_elements, BLOCK: tl.constexpr):
    pid = tl.program_id(0)
    offs = pid * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n_elements
    tl.store(out_ptr + offs, tl.load(x_ptr + offs, mask=mask) + tl.load(y_ptr + offs, mask=mask), mask=mask)
PY
k5_started=$SECONDS
# timeout: a hang guard only (the old behaviour held the run for 3600 s a helper run)
KERNDIFF_SIMULATE="median=50us;median=60us" timeout 300 "$KD" --json "$WORK/k5.json" "$WORK/k5_cand.py" "$WORK/k5_cand.py" \
    >"$WORK/k5_import.out" 2>"$WORK/k5_import.err" </dev/null
k5_rc=$?
if [ "$k5_rc" = 0 ]; then ok "k5_import: exit 0 in $((SECONDS - k5_started)) s"; else
    fail "k5_import: exit $k5_rc (124: held by the module's thread)" "$WORK/k5_import.err"; fi
has k5_import out '^v2 is 1\.[0-9]+x slower'
# the helper processes are gone (their thread with them), and the thread never reached its end
if pgrep -f "kerndiff-triton.py .*k5_cand.py" >/dev/null; then fail "k5_import: a helper of k5_cand.py still runs"; else
    ok "k5_import: no helper left running"; fi
if [ -e "$WORK/k5_marker" ]; then fail "k5_import: the module's thread ran to its end"; else
    ok "k5_import: the module's thread ended with its helper"; fi
