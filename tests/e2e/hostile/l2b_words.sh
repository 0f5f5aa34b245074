# Sourced by hostile.sh (issue 29, words only in report/): the messages of app/ and
# workflow/watch.c said through util/diag.h and report/'s words, with the wording and the
# streams they had.
L2B_A=examples/vector_loads/v1.cu L2B_B=examples/vector_loads/v2.cu
L2B_FA=$ROOT/tests/fakes/fake_app

# A failing app command: its message line, then its stderr's last lines under their heading,
# exactly as before (one line each, the tail kept as the program wrote it).
run l2b_app_fail 5 -- app --runs 1 "$L2B_FA three" "$L2B_FA fail"
if [ "$(head -n 3 "$WORK/l2b_app_fail.err")" = "kerndiff: v2: the command exited with status 3 in run 1 of 1; nothing compared
  its last lines on stderr:
fake_app: out of memory on purpose" ]; then ok "l2b_app_fail: message and tail"; else
    fail "l2b_app_fail: message and tail" "$WORK/l2b_app_fail.err"; fi
# An injected control sequence in a command's output reaches the terminal escaped.
run l2b_app_escape 5 -- app --runs 1 "$L2B_FA three" 'printf "bad\033[31mred\n" >&2; exit 9'
has l2b_app_escape err '^kerndiff: v2: the command exited with status 9 in run 1 of 1; nothing compared$'
lacks l2b_app_escape err $'\033'

# --watch: a watched file that goes away ends the watch with its message (exit 3).
cp "$L2B_A" "$WORK/l2b_w1.cu"; cp "$L2B_B" "$WORK/l2b_w2.cu"
KERNDIFF_SIMULATE="median=60us;median=50us" "$KD" --watch --n 64K "$WORK/l2b_w1.cu" "$WORK/l2b_w2.cu" \
    >"$WORK/l2b_watch.out" 2>"$WORK/l2b_watch.err" &
l2b_watcher=$!
for _ in $(seq 100); do grep -q 'watching for changes' "$WORK/l2b_watch.out" && break; sleep 0.1; done
rm -f "$WORK/l2b_w2.cu"
for _ in $(seq 50); do kill -0 $l2b_watcher 2>/dev/null || break; sleep 0.1; done
kill -INT $l2b_watcher 2>/dev/null
wait $l2b_watcher; l2b_rc=$?
if [ "$l2b_rc" -eq 3 ] && grep -qx 'kerndiff: a watched file can no longer be read; stopping' "$WORK/l2b_watch.err" &&
    grep -qx '== run 1' "$WORK/l2b_watch.out" && grep -q '^trend (oldest first): 1\.[0-9]*x+ ' "$WORK/l2b_watch.out"; then
    ok "l2b_watch: a vanished file stops the watch (exit 3), said on stderr; run header and trend on stdout"; else
    fail "l2b_watch: exit $l2b_rc" "$WORK/l2b_watch.err"; fi

# app --at without git: the checkout's message names the side and the revision, then git's
# absence and what to do (git/worktree.c hands it up as a message; exit 7, a missing tool).
PATH=/nonexistent run l2b_at_no_git 7 -- app --at HEAD "$L2B_FA three"
if [ "$(cat "$WORK/l2b_at_no_git.err")" = "kerndiff: v1: --at HEAD: git not found: install git, or give two commands" ]; then
    ok "l2b_at_no_git: one line, side and revision named"; else fail "l2b_at_no_git: message" "$WORK/l2b_at_no_git.err"; fi
# The verdict is announced as soon as it is known (diff/runtime.c's hook, worded by
# report/announce.c and installed by main.c), on stderr with -v; never with -q.
KERNDIFF_SIMULATE="median=100us,cv=0.5%;median=80us,cv=0.5%" run l2b_announce 0 -- --n 64K -v "$L2B_A" "$L2B_B"
has l2b_announce err '^kerndiff: v2 is 1\.2[0-9]+x faster \('
KERNDIFF_SIMULATE="median=100us,cv=0.5%;median=80us,cv=0.5%" run l2b_announce_q 0 -- --n 64K -q "$L2B_A" "$L2B_B"
lacks l2b_announce_q err 'v2 is '
