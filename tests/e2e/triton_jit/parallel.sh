# Issue 26: both Triton sides' captures run at once (the user's program is not run twice one
# after the other), and an interrupt during them leaves no process behind. The capture is the
# test double tests/fakes/fake_triton_capture.py in a harness folder beside the real programs;
# it logs "start"/"end" marks, and each capture waits (at most 20 s) until both have started,
# so the order of the marks, not a timing, tells whether they overlapped.
tp_dir="$WORK/triton_parallel_harness"
source tests/fakes/fake_capture_dir.sh
fake_capture_dir "$tp_dir"
tp_file=tests/e2e/fixtures/triton_jit/raises.py
tp_launch='{"grid": [2, 1, 1], "args": [{"name": "x_ptr", "kind": "pointer", "dtype": "fp16", "count": 64}], "metadata": {"num_warps": 4, "shared": 0}}'
tp_env() { env KERNDIFF_HARNESS_DIR="$tp_dir" KD_REAL_HELPER="$(dirname "$KD")/kerndiff-triton.py" KD_FAKE_LAUNCH="$tp_launch" \
    KD_FAKE_MARKS="$WORK/tp_$1.marks" "${@:2}"; }
# the line number of a mark in a marks file (empty: absent)
tp_line() { grep -n -m1 -- "^$2\$\|^$2 " "$WORK/tp_$1.marks" | cut -d: -f1; }

# Both captured (two sides, one file each; --no-cache: nothing taken from the cache): v2's
# capture starts before v1's ends, and each side says its launch was captured.
: >"$WORK/tp_both.marks"
tp_env both KD_FAKE_MARKS_WAIT=20 "$KD" --no-cache "$tp_file" "$tp_file" >"$WORK/tp_both.out" 2>"$WORK/tp_both.err" </dev/null
tp_rc=$?
v2_start=$(tp_line both 'start v2-capture') v1_end=$(tp_line both 'end v1-capture') v2_end=$(tp_line both 'end v2-capture')
if [ "$tp_rc" -eq 0 ] && [ -n "$v2_start" ] && [ -n "$v1_end" ] && [ -n "$v2_end" ] && [ "$v2_start" -lt "$v1_end" ]; then
    ok "triton_parallel: v2's capture started (mark $v2_start) before v1's ended (mark $v1_end)"
else fail "triton_parallel: captures one after the other (exit $tp_rc, v2 start $v2_start, v1 end $v1_end)" "$WORK/tp_both.marks"; fi
cp "$WORK/tp_both.out" "$WORK/tp_both_sides.out"; cp "$WORK/tp_both.err" "$WORK/tp_both_sides.err"
has tp_both_sides out '^  v1, v2: grid 2 \(captured\)'
lacks tp_both_sides err 'not taken from'

# One side's capture fails alone (the double fails for never.py, as a program that raises
# before its launch does): v1 is captured, v2 is described and said so, naming v2 only.
: >"$WORK/tp_alone.marks"
tp_env alone KD_FAKE_FAIL=never.py "$KD" --no-cache "$tp_file" tests/e2e/fixtures/triton_jit/never.py \
    >"$WORK/tp_alone.out" 2>"$WORK/tp_alone.err" </dev/null
echo "exit $?" >>"$WORK/tp_alone.out"
has tp_alone out '^exit 0$'
has tp_alone err "v2: the launch of add_kernel was not taken from the user's code: .*never.py ended \\(exit status 1\\) without launching add_kernel.*RuntimeError: the double fails here"
lacks tp_alone err 'v1: the launch of add_kernel was not taken'
has tp_alone out 'grid 2 \(captured\)'

# The real helper, both captured at once: v1's program never launches (given up after
# --capture-timeout), v2's raises at once. v2, waited for after v1's time ran out, ended in its
# own time: it is said as ended, not as out of time (its deadline passed while v1 was waited for).
run tp_late 0 -- --capture-timeout 3 tests/e2e/fixtures/triton_jit/never.py "$tp_file"
has tp_late err "v1: the launch of add_kernel was not taken from the user's code: .*never.py did not launch add_kernel within 3 s"
has tp_late err "v2: the launch of add_kernel was not taken from the user's code: .*raises.py ended \\(exit status 1\\) without launching add_kernel"

# An interrupt (SIGINT) while both captures run: kerndiff ends by it, and neither capture's
# process group (the capture and the child it started) is left running.
: >"$WORK/tp_int.marks"
# (a simple command, not tp_env: a function in the background is a subshell, and $! its pid)
env KERNDIFF_HARNESS_DIR="$tp_dir" KD_REAL_HELPER="$(dirname "$KD")/kerndiff-triton.py" KD_FAKE_LAUNCH="$tp_launch" \
    KD_FAKE_MARKS="$WORK/tp_int.marks" KD_FAKE_HANG=1 "$KD" --no-cache "$tp_file" "$tp_file" \
    >"$WORK/tp_int.out" 2>"$WORK/tp_int.err" </dev/null &
tp_pid=$!
for _ in $(seq 1 200); do
    [ "$(grep -c '^child ' "$WORK/tp_int.marks")" -ge 2 ] && break
    sleep 0.1
done
tp_started=$(grep -c '^child ' "$WORK/tp_int.marks")
kill -INT "$tp_pid"
wait "$tp_pid"
tp_rc=$?
# the processes of these groups still alive (zombies waiting for their reaper are not)
tp_alive() {
    python3 - "$@" <<'PY'
import os, sys
groups = {int(g) for g in sys.argv[1:]}
for pid in filter(str.isdigit, os.listdir("/proc")):
    try:
        stat = open("/proc/%s/stat" % pid).read()
    except OSError:
        continue
    fields = stat[stat.rindex(")") + 2:].split()
    if int(fields[2]) in groups and fields[0] != "Z":
        print(pid, stat[:80])
PY
}
tp_groups=$(awk '/^start /{printf "%s ", $3}' "$WORK/tp_int.marks")
for _ in $(seq 1 50); do
    [ -z "$(tp_alive $tp_groups)" ] && break
    sleep 0.1
done
tp_alive $tp_groups >"$WORK/tp_int.alive"
if [ "$tp_started" -ge 2 ] && [ "$tp_rc" -eq 130 ] && [ -n "$tp_groups" ] && [ ! -s "$WORK/tp_int.alive" ]; then
    ok "triton_parallel: SIGINT during both captures (exit $tp_rc) leaves neither capture's group running"
else
    cat "$WORK/tp_int.marks" >>"$WORK/tp_int.alive"
    fail "triton_parallel: SIGINT (started $tp_started, exit $tp_rc, groups: $tp_groups)" "$WORK/tp_int.alive"
    for g in $tp_groups; do kill -KILL -- "-$g" 2>/dev/null; done
fi
