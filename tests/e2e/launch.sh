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

# A template kernel launches with its compiled instance's types (`const T *` is a float input
# of copy<float>); with several instances --fn 'copy<double>' picks one.
cat >"$WORK/tcopy.cu" <<'CU'
template <typename T>
__global__ void copy(const T* __restrict__ in, T* out, int n)
{ int i = blockIdx.x * blockDim.x + threadIdx.x; if (i < n) out[i] = in[i]; }
template __global__ void copy<float>(const float*, float*, int);
CU
json_launch() { python3 -c "import json,sys; d=json.load(open(sys.argv[1])); print(' '.join('%s:%s:%s:%s' % (a['name'], a['role'].split()[0], a['dtype'], a.get('count', int(a.get('value', 0)))) for s in d['sides'] for a in s['launch']['args']))" "$1"; }
KERNDIFF_SIMULATE="$SIM" run template_types 0 -- --max-time 1 --fn copy --n 1M --json="$WORK/tcopy.json" "$WORK/tcopy.cu" "$WORK/tcopy.cu"
has template_types out '^  v1, v2: +grid 4096 \(default\)  block 256 \(default\)  smem 0 B \(default\)  n 1048576 \(--n\)$'
has template_types out '^          in: 1048576 f32 in \(n\)  out: 1048576 f32 out \(n\)  n = 1048576 \(n\)$'
got=$(json_launch "$WORK/tcopy.json" 2>&1)
want="in:input:f32:1048576 out:output:f32:1048576 n:element:i32:1048576"
if [ "$got" = "$want $want" ]; then ok "template_types: the JSON launch has f32 buffers of n"; else
    echo "$got" >"$WORK/tcopy.got"; fail "template_types: JSON launch args" "$WORK/tcopy.got"; fi
sed 's/^template __global__ void copy<float>.*/&\ntemplate __global__ void copy<double>(const double*, double*, int);/' "$WORK/tcopy.cu" >"$WORK/tcopy2.cu"
KERNDIFF_SIMULATE="$SIM" run template_pick_double 0 -- --max-time 1 --fn 'copy<double>' --n 4K "$WORK/tcopy2.cu" "$WORK/tcopy2.cu"
has template_pick_double out '^          in: 4096 f64 in \(n\)  out: 4096 f64 out \(n\)  n = 4096 \(n\)$'
KERNDIFF_SIMULATE="$SIM" run template_two_instances 3 -- --fn copy "$WORK/tcopy2.cu" "$WORK/tcopy2.cu"
has template_two_instances err "kernel 'copy' has 2 instances: .*pick one with --fn"
run list_template 0 -- list --n 4K "$WORK/tcopy2.cu"
has list_template out '^  instance copy<double>, compiled as void copy<double>\(double const\*, double\*, int\)$'
has list_template out '^          in: 4096 f64 in \(n\)  out: 4096 f64 out \(n\)  n = 4096 \(n\)$'
has list_template out '^          in: 4096 f32 in \(n\)  out: 4096 f32 out \(n\)  n = 4096 \(n\)$'

# Kernels declared through a macro are found in the compiled code, parameters named by position.
cat >"$WORK/macro.cu" <<'CU'
// kerndiff: block=128
#define DEFINE_SCALE(NAME, F) \
  __global__ void NAME(const float* in, float* out, int n) { int i = blockIdx.x*blockDim.x+threadIdx.x; if (i<n) out[i]=in[i]*F; }
DEFINE_SCALE(scale2, 2.0f)
DEFINE_SCALE(scale3, 3.0f)
CU
KERNDIFF_SIMULATE="$SIM" run macro_pair 0 -- --max-time 1 --fn scale2:scale3 --n 1M --arg p2=n --json="$WORK/macro.json" "$WORK/macro.cu" "$WORK/macro.cu"
has macro_pair out '^  v1: .*\[scale2\(float const\*, float\*, int\)\]'
has macro_pair out '^  v2: .*\[scale3\(float const\*, float\*, int\)\]'
has macro_pair out '^          p0: 1048576 f32 in \(n\)  p1: 1048576 f32 out \(n\)  p2 = 1048576 \(--arg\)$'
has macro_pair out 'block 128 \(annotation\)'
got=$(json_launch "$WORK/macro.json" 2>&1)
want="p0:input:f32:1048576 p1:output:f32:1048576 p2:scalar:i32:1048576"
if [ "$got" = "$want $want" ]; then ok "macro_pair: the JSON launch has f32 buffers of n"; else
    echo "$got" >"$WORK/macro.got"; fail "macro_pair: JSON launch args" "$WORK/macro.got"; fi
KERNDIFF_SIMULATE="$SIM" run macro_needs_length 3 -- --fn scale2 "$WORK/macro.cu" "$WORK/macro.cu"
has macro_needs_length err "scalar parameter 'p2' \(int\) needs a value: --arg p2=VALUE .*kernel 'scale2' was found in the compiled code"
run list_macro 0 -- list --arg p2=n "$WORK/macro.cu"
has list_macro out '^scale3  \(found in the compiled code, not in the source \(declared through a macro\?\): scale3\(float const\*, float\*, int\); parameters named by position\)$'
has list_macro out '^  const float \* +p0 +input buffer of float \(never written in the compiled code\)$'
has list_macro out '^          p0: 1048576 f32 in \(n\)  p1: 1048576 f32 out \(n\)  p2 = 1048576 \(--arg\)$'
# A macro from an included header leaves no trace in the file: --fn NAME looks in the compiled code.
sed -n '2,3p' "$WORK/macro.cu" >"$WORK/scale.cuh"
printf '#include "scale.cuh"\nDEFINE_SCALE(scale4, 4.0f)\n' >"$WORK/macro_header.cu"
KERNDIFF_SIMULATE="$SIM" run macro_from_header 0 -- --max-time 1 --fn scale4 --n 4K --arg p2=n "$WORK/macro_header.cu" "$WORK/macro_header.cu"
has macro_from_header out '^          p0: 4096 f32 in \(n\)  p1: 4096 f32 out \(n\)  p2 = 4096 \(--arg\)$'

# A parameter named like kerndiff's size (N) is never given a value other than the user's n
# (issue 39): siboehm's SGEMM kernel 1 with --n 2048 is a 2048 x 2048 product (it read
# `N = 45 (assumed)`, sqrt(2048), and buffers of 2025 elements), and without --n the sides
# stay sqrt(n), said as assumed.
cat >"$WORK/sgemm_naive.cu" <<'CU'
__global__ void sgemm_naive(int M, int N, int K, float alpha, const float *A, const float *B, float beta, float *C) {
  const uint x = blockIdx.x * blockDim.x + threadIdx.x;
  const uint y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x < M && y < N) {
    float tmp = 0.0;
    for (int i = 0; i < K; ++i) tmp += A[x * K + i] * B[i * N + y];
    C[x * N + y] = alpha * tmp + beta * C[x * N + y];
  }
}
CU
run sgemm_side_n 0 -- list --n 2048 --arg alpha=1 --arg beta=0 "$WORK/sgemm_naive.cu"
has sgemm_side_n out 'M = 2048 \(assumed\)  N = 2048 \(assumed\)  K = 2048 \(assumed\)'
has sgemm_side_n out 'C: 4194304 f32 in-out \(indexing\)'
lacks sgemm_side_n out 'N = 45 '
run sgemm_default_n 0 -- list --arg alpha=1 --arg beta=0 "$WORK/sgemm_naive.cu"
has sgemm_default_n out 'N = 1024 \(assumed\)'
run sgemm_given_n 0 -- list --n 2048 --arg N=512 --arg alpha=1 --arg beta=0 "$WORK/sgemm_naive.cu"
has sgemm_given_n out 'N = 512 \(--arg\)'

