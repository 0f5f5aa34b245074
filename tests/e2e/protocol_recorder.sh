# record_protocol DIR LOG [--per-child] [--cubin-digests]: makes DIR a harness folder
# (KERNDIFF_HARNESS_DIR=DIR) whose kerndiff-sim-harness is the simulated harness behind
# tests/e2e/protocol_recorder.py, which appends every line kerndiff sends a child to LOG (the
# options: see that script). Sourced by the suites that read the protocol sent; needs $KD, $ROOT.
record_protocol() {
    local dir=$1 log=$2 harness q
    shift 2
    harness="$(cd "$(dirname "$KD")" && pwd)/kerndiff-sim-harness"
    mkdir -p "$dir" || return 1
    # exec keeps the pid (--per-child tells the children apart by it)
    {
        printf '#!/usr/bin/env bash\nexec python3'
        for q in "$ROOT/tests/e2e/protocol_recorder.py" "$harness" "$log" "$@"; do printf ' %q' "$q"; done
        printf ' -- "$@"\n'
    } >"$dir/kerndiff-sim-harness" && chmod +x "$dir/kerndiff-sim-harness"
}
