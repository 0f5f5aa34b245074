# Issue 26: a cached Triton capture keeps its tensors' data. The capture is the test double
# tests/fakes/fake_triton_capture.py (data of 0x3f bytes per tensor, KD_FAKE_DATA) in a harness
# folder beside the real programs; KERNDIFF_SIMULATE stands for the GPU (the capture's cache key
# counts the simulated harness as one). A warm cache still seeds each buffer with the program's
# own bytes and says so ("cached capture, with its data"); a cached data file that is gone,
# changed or of another size is never used: the program is captured again, said with why.
tc_dir="$WORK/triton_cache_harness"
source tests/fakes/fake_capture_dir.sh
fake_capture_dir "$tc_dir"
tc_file=tests/e2e/fixtures/triton_jit/raises.py
tc_launch='{"grid": [2, 1, 1], "args": [{"name": "x_ptr", "kind": "pointer", "dtype": "fp32", "count": 64, "element_size": 4}, {"name": "y_ptr", "kind": "pointer", "dtype": "fp32", "count": 64, "element_size": 4}], "where": {"file": "k.py", "line": 7}, "metadata": {"num_warps": 4, "shared": 0}}'
tc_cache="$WORK/triton_cache_xdg"
rm -rf "$tc_cache"
tc_data_both='{"x_ptr": 256, "y_ptr": 256}' # bytes of each tensor the capture keeps ($tc_data: another)
tc_run() { # tc_run NAME: one diff of the file with itself, the cache in $tc_cache; marks in tc_NAME.marks
    : >"$WORK/tc_$1.marks"
    KERNDIFF_SIMULATE="median=20us;median=20us" XDG_CACHE_HOME="$tc_cache" KERNDIFF_HARNESS_DIR="$tc_dir" \
        KD_REAL_HELPER="$(dirname "$KD")/kerndiff-triton.py" KD_FAKE_LAUNCH="$tc_launch" \
        KD_FAKE_DATA="${tc_data:-$tc_data_both}" KD_FAKE_MARKS="$WORK/tc_$1.marks" \
        "$KD" --no-ncu --json="$WORK/tc_$1.json" "$tc_file" "$tc_file" >"$WORK/tc_$1.out" 2>"$WORK/tc_$1.err" </dev/null
    echo "exit $?" >>"$WORK/tc_$1.out"
}
# how many times the program was run for a capture in that diff
tc_captures() { grep -c '^start ' "$WORK/tc_$1.marks"; }
tc_entry() { ls -d "$tc_cache"/kerndiff/builds/*/ 2>/dev/null | while read -r d; do [ -f "$d/launch.json" ] && echo "${d%/}"; done; }
tc_data_line="data: the program's own \\(captured\\) for x_ptr, y_ptr"

# Cold: v1's program runs once; v2 (the same file) takes v1's capture from the cache, data and all.
tc_run cold
has tc_cold out '^exit 0$'
has tc_cold out "taken from the file's own call\\): .*$tc_data_line"
has tc_cold out "taken from the file's own call; cached capture, with its data\\): .*$tc_data_line"
lacks tc_cold out 'seeded at random'
[ "$(tc_captures cold)" = 1 ] && ok "triton_cache cold: the program ran once" || fail "triton_cache cold: captures $(tc_captures cold)" "$WORK/tc_cold.marks"
tc_e=$(tc_entry)
if [ -n "$tc_e" ] && [ -f "$tc_e/data/x_ptr.bin" ] && [ -f "$tc_e/data/y_ptr.bin" ] && [ -f "$tc_e/data.json" ]; then
    ok "triton_cache cold: the cache entry holds the capture's data files and their list"
else fail "triton_cache cold: entry ${tc_e:-none}" "$WORK/tc_cold.out"; fi

# Warm: no program run; both sides say the data is the program's own, none seeded at random.
tc_run warm
has tc_warm out '^exit 0$'
[ "$(tc_captures warm)" = 0 ] && ok "triton_cache warm: no program run" || fail "triton_cache warm: captures $(tc_captures warm)" "$WORK/tc_warm.marks"
if [ "$(grep -c "cached capture, with its data): .*data: the program's own (captured) for x_ptr, y_ptr" "$WORK/tc_warm.out")" = 2 ]; then
    ok "triton_cache warm: both sides' launch lines say cached capture, with its data, the program's own"
else fail "triton_cache warm: launch lines" "$WORK/tc_warm.out"; fi
lacks tc_warm out 'seeded at random'
if python3 -c "
import json, sys
for s in json.load(open(sys.argv[1]))['sides']:
    ls = s['launch_source']
    assert ls['cached'] is True and 'recaptured' not in ls, ls
    assert all(a['data'] == {'captured': True, 'bytes': 256} for a in ls['args']), ls['args']" "$WORK/tc_warm.json"; then
    ok "triton_cache warm: JSON says cached, every tensor captured"
else fail "triton_cache warm: JSON launch_source" "$WORK/tc_warm.json"; fi

# A cached data file changed in place (same size): captured again, said why; never random.
tc_e=$(tc_entry)
printf 'Z' | dd of="$tc_e/data/x_ptr.bin" bs=1 seek=3 conv=notrunc 2>/dev/null
tc_run changed
has tc_changed out '^exit 0$'
has tc_changed out "recaptured: the cached capture's data did not verify, data/x_ptr.bin does not match its checksum\\): .*$tc_data_line"
lacks tc_changed out 'seeded at random'
[ "$(tc_captures changed)" = 1 ] && ok "triton_cache changed: the program ran again (once)" || fail "triton_cache changed: captures $(tc_captures changed)" "$WORK/tc_changed.marks"
if python3 -c "
import json, sys
s = json.load(open(sys.argv[1]))['sides']
assert 'x_ptr.bin does not match' in s[0]['launch_source']['recaptured'] and s[0]['launch_source']['cached'] is False, s[0]
assert s[1]['launch_source']['cached'] is True, s[1]" "$WORK/tc_changed.json"; then
    ok "triton_cache changed: JSON says v1 recaptured (why), v2 from the repaired entry"
else fail "triton_cache changed: JSON" "$WORK/tc_changed.json"; fi

# A cached data file deleted: captured again.
tc_e=$(tc_entry)
rm -f "$tc_e/data/y_ptr.bin"
tc_run deleted
has tc_deleted out "recaptured: the cached capture's data did not verify, data/y_ptr.bin is missing or cannot be read\\): .*$tc_data_line"
lacks tc_deleted out 'seeded at random'
[ "$(tc_captures deleted)" = 1 ] && ok "triton_cache deleted: the program ran again" || fail "triton_cache deleted: captures $(tc_captures deleted)" "$WORK/tc_deleted.marks"

# A cached data file of another size (truncated), and one replaced by a link: captured again.
tc_e=$(tc_entry)
head -c 100 "$tc_e/data/x_ptr.bin" >"$WORK/tc_short.bin" && cat "$WORK/tc_short.bin" >"$tc_e/data/x_ptr.bin"
tc_run short
has tc_short out "recaptured: the cached capture's data did not verify, data/x_ptr.bin has another size \\(100 bytes, 256 kept\\)"
lacks tc_short out 'seeded at random'
tc_e=$(tc_entry)
cp "$tc_e/data/y_ptr.bin" "$WORK/tc_y.bin" && rm -f "$tc_e/data/y_ptr.bin" && ln -s "$WORK/tc_y.bin" "$tc_e/data/y_ptr.bin"
tc_run link
has tc_link out "recaptured: the cached capture's data did not verify, data/y_ptr.bin"
lacks tc_link out 'seeded at random'

# The data list itself changed: the entry's manifest refuses it (a damaged entry), captured again.
tc_e=$(tc_entry)
sed -i 's/"bytes": *256/"bytes": 255/' "$tc_e/data.json"
tc_run list
[ "$(tc_captures list)" = 1 ] && ok "triton_cache list: a changed data list is not trusted (the program ran again)" || fail "triton_cache list: captures $(tc_captures list)" "$WORK/tc_list.marks"
lacks tc_list out 'seeded at random'

# An entry from before data lists (no data.json: a capture whose data was lost): captured again.
tc_e=$(tc_entry)
rm -f "$tc_e/data.json" && sed -i '/^data\.json /d' "$tc_e/manifest"
tc_run old
[ "$(tc_captures old)" = 1 ] && ok "triton_cache old: an entry without a data list is captured again" || fail "triton_cache old: captures $(tc_captures old)" "$WORK/tc_old.marks"
has tc_old out "taken from the file's own call; cached capture, with its data\\): .*$tc_data_line"

# A capture that kept no data (each tensor past the cap): cached all the same, and a warm run
# says "cached capture" (no data to carry) and why each buffer is seeded, as the cold run did.
tc_cache="$WORK/triton_cache_nodata"
rm -rf "$tc_cache"
tc_data='{"x_ptr": "not kept: over the cap", "y_ptr": "not kept: over the cap"}'
tc_run nodata_cold
tc_run nodata_warm
unset tc_data
has tc_nodata_warm out '^exit 0$'
[ "$(tc_captures nodata_warm)" = 0 ] && ok "triton_cache nodata_warm: no program run" || fail "triton_cache nodata_warm: captures $(tc_captures nodata_warm)" "$WORK/tc_nodata_warm.marks"
has tc_nodata_warm out "taken from the file's own call; cached capture\): .*seeded at random: x_ptr \(not kept: over the cap\), y_ptr \(not kept: over the cap\)"
lacks tc_nodata_warm out 'with its data'

# The bug the GPU found: a tensor past kd_read_file's 64 MiB (bench/triton_capture's are 256 MiB)
# was lost on its way into the cache. 80 MiB of fp32 here, cold then warm: kept, and used.
tc_launch='{"grid": [2, 1, 1], "args": [{"name": "x_ptr", "kind": "pointer", "dtype": "fp32", "count": 20971520, "element_size": 4}], "where": {"file": "k.py", "line": 7}, "metadata": {"num_warps": 4, "shared": 0}}'
tc_cache="$WORK/triton_cache_big"
rm -rf "$tc_cache"
tc_run_big() {
    : >"$WORK/tc_$1.marks"
    KERNDIFF_SIMULATE="median=20us;median=20us" XDG_CACHE_HOME="$tc_cache" KERNDIFF_HARNESS_DIR="$tc_dir" \
        KD_REAL_HELPER="$(dirname "$KD")/kerndiff-triton.py" KD_FAKE_LAUNCH="$tc_launch" \
        KD_FAKE_DATA='{"x_ptr": 83886080}' KD_FAKE_MARKS="$WORK/tc_$1.marks" \
        "$KD" --no-ncu "$tc_file" "$tc_file" >"$WORK/tc_$1.out" 2>"$WORK/tc_$1.err" </dev/null
    echo "exit $?" >>"$WORK/tc_$1.out"
}
tc_run_big big_cold
tc_run_big big_warm
has tc_big_warm out '^exit 0$'
[ "$(tc_captures big_warm)" = 0 ] && ok "triton_cache big_warm: no program run" || fail "triton_cache big_warm: captures $(tc_captures big_warm)" "$WORK/tc_big_warm.marks"
if [ "$(grep -c "cached capture, with its data): .*data: the program's own (captured) for x_ptr" "$WORK/tc_big_warm.out")" = 2 ]; then
    ok "triton_cache big_warm: an 80 MiB tensor's data kept in the cache and used by both sides"
else fail "triton_cache big_warm: launch lines" "$WORK/tc_big_warm.out"; fi
lacks tc_big_warm out 'seeded at random'
rm -rf "$tc_cache"
