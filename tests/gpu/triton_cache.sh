#!/bin/sh
# GPU check of issue 26 (H26), run by the lead on a GPU with torch and Triton:
#     tests/gpu/triton_cache.sh [BUILD_DIR]   (default build-gpu; needs no network; < 90 s)
# 1. A cached capture keeps its data: bench/triton_capture/quick.py (three 256 MiB fp32 tensors,
#    past the 64 MiB read cap that lost them before) diffed with itself twice with one
#    XDG_CACHE_HOME: the second (warm) run takes both sides from the cache and every launch line
#    says "cached capture, with its data" and the program's own data for x_ptr, y_ptr,
#    output_ptr, nothing "seeded at random"; then one cached data file changed in place: the
#    next run captures again and says why ("recaptured: ... does not match its checksum").
# 2. list and the timed diff agree on tests/realfiles/triton_add.py: the diff exits 0, or it
#    fails and `kerndiff list` says "not launchable as described: " with the same reason.
# Prints ok/FAIL lines and a summary; the summary goes to $OUT when set.
set -u
build=${1:-build-gpu}
root=$(cd "$(dirname "$0")/../.." && pwd)
case $build in /*) ;; *) build=$root/$build ;; esac
kd=$build/kerndiff
work=${WORK:-$(mktemp -d)}
mkdir -p "$work"
summary=$work/triton-cache-summary.txt
: >"$summary"
fails=0 passes=0
say() { echo "$*" | tee -a "$summary"; }
ok() { passes=$((passes + 1)); say "ok   $*"; }
bad() { fails=$((fails + 1)); say "FAIL $*"; }
finish() {
    say "triton_cache: $passes ok, $fails failed"
    [ -n "${OUT:-}" ] && cp "$summary" "$OUT/"
    [ "$fails" -eq 0 ]
    exit $?
}
[ -x "$kd" ] || { bad "no $kd (make BUILD=$build all)"; finish; }
cd "$root" || exit 1
cache=$work/xdg
rm -rf "$cache"
quick=bench/triton_capture/quick.py
data="data: the program's own (captured) for x_ptr, y_ptr, output_ptr"
diff_quick() { # diff_quick NAME
    s=$(date +%s)
    XDG_CACHE_HOME="$cache" "$kd" --no-ncu "$quick" "$quick" >"$work/$1.out" 2>"$work/$1.err" </dev/null
    rc=$?
    say "     $1: exit $rc, $(($(date +%s) - s)) s"
    grep 'JIT, the launch at' "$work/$1.out" | sed 's/^ */     /' | cut -c1-400 | tee -a "$summary" >/dev/null
    return $rc
}
lines() { grep -c "$2" "$work/$1.out"; }

if diff_quick cold && [ "$(grep -cF "$data" "$work/cold.out")" = 2 ] && ! grep -q 'seeded at random' "$work/cold.out"; then
    ok "cold: both sides time the program's own data"
else bad "cold: $(head -c 600 "$work/cold.err")"; fi
big=$(find "$cache" -path '*/data/x_ptr.bin' -size +65536k 2>/dev/null | head -1)
[ -n "$big" ] && ok "cold: the cache entry holds x_ptr's data ($(wc -c <"$big") bytes)" || bad "cold: no x_ptr.bin past 64 MiB in the cache"
if diff_quick warm && [ "$(grep -F "cached capture, with its data)" "$work/warm.out" | grep -cF "$data")" = 2 ] &&
    ! grep -q 'seeded at random\|recaptured' "$work/warm.out"; then
    ok "warm: both sides say cached capture, with its data, and time the program's own data"
else bad "warm: launch lines (above) $(head -c 300 "$work/warm.err")"; fi
if [ -n "$big" ]; then
    printf 'Z' | dd of="$big" bs=1 seek=4096 conv=notrunc 2>/dev/null
    if diff_quick changed && grep -q "recaptured: the cached capture's data did not verify, data/x_ptr.bin does not match its checksum" "$work/changed.out" &&
        ! grep -q 'seeded at random' "$work/changed.out"; then
        ok "changed: a cached data file changed in place is captured again, said why"
    else bad "changed: launch lines (above)"; fi
fi

add=tests/realfiles/triton_add.py
"$kd" list "$add" >"$work/list.out" 2>"$work/list.err"
"$kd" --no-ncu "$add" "$add" >"$work/add.out" 2>"$work/add.err" </dev/null
rc=$?
reason=$(grep -m1 . "$work/add.err" | sed 's/^kerndiff: v[12]: //')
if [ $rc -eq 0 ]; then
    ! grep -q 'not launchable' "$work/list.out" && ok "triton_add: the diff exits 0 and list says launchable" ||
        bad "triton_add: the diff exits 0, list says not launchable"
elif grep -qF "  launch: not launchable as described: $reason" "$work/list.out"; then
    ok "triton_add: the diff fails (exit $rc) and list says not launchable with the same reason: $reason"
else
    bad "triton_add: the diff fails (exit $rc: $reason), list says: $(grep '  launch:' "$work/list.out")"
fi
finish
