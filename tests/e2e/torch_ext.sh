# Sourced by run.sh: PyTorch C++/CUDA extension files (issue 45 item 3). CI has no torch:
# tests/fakes/fake_python_torch answers kerndiff's question with a stand-in torch whose
# include folder (tests/e2e/fixtures/torch_ext/include) holds a small <torch/extension.h>
# that #errors without the flags torch's own build passes. tests/gpu/torch_extension.sh
# runs the same with a real torch on a GPU.
TX=tests/e2e/fixtures/torch_ext
TORCH_PY="$ROOT/tests/fakes/fake_python_torch"
NO_TORCH_PY="$ROOT/tests/fakes/fake_python_no_torch"

# The static diff of two versions builds with torch's flags, asking the Python once.
rm -f "$WORK/torch.log"
FAKE_TORCH_LOG="$WORK/torch.log" XDG_CACHE_HOME="$WORK/torch-cache" \
    run torch_diff 0 -- --python "$TORCH_PY" "$TX/relu_v1.cu" "$TX/relu_v2.cu"
has torch_diff out '^kerndiff relu_f32_kernel '
has torch_diff out '^  v1: .*relu_v1\.cu +\[relu_f32_kernel\(float\*, float\*, int\)\]'
has torch_diff out '^  v2: .*relu_v2\.cu +\[relu_f32_kernel\(float\*, float\*, int\)\]'
has torch_diff out '^  registers/thread +[0-9]+ +[0-9]+'
has torch_diff out '128-bit global loads appeared'
if [ "$(wc -l <"$WORK/torch.log" 2>/dev/null)" = 1 ]; then ok "torch_diff: torch asked once for both sides"; else
    fail "torch_diff: torch imported $(wc -l <"$WORK/torch.log" 2>/dev/null) times, wanted once" "$WORK/torch.log"; fi

# The second run is cached; another torch version is another build.
XDG_CACHE_HOME="$WORK/torch-cache" run torch_cached 0 -- --python "$TORCH_PY" "$TX/relu_v1.cu" "$TX/relu_v2.cu"
has torch_cached out '^  v1: .*\(cached build\)'
FAKE_TORCH_VERSION=9.9.9 XDG_CACHE_HOME="$WORK/torch-cache" \
    run torch_other_version 0 -- --python "$TORCH_PY" "$TX/relu_v1.cu" "$TX/relu_v2.cu"
lacks torch_other_version out 'cached build'

# The flags reach nvcc: torch's folders as -isystem, the standard, --expt-relaxed-constexpr
# (not the __CUDA_NO_HALF*__ macros: projects undo them); the -D macros are the
# wrapper's #defines, which the stand-in header #errors without (the build above).
rm -f "$WORK/torch_nvcc_argv.argv"
FAKE_NVCC_ARGV="$WORK/torch_nvcc_argv.argv" run torch_nvcc_argv 0 -- --no-cache --nvcc "$ROOT/tests/fakes/fake_nvcc" \
    --python "$TORCH_PY" "$TX/relu_v1.cu" "$TX/relu_v1.cu"
if grep -A1 -x -- '-isystem' "$WORK/torch_nvcc_argv.argv" | grep -qx -- "$ROOT/$TX/include"; then
    ok "torch_nvcc_argv: -isystem $TX/include"; else fail "torch_nvcc_argv: no -isystem of torch's folder" "$WORK/torch_nvcc_argv.argv"; fi
has torch_nvcc_argv argv '^-std=c\+\+17$'
has torch_nvcc_argv argv '^--expt-relaxed-constexpr$'
lacks torch_nvcc_argv argv '__CUDA_NO_HALF'
# A standard of the user's is kept, not followed by torch's.
rm -f "$WORK/torch_own_std.argv"
FAKE_NVCC_ARGV="$WORK/torch_own_std.argv" run torch_own_std 0 -- --no-cache --nvcc "$ROOT/tests/fakes/fake_nvcc" \
    --nvcc-flag=-std=c++20 --python "$TORCH_PY" "$TX/relu_v1.cu" "$TX/relu_v1.cu"
has torch_own_std argv '^-std=c\+\+20$'
lacks torch_own_std argv '^-std=c\+\+17$'


# TORCH_EXTENSION_NAME is the file's stem made an identifier (what PYBIND11_MODULE needs).
cat >"$WORK/2nd-op.v1.cu" <<'CU'
#include <torch/extension.h>
#define KD_STR2(x) #x
#define KD_STR(x) KD_STR2(x)
constexpr bool same(const char *a, const char *b) { return *a == *b && (!*a || same(a + 1, b + 1)); }
static_assert(same(KD_STR(TORCH_EXTENSION_NAME), "_2nd_op_v1"), "TORCH_EXTENSION_NAME is not the stem");
__global__ void twice(const float *x, float *y, int n) { int i = threadIdx.x; if (i < n) y[i] = 2 * x[i]; }
void twice_op(torch::Tensor x, torch::Tensor y) { twice<<<1, 256>>>(x.data_ptr<float>(), y.data_ptr<float>(), x.numel()); }
PYBIND11_MODULE(TORCH_EXTENSION_NAME, m) { m.def("twice", &twice_op); }
CU
run torch_name 0 -- --python "$TORCH_PY" "$WORK/2nd-op.v1.cu" "$WORK/2nd-op.v1.cu"

# Older torch spells include_paths(cuda=True), and without CUDA_HOME that call raises: torch's
# own folders still build the file.
FAKE_TORCH_API=old FAKE_TORCH_CUDA_RAISES=1 \
    run torch_old_api 0 -- --no-cache --python "$TORCH_PY" "$TX/relu_v1.cu" "$TX/relu_v2.cu"
has torch_old_api out '^  registers/thread +[0-9]+ +[0-9]+'

# A header of the file's own that includes torch makes it an extension too.
printf '#pragma once\n#include <torch/extension.h>\n' >"$WORK/torch_ops.cuh"
sed 's|#include <torch/extension.h>|#include "torch_ops.cuh"|; s|#include <torch/types.h>||' "$TX/relu_v1.cu" >"$WORK/relu_via_header.cu"
run torch_via_header 0 -- --python "$TORCH_PY" "$WORK/relu_via_header.cu" "$TX/relu_v2.cu"

# list: the kernel with its roles read from the compiled code.
run torch_list 0 -- list --python "$TORCH_PY" "$TX/relu_v2.cu"
has torch_list out '^relu_f32_kernel '
has torch_list out '^  float \* +x +input buffer of float \(never written in'
has torch_list out '^  float \* +y +output buffer of float \(written in'

# Without torch, or without the Python: one line naming the side, the file and what to do;
# exit 4 as for a build's other inputs. Another file does not ask at all.
run torch_missing 4 -- --python "$NO_TORCH_PY" "$TX/relu_v1.cu" "$TX/relu_v2.cu"
has torch_missing err "^kerndiff: v1: $TX/relu_v1\.cu includes torch/extension\.h; its build needs PyTorch's headers, and .*fake_python_no_torch has no torch \(ModuleNotFoundError: No module named 'torch'\): install torch for .*fake_python_no_torch, or --python PATH of one that has it \(or pass -I yourself\)$"
if [ "$(wc -l <"$WORK/torch_missing.err")" = 1 ]; then ok "torch_missing: one line"; else
    fail "torch_missing: $(wc -l <"$WORK/torch_missing.err") lines" "$WORK/torch_missing.err"; fi
run torch_missing_v2 4 -- --python "$NO_TORCH_PY" examples/vector_loads/v1.cu "$TX/relu_v2.cu"
has torch_missing_v2 err "^kerndiff: v2: $TX/relu_v2\.cu includes torch/extension\.h; its build needs PyTorch's headers"
run torch_no_python 4 -- --python "$WORK/no-such-python" "$TX/relu_v1.cu" "$TX/relu_v2.cu"
has torch_no_python err "^kerndiff: v1: $TX/relu_v1\.cu includes torch/extension\.h; its build needs PyTorch's headers, asked of Python, and .*no-such-python cannot be run \(No such file or directory\)"
if [ "$(wc -l <"$WORK/torch_no_python.err")" = 1 ]; then ok "torch_no_python: one line"; else
    fail "torch_no_python: $(wc -l <"$WORK/torch_no_python.err") lines" "$WORK/torch_no_python.err"; fi
run torch_not_asked 0 -- --python "$WORK/no-such-python" examples/vector_loads/v1.cu examples/vector_loads/v2.cu

# -I of torch's own folders: the build is the user's to describe (no question asked).
run torch_own_include 4 -- --python "$WORK/no-such-python" -I "$TX/include" "$TX/relu_v1.cu" "$TX/relu_v1.cu"
has torch_own_include err 'TORCH_EXTENSION_NAME is not defined'
run torch_own_flags 0 -- --python "$WORK/no-such-python" -I "$TX/include" -D TORCH_EXTENSION_NAME=relu \
    -D TORCH_API_INCLUDE_EXTENSION_H -D _GLIBCXX_USE_CXX11_ABI=1 "$TX/relu_v1.cu" "$TX/relu_v1.cu"
