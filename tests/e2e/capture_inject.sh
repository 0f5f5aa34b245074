# The injection library's capture mode without a GPU (issue 30 item 1): tests/gpu/capture/cpu-check.sh
# compiles tests/gpu/capture/cpu_check.c with harness/capture_inject.c (driver and CUPTI faked over
# host memory: direct launches, and CUDA graphs run by a fake driver graph in two topological
# orders) and loads the built library in a process that launches nothing. Its own ok/FAIL lines
# are kept in $WORK/capture_inject.out; this suite checks its summary line.
INJ_BUILD=$(dirname "$KD")
if [ ! -f "$INJ_BUILD/libkerndiff-inject.so" ]; then
    fail "capture_inject: no $INJ_BUILD/libkerndiff-inject.so (make all builds it)"
elif ! command -v "${CC:-cc}" >/dev/null 2>&1 || [ ! -f "${CUDA_HOME:-/usr/local/cuda}/include/cupti.h" ]; then
    echo "skip capture_inject: no C compiler or no CUDA headers (cupti.h)"
else
    sh "$ROOT/tests/gpu/capture/cpu-check.sh" "$INJ_BUILD" >"$WORK/capture_inject.out" 2>&1
    inj_rc=$?
    if [ $inj_rc -eq 0 ] && grep -Eq '^ok: [0-9]+ checks, 0 failed$' "$WORK/capture_inject.out"; then
        ok "capture_inject: $(tail -1 "$WORK/capture_inject.out")"
    else
        fail "capture_inject: cpu-check.sh exit $inj_rc: $(grep -m3 '^FAIL\|error' "$WORK/capture_inject.out" | tr '\n' ' ')" \
            "$WORK/capture_inject.out"
    fi
    # the graph part ran: a summary alone would pass with the graph checks removed (169 today)
    inj_checks=$(sed -n 's/^ok: \([0-9]*\) checks, 0 failed$/\1/p' "$WORK/capture_inject.out")
    if [ "${inj_checks:-0}" -ge 160 ]; then
        ok "capture_inject: the graph checks ran ($inj_checks checks)"
    else
        fail "capture_inject: ${inj_checks:-no} checks, fewer than the graph part makes" "$WORK/capture_inject.out"
    fi
fi
