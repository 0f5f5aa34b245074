# Sourced by run.sh: --lock-clocks locks through NVML and resets on every way out. The
# NVML here is tests/fakes/fake_nvml.c, which only writes down the calls it gets.
export KERNDIFF_NVML_LIBRARY="$FAKE_NVML" FAKE_NVML_LOG="$WORK/nvml.log"
clocks_log() { tr '\n' ';' <"$FAKE_NVML_LOG" 2>/dev/null; }
if [ "$(id -u)" -ne 0 ]; then
    KERNDIFF_SIMULATE="median=50us;median=50us" run lock_not_root 7 -- --n 64K --lock-clocks "$A" "$B"
    has lock_not_root err 'needs root'
else
    rm -f "$FAKE_NVML_LOG"
    KERNDIFF_SIMULATE="median=50us;median=50us" run lock 0 -- --n 64K --lock-clocks "$A" "$B"
    has lock out 'clocks locked by kerndiff at 1590 MHz'
    if [ "$(clocks_log)" = "lock 1590 1590;reset;" ]; then ok "lock: locked, then reset at exit"; else
        fail "lock: NVML calls were '$(clocks_log)'"; fi

    rm -f "$FAKE_NVML_LOG"
    KERNDIFF_SIMULATE="median=50us;median=50us,crash_at=5" run lock_crash 5 -- --n 64K --lock-clocks "$A" "$B"
    if [ "$(clocks_log)" = "lock 1590 1590;reset;" ]; then ok "lock_crash: reset after a failed run"; else
        fail "lock_crash: NVML calls were '$(clocks_log)'"; fi

    rm -f "$FAKE_NVML_LOG"
    KERNDIFF_SIMULATE="median=50us;median=50us,hang_at=5" "$KD" --n 64K --lock-clocks --timeout 60 "$A" "$B" \
        >"$WORK/lock_signal.out" 2>&1 &
    pid=$!
    for _ in $(seq 100); do grep -q lock "$FAKE_NVML_LOG" 2>/dev/null && break; sleep 0.1; done
    sleep 0.5
    kill -TERM $pid
    wait $pid
    status=$?
    if [ $status -eq 143 ] && [ "$(clocks_log)" = "lock 1590 1590;reset;" ]; then
        ok "lock_signal: SIGTERM ends kerndiff (143) and the clocks are reset"; else
        fail "lock_signal: status $status, NVML calls '$(clocks_log)'" "$WORK/lock_signal.out"; fi
fi
unset KERNDIFF_NVML_LIBRARY FAKE_NVML_LOG
