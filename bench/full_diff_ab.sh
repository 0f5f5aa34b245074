#!/usr/bin/env bash
# Two kerndiff builds against each other on the full diff (timing + counters) of
# examples/vector_loads, alternating, 7 runs each (the first of each dropped: the build cache's
# warm-up): each run's timing medians (does the change move what the timing measures?), its wall
# time (does it make the diff faster?), and whether the counters came. Made for issue 31's
# prepare-counters: the counter configuration built while the sides check their outputs.
#   bench/full_diff_ab.sh NEW_BUILD OLD_BUILD [NEW_LABEL OLD_LABEL] > bench/full_diff_ab.txt
set -u
cd "$(dirname "$0")/.."
NEW=$(realpath "${1:?NEW_BUILD}") OLD=$(realpath "${2:?OLD_BUILD}")
LABELS=("${3:-$("$NEW/kerndiff" --version 2>/dev/null | sed -n 's/^source: commit //p')}"
        "${4:-$("$OLD/kerndiff" --version 2>/dev/null | sed -n 's/^source: commit //p')}")
W=$(mktemp -d)
trap 'rm -rf "$W"' EXIT
export XDG_CACHE_HOME="$W/cache" NO_COLOR=1 PATH="$PATH:/usr/local/cuda/bin"
A=examples/vector_loads/v1.cu C=examples/vector_loads/v2.cu
echo "# bench/full_diff_ab.sh  $(date -u '+%Y-%m-%d %H:%M UTC'); gpu: $(nvidia-smi --query-gpu=name,driver_version --format=csv,noheader 2>/dev/null || echo none)"
echo "# command: kerndiff --json=R.json $A $C, with KERNDIFF_HARNESS_DIR each build's own; new = ${LABELS[0]}, old = ${LABELS[1]}"
for i in 1 2 3 4 5 6 7; do
    for k in new old; do
        B=$NEW; [ $k = old ] && B=$OLD
        s=$(date +%s%N)
        KERNDIFF_HARNESS_DIR="$B" "$B/kerndiff" --json="$W/$k$i.json" "$A" "$C" >/dev/null 2>&1
        e=$(date +%s%N)
        echo $(( (e - s) / 1000000 )) >"$W/$k$i.wall"
    done
done
python3 - "$W" "${LABELS[@]}" <<'PY'
import json, statistics, sys
w, labels = sys.argv[1], sys.argv[2:4]
walls = {}
for k, label in zip(("new", "old"), labels):
    v1, v2, wall, ok = [], [], [], 0
    for i in range(2, 8):
        try:
            d = json.load(open(f"{w}/{k}{i}.json"))
        except (OSError, ValueError):
            print(f"{label}: run {i} wrote no JSON")
            continue
        v1.append(d["runtime"]["sides"][0]["summary_ns"]["median"] / 1e3)
        v2.append(d["runtime"]["sides"][1]["summary_ns"]["median"] / 1e3)
        wall.append(int(open(f"{w}/{k}{i}.wall").read()) / 1e3)
        ok += bool(d.get("counters"))
    if not wall:
        continue
    walls[k] = statistics.median(wall)
    print(f"{label:12} v1 " + " ".join(f"{x:.2f}" for x in v1) + " | v2 " + " ".join(f"{x:.2f}" for x in v2)
          + " | wall " + " ".join(f"{x:.2f}" for x in wall))
    print(f"{'':12} medians: v1 {statistics.median(v1):.3f} us, v2 {statistics.median(v2):.3f} us, "
          f"v1/v2 {statistics.median(v1) / statistics.median(v2):.4f}, wall {walls[k]:.2f} s; counters in {ok}/{len(wall)}")
if len(walls) == 2:
    print(f"wall new/old {walls['new'] / walls['old']:.2f}")
PY
