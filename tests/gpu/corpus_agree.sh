#!/usr/bin/env bash
# Issue 45's second must-show: "for ten of [the corpus files], the replayed median agrees
# within 2% with the kernel's duration measured in the caller's own process (CUPTI activity or
# torch.profiler, same GPU, same run)". For each corpus file, ONE AT A TIME (two processes on
# one GPU would time each other):
#   1. kerndiff times the file A/A on the launch its caller makes: --fn KERNEL --from 'CALLER'
#      with the caller corpus.tsv names (the project's own test), or zero flags where it names
#      none (kerndiff then finds a caller itself); the JSON's replay says which program ran
#      and which launch of it (nth) was taken;
#   2. that same program runs again under torch.profiler (tests/gpu/caller_durations.py): the
#      GPU's own durations of every launch of the kernel in the caller's process;
#   3. the comparison: kerndiff's v1 median against the median of the caller's launches with
#      the replayed launch's grid and block (the nth launch's), and how many there were.
# A line per file:
#   agree   ID KERNEL: replay X us, caller Y us (median of N launches, grid G block B), R
#   differ  (the same, |R - 1| > 2%)   few  (the caller made fewer than AGREE_MIN_LAUNCHES
#   such launches: too few to compare)   skip  (not timed; why)
# and a summary: agree, differ, few, skip. Exit 0 when at least AGREE_WANT (10) agree.
#
#   tests/gpu/corpus_agree.sh BUILD_DIR [ID...]
#
# Needs what tests/gpu/corpus.sh needs (a GPU, the corpus laid out, python3 with torch, Triton
# and pytest). CORPUS=DIR (./corpus); CORPUS_PYTHON (python3): the callers' Python;
# AGREE_FLAGS ("--max-time 2 --no-ncu"): kerndiff's options (add `--load sustained` to time
# as back-to-back launches do: a caller's launches run with warm caches, kerndiff's default
# flushes L2 before each sample, and that difference is part of what this measures);
# AGREE_BUDGET_S (1500): files not started by then are left out; AGREE_TIMEOUT_S (240) a run;
# AGREE_MIN_LAUNCHES (3). With OUT set: $OUT/results-corpus-agree.txt and the runs' files in
# $OUT/agree/ (tar them: a device call returns few files).
set -u
root=$(cd "$(dirname "$0")/../.." && pwd)
build=${1:?usage: tests/gpu/corpus_agree.sh BUILD_DIR [ID...]}
shift
case $build in /*) ;; *) build=$root/$build ;; esac
kd=$build/kerndiff
[ -x "$kd" ] || { echo "corpus_agree.sh: no $kd (make BUILD=... all)" >&2; exit 2; }
corpus=${CORPUS:-$root/corpus}
py=${CORPUS_PYTHON:-python3}
tsv=$root/tests/corpus/corpus.tsv
tmo=${AGREE_TIMEOUT_S:-240}
want=${AGREE_WANT:-10}
read -r -a flags <<<"${AGREE_FLAGS:---max-time 2 --no-ncu}"
deadline=$(( $(date +%s) + ${AGREE_BUDGET_S:-1500} ))
work=$(mktemp -d "${TMPDIR:-/tmp}/kerndiff-agree.XXXXXX")
trap 'rm -rf "$work"' EXIT
logs=${OUT:+$OUT/agree}
logs=${logs:-$work/logs}
mkdir -p "$logs"
export NO_COLOR=1 KERNDIFF_WIDTH=0 XDG_CACHE_HOME="$work/cache" PATH="$PATH:/usr/local/cuda/bin"
unset KERNDIFF_SIMULATE
summary=$work/summary.txt
: >"$summary"
say() { echo "$*" | tee -a "$summary"; }
ids=("$@")
wanted() { [ ${#ids[@]} = 0 ] && return 0; local i; for i in "${ids[@]}"; do [ "$i" = "$1" ] && return 0; done; return 1; }

say "GPU: $(nvidia-smi --query-gpu=name,driver_version --format=csv,noheader 2>/dev/null | head -1)"
say "kerndiff: $("$kd" --version 2>&1 | head -1); flags: ${flags[*]}; $(date -u +%FT%TZ)"

# The JSON's facts, one per line: program argv (NUL-free, as JSON), kernel name, nth, v1 median ns.
facts() { # JSON
    python3 - "$1" <<'PY'
import json, re, sys
try:
    d = json.load(open(sys.argv[1]))
except Exception as e:
    print("error: no JSON (%s)" % e.__class__.__name__); sys.exit()
if isinstance(d.get("comparison"), dict):
    d = d["comparison"]
rt, rp = d.get("runtime"), d.get("replay")
if not isinstance(rt, dict) or rt.get("simulated"):
    print("error: not timed"); sys.exit()
if ((rt.get("correctness") or {}).get("verdict")) == "incorrect":
    print("error: the outputs differ"); sys.exit()
if not isinstance(rp, dict) or not rp.get("program"):
    print("error: no replayed program in the JSON"); sys.exit()
name = rp.get("demangled") or rp.get("kernel") or ""
name = re.sub(r"^void\s+", "", name)
name = re.split(r"[<(]", name, 1)[0].split("::")[-1].strip()
print("ok")
print(json.dumps(rp["program"]))
print(name)
print(int(rp.get("nth") or 1))
print(rt["sides"][0]["summary_ns"]["median"])
PY
}

# The comparison line's fields from the caller's launches: N, median ns, grid, block.
caller_median() { # DURATIONS.json NTH
    python3 - "$1" "$2" <<'PY'
import json, statistics, sys
d = json.load(open(sys.argv[1]))
nth = int(sys.argv[2])
ls = d.get("launches") or []
if len(ls) < nth:
    print(0, 0, "-", "-"); sys.exit()
ref = ls[nth - 1]
same = [l["ns"] for l in ls if l.get("grid") == ref.get("grid") and l.get("block") == ref.get("block")]
fmt = lambda v: "x".join(str(x) for x in v) if isinstance(v, list) else str(v)
print(len(same), statistics.median(same), fmt(ref.get("grid")), fmt(ref.get("block")))
PY
}

n_agree=0 n_differ=0 n_few=0 n_skip=0
while IFS=$'\t' read -r id proj commit path licence kernels caller kind; do
    case $id in ''|'#'*) continue ;; esac
    wanted "$id" || continue
    [ "$n_agree" -ge "$want" ] && [ ${#ids[@]} = 0 ] && break
    if [ "$(date +%s)" -ge "$deadline" ]; then say "skip    $id (the budget is spent)"; n_skip=$((n_skip + 1)); continue; fi
    dir=$corpus/$id
    if [ ! -f "$dir/$path" ]; then say "skip    $id (not laid out: tests/corpus/fetch.sh)"; n_skip=$((n_skip + 1)); continue; fi
    how=()
    if [ "$caller" != - ]; then
        case $(basename "$caller") in
        test_*.py|*_test.py) how=(--fn "${kernels%%,*}" --from "$py -m pytest -x -q $caller") ;;
        *) how=(--fn "${kernels%%,*}" --from "$py $caller") ;;
        esac
    fi
    (cd "$dir" && timeout -k 10 "$tmo" "$kd" "${flags[@]}" --json="$logs/$id.json" "${how[@]}" "$path" "$path" \
        >"$logs/$id.out" 2>"$logs/$id.err" </dev/null)
    mapfile -t f < <(facts "$logs/$id.json")
    if [ "${f[0]:-}" != ok ]; then say "skip    $id (${f[0]:-no facts}; kerndiff: $(grep -m1 . "$logs/$id.err" | cut -c1-160))"; n_skip=$((n_skip + 1)); continue; fi
    mapfile -t argv < <(python3 -c 'import json,sys; print("\n".join(json.loads(sys.argv[1])))' "${f[1]}")
    kernel=${f[2]} nth=${f[3]} replay_ns=${f[4]}
    (cd "$dir" && timeout -k 10 "$tmo" "$py" "$root/tests/gpu/caller_durations.py" "$kernel" "$logs/$id.caller.json" -- "${argv[@]}" \
        >"$logs/$id.caller.out" 2>"$logs/$id.caller.err" </dev/null)
    if [ ! -s "$logs/$id.caller.json" ]; then say "skip    $id (the caller under torch.profiler: $(tail -1 "$logs/$id.caller.err" | cut -c1-160))"; n_skip=$((n_skip + 1)); continue; fi
    read -r count caller_ns grid block < <(caller_median "$logs/$id.caller.json" "$nth")
    line=$(python3 -c '
import sys
k, r, c, n, g, b, mn = sys.argv[1], float(sys.argv[2]), float(sys.argv[3]), int(sys.argv[4]), sys.argv[5], sys.argv[6], int(sys.argv[7])
if n < mn or c <= 0:
    print("few\t%s: replay %.2f us; the caller made %d launches at its grid (need %d)" % (k, r / 1e3, n, mn)); sys.exit()
q = r / c
print("%s\t%s: replay %.2f us, caller %.2f us (median of %d launches, grid %s block %s), %.4f" %
      ("agree" if abs(q - 1) <= 0.02 else "differ", k, r / 1e3, c / 1e3, n, g, b, q))
' "$kernel" "$replay_ns" "${caller_ns:-0}" "${count:-0}" "${grid:--}" "${block:--}" "${AGREE_MIN_LAUNCHES:-3}")
    say "$(printf '%-7s %s %s' "${line%%$'\t'*}" "$id" "${line#*$'\t'}")"
    case $line in agree*) n_agree=$((n_agree + 1)) ;; differ*) n_differ=$((n_differ + 1)) ;; *) n_few=$((n_few + 1)) ;; esac
done <"$tsv"
say "corpus_agree.sh: $n_agree agree within 2%, $n_differ differ, $n_few too few launches in the caller, $n_skip skipped"
if [ -n "${OUT:-}" ]; then cp "$summary" "$OUT/results-corpus-agree.txt"; fi
[ "$n_agree" -ge "$want" ]
