# Nothing requested is dropped (issue 41 item 6), beyond k2_outputs_said.sh's outputs: a pass
# asked for by name that cannot run without a GPU (--hotspots, --counters ncu, --metrics,
# --ncu-report) says so in one line on stderr, naming what was asked, where it went
# unmentioned; --csv with nothing timed says it has nothing to show and writes no header-only
# file (it wrote one, silently), and removes a file an earlier run left at its path (a reader
# would take it for this run's). Each stays exit 0: the static diff is what the run is, and the
# report's own line says why nothing was measured; the gate that could not be evaluated
# (--sanitize, exit 10) is h3_gates'/r1_gates' matter.
K3=$WORK/k3
mkdir -p "$K3"
k3_why='not run: nothing is measured this run \(KERNDIFF_NO_GPU is set\); static diff only$'
run k3_hotspots 0 -- --hotspots "$A" "$B"
has k3_hotspots err "^kerndiff: --hotspots: $k3_why"
run k3_counters_ncu 0 -- --counters ncu "$A" "$B"
has k3_counters_ncu err "^kerndiff: --counters ncu: $k3_why"
run k3_metrics 0 -- --metrics sm__warps_launched.sum "$A" "$B"
has k3_metrics err "^kerndiff: --metrics: $k3_why"
run k3_ncu_report 0 -- --ncu-report "$K3/reps" "$A" "$B"
has k3_ncu_report err "^kerndiff: --ncu-report .*/reps: $k3_why"
[ ! -e "$K3/reps" ] && ok "k3_ncu_report: no folder made" || fail "k3_ncu_report: $K3/reps was made"
# one line each, all of them, when several are asked at once; the report's line once
run k3_all 0 -- --hotspots --counters ncu --metrics sm__warps_launched.sum --ncu-report "$K3/reps2" "$A" "$B"
[ "$(grep -c ': not run: nothing is measured this run' "$WORK/k3_all.err")" -eq 4 ] &&
    ok "k3_all: four passes, four lines" || fail "k3_all: not one line per pass asked" "$WORK/k3_all.err"
[ "$(grep -c '^runtime measurement skipped' "$WORK/k3_all.out")" -eq 1 ] &&
    ok "k3_all: the report's reason once" || fail "k3_all: the report's reason" "$WORK/k3_all.out"
# --no-run: the same line, without a reason of its own (the report's says it)
run k3_no_run 0 -- --no-run --hotspots "$A" "$B"
has k3_no_run err '^kerndiff: --hotspots: not run: nothing is measured this run; static diff only$'
# counters on by default (no flag) are not "asked": nothing said for them
run k3_default 0 -- "$A" "$B"
lacks k3_default err 'not run'
# the path is the user's: escaped, never written raw to the terminal
run k3_escape 0 -- --ncu-report "$K3/r$(printf '\033')[31m" "$A" "$B"
has k3_escape err '^kerndiff: --ncu-report .*/r\\x1b\[31m: not run'
lacks k3_escape err "$(printf '\033')"
# --csv: the raw samples; with nothing timed, said and not written (no header-only file)
run k3_csv 0 -- --csv "$K3/s.csv" "$A" "$B"
has k3_csv err "^kerndiff: --csv .*s\.csv: the CSV has nothing to show for this run \(the CSV holds the timing's raw samples, and nothing was timed\); not written$"
[ ! -e "$K3/s.csv" ] && ok "k3_csv: no file" || fail "k3_csv: a CSV was written" "$K3/s.csv"
# a CSV an earlier run left at the path would pass for this run's: removed, and said
echo 'v1,1,stale' >"$K3/old.csv"
run k3_csv_stale 0 -- --csv "$K3/old.csv" "$A" "$B"
has k3_csv_stale err "^kerndiff: --csv .*old\.csv: the CSV has nothing to show .*; not written, and the file already there is removed \(it was not this run's\)$"
[ ! -e "$K3/old.csv" ] && ok "k3_csv_stale: the earlier file is gone" || fail "k3_csv_stale: the earlier CSV is still there" "$K3/old.csv"
# a device is not a file of an earlier run: left alone, nothing said of it
run k3_csv_dev 0 -- --csv /dev/null "$A" "$B"
lacks k3_csv_dev err 'already there'
[ -c /dev/null ] && ok "k3_csv_dev: /dev/null left" || fail "k3_csv_dev: /dev/null is gone"
# ... and written when something was timed (the simulated harness)
KERNDIFF_SIMULATE="median=50us;median=40us" run k3_csv_timed 0 -- --n 64K --csv "$K3/t.csv" "$A" "$B"
lacks k3_csv_timed err 'nothing to show'
[ "$(grep -c '^v[12],' "$K3/t.csv" 2>/dev/null)" -gt 0 ] && ok "k3_csv_timed: samples written" ||
    fail "k3_csv_timed: no samples in the CSV" "$WORK/k3_csv_timed.err"
# --html and --markdown on a static diff have the static half to show: written, nothing said
run k3_html_md 0 -- --html "$K3/r.html" --markdown "$K3/r.md" "$A" "$B"
[ -s "$K3/r.html" ] && [ -s "$K3/r.md" ] && ok "k3_html_md: both written" || fail "k3_html_md: an output is missing" "$WORK/k3_html_md.err"
lacks k3_html_md err 'not written|not run'
