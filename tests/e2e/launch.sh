# Sourced by run.sh: how a launch is described (--call, annotations, the launch block of the
# reports, list) and the inputs that cannot be launched, through the simulated harness.
A=examples/vector_loads/v1.cu B=examples/vector_loads/v2.cu
SIM="median=100us,cv=0.5%;median=90us,cv=0.5%"

# Two --call flags for one side merge (the second used to free the first's text and launch a
# grid of 32); commas inside a value stay with it.
KERNDIFF_SIMULATE="$SIM" run call_merge 0 -- --max-time 1 --call v2:grid=8192 --call v2:smem=32 "$A" "$B"
has call_merge out '^  v2: +grid 8192 \(--call v2\) .* smem 32 B \(--call v2\)'
has call_merge out '^  v1: +grid 65536 \(annotation\)'
KERNDIFF_SIMULATE="$SIM" run call_dims 0 -- --max-time 1 --n 4K --call 'v2:block=16,16,grid=64,2' --markdown "$WORK/call.md" "$A" "$B"
has call_dims out '^  v2: +grid 64x2 \(--call v2\)  block 16x16 \(--call v2\)'
if grep -Eq '^v2: +grid 64x2 \(--call v2\)' "$WORK/call.md" && grep -q '^\*\*Launch\*\*' "$WORK/call.md"; then
    ok "call_dims: the Markdown report shows the launch"; else fail "call_dims: Markdown launch block" "$WORK/call.md"; fi
run call_no_key 2 -- --call v2:n=1M,iters "$A" "$B"
has call_no_key err "entry 'iters' is not KEY=VALUE"

# Every scalar without a value, at once; list shows the launch it would use.
cat >"$WORK/scalars.cu" <<'CU'
// kerndiff: n=4K block=128
__global__ void axpby(float a, const float *x, float b, float *y, int n) { int i = threadIdx.x; if (i < n) y[i] = a * x[i] + b; }
CU
KERNDIFF_SIMULATE="$SIM" run missing_scalars 3 -- "$WORK/scalars.cu" "$WORK/scalars.cu"
has missing_scalars err "scalar parameters 'a' \(float\), 'b' \(float\) need a value: --arg a=VALUE --arg b=VALUE"
run list_launch 0 -- list --arg a=2 --arg b=1 "$WORK/scalars.cu"
has list_launch out '^  launch: grid 32 \(default\)  block 128 \(annotation\)  smem 0 B \(default\)  n 4096 \(annotation\)$'
has list_launch out '^          a = 2 \(--arg\)  x: 4096 f32 in \(n\)  b = 1 \(--arg\)  y: 4096 f32 out \(n\)  n = 4096 \(n\)$'
run list_unlaunchable 0 -- list "$WORK/scalars.cu"
has list_unlaunchable out "^  launch: not launchable as described: scalar parameters 'a' \(float\), 'b' \(float\)"

# More parameters than the harness passes: an input error naming the limit.
{ printf '__global__ void wide(float *y'; for i in $(seq 1 64); do printf ', int p%d' "$i"; done; printf ') { y[0] = 1; }\n'; } >"$WORK/wide.cu"
KERNDIFF_SIMULATE="$SIM" run too_many_params 3 -- "$WORK/wide.cu" "$WORK/wide.cu"
has too_many_params err "kernel 'wide' has 65 parameters, but kerndiff passes at most 64"

# Occupancy counts the dynamic shared memory (--smem, or one side's --call smem=).
run occupancy_smem 0 -- --call v2:smem=100000 "$A" "$B"
has occupancy_smem out '^  shared/block \(B\) +0 +100000'
has occupancy_smem out '^  limited by +warps shared memory$'
