# Sourced by tests/e2e/realfiles.sh: the .cubin that `nvcc -cubin` makes of an ordinary C++
# kernel (issue 27 item 1): its mangled function is listed demangled and typed from the
# mangling (const from PKf), --fn takes the demangled name, and the diff reads the
# resources and launches the mangled symbol (static/cubin.h).
if nvcc -arch=sm_90 -cubin -o "$WORK/r2_sa.cubin" tests/realfiles/h5/h5_scaled_add.cu 2>"$WORK/r2_cubin.err"; then
    run r2_cubin_list 0 -- list "$WORK/r2_sa.cubin"
    has r2_cubin_list out '^scaled_add  \(\.entry, compiled as scaled_add\(float const\*, float const\*, float\*, float, int\)\)$'
    has r2_cubin_list out '^  const float \* +p0 +input buffer of float \(declared const\)$'
    has r2_cubin_list out '^  float \* +p2 +output buffer of float \(not declared const\)$'
    has r2_cubin_list out '^  float +p3 +scalar \(needs --arg p3=VALUE\)$'
    lacks r2_cubin_list out '_Z10scaled_add|line 0'
    run r2_cubin_fn 0 -- --fn scaled_add --arg p3=2 --arg p4=n "$WORK/r2_sa.cubin" "$WORK/r2_sa.cubin"
    lacks r2_cubin_fn err 'no kernel named'
    if grep -q kd_cubin_symbol src/static/analysis.c; then
        has r2_cubin_fn out '^  v1: .*\[scaled_add\(float const\*, float const\*, float\*, float, int\)\]'
        has r2_cubin_fn out 'p0: 1048576 f32 in \(n\)  p1: 1048576 f32 in \(n\)  p2: 1048576 f32 out \(n\)  p3 = 2 \(--arg\)'
        has r2_cubin_fn out '^  registers/thread +[0-9]+ +[0-9]+'
    else # static/analysis.c and backend/binary.c are the lead's files
        fail "r2_cubin_fn: static/analysis.c does not map a cubin kernel to its symbol (kd_cubin_symbol) yet" "$WORK/r2_cubin_fn.out"
    fi
else
    fail "r2_cubin: nvcc -cubin" "$WORK/r2_cubin.err"
fi
