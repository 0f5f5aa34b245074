#!/usr/bin/env bash
# A newcomer's first commands, from a fresh clone of the committed tree: `make demo` must
# build everything it needs and print a diff, and `make install` must install the tool,
# both harness programs, the launcher header and the man page.
# usage: tests/e2e/clean_clone.sh   (from anywhere inside the repository)
set -u
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
WORK=$(mktemp -d "${TMPDIR:-/tmp}/kerndiff-clone.XXXXXX")
trap 'rm -rf "$WORK"' EXIT
# A clean clone builds as a user would: no settings of an enclosing make (sanitizer flags,
# BUILD=...) leak in.
unset MAKEFLAGS MFLAGS MAKELEVEL BUILD CFLAGS LDFLAGS CC
export XDG_CACHE_HOME="$WORK/cache" KERNDIFF_NO_GPU="${KERNDIFF_NO_GPU-1}" NO_COLOR=1

passed=0 failed=0
ok()   { passed=$((passed + 1)); echo "ok   $1"; }
fail() { failed=$((failed + 1)); echo "FAIL $1"; [ -n "${2:-}" ] && tail -20 "$2" | sed 's/^/     | /'; }

if git clone -q "$ROOT" "$WORK/clone" >"$WORK/clone.log" 2>&1; then ok "clone"; else fail "clone" "$WORK/clone.log"; fi
cd "$WORK/clone" || exit 1

# With the simulated harness the demo times both sides, as it does on a GPU machine: it
# must find the harness programs that `make demo` built.
if KERNDIFF_SIMULATE="median=100us,cv=1%;median=90us,cv=1%" make -j2 demo >"$WORK/demo.log" 2>&1; then
    ok "make demo: exit 0"; else fail "make demo: failed" "$WORK/demo.log"; fi
for want in '^kerndiff saxpy' '^PTX instructions' '^launch$' '^v2 is 1\.[0-9]+x faster' '^  simulated harness'; do
    if grep -Eq -- "$want" "$WORK/demo.log"; then ok "make demo printed /$want/"; else
        fail "make demo did not print /$want/" "$WORK/demo.log"; fi
done
if grep -q 'cannot find the kerndiff' "$WORK/demo.log"; then fail "make demo: a harness program is missing" "$WORK/demo.log"; else
    ok "make demo: the harness programs were found"; fi

DEST="$WORK/dest"
if make -j2 install DESTDIR="$DEST" PREFIX=/usr/local >"$WORK/install.log" 2>&1; then ok "make install: exit 0"; else
    fail "make install: failed" "$WORK/install.log"; fi
for f in bin/kerndiff libexec/kerndiff/kerndiff-harness libexec/kerndiff/kerndiff-sim-harness \
         include/kerndiff/launcher.h include/kerndiff/regions.h share/man/man1/kerndiff.1 \
         share/bash-completion/completions/kerndiff share/zsh/site-functions/_kerndiff \
         share/fish/vendor_completions.d/kerndiff.fish; do
    if [ -s "$DEST/usr/local/$f" ]; then ok "installed $f"; else fail "not installed: $f"; fi
done
for f in bin/kerndiff libexec/kerndiff/kerndiff-harness libexec/kerndiff/kerndiff-sim-harness; do
    if [ -x "$DEST/usr/local/$f" ]; then ok "$f is executable"; else fail "$f is not executable"; fi
done
# The installed tool finds its harness under ../libexec/kerndiff: a simulated run proves it.
if KERNDIFF_SIMULATE="median=100us,cv=1%;median=90us,cv=1%" "$DEST/usr/local/bin/kerndiff" --max-time 1 \
       examples/vector_loads/v1.cu examples/vector_loads/v2.cu >"$WORK/installed.log" 2>&1 &&
   grep -q 'simulated harness' "$WORK/installed.log"; then ok "installed kerndiff runs its harness"; else
    fail "installed kerndiff cannot run its harness" "$WORK/installed.log"; fi

echo "clean clone: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
