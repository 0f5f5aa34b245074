# Messages on stderr that quote a file name, a --fn value or a tool's output carry no raw
# control byte (issue 28 item 2, the CLI's and backends' side: kd_text_fprintf), and an
# input that cannot be read is refused with the real reason, never waited on (item 3).
ESC=$'\033'
r1_dir="$WORK/r1_stderr"
mkdir -p "$r1_dir"
# r1_no_esc NAME: stderr of run NAME holds no ESC byte
r1_no_esc() {
    local n
    n=$(grep -c "$ESC" "$WORK/$1.err")
    if [ "$n" -eq 0 ]; then ok "$1: no ESC byte in err"; else fail "$1: $n lines with an ESC byte in err" "$WORK/$1.err"; fi
}
# r1_quick NAME WANT ARGS...: like run, under a 30 s limit (exit 124 = it blocked)
r1_quick() {
    local name=$1 want=$2; shift 2
    timeout 30 "$KD" "$@" >"$WORK/$name.out" 2>"$WORK/$name.err" </dev/null
    local got=$?
    if [ "$got" -eq "$want" ]; then ok "$name: exit $want"; else fail "$name: exit $got, wanted $want" "$WORK/$name.err"; fi
}

# --fn with a colour sequence: the "no kernel named" message shows it escaped
run r1_esc_fn 3 -- --fn "x${ESC}[31m" "$A" "$B"
r1_no_esc r1_esc_fn
has r1_esc_fn err "^kerndiff: v1: no kernel named 'x\\\\x1b\[31m'"
# a missing file whose name clears the screen
run r1_esc_missing 3 -- "$r1_dir/no${ESC}[2J.cu" "$B"
r1_no_esc r1_esc_missing
has r1_esc_missing err "^kerndiff: v1: cannot read '.*no\\\\x1b\[2J\.cu'"
# a file that does not build: the build message and nvcc's own lines quote the name
printf '__global__ void k(float *x) { x[0] = ; }\n' >"$r1_dir/bad${ESC}]0;pwned"$'\a'".cu"
run r1_esc_build 4 -- "$r1_dir/bad${ESC}]0;pwned"$'\a'".cu" "$B"
r1_no_esc r1_esc_build
has r1_esc_build err 'build of .*bad\\x1b\]0;pwned\\x07\.cu failed'
lacks r1_esc_build err $'\a'
# a saved run that is not there
run r1_esc_saved 3 -- compare "$r1_dir/old${ESC}[5m.json" "$r1_dir/new.json"
r1_no_esc r1_esc_saved
has r1_esc_saved err 'old\\x1b\[5m\.json'

# A saved run that is a FIFO, a device or a folder: refused at once with the reason
# (jansson's reader waited on the FIFO for ever).
run r1_save 0 -- --save "$r1_dir/saved.json" "$A" "$B"
mkfifo "$r1_dir/fifo.json"
r1_quick r1_saved_fifo 3 compare "$r1_dir/fifo.json" "$r1_dir/saved.json"
has r1_saved_fifo err "^kerndiff: OLD: cannot read '.*fifo\.json': not a regular file"
r1_quick r1_saved_dev 3 compare "$r1_dir/saved.json" /dev/zero
has r1_saved_dev err "^kerndiff: NEW: cannot read '/dev/zero': not a regular file"
r1_quick r1_saved_dir 3 compare "$r1_dir" "$r1_dir/saved.json"
has r1_saved_dir err "^kerndiff: OLD: cannot read '.*r1_stderr': a folder"
# a real saved run still compares (the new reader reads it whole)
run r1_saved_ok 0 -- compare "$r1_dir/saved.json" "$r1_dir/saved.json"
has r1_saved_ok out '^  v1: '

# A PTX file's sidecar (FILE.kerndiff) that is a FIFO or a folder is refused with the reason,
# not skipped (its annotations would be missing) nor waited on.
cp tests/fixtures/ptx/vec.sm_90.ptx "$r1_dir/a.ptx"
mkfifo "$r1_dir/a.ptx.kerndiff"
r1_quick r1_sidecar_fifo 3 "$r1_dir/a.ptx" tests/fixtures/ptx/vec.sm_90.ptx
has r1_sidecar_fifo err "^kerndiff: v1: cannot read '.*a\.ptx\.kerndiff': not a regular file"
cp tests/fixtures/ptx/vec.sm_90.ptx "$r1_dir/b.ptx"
mkdir "$r1_dir/b.ptx.kerndiff"
r1_quick r1_sidecar_dir 3 tests/fixtures/ptx/vec.sm_90.ptx "$r1_dir/b.ptx"
has r1_sidecar_dir err "^kerndiff: v2: cannot read '.*b\.ptx\.kerndiff': a folder"
