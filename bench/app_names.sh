#!/usr/bin/env bash
# `kerndiff app` on nsys SQLite exports with many distinct kernel names: its matching of names
# across the sides and runs must stay near-linear (issue 40: 200,000 names took 152 s of CPU
# when each added launch searched the kernels seen so far). Two databases with the tables of
# `nsys export --type sqlite` (tests/e2e/make_nsys_sqlite.py's schema), N distinct kernel names
# each, half of them shared, one launch per name, are made; then `kerndiff app` is timed on
# them (user + system CPU seconds, and wall). No GPU needed.
#   make && bench/app_names.sh [KERNDIFF] [N] | tee bench/app_names.txt
set -eu
KD=$(realpath "${1:-build/kerndiff}")
N=${2:-200000}
WORK=$(mktemp -d "${TMPDIR:-/tmp}/kerndiff-bench.XXXXXX")
trap 'rm -rf "$WORK"' EXIT
HERE=$(cd "$(dirname "$0")/.." && pwd)
for side in a b; do python3 "$HERE/tests/e2e/make_nsys_sqlite.py" "$WORK/$side.sqlite" empty; done
python3 - "$WORK" "$N" <<'PY'
import sqlite3, sys
work, n = sys.argv[1], int(sys.argv[2])
for side, offset in (("a", 0), ("b", n // 2)):
    db = sqlite3.connect(f"{work}/{side}.sqlite")
    db.executemany("INSERT INTO StringIds VALUES (?, ?)",
                   ((i + 1, f"kernel_{i + offset}(float*)") for i in range(n)))
    db.executemany("INSERT INTO CUPTI_ACTIVITY_KIND_KERNEL (start, end, correlationId, demangledName, shortName, "
                   "registersPerThread, gridX, gridY, gridZ, blockX, blockY, blockZ, staticSharedMemory, "
                   "dynamicSharedMemory) VALUES (?, ?, ?, ?, ?, 16, 1024, 1, 1, 256, 1, 1, 0, 0)",
                   ((1000 + 4000 * i, 1000 + 4000 * i + 1000 + i % 97, i + 1, i + 1, i + 1) for i in range(n)))
    db.commit()
PY
echo "# kerndiff app on two nsys SQLite exports of $N distinct kernel names each ($((N / 2)) shared)"
echo "# $(date -u '+%Y-%m-%d'), $(uname -m), $(nproc) cores; $("$KD" --version | head -1)"
TIMEFORMAT='cpu %3U s user + %3S s system, wall %3R s'
rc=0
{ time "$KD" app --steps 1 --top 5 "$WORK/a.sqlite" "$WORK/b.sqlite" >"$WORK/out" 2>"$WORK/err"; } 2>&1 || rc=$?
echo "exit $rc; report head:"
sed -n '1,12p' "$WORK/out"
