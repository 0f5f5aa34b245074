# The build cache knows which nvcc built an entry (issue 40, a cache entry must not make kerndiff
# lie): a wrapper that prints the same `nvcc --version` but adds a flag is another compiler.
# Before, its key was the same as the toolkit's nvcc's, and the entry the plain nvcc made was
# shown as the wrapper's build.
mkdir -p "$WORK/k6_bin" "$WORK/k6_cache"
real_nvcc=$(command -v nvcc || echo /usr/local/cuda/bin/nvcc)
printf '#!/bin/sh\nexec "%s" -DKD_WRAPPED "$@"\n' "$real_nvcc" >"$WORK/k6_bin/nvcc"
chmod +x "$WORK/k6_bin/nvcc"
cat >"$WORK/k6.cu" <<'CU'
__global__ void k6(const float *x, float *y, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
#ifdef KD_WRAPPED
    if (i < n) y[i] = x[i] * 3.0f + 1.0f;
#else
    if (i < n) y[i] = x[i];
#endif
}
CU
XDG_CACHE_HOME="$WORK/k6_cache" run k6_plain 0 -- --no-run --json "$WORK/k6_plain.json" "$WORK/k6.cu" "$WORK/k6.cu"
XDG_CACHE_HOME="$WORK/k6_cache" run k6_again 0 -- --no-run "$WORK/k6.cu" "$WORK/k6.cu"
has k6_again out '\(cached build\)'
XDG_CACHE_HOME="$WORK/k6_cache" run k6_wrapped 0 -- --nvcc "$WORK/k6_bin/nvcc" --no-run --json "$WORK/k6_wrapped.json" "$WORK/k6.cu" "$WORK/k6.cu"
lacks k6_wrapped out '^  v1: .*\(cached build\)'
# the wrapper's build is its own: the multiply-add it compiled in is in its PTX, not the copy's
k6_ptx() { python3 -c "import json,sys; d=json.load(open(sys.argv[1])); print(sum(o['v1'] for o in d['ptx']['opcodes'] if o['key'].startswith('fma')))" "$1" 2>/dev/null || echo "?"; }
k6_p=$(k6_ptx "$WORK/k6_plain.json") k6_w=$(k6_ptx "$WORK/k6_wrapped.json")
if [ "$k6_p" = 0 ] && [ "$k6_w" != 0 ] && [ "$k6_w" != "?" ]; then ok "k6_wrapped: the wrapper's PTX has its fma ($k6_w), the plain build's none"; else
    fail "k6_wrapped: fma in PTX: plain '$k6_p', wrapped '$k6_w'"; fi
