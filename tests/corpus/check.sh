#!/usr/bin/env bash
# Re-runs record.sh into a scratch folder and compares with tests/corpus/expected: exit 0
# when kerndiff still says the same of every corpus file (its `list`, and the exit, class and
# first lines of the zero-flag diff), 1 with the differences (diff -u) when not, 2 when it
# could not run. Needs the corpus laid out (tests/corpus/fetch.sh) and no GPU visible (the
# expected diffs are static ones).
#
#   tests/corpus/check.sh BUILD_DIR [ID...]
set -u
here=$(cd "$(dirname "$0")" && pwd)
build=${1:?usage: check.sh BUILD_DIR [ID...]}
shift
scratch=$(mktemp -d "${TMPDIR:-/tmp}/kerndiff-corpus-check.XXXXXX")
trap 'rm -rf "$scratch"' EXIT
EXPECTED=$scratch "$here/record.sh" "$build" "$@" >"$scratch.log" 2>&1 || { cat "$scratch.log"; rm -f "$scratch.log"; exit 2; }
rm -f "$scratch.log"
rc=0
for f in "$scratch"/*.list "$scratch"/*.diff; do
    [ -e "$f" ] || continue
    b=$(basename "$f")
    if [ ! -f "$here/expected/$b" ]; then echo "check.sh: no expected/$b"; rc=1; continue; fi
    diff -u "$here/expected/$b" "$f" || rc=1
done
if [ $# = 0 ] && [ -f "$scratch/classes.tsv" ]; then
    diff -u "$here/expected/classes.tsv" "$scratch/classes.tsv" || rc=1
fi
n=$(ls "$scratch" | grep -c '\.diff$')
if [ $rc = 0 ]; then echo "check.sh: $n files as expected"; else echo "check.sh: differences above ($n files checked)"; fi
exit $rc
