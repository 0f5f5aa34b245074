# kerndiff --launch FILE (issue 30 item 2) on the simulated harness, and kerndiff capture
# without a GPU. tests/e2e/capture/copy.kdcap is tests/e2e/capture/raw-copy packed by
# capture/file.c's writer (test_replay checks that they still agree): a program's launch
# 1 of copy(const float *in, float *out, int n), n = 64, in = 1.5 i, out = 0 before and in
# after. The simulated harness's copy=K copies the first K elements of the first input into
# each output (copy=all: every one): the program's kernel, or one that stops early.
CAP="$ROOT/tests/e2e/capture/copy.kdcap"
mkdir -p "$WORK/cap"
cat >"$WORK/cap/v1.cu" <<'CU'
__global__ void copy(const float *in, float *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        out[i] = in[i];
}
CU
sed 's/out\[i\] = in\[i\];/out[i] = in[i] * 1.0f;/' "$WORK/cap/v1.cu" >"$WORK/cap/v2.cu"
sed 's/int n)/long long n)/' "$WORK/cap/v1.cu" >"$WORK/cap/v2_long.cu"
sed 's/int n)/int n, int m)/' "$WORK/cap/v1.cu" >"$WORK/cap/v2_more.cu"

# A/A: both sides compute what the program computed; the launch line says where it came from
KERNDIFF_SIMULATE="copy=all" run cap_aa 0 -- --launch "$CAP" --max-time 1 --json "$WORK/cap_aa.json" "$WORK/cap/v1.cu" "$WORK/cap/v2.cu"
has cap_aa out '^  v1, v2: grid 1 \(captured\)  block 64 \(captured\)  smem 0 B \(captured\)$'
has cap_aa out '^          in: 64 f32 in \(captured\)  out: 64 f32 in-out \(captured\)$'
has cap_aa out '^  from:   launch 1 of copy\(float const\*, float\*, int\) \(cuLaunchKernel\), program: \./copyprog 64; captured 2025-11-25 16:00 UTC on NVIDIA H100 80GB HBM3, 512 B of data \(.*copy\.kdcap\)$'
has cap_aa out '^outputs match \(1 buffer compared in full\)'
has cap_aa out '^v1 still computes what the program computed \(1 buffer, bit for bit\)$'
has cap_aa out '^v2 still computes what the program computed \(1 buffer, bit for bit\)$'
lacks cap_aa out ' n [0-9]+ \(captured\)'
if python3 tests/e2e/validate_json.py docs/json-schema.json "$WORK/cap_aa.json" >"$WORK/cap_aa_schema.err" 2>&1; then
    ok "cap_aa: JSON valid against the schema"; else fail "cap_aa: JSON invalid" "$WORK/cap_aa_schema.err"; fi
if python3 - "$WORK/cap_aa.json" <<'PY'
import json, sys
r = json.load(open(sys.argv[1]))["replay"]
assert r["program"] == ["./copyprog", "64"] and r["nth"] == 1 and r["data_bytes"] == 512, r
assert r["kernel"] == "_Z4copyPKfPfi" and r["api"] == "cuLaunchKernel", r
assert r["sides"]["v1"] == {"checked": True, "same": True}, r["sides"]
assert r["sides"]["v2"] == {"checked": True, "same": True}, r["sides"]
PY
then ok "cap_aa: JSON replay block"; else fail "cap_aa: JSON replay block"; fi

# v2 stops after 10 elements: differs from v1 and from the program's result, first at out[10]
KERNDIFF_SIMULATE="copy=all;copy=10" run cap_diff 6 -- --launch "$CAP" --max-time 1 --json "$WORK/cap_diff.json" "$WORK/cap/v1.cu" "$WORK/cap/v2.cu"
has cap_diff out '^OUTPUTS DIFFER: 1 of 1 output buffers do not match'
has cap_diff out '^v1 still computes what the program computed'
has cap_diff out '^v2 differs from the program.s result at out\[10\] \(v2 0, program 15\)$'
if python3 - "$WORK/cap_diff.json" <<'PY'
import json, sys
s = json.load(open(sys.argv[1]))["replay"]["sides"]["v2"]
assert s == {"checked": True, "same": False, "buffer": "out", "element": 10, "value": 0.0, "program_value": 15.0}, s
PY
then ok "cap_diff: JSON names the first differing element"; else fail "cap_diff: JSON names the first differing element"; fi
KERNDIFF_SIMULATE="copy=all;copy=10" run cap_diff_gate 6 -- --launch "$CAP" --max-time 1 --require-match "$WORK/cap/v1.cu" "$WORK/cap/v2.cu"

# --brief keeps the lines
KERNDIFF_SIMULATE="copy=all;copy=10" run cap_brief 6 -- --launch "$CAP" --max-time 1 --brief "$WORK/cap/v1.cu" "$WORK/cap/v2.cu"
has cap_brief out '^v2 differs from the program.s result at out\[10\]'

# the sides must take the captured parameter buffer: the side and the parameter named
KERNDIFF_SIMULATE="copy=all" run cap_layout 3 -- --launch "$CAP" "$WORK/cap/v1.cu" "$WORK/cap/v2_long.cu"
has cap_layout err "^kerndiff: v2: parameter 2 'n' \(long long\) is 8 bytes, the captured kernel's parameter 2 was 4 bytes"
run cap_count 3 -- --launch "$CAP" "$WORK/cap/v2_more.cu" "$WORK/cap/v1.cu"
has cap_count err '^kerndiff: v1: copy takes 4 parameters, the captured kernel copy\(float const\*, float\*, int\) took 3'

# a corrupt or truncated capture is refused, saying so
head -c 700 "$CAP" >"$WORK/cap/truncated.kdcap"
run cap_truncated 3 -- --launch "$WORK/cap/truncated.kdcap" "$WORK/cap/v1.cu" "$WORK/cap/v2.cu"
has cap_truncated err 'truncated'
python3 - "$CAP" "$WORK/cap/flipped.kdcap" <<'PY'
import sys
b = bytearray(open(sys.argv[1], "rb").read())
b[70] ^= 0x40  # inside the first blob (the contents start at byte 64)
open(sys.argv[2], "wb").write(b)
PY
run cap_flipped 3 -- --launch "$WORK/cap/flipped.kdcap" "$WORK/cap/v1.cu" "$WORK/cap/v2.cu"
has cap_flipped err 'checksum'
run cap_missing 3 -- --launch "$WORK/cap/none.kdcap" "$WORK/cap/v1.cu" "$WORK/cap/v2.cu"
printf 'not a capture' >"$WORK/cap/text.kdcap"
run cap_not 3 -- --launch "$WORK/cap/text.kdcap" "$WORK/cap/v1.cu" "$WORK/cap/v2.cu"

# no GPU, no simulated harness: the static diff, the launch line still says where it came from
run cap_static 0 -- --launch "$CAP" "$WORK/cap/v1.cu" "$WORK/cap/v2.cu"
has cap_static out '^  from:   launch 1 of copy'
lacks cap_static out 'still computes'

# the launch is the capture's: the launch flags contradict it; --launch is an input
run cap_flags 2 -- --launch "$CAP" --n 1M "$WORK/cap/v1.cu" "$WORK/cap/v2.cu"
has cap_flags err '--launch and --n contradict each other'
run cap_over 2 -- --launch "$CAP" --json "$CAP" "$WORK/cap/v1.cu" "$WORK/cap/v2.cu"
has cap_over err 'would write over .*copy\.kdcap., which is the capture --launch replays'

# kerndiff capture: usage, and no GPU is a clear error (exit 5)
run capture_no_gpu 5 -- capture --fn copy -o "$WORK/cap/out.kdcap" -- /bin/true
has capture_no_gpu err '^kerndiff: capture: no GPU here \(KERNDIFF_NO_GPU is set\)'
if [ ! -e "$WORK/cap/out.kdcap" ]; then ok "capture_no_gpu: no file written"; else fail "capture_no_gpu: a file was written"; fi
run capture_no_out 2 -- capture --fn copy -- /bin/true
has capture_no_out err 'needs -o FILE'
run capture_no_fn 2 -- capture -o "$WORK/cap/out.kdcap" -- /bin/true
has capture_no_fn err 'needs --fn NAME'
run capture_no_cmd 2 -- capture --fn copy -o "$WORK/cap/out.kdcap"
run capture_over_source 2 -- capture --fn copy -o "$WORK/cap/v1.cu" -- /bin/true
has capture_over_source err "^kerndiff: -o would write over '.*v1\.cu'|extension \(\.cu\)"
run capture_stray 2 -- --continue "$WORK/cap/v1.cu" "$WORK/cap/v2.cu"
has capture_stray err '^kerndiff: --continue belongs to kerndiff capture'
run from_no_gpu 5 -- --from './copyprog 64' --fn copy "$WORK/cap/v1.cu" "$WORK/cap/v2.cu"
has from_no_gpu err '^kerndiff: capture: no GPU here'
# a program that fails before it launches any kernel: its own failure is said, not the
# injection library's (a fake libcuda.so.1, tests/fakes/fake_libcuda.c, makes the probe find a GPU)
fake_cuda="$(dirname "$FAKE_NVML")/fakecuda"
KERNDIFF_NO_GPU=0 LD_LIBRARY_PATH="$fake_cuda" run capture_prog_fails 3 -- capture --fn copy -o "$WORK/cap/fail.kdcap" \
    -- sh -c 'echo "E   ModuleNotFoundError: No module named mypkg"; exit 4'
has capture_prog_fails err '^kerndiff: capture: sh exited with status 4 before it launched any kernel \(its output is above\)'
has capture_prog_fails err '^E   ModuleNotFoundError: No module named mypkg$'
lacks capture_prog_fails err 'injection library did not run'
if [ ! -e "$WORK/cap/fail.kdcap" ]; then ok "capture_prog_fails: no file written"; else fail "capture_prog_fails: a file was written"; fi
KERNDIFF_NO_GPU=0 LD_LIBRARY_PATH="$fake_cuda" run from_prog_killed 3 -- --from "sh -c 'kill -9 \$\$'" --fn copy \
    "$WORK/cap/v1.cu" "$WORK/cap/v2.cu"
has from_prog_killed err '^kerndiff: capture: sh was killed by signal 9 before it launched any kernel'
run from_no_fn 2 -- --from './copyprog 64' "$WORK/cap/v1.cu" "$WORK/cap/v2.cu"
has from_no_fn err 'needs --fn NAME'
run cap_sanitize_n 2 -- --launch "$CAP" --sanitize-n 1K "$WORK/cap/v1.cu" "$WORK/cap/v2.cu"
has cap_sanitize_n err '--launch and --sanitize-n contradict each other'

# Markdown and HTML say the same lines
KERNDIFF_SIMULATE="copy=all;copy=10" run cap_docs 6 -- --launch "$CAP" --max-time 1 --markdown "$WORK/cap.md" --html "$WORK/cap.html" "$WORK/cap/v1.cu" "$WORK/cap/v2.cu"
if grep -q '^- v1 still computes what the program computed' "$WORK/cap.md" && grep -q '^- \*\*v2 differs from the program.s result at out\[10\]' "$WORK/cap.md" &&
    grep -q 'from:   launch 1 of copy(float const\*, float\*, int) (cuLaunchKernel), program: ./copyprog 64; captured' "$WORK/cap.md"; then ok "cap_docs: Markdown has the from line and both sides' lines"; else fail "cap_docs: Markdown" "$WORK/cap.md"; fi
if grep -q 'class="bad">v2 differs from the program&#39;s result at out\[10\]' "$WORK/cap.html" &&
    grep -q 'class="good">v1 still computes' "$WORK/cap.html" && grep -q 'from:   launch 1 of copy' "$WORK/cap.html"; then
    ok "cap_docs: HTML has the from line and the result"; else fail "cap_docs: HTML"; fi
