#!/usr/bin/env bash
# Zero-flag success rate on the corpus of real-style kernel files (tests/realfiles/):
#   bench/realfiles.sh [BUILD_DIR] > bench/realfiles.txt
# For each file: `kerndiff FILE FILE` with no flag at all, static only (KERNDIFF_NO_GPU=1),
# succeeds when it exits 0; `kerndiff list FILE` succeeds when its launch lines say the
# kernel is launchable (no "not launchable"); and, when a GPU is present (nvidia-smi -L
# lists one), the timed diff `kerndiff --no-ncu FILE FILE` succeeds when it exits 0. A
# failure's line is its first message, so the missing piece can be read off the table.
set -u
BUILD=$(realpath "${1:-build}")
ROOT=$(cd "$(dirname "$0")/.." && pwd)
cd "$ROOT"
WORK=$(mktemp -d "${TMPDIR:-/tmp}/kerndiff-realfiles.XXXXXX")
trap 'rm -rf "$WORK"' EXIT
export XDG_CACHE_HOME="$WORK/cache" NO_COLOR=1
gpu=0
if command -v nvidia-smi >/dev/null 2>&1 && nvidia-smi -L 2>/dev/null | grep -q '^GPU'; then gpu=1; fi
echo "# zero-flag success on tests/realfiles, $(date -u '+%Y-%m-%d %H:%M UTC')"
echo "# kerndiff: $("$BUILD/kerndiff" --version | head -1), commit $("$BUILD/kerndiff" --version 2>/dev/null | sed -n 's/^source: commit //p')"
echo "# gpu: $([ $gpu = 1 ] && nvidia-smi --query-gpu=name --format=csv,noheader | head -1 || echo none)"
printf '%-24s %-7s %-11s %-7s %s\n' file static launchable timed "first message of a failure"
files=0 static_ok=0 launch_ok=0 timed_ok=0
first_line() { grep -m1 -v '^\s*$' "$1" | cut -c1-150; }
for f in tests/realfiles/*.cu tests/realfiles/*.ptx tests/realfiles/*.py; do
    [ -e "$f" ] || continue
    files=$((files + 1))
    name=$(basename "$f")
    why=""
    if KERNDIFF_NO_GPU=1 "$BUILD/kerndiff" "$f" "$f" >"$WORK/s.out" 2>"$WORK/s.err" </dev/null; then
        static=ok; static_ok=$((static_ok + 1))
    else
        static=FAIL; why=$(first_line "$WORK/s.err")
    fi
    KERNDIFF_NO_GPU=1 "$BUILD/kerndiff" list "$f" >"$WORK/l.out" 2>"$WORK/l.err" </dev/null
    if [ $? -eq 0 ] && grep -q '  launch: grid' "$WORK/l.out" && ! grep -q 'not launchable' "$WORK/l.out"; then
        launch=yes; launch_ok=$((launch_ok + 1))
    else
        launch=no
        [ -n "$why" ] || why=$(grep -m1 'not launchable' "$WORK/l.out" | sed 's/^ *launch: //' | cut -c1-150)
    fi
    timed=-
    if [ $gpu = 1 ]; then
        if "$BUILD/kerndiff" --no-ncu "$f" "$f" >"$WORK/t.out" 2>"$WORK/t.err" </dev/null; then
            timed=ok; timed_ok=$((timed_ok + 1))
        else
            timed=FAIL; [ -n "$why" ] || why=$(first_line "$WORK/t.err")
        fi
    fi
    printf '%-24s %-7s %-11s %-7s %s\n' "$name" "$static" "$launch" "$timed" "$why"
done
echo
echo "static diff, zero flags: $static_ok of $files"
echo "launchable as listed, zero flags: $launch_ok of $files"
[ $gpu = 1 ] && echo "timed diff, zero flags: $timed_ok of $files" || echo "timed diff: not run (no GPU)"
