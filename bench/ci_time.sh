#!/usr/bin/env bash
# Where the test command's minutes go (issue 41): each e2e suite run alone (E2E_ONLY), its wall
# seconds and the CPU seconds (user + system) of everything it started, which moves less than
# the wall time on a shared machine. Results: bench/ci_time.txt.
# usage: bench/ci_time.sh [BUILD [SUITE...]]   (BUILD: build, or build-san for the ASan one)
set -u
ROOT=$(cd "$(dirname "$0")/.." && pwd)
BUILD=${1:-build}
shift || true
SUITES=${*:-timing counters hostile regions rank html capture hotspots examples launch docs}
cd "$ROOT"
for s in $SUITES; do
    python3 - "$s" "$BUILD" <<'PY'
import os, resource, subprocess, sys, time
suite, build = sys.argv[1], sys.argv[2]
t = time.monotonic()
p = subprocess.run(["tests/e2e/run.sh", build + "/kerndiff", build + "/tests/libfake_nvml.so"],
                   env=dict(os.environ, E2E_ONLY=suite), capture_output=True, text=True)
wall = time.monotonic() - t
r = resource.getrusage(resource.RUSAGE_CHILDREN)
last = [l for l in p.stdout.splitlines() if l.startswith("e2e:")]
print("%-10s wall %6.1f s  cpu %6.1f s  %s" % (suite, wall, r.ru_utime + r.ru_stime, last[-1] if last else "no result"))
PY
done
