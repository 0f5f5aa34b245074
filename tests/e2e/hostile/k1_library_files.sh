# Files as libraries publish them (issue 45, item 5): several kernels in one .ptx (compared,
# not a crash: kd_build_target_of read v2's path before it was set, SIGSEGV), and a template
# nobody instantiates beside plain kernels (the others compared, the template named).
cat >"$WORK/k1_multi.cu" <<'CU'
__global__ void inc(float *x, int n) { int i = threadIdx.x; if (i < n) x[i] += 1; }
__global__ void dbl(float *x, int n) { int i = threadIdx.x; if (i < n) x[i] *= 2; }
extern "C" __global__ void sub3(float *x, int n) { int i = threadIdx.x; if (i < n) x[i] -= 3; }
CU
if nvcc -arch=sm_90 -ptx -o "$WORK/k1_multi1.ptx" "$WORK/k1_multi.cu" 2>"$WORK/k1_multi.build"; then
    sed 's/mul\.f32/add.f32/' "$WORK/k1_multi1.ptx" >"$WORK/k1_multi2.ptx"
    run k1_multi_ptx 0 -- "$WORK/k1_multi1.ptx" "$WORK/k1_multi2.ptx"
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
run k1_template 0 -- "$WORK/k1_tmpl1.cu" "$WORK/k1_tmpl2.cu"
has k1_template out '^kerndiff 2 kernels compared: scale, shift'
has k1_template err "^kerndiff: v1 \(.*k1_tmpl1\.cu\): template kernel 'reduce' has no compiled instance, not compared"
# the template alone still says what is missing
run k1_template_fn 3 -- --fn reduce "$WORK/k1_tmpl1.cu" "$WORK/k1_tmpl2.cu"
has k1_template_fn err "kernel 'reduce' has no entry in the PTX; if it is a template, instantiate it"
