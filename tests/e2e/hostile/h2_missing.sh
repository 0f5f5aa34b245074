# A missing input is said at once, naming its side, exit 3: `kerndiff app` with a profile's
# name that is not there (it was run through the shell as a command: exit 5, "a.sqlite: not
# found"). Sourced by tests/e2e/hostile.sh: run/has/lacks/ok/fail, $KD, $WORK, $A/$B from run.sh.
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
