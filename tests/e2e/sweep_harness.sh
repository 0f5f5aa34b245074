# Sweeps and their harness children (measure/harness_pool.h), through the simulated harness:
# one process per role (v1 alone, v2 alone, both) serves every point, told `reset` between
# points; each point's results are the same as with KERNDIFF_SWEEP_FRESH=1 (every point starts
# its own) and with KERNDIFF_SWEEP_FRESH=ahead (the next point's started ahead, none kept); the
# starts and builds per sweep are counted from the trace (KERNDIFF_TRACE=1) and by a wrapper
# that counts the processes; a kept harness that dies between points, and one that fails in the
# middle of a point, are replaced.
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

KERNDIFF_TRACE=1 KERNDIFF_SIMULATE="$SW_SIM" run sweep_keep 0 -- --seed 7 --n $SW_POINTS --json="$WORK/sw_keep.json" "$A" "$B"
KERNDIFF_TRACE=1 KERNDIFF_SWEEP_FRESH=ahead KERNDIFF_SIMULATE="$SW_SIM" run sweep_ahead 0 -- --seed 7 --n $SW_POINTS --json="$WORK/sw_ahead.json" "$A" "$B"
KERNDIFF_TRACE=1 KERNDIFF_SWEEP_FRESH=1 KERNDIFF_SIMULATE="$SW_SIM" run sweep_fresh 0 -- --seed 7 --n $SW_POINTS --json="$WORK/sw_fresh.json" "$A" "$B"
# 4 points, 3 children each (v1 alone, v2 alone, both): the first point starts its own, the
# three after it take the ones kept (reset) from the point before; none started ahead.
sw_count sweep_keep err 'harness .*: started$' 3
sw_count sweep_keep err 'harness .*: kept from the previous point$' 9
sw_count sweep_keep err 'started ahead' 0
has sweep_keep err 'one harness per role serves every point \(reset between points, each build loaded once\)'
# KERNDIFF_SWEEP_FRESH=ahead: none kept, the next point's started ahead (the previous design).
sw_count sweep_ahead err 'harness .*: started$' 3
sw_count sweep_ahead err 'harness .*: the one started ahead$' 9
sw_count sweep_ahead err "the next point's harnesses started ahead" 3
sw_count sweep_ahead err 'kept from the previous point' 0
sw_count sweep_fresh err 'harness .*: started$' 12
sw_count sweep_fresh err 'the one started ahead|kept from the previous point' 0
has sweep_fresh err 'KERNDIFF_SWEEP_FRESH: none started ahead'
sw_count sweep_keep out '^  [0-9]+K +[0-9.]+us +[0-9.]+us +1\.[0-9]+x .* faster ' 4
sw_json='[(p["value"], p["exit"], p["result"]["runtime"]["verdict"], p["result"]["runtime"]["speedup"]) for p in d["sweep"]["points"]]'
for mode in keep ahead; do
    if diff <(sw_results sweep_fresh) <(sw_results sweep_$mode) >"$WORK/sw_diff_$mode.txt" && [ "$(sw_results sweep_$mode | wc -l)" -eq 8 ]; then
        ok "sweep_$mode: every point's headline and row as with KERNDIFF_SWEEP_FRESH=1"
    else fail "sweep_$mode: the results differ from KERNDIFF_SWEEP_FRESH=1's" "$WORK/sw_diff_$mode.txt"; fi
    if python3 -c "import json,sys; f=lambda p: (lambda d: $sw_json)(json.load(open(p))); a,b=f(sys.argv[1]),f(sys.argv[2]); sys.exit(0 if a==b and len(a)==4 else print(a,b) or 1)" \
            "$WORK/sw_$mode.json" "$WORK/sw_fresh.json" >"$WORK/sw_json_$mode.txt" 2>&1; then
        ok "sweep_$mode: the JSON points (value, exit, verdict, ratio) as with KERNDIFF_SWEEP_FRESH=1"
    else fail "sweep_$mode: JSON points differ" "$WORK/sw_json_$mode.txt"; fi
done

# The processes themselves: a wrapper around the simulated harness writes one line per start
# (its pid and argument count); a 5-point sweep starts 3 (one per role), each answering resets.
mkdir -p "$WORK/sw_count_dir"
cat >"$WORK/sw_count_dir/kerndiff-sim-harness" <<SWEOF
#!/bin/sh
echo "\$\$ \$#" >>"$WORK/sw_count_dir/starts"
exec "$(dirname "$KD")/kerndiff-sim-harness" "\$@"
SWEOF
chmod +x "$WORK/sw_count_dir/kerndiff-sim-harness"
KERNDIFF_HARNESS_DIR="$WORK/sw_count_dir" KERNDIFF_TRACE=1 KERNDIFF_SIMULATE="$SW_SIM" run sweep_processes 0 -- --n 1K,2K,4K,8K,16K "$A" "$B"
if [ "$(wc -l <"$WORK/sw_count_dir/starts")" -eq 3 ] && [ "$(grep -c ' 1$' "$WORK/sw_count_dir/starts")" -eq 2 ]; then
    ok "sweep_processes: 5 points served by 3 harness processes (2 holding one side, 1 both)"
else fail "sweep_processes: harness processes started" "$WORK/sw_count_dir/starts"; fi
sw_count sweep_processes err 'harness .*: kept from the previous point$' 12
# each process answered 4 resets (one after each point but the last), counted by itself
sw_count sweep_processes err 'harness .*: reset \(resets=4\), kept for the next point$' 3
sw_count sweep_processes err 'harness .*: reset \(resets=[5-9]\)' 0
sw_count sweep_processes out '^  [0-9]+K +[0-9.]+us +[0-9.]+us .* faster ' 5

# --no-check: one child per point (both together).
KERNDIFF_TRACE=1 KERNDIFF_SIMULATE="$SW_SIM" run sweep_nocheck 0 -- --no-check --n 1K,2K,4K "$A" "$B"
sw_count sweep_nocheck err 'harness .*: started$' 1
sw_count sweep_nocheck err 'harness .*: kept from the previous point$' 2

# Builds: a size is a launch argument, so only the first point compiles (an empty cache), the
# others find the build in the cache without running nvcc.
XDG_CACHE_HOME="$WORK/sw_cache" KERNDIFF_TRACE=1 KERNDIFF_SIMULATE="$SW_SIM" run sweep_builds 0 -- --no-check --n 1K,2K,4K "$A" "$B"
sw_count sweep_builds err 'v[12] built$' 2
sw_count sweep_builds err 'v[12] built \(cache\)$' 4
# A compile-time value is a compile input: one build per distinct value and side (2 and 4),
# the repeated 2 found in the cache. The harnesses are still kept (same argv; the harness
# loads each distinct build once).
XDG_CACHE_HOME="$WORK/sw_cache_d" KERNDIFF_TRACE=1 KERNDIFF_SIMULATE="$SW_SIM" run sweep_define_builds 0 -- --no-check --sweep KD_SW_UNUSED=2,4,2 "$A" "$B"
sw_count sweep_define_builds err 'v[12] built$' 4
sw_count sweep_define_builds err 'v[12] built \(cache\)$' 2
sw_count sweep_define_builds err 'harness .*: kept from the previous point$' 2

# A kept harness that died between points: replaced, and said. The wrapper runs a given shell
# line at every start of a role (its arguments: one spec alone, two together).
mkdir -p "$WORK/sw_dir"
sw_wrapper() { # LINE: run by the wrapper before it execs the simulated harness
    cat >"$WORK/sw_dir/kerndiff-sim-harness" <<SWEOF
#!/bin/sh
real="$(dirname "$KD")/kerndiff-sim-harness"
$1
exec "\$real" "\$@"
SWEOF
    chmod +x "$WORK/sw_dir/kerndiff-sim-harness"
}
# v1 alone answers its first reset, then exits: at points 2 and 3 its role starts afresh.
sw_wrapper '[ $# -eq 1 ] && [ "$1" = "median=60us,seed=3" ] && exec "$real" "$1,die_after_reset=1"'
KERNDIFF_HARNESS_DIR="$WORK/sw_dir" KERNDIFF_TRACE=1 KERNDIFF_SIMULATE="$SW_SIM" run sweep_kept_died 0 -- --n 1K,2K,4K "$A" "$B"
has sweep_kept_died err '^kerndiff: the harness for v1 kept from the previous point was not ready \(it had exited or did not answer\): a new one was started$'
sw_count sweep_kept_died err 'kept from the previous point was not ready' 2
sw_count sweep_kept_died err 'harness .*: started$' 5
sw_count sweep_kept_died out '^  [0-9]+K +[0-9.]+us +[0-9.]+us .* faster ' 3

# A harness that fails in the middle of a point: that point fails and says so; the next point
# runs on a new child for that role (started ahead: the failed one is not kept), the others
# kept, and the sweep goes on to its end. The child that holds both sides crashes at the first
# sample of its second point.
sw_wrapper '[ $# -eq 2 ] && exec "$real" "$1,crash_point=2" "$2,crash_point=2"'
KERNDIFF_HARNESS_DIR="$WORK/sw_dir" KERNDIFF_TRACE=1 KERNDIFF_SIMULATE="$SW_SIM" run sweep_mid_crash 5 -- --n 1K,2K,4K --json="$WORK/sw_crash.json" "$A" "$B"
has sweep_mid_crash err '^kerndiff: n = 2K: .*signal 11'
sw_expect_json sweep_mid_crash "$WORK/sw_crash.json" '[p["exit"] for p in d["sweep"]["points"]]' "[0, 5, 0]"
sw_count sweep_mid_crash err 'harness .*: kept from the previous point$' 5
sw_count sweep_mid_crash err 'harness .*: the one started ahead$' 1
