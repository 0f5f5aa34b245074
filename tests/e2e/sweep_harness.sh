# Sweeps and their harness children (measure/harness_pool.h), through the simulated harness:
# the next point's children start ahead once a point's timing is done, each point's results
# are the same as with KERNDIFF_SWEEP_FRESH=1 (every point starts its own), the starts and
# builds per sweep are counted from the trace (KERNDIFF_TRACE=1), and a harness that dies,
# started ahead or in the middle of a point, is replaced.
SW_SIM="median=60us,seed=3;median=50us,seed=4"
SW_POINTS=1K,2K,4K,8K
# count NAME STREAM REGEX WANT: how many lines match, exactly
sw_count() {
    local got
    got=$(grep -Ec -- "$3" "$WORK/$1.$2")
    if [ "$got" -eq "$4" ]; then ok "$1: $4 lines /$3/"; else fail "$1: $got lines /$3/, wanted $4" "$WORK/$1.$2"; fi
}
sw_expect_json() { # NAME FILE EXPR WANT (a suite of its own: timing.sh's helper may not be loaded)
    local got; got=$(python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); print(eval(sys.argv[2]))' "$2" "$3" 2>&1)
    if [ "$got" = "$4" ]; then ok "$1: $3 = $4"; else fail "$1: $3 = '$got', wanted '$4'"; fi
}
# The summary table and each point's headline, without the measuring time (wall clock).
sw_results() { grep -E '^  [0-9]+K |^v2 is ' "$WORK/$1.out"; }

KERNDIFF_TRACE=1 KERNDIFF_SIMULATE="$SW_SIM" run sweep_ahead 0 -- --seed 7 --n $SW_POINTS --json="$WORK/sw_ahead.json" "$A" "$B"
KERNDIFF_TRACE=1 KERNDIFF_SWEEP_FRESH=1 KERNDIFF_SIMULATE="$SW_SIM" run sweep_fresh 0 -- --seed 7 --n $SW_POINTS --json="$WORK/sw_fresh.json" "$A" "$B"
# 4 points, 3 children each (v1 alone, v2 alone, both): the first point starts its own, the
# three after it take the ones started ahead; no spare is started after the last point.
sw_count sweep_ahead err 'harness .*: started$' 3
sw_count sweep_ahead err 'harness .*: the one started ahead$' 9
sw_count sweep_ahead err "the next point's harnesses started ahead" 3
has sweep_ahead err 'protocol 2 cannot re-size a set-up child'
sw_count sweep_fresh err 'harness .*: started$' 12
sw_count sweep_fresh err 'the one started ahead' 0
has sweep_fresh err 'KERNDIFF_SWEEP_FRESH: none started ahead'
sw_count sweep_ahead out '^  [0-9]+K +[0-9.]+us +[0-9.]+us +1\.[0-9]+x .* faster ' 4
if diff <(sw_results sweep_fresh) <(sw_results sweep_ahead) >"$WORK/sw_diff.txt" && [ "$(sw_results sweep_ahead | wc -l)" -eq 8 ]; then
    ok "sweep_ahead: every point's headline and row as with KERNDIFF_SWEEP_FRESH=1"
else fail "sweep_ahead: the results differ from KERNDIFF_SWEEP_FRESH=1's" "$WORK/sw_diff.txt"; fi
sw_json='[(p["value"], p["exit"], p["result"]["runtime"]["verdict"], p["result"]["runtime"]["speedup"]) for p in d["sweep"]["points"]]'
if python3 -c "import json,sys; f=lambda p: (lambda d: $sw_json)(json.load(open(p))); a,b=f(sys.argv[1]),f(sys.argv[2]); sys.exit(0 if a==b and len(a)==4 else print(a,b) or 1)" \
        "$WORK/sw_ahead.json" "$WORK/sw_fresh.json" >"$WORK/sw_json.txt" 2>&1; then
    ok "sweep_ahead: the JSON points (value, exit, verdict, ratio) as with KERNDIFF_SWEEP_FRESH=1"
else fail "sweep_ahead: JSON points differ" "$WORK/sw_json.txt"; fi

# --no-check: one child per point (both together).
KERNDIFF_TRACE=1 KERNDIFF_SIMULATE="$SW_SIM" run sweep_nocheck 0 -- --no-check --n 1K,2K,4K "$A" "$B"
sw_count sweep_nocheck err 'harness .*: started$' 1
sw_count sweep_nocheck err 'harness .*: the one started ahead$' 2

# Builds: a size is a launch argument, so only the first point compiles (an empty cache), the
# others find the build in the cache without running nvcc.
XDG_CACHE_HOME="$WORK/sw_cache" KERNDIFF_TRACE=1 KERNDIFF_SIMULATE="$SW_SIM" run sweep_builds 0 -- --no-check --n 1K,2K,4K "$A" "$B"
sw_count sweep_builds err 'v[12] built$' 2
sw_count sweep_builds err 'v[12] built \(cache\)$' 4
# A compile-time value is a compile input: one build per distinct value and side (2 and 4),
# the repeated 2 found in the cache. The harnesses are still started ahead (same argv).
XDG_CACHE_HOME="$WORK/sw_cache_d" KERNDIFF_TRACE=1 KERNDIFF_SIMULATE="$SW_SIM" run sweep_define_builds 0 -- --no-check --sweep KD_SW_UNUSED=2,4,2 "$A" "$B"
sw_count sweep_define_builds err 'v[12] built$' 4
sw_count sweep_define_builds err 'v[12] built \(cache\)$' 2
sw_count sweep_define_builds err 'harness .*: the one started ahead$' 2

# A harness started ahead that died before its point: replaced, and said. The wrapper counts
# its starts per role (its arguments: one spec alone, two together; the roles start at the
# same time, so one count each) and runs a given shell line at a role's second start.
mkdir -p "$WORK/sw_dir"
sw_wrapper() { # LINE: run by the wrapper at a role's second start (the one started ahead for point 2)
    rm -f "$WORK/sw_dir"/count.*
    cat >"$WORK/sw_dir/kerndiff-sim-harness" <<EOF
#!/bin/sh
f="$WORK/sw_dir/count.\$#.\$(printf %s "\$1" | tr -c 'a-z0-9' _)"
n=\$(cat "\$f" 2>/dev/null || echo 0); n=\$((n + 1)); echo \$n >"\$f"
real="$(dirname "$KD")/kerndiff-sim-harness"
[ "\$n" -eq 2 ] && $1
exec "\$real" "\$@"
EOF
    chmod +x "$WORK/sw_dir/kerndiff-sim-harness"
}
sw_wrapper '[ $# -eq 1 ] && [ "$1" = "median=60us,seed=3" ] && exit 1'
KERNDIFF_HARNESS_DIR="$WORK/sw_dir" KERNDIFF_TRACE=1 KERNDIFF_SIMULATE="$SW_SIM" run sweep_spare_died 0 -- --n 1K,2K,4K "$A" "$B"
has sweep_spare_died err '^kerndiff: the harness for v1 started ahead for this point was not ready \(it had exited or did not answer\): a new one was started$'
sw_count sweep_spare_died err 'started ahead for this point was not ready' 1
sw_count sweep_spare_died err 'harness .*: started$' 4
sw_count sweep_spare_died out '^  [0-9]+K +[0-9.]+us +[0-9.]+us .* faster ' 3

# A harness that fails in the middle of a point: that point fails and says so; the next point
# runs on new children (the ones started ahead), and the sweep goes on to its end. The second
# child that holds both sides (point 2's, started ahead) crashes at its 3rd sample.
sw_wrapper '[ $# -eq 2 ] && exec "$real" "$1,crash_at=3" "$2,crash_at=3"'
KERNDIFF_HARNESS_DIR="$WORK/sw_dir" KERNDIFF_TRACE=1 KERNDIFF_SIMULATE="$SW_SIM" run sweep_mid_crash 5 -- --n 1K,2K,4K --json="$WORK/sw_crash.json" "$A" "$B"
has sweep_mid_crash err '^kerndiff: n = 2K: .*signal 11'
sw_expect_json sweep_mid_crash "$WORK/sw_crash.json" '[p["exit"] for p in d["sweep"]["points"]]' "[0, 5, 0]"
sw_count sweep_mid_crash err 'harness .*: the one started ahead$' 6
