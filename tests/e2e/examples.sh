# Sourced by run.sh: each bundled example, with what its diff must show (the numbers its
# files' comments state, from nvcc 13.0 for sm_90). Needs the helpers of run.sh.

# row NAME LABEL V1 V2: a table row "LABEL  V1  V2 ..." in NAME's terminal output
row() {
    local pattern
    pattern="^  $(printf '%s' "$2" | sed 's/[.[\*^$()+?{|]/\\&/g') +$3 +$4( |$)"
    has "$1" out "$pattern"
}

ex() { run "ex_$1" 0 -- --arch sm_90 --all-instructions "examples/$1/v1.cu" "examples/$1/v2.cu"; }

ex vector_loads
row ex_vector_loads ld.global.v4.f32 0 2
row ex_vector_loads st.global.v4.f32 0 1
row ex_vector_loads ld.global.f32 2 2
row ex_vector_loads registers/thread 12 22
has ex_vector_loads out '128-bit global loads appeared'

ex coalescing
row ex_coalescing ld.global.f32 8 8
row ex_coalescing mul.wide.s32 2 8

ex bank_conflicts
row ex_bank_conflicts 'static shared (B)' 4096 4224
row ex_bank_conflicts bar.sync 1 1
row ex_bank_conflicts ld.shared.f32 1 1

ex matmul
row ex_matmul ld.shared.f32 0 32
row ex_matmul bar.sync 0 2
row ex_matmul ld.global.f32 10 2
has ex_matmul out 'barriers appeared: BAR 0 -> 2'

ex reduction
row ex_reduction bar.sync 9 4
row ex_reduction shfl.sync.down.b32 0 5

ex unroll
row ex_unroll fma.rn.f32 1 9
row ex_unroll bra 3 6

# SASS rows need cuobjdump (the Makefile puts the PyPI one on PATH).
if command -v cuobjdump >/dev/null; then
    row ex_vector_loads LDG.E.128 0 2
    row ex_vector_loads 'global loads LDG' 2 4
    row ex_vector_loads '  of them 128-bit' 0 2
    row ex_unroll FFMA 1 9
    row ex_reduction SHFL.DOWN 0 5
    lacks ex_matmul out 'SASS skipped'
else
    echo "note: cuobjdump not on PATH; SASS expectations not checked"
fi

# Custom launchers: a three-kernel pipeline against one fused kernel, a kernel against cuBLAS.
ex fusion
has ex_fusion out 'v1: .*\[launcher run: scale\(float const\*, float\*, int\), shift\(float const\*, float\*, int\), activate\(float const\*, float\*, int\)\]'
row ex_fusion ld.global.f32 3 1
row ex_fusion st.global.f32 3 1
has ex_fusion out 'not computed: v1 is a launcher'
KERNDIFF_SIMULATE="median=300us;median=100us" run ex_fusion_timed 0 -- --json="$WORK/fusion.json" examples/fusion/v1.cu examples/fusion/v2.cu
has ex_fusion_timed out '^outputs match \(1 buffer compared in full\); not compared \(one side only\): v1 tmp1, v1 tmp2$'
if python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); a=d["sides"][0]["launch"]["args"]; assert [x["role"] for x in a] == ["input buffer","output buffer","output buffer","output buffer","element count","stream"], a' "$WORK/fusion.json" 2>"$WORK/fusion_roles.err"; then
    ok "ex_fusion_timed: launcher parameters described, the stream included"; else fail "ex_fusion_timed: launcher roles" "$WORK/fusion_roles.err"; fi
ex cublas
has ex_cublas out 'v2: .*\[launcher matmul: no kernels in the file\]'
if ls "$XDG_CACHE_HOME"/kerndiff/builds/*/launcher.so >/dev/null 2>&1; then ok "ex_cublas: launcher.so built and cached"; else fail "ex_cublas: no launcher.so in the cache"; fi
