# A missing input is said at once, naming its side, exit 3: `kerndiff app` with a profile's
# name that is not there (it was run through the shell as a command: exit 5, "a.sqlite: not
# found"), and `--watch` with a file that is not there (it waited for ever after the first
# run). Sourced by tests/e2e/hostile.sh: run/has/lacks/ok/fail, $KD, $WORK, $A/$B from run.sh.
h2m=$WORK/h2_missing
mkdir -p "$h2m/bin"
h2m_fa=$ROOT/tests/fakes/fake_app

# --- app: a name ending in a profile's suffix is a file, never a command -------------------
# A program of that name on PATH must not run: the shell would have found it.
for h2m_name in h2m_a.sqlite h2m_b.nsys-rep; do
    printf '#!/bin/sh\necho ran >>"%s"\n' "$h2m/ran" >"$h2m/bin/$h2m_name"
    chmod +x "$h2m/bin/$h2m_name"
done
(cd "$h2m" && PATH="$h2m/bin:$PATH" "$KD" app --runs 1 h2m_a.sqlite h2m_b.nsys-rep \
    >"$WORK/h2m_app_both.out" 2>"$WORK/h2m_app_both.err" </dev/null)
h2m_rc=$?
if [ "$h2m_rc" -eq 3 ]; then ok "h2m_app_both: exit 3"; else fail "h2m_app_both: exit $h2m_rc, wanted 3" "$WORK/h2m_app_both.err"; fi
has h2m_app_both err "^kerndiff: v1: cannot read the profile 'h2m_a\.sqlite': No such file or directory; .*never run as a command: check the path"
has h2m_app_both err "^kerndiff: v2: cannot read the profile 'h2m_b\.nsys-rep': No such file or directory; "
lacks h2m_app_both err 'the command exited|not found'
if [ -e "$h2m/ran" ]; then fail "h2m_app_both: the program named like the profile was run"; else
    ok "h2m_app_both: nothing named like the profile was run"; fi

# One side a real profile, the other missing: only the missing side is named.
python3 tests/e2e/make_nsys_sqlite.py "$h2m/real.sqlite" three
run h2m_app_v2 3 -- app "$h2m/real.sqlite" "$h2m/nowhere/b.sqlite"
has h2m_app_v2 err "^kerndiff: v2: cannot read the profile '.*nowhere/b\.sqlite': No such file or directory"
lacks h2m_app_v2 err '^kerndiff: v1:'
lacks h2m_app_v2 out 'GPU kernel time'

# A command line whose last word has the suffix is still a command (it has blanks): it runs.
run h2m_app_command 0 -- app --runs 1 "$h2m_fa three # writes run.db" "$h2m_fa fused # run.sqlite"
has h2m_app_command out '^  v1: .*fake_app three # writes run\.db — exit 0 in 1 of 1 runs'
has h2m_app_command out '^  v2: .*fake_app fused # run\.sqlite — exit 0 in 1 of 1 runs'
lacks h2m_app_command err 'cannot read the profile'

# --- --watch: a missing file ends it at once, before any run -------------------------------
# h2m_watch NAME ARGS...: --watch under a 30 s limit (exit 124: it waited, the bug)
h2m_watch() {
    local name=$1; shift
    KERNDIFF_SIMULATE="median=60us;median=50us" timeout 30 "$KD" --watch --n 64K "$@" \
        >"$WORK/$name.out" 2>"$WORK/$name.err" </dev/null
    local got=$?
    if [ "$got" -eq 3 ]; then ok "$name: exit 3 at once"; else fail "$name: exit $got, wanted 3" "$WORK/$name.err"; fi
    lacks "$name" out '^== run'
}
h2m_watch h2m_watch_v1 "$h2m/gone1.cu" "$B"
has h2m_watch_v1 err "^kerndiff: v1: --watch: cannot read '.*gone1\.cu': No such file or directory; nothing watched .*: check the path"
lacks h2m_watch_v1 err '^kerndiff: v2:'
h2m_watch h2m_watch_v2 "$A" "$h2m/gone2.cu"
has h2m_watch_v2 err "^kerndiff: v2: --watch: cannot read '.*gone2\.cu': No such file or directory"
lacks h2m_watch_v2 err '^kerndiff: v1:'
h2m_watch h2m_watch_both "$h2m/gone1.cu" "$h2m/gone2.cu"
has h2m_watch_both err "^kerndiff: v1: --watch: cannot read '.*gone1\.cu'"
has h2m_watch_both err "^kerndiff: v2: --watch: cannot read '.*gone2\.cu'"
# git mode (one file): the file named, no side
h2m_watch h2m_watch_git "$h2m/gone.cu"
has h2m_watch_git err "^kerndiff: --watch: cannot read '.*gone\.cu': No such file or directory"
# a FIFO is no file to watch: refused, never opened (no blocking)
mkfifo "$h2m/pipe.cu"
h2m_watch h2m_watch_fifo "$A" "$h2m/pipe.cu"
has h2m_watch_fifo err "^kerndiff: v2: --watch: cannot read '.*pipe\.cu': not a regular file"
