#!/usr/bin/env bash
# Records, for each corpus file laid out by fetch.sh, what kerndiff says of it in a checkout
# of its project (cwd = CORPUS/<id>, the file named by its path in the project, so the
# project's own callers are looked for as kerndiff looks for them):
#   expected/<id>.list  `kerndiff list PATH`: its stdout, then "exit: N" and kerndiff's own
#                       lines on stderr (a compiler's diagnostics are counted, not kept)
#   expected/<id>.diff  a zero-flag diff of the file against itself, `kerndiff PATH PATH`:
#                       "exit: N", "class: ...", the first non-empty line of stdout and of
#                       stderr, and how many non-empty lines stderr had
# and writes expected/classes.tsv (id, class, exit) and prints the counts. On a machine
# without a GPU the diff is static (builds, instruction histograms, resources); on one with a
# GPU it would time, so record only where no GPU is visible (KERNDIFF_SIMULATE unset).
#
#   tests/corpus/record.sh BUILD_DIR [ID...]      (CORPUS=DIR: the laid-out folder, ./corpus)
#
# Classes: ok (exit 0); stop-named (exit 1-127, its first stderr line a kerndiff line naming
# what to give: a flag, -I DIR, a package to install; lines after it, such as the callers
# kerndiff found, allowed, but for a build failure, exit 4, which must be that line alone);
# build-failed (exit 4: nvcc or Triton failed, its
# diagnostics shown); other; crash (exit >= 128 but 124: a signal); timeout (exit 124: over
# CORPUS_TIMEOUT_S, 300 s). Paths of this machine are written CORPUS/, PYTHON3, BUILD/.
# Never edits the corpus' files; kerndiff's build cache is private (a fresh folder per run).
set -u
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
build=${1:?usage: record.sh BUILD_DIR [ID...]}
shift
case $build in /*) ;; *) build=$root/$build ;; esac
kd=$build/kerndiff
[ -x "$kd" ] || { echo "record.sh: no $kd (make BUILD=... all)" >&2; exit 2; }
corpus=${CORPUS:-$root/corpus}
expected=${EXPECTED:-$here/expected}
tmo=${CORPUS_TIMEOUT_S:-300}
mkdir -p "$expected"
work=$(mktemp -d "${TMPDIR:-/tmp}/kerndiff-corpus.XXXXXX")
trap 'rm -rf "$work"' EXIT
export NO_COLOR=1 KERNDIFF_WIDTH=0 XDG_CACHE_HOME="$work/cache" PATH="$PATH:/usr/local/cuda/bin"
unset KERNDIFF_SIMULATE

ids=("$@")
wanted() { [ ${#ids[@]} = 0 ] && return 0; local i; for i in "${ids[@]}"; do [ "$i" = "$1" ] && return 0; done; return 1; }
first_line() { grep -m1 -v '^[[:space:]]*$' "$1" || true; }
classify() { # EXIT STDERR_FILE
    local rc=$1 first
    first=$(first_line "$2")
    if [ "$rc" = 0 ]; then echo ok
    elif [ "$rc" = 124 ]; then echo timeout
    elif [ "$rc" -ge 128 ]; then echo crash
    elif printf '%s\n' "$first" | grep -q -E -- '^kerndiff: .*(--[a-z]|-I [^ ]|install )' &&
        { [ "$rc" != 4 ] || [ "$(grep -c -v '^[[:space:]]*$' "$2")" = 1 ]; }; then echo stop-named
    elif [ "$rc" = 4 ]; then echo build-failed
    else echo other
    fi
}
# paths of this machine out of what is recorded: the corpus folder, the Python kerndiff runs
norm() { sed -e "s|$corpus/|CORPUS/|g" -e "s|$py_exe|PYTHON3|g" -e "s|$py_real|PYTHON3|g" -e "s|$build/|BUILD/|g"; }
py_exe=$(python3 -c 'import sys; print(sys.executable)' 2>/dev/null || echo python3)
py_real=$(python3 -c 'import os, sys; print(os.path.realpath(sys.executable))' 2>/dev/null || echo python3)

classes=$work/classes.tsv
: >"$classes"
while IFS=$'\t' read -r id proj commit path licence kernels caller kind; do
    case $id in ''|'#'*) continue ;; esac
    wanted "$id" || continue
    dir=$corpus/$id
    if [ ! -f "$dir/$path" ]; then
        echo "record.sh: $id: $dir/$path is missing (tests/corpus/fetch.sh)" >&2
        printf '%s\tnot-laid-out\t-\n' "$id" >>"$classes"
        continue
    fi
    # list
    (cd "$dir" && timeout -k 10 "$tmo" "$kd" list "$path" >"$work/l.out" 2>"$work/l.err" </dev/null)
    rc=$?
    # stderr: kerndiff's own lines; the compiler's diagnostics (which quote the project's
    # source) only counted, so that no third-party code lands in expected/
    others=$(grep -v '^[[:space:]]*$' "$work/l.err" | grep -c -v '^kerndiff' || true)
    { cat "$work/l.out"; echo "exit: $rc"; grep '^kerndiff' "$work/l.err" | sed 's/^/stderr: /'
      [ "$others" -gt 0 ] && echo "stderr: ($others more lines: the compiler's diagnostics, not recorded)"
    } | norm >"$expected/$id.list"
    # zero-flag diff A/A
    (cd "$dir" && timeout -k 10 "$tmo" "$kd" "$path" "$path" >"$work/d.out" 2>"$work/d.err" </dev/null)
    rc=$?
    cls=$(classify "$rc" "$work/d.err")
    {
        echo "command: kerndiff $path $path"
        echo "exit: $rc"
        echo "class: $cls"
        echo "stdout: $(first_line "$work/d.out")"
        echo "stderr: $(first_line "$work/d.err")"
        echo "stderr lines: $(grep -c -v '^[[:space:]]*$' "$work/d.err")"
        # what kerndiff said of the kernel's callers (issue 45 item 1), when it said anything
        echo "callers: $(grep -m1 -E 'does not launch|launches? .* itself|callers|jax_triton' "$work/d.err" || true)"
        echo "first caller: $(grep -m1 -E '^kerndiff:   1\. ' "$work/d.err" || true)"
    } | norm >"$expected/$id.diff"
    printf '%s\t%s\t%s\n' "$id" "$cls" "$rc" >>"$classes"
    echo "$id: $cls (exit $rc)"
done <"$here/corpus.tsv"
# classes.tsv: all rows; a run of some rows replaces theirs in it
if [ ${#ids[@]} = 0 ] || [ ! -f "$expected/classes.tsv" ]; then cp "$classes" "$expected/classes.tsv"
else
    awk -F'\t' 'NR == FNR { new[$1] = $0; next } ($1 in new) { print new[$1]; next } { print }' \
        "$classes" "$expected/classes.tsv" >"$work/merged" && cp "$work/merged" "$expected/classes.tsv"
fi
echo "record.sh: $(cut -f2 "$classes" | sort | uniq -c | awk '{printf "%s %s, ", $1, $2}' | sed 's/, $//')"
