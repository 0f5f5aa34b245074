# H5 (issue 27 items 0-2): names, types, instances and roles read from the compiled code, on
# kernel files written the way real projects write them (tests/realfiles/h5_*). Static only.
H5=tests/realfiles/h5 # its own folder: several kernels a file, outside the zero-flag corpus

# CUDA-samples reduction: templates instantiated only from a host switch, extern shared
# memory through SharedMemory<T>, the input declared `T *g_idata` (not const).
run h5_reduction_list 0 -- list "$H5/h5_reduction.cu"
has h5_reduction_list out '^  template <class T>; instances: reduce0<int> reduce0<float>$'
# the template's rows carry its compiled instances' roles: the non-const input is an input
has h5_reduction_list out '^  T \* +g_idata +input buffer of T \(never written in the compiled code\)$'
has h5_reduction_list out '^  assumed: smem 1024 B: one float a thread for extern __shared__'
has h5_reduction_list out 'instances: reduce6<int, 256u, true> reduce6<int, 128u, true> reduce6<int, 256u, false> reduce6<float, 256u, true>'
has h5_reduction_list out '^  instance reduce6<float, 256u, false>, compiled as void reduce6<float, 256u, false>\(float\*, float\*, unsigned int\)$'
has h5_reduction_list out '^          g_idata: 1048576 f32 in \(n\)  g_odata: 1048576 f32 out \(n\)  n = 1048576 \(n\)$'
lacks h5_reduction_list out 'instances: none'
lacks h5_reduction_list out 'g_idata: [0-9]+ [a-z0-9]+ out'
# --fn spelled as the user would: no blanks, no integer suffix
run h5_reduction_fn 0 -- "$H5/h5_reduction.cu" "$H5/h5_reduction.cu" --fn 'reduce6<float,256,true>'
has h5_reduction_fn out '^  v1: .*\[void reduce6<float, 256u, true>\(float\*, float\*, unsigned int\)\]'
has h5_reduction_fn out 'g_idata: 1048576 f32 in \(n\)  g_odata: 1048576 f32 out \(n\)'
run h5_reduction_fn_cast 0 -- "$H5/h5_reduction.cu" "$H5/h5_reduction.cu" --fn 'reduce6<float, 128U, (bool)1>'
has h5_reduction_fn_cast out '\[void reduce6<float, 128u, true>'
run h5_reduction_fn_int 0 -- "$H5/h5_reduction.cu" "$H5/h5_reduction.cu" --fn 'reduce0<int>'
has h5_reduction_fn_int out 'g_idata: 1048576 i32 in \(n\)  g_odata: 1048576 i32 out \(n\)'

# Kernels in an included header, with typedef'd parameters (uint, floatX = __nv_bfloat16):
# listed with the header's names and the compiled types, never p0, p1.
run h5_header_list 0 -- list "$H5/h5_uses_header.cu"
has h5_header_list out '^residual_forward  \(line 11'
has h5_header_list out '^  __nv_bfloat16 \* +inp1 +input buffer of __nv_bfloat16 \(never written in the compiled code\)$'
has h5_header_list out '^  __nv_bfloat16 \* +out +output buffer of __nv_bfloat16 \(written in the compiled code\)$'
has h5_header_list out '^  unsigned int +N +element count$'
has h5_header_list out '^  int +numElements +element count$'
has h5_header_list out '^  float \* +x +in-out buffer of float \(read and written in the compiled code\)$'
# the header a kernel lives in, named from the listed file's folder
has h5_header_list out '^scale_inplace  \(line [0-9]+ of h5_include/h5_kernels.cuh\)$'
lacks h5_header_list out ' p0 '
run h5_header_fn 0 -- "$H5/h5_uses_header.cu" "$H5/h5_uses_header.cu" --fn residual_forward
has h5_header_fn out 'out: 1048576 bf16 out \(n\)  inp1: 1048576 bf16 in \(n\)  inp2: 1048576 bf16 in \(n\)  N = 1048576 \(n\)'

# Atomics read and write: the bins are compared (in-out), the data is an input.
run h5_histogram_list 0 -- list "$H5/h5_histogram.cu"
has h5_histogram_list out '^  const unsigned char \* +data +input buffer of unsigned char \(never written in the compiled code\)$'
has h5_histogram_list out '^  unsigned int \* +bins +in-out buffer of unsigned int \(read and written in the compiled code\)$'
has h5_histogram_list out 'bins: 1048576 u32 in-out \(n\)'
has h5_histogram_list out '^  int +num_elements +element count$'

# `nvcc -ptx` of an ordinary C++ kernel: the mangled entry is listed demangled, typed from the
# mangling (const from PKf), and the name list shows is the name --fn takes.
if nvcc -ptx -arch=sm_90 -o "$WORK/h5_scaled_add.ptx" "$H5/h5_scaled_add.cu" 2>"$WORK/h5_ptx.err"; then
    run h5_ptx_list 0 -- list "$WORK/h5_scaled_add.ptx"
    has h5_ptx_list out '^scaled_add  \(\.entry, compiled as scaled_add\(float const\*, float const\*, float\*, float, int\)\)$'
    lacks h5_ptx_list out 'line 0'
    has h5_ptx_list out '^  const float \* +p0 +input buffer of float \(never written in the compiled code\)$'
    has h5_ptx_list out '^  float \* +p2 +output buffer of float \(written in the compiled code\)$'
    has h5_ptx_list out '^  int +p4 +element count$' # compared with the global index: the count (source/ptxcount.h)
    run h5_ptx_fn 0 -- "$WORK/h5_scaled_add.ptx" "$WORK/h5_scaled_add.ptx" --fn scaled_add --arg p3=2 --arg p4=n
    has h5_ptx_fn out '^  v1: .*\[scaled_add\(float const\*, float const\*, float\*, float, int\)\]'
    has h5_ptx_fn out 'p0: 1048576 f32 in \(n\)  p1: 1048576 f32 in \(n\)  p2: 1048576 f32 out \(n\)'
    lacks h5_ptx_fn err 'not in the PTX|no entry'
    # the PTX's own code says which buffers are written, whatever the declaration: a sidecar still wins
    printf '# kerndiff: outputs=p0\n' >"$WORK/h5_scaled_add.ptx.kerndiff"
    run h5_ptx_sidecar 0 -- list "$WORK/h5_scaled_add.ptx"
    has h5_ptx_sidecar out '^  const float \* +p0 +output buffer of float \(annotation\)$'
else
    fail "h5: nvcc -ptx" "$WORK/h5_ptx.err"
fi

# A kernel with 2,000 parameters: its mangled name is past the demangler's limit, and it is
# still found by name (the launch itself is refused with the real limit).
python3 - "$WORK/h5_big.cu" <<'PY'
import sys
params = ", ".join(f"int a{i}" for i in range(2000))
open(sys.argv[1], "w").write(f"__global__ void big(float *out, {params}) {{ out[threadIdx.x] = a0 + a1999; }}\n")
PY
run h5_big 0 -- "$WORK/h5_big.cu" "$WORK/h5_big.cu"
has h5_big out '^  v1: .*\[big\]'
lacks h5_big err 'no entry in the PTX'
has h5_big out 'kerndiff passes at most 64'

# A Triton file without a kernel says so in Triton's words.
printf 'import triton\n\ndef helper(x):\n    return x\n' >"$WORK/h5_none.py"
run h5_no_triton_kernel 3 -- "$WORK/h5_none.py" "$WORK/h5_none.py"
has h5_no_triton_kernel err 'no @triton.jit kernel found in'
