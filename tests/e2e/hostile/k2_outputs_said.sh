# Nothing requested is dropped in silence (issue 41 item 6, issue 44 item 1): an output a
# command's results have no form in is refused before anything runs (exit 2, from the
# command's row: rank --csv once wrote nothing and exited 0, later ran the whole rank to exit 7),
# one with nothing to show this run (--trace without --regions) is said, not written, and a
# run that stops before its report names each output it did not write.
K2=$WORK/k2
mkdir -p "$K2"
cp "$A" "$K2/base.cu"
cp "$B" "$K2/c1.cu"
KERNDIFF_SIMULATE="median=100us,cv=0.5%;median=80us,cv=0.5%" run k2_rank_csv 2 -- rank --max-time 1 --n 4096 --csv "$K2/rank.csv" "$K2/base.cu" "$K2/c1.cu"
has k2_rank_csv err "^kerndiff: --csv is not an option of kerndiff rank \(its outputs: --json, --save, --markdown, --html\)$"
[ ! -e "$K2/rank.csv" ] && ok "k2_rank_csv: no file" || fail "k2_rank_csv: a CSV was written"
run k2_trace_said 0 -- --trace "$K2/t.json" "$A" "$B"
has k2_trace_said err "^kerndiff: --trace .*t\.json: the trace has nothing to show for this run"
# a run that stops before its report (v1 does not build) names each output it did not write,
# and says that the file already at a path is an earlier run's (left there: it may be a kept
# --save baseline, and the failed status tells a script not to read it)
printf '__global__ void saxpy(float *x, int n) { this is not C++ }\n' >"$K2/broken.cu"
echo '{"earlier": true}' >"$K2/old.json"
run k2_stopped 4 -- --json "$K2/old.json" --markdown "$K2/new.md" "$K2/broken.cu" "$B"
has k2_stopped err "^kerndiff: --json .*old\.json: not written: the run stopped before its report; the file there is an earlier run's$"
has k2_stopped err "^kerndiff: --markdown .*new\.md: not written: the run stopped before its report$"
grep -q earlier "$K2/old.json" && ok "k2_stopped: the earlier file is kept" || fail "k2_stopped: the earlier file changed" "$K2/old.json"
[ ! -e "$K2/new.md" ] && ok "k2_stopped: no Markdown made" || fail "k2_stopped: a Markdown file was made"
# a run that wrote its report says nothing of the kind, whatever its status
run k2_reported 0 -- --json "$K2/ok.json" "$A" "$B"
lacks k2_reported err 'not written'
