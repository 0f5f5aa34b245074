# Nothing requested is dropped in silence (issue 41 item 6, issue 44 item 1): an output a
# command's results have no form in is refused before anything runs (exit 2, from the
# command's row: rank --csv once wrote nothing and exited 0, later ran the whole rank to exit 7),
# and one with nothing to show this run (--trace without --regions) is said, not written.
K2=$WORK/k2
mkdir -p "$K2"
cp "$A" "$K2/base.cu"
cp "$B" "$K2/c1.cu"
KERNDIFF_SIMULATE="median=100us,cv=0.5%;median=80us,cv=0.5%" run k2_rank_csv 2 -- rank --max-time 1 --n 4096 --csv "$K2/rank.csv" "$K2/base.cu" "$K2/c1.cu"
has k2_rank_csv err "^kerndiff: --csv is not an option of kerndiff rank \(its outputs: --json, --save, --markdown, --html\)$"
[ ! -e "$K2/rank.csv" ] && ok "k2_rank_csv: no file" || fail "k2_rank_csv: a CSV was written"
run k2_trace_said 0 -- --trace "$K2/t.json" "$A" "$B"
has k2_trace_said err "^kerndiff: --trace .*t\.json: the trace has nothing to show for this run"
