# Inputs are regular files under a size cap (issue 28 item 3): a FIFO is refused at once
# (never waited on), a device is refused (never read without end), a file over 64 MiB is
# refused with its path and side. A header that is a FIFO does not hang the build either.
h2_in="$WORK/h2_inputs"
mkdir -p "$h2_in"
# h2_quick NAME WANT ARGS...: like run, under a 30 s limit (exit 124 = it blocked)
h2_quick() {
    local name=$1 want=$2; shift 2
    timeout 30 "$KD" "$@" >"$WORK/$name.out" 2>"$WORK/$name.err" </dev/null
    local got=$?
    if [ "$got" -eq "$want" ]; then ok "$name: exit $want"; else fail "$name: exit $got, wanted $want" "$WORK/$name.err"; fi
}
mkfifo "$h2_in/fifo.cu"
h2_quick h2_fifo 3 "$h2_in/fifo.cu" "$B"
has h2_fifo err "^kerndiff: v1: cannot read '.*fifo\.cu'"
h2_quick h2_fifo_v2 3 "$A" "$h2_in/fifo.cu"
has h2_fifo_v2 err "^kerndiff: v2: cannot read '.*fifo\.cu'"
h2_quick h2_devzero 3 /dev/zero "$B"
has h2_devzero err "^kerndiff: v1: cannot read '/dev/zero'"
truncate -s 65M "$h2_in/big.cu"
h2_quick h2_big 3 "$A" "$h2_in/big.cu"
has h2_big err "^kerndiff: v2: cannot read '.*big\.cu': .*too large"
# (The cap's exact boundary is tests/unit/test_fs.c's.)
# A quoted include that is a FIFO: the build says which file and why, and does not wait.
mkfifo "$h2_in/pipe.h"
{ echo '#include "pipe.h"'; cat "$A"; } >"$h2_in/with_pipe.cu"
h2_quick h2_fifo_header 3 --no-cache "$h2_in/with_pipe.cu" "$B"
has h2_fifo_header err "^kerndiff: v1: cannot read '.*with_pipe\.cu': .*pipe\.h: not a regular file"
