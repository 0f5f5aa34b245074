# Sourced by run.sh: bad input, write failures and hostile text (issue 10's probe).
A=examples/vector_loads/v1.cu B=examples/vector_loads/v2.cu

# Write failures: exit 7 and a message naming the file; a full stdout too.
run json_full 7 -- --json=/dev/full "$A" "$B"
has json_full err "cannot write the JSON to '/dev/full': No space left on device"
run save_full 7 -- --save /dev/full "$A" "$B"
has save_full err "cannot write the JSON to '/dev/full'"
run save_no_dir 7 -- --save "$WORK/no/such/dir/run.json" "$A" "$B"
has save_no_dir err "cannot write the JSON to '.*/no/such/dir/run.json': No such file or directory"
run markdown_full 7 -- --markdown=/dev/full "$A" "$B"
has markdown_full err "cannot write the Markdown to '/dev/full'"
"$KD" "$A" "$B" >/dev/full 2>"$WORK/stdout_full.err"
if [ $? -eq 7 ]; then ok "stdout_full: exit 7"; else fail "stdout_full: exit not 7" "$WORK/stdout_full.err"; fi
has stdout_full err 'cannot write the report to standard output: No space left on device'
# A sweep whose JSON cannot be written (this freed its document twice); both --json and
# --save get the sweep.
run sweep_json_full 7 -- --n 1K,2K --json=/dev/full "$A" "$B"
has sweep_json_full err "cannot write the sweep JSON to '/dev/full'"
run sweep_both 0 -- --n 1K,2K --json="$WORK/sweep.json" --save "$WORK/sweep_saved.json" "$A" "$B"
if python3 -c 'import json,sys; [json.load(open(f))["sweep"]["points"][1] for f in sys.argv[1:]]' \
     "$WORK/sweep.json" "$WORK/sweep_saved.json" 2>"$WORK/sweep_both.py.err"; then
    ok "sweep_both: --json and --save both hold the sweep"; else fail "sweep_both: a file is missing" "$WORK/sweep_both.py.err"; fi
# --save over an existing file: a write that fails part-way (the file-size limit stands in
# for a full disk) leaves the old file as it was.
echo '{"old": true}' >"$WORK/kept.json"
(trap '' XFSZ; ulimit -f 2; "$KD" --save "$WORK/kept.json" "$A" "$B" >/dev/null 2>"$WORK/save_kept.err")
if [ $? -eq 7 ]; then ok "save_kept: exit 7"; else fail "save_kept: exit not 7" "$WORK/save_kept.err"; fi
has save_kept err "cannot write the JSON to '.*kept.json': File too large"
if [ "$(cat "$WORK/kept.json")" = '{"old": true}' ]; then ok "save_kept: the old file is intact"; else
    fail "save_kept: the old file was destroyed" "$WORK/kept.json"; fi
if ls "$WORK"/kept.json.tmp* >/dev/null 2>&1; then fail "save_kept: a temporary file was left"; else
    ok "save_kept: no temporary file left"; fi

# --timeout is bounded (715827 s overflowed the watchdog's milliseconds: a false hang).
run timeout_huge 2 -- --timeout 715827 "$A" "$B"
has timeout_huge err 'timeout wants seconds from 0\.1 to 3600'

# Control sequences in a source file are shown escaped, never replayed (even --no-color).
printf '// kerndiff: block=\033]0;owned\007\033[31m\n__global__ void k(float *y, int n) { y[0] = 1; }\n' >"$WORK/esc.cu"
run escapes 0 -- list "$WORK/esc.cu"
if grep -q "$(printf '\033')" "$WORK/escapes.out" "$WORK/escapes.err"; then fail "escapes: a raw ESC reached the output" "$WORK/escapes.out"; else
    ok "escapes: no raw ESC in the output"; fi
has escapes out 'block=\\x1b\]0;owned\\x07\\x1b\[31m'
KERNDIFF_SIMULATE="median=100us;median=90us" run escapes_report 3 -- --no-color "$WORK/esc.cu" "$WORK/esc.cu"
if grep -q "$(printf '\033')" "$WORK/escapes_report.out" "$WORK/escapes_report.err"; then
    fail "escapes_report: a raw ESC reached the report" "$WORK/escapes_report.out"; else ok "escapes_report: no raw ESC"; fi

# Text that nvcc would hand to its shell never runs: -D values go into a generated header,
# --nvcc-flag and -I are checked first, --sweep values are -D values.
run define_shell 0 -- -D "X=\$(touch $WORK/PWNED_D)" -D 'Y=`touch PWNED_Y`' "$A" "$B"
run flag_shell 2 -- --nvcc-flag "-Xcompiler=\$(touch $WORK/PWNED_F)" "$A" "$B"
has flag_shell err "'\\$' is not allowed, since nvcc passes arguments through a shell"
run sweep_shell 0 -- --sweep "Z=\$(touch $WORK/PWNED_S),2" "$A" "$B"
if ls "$WORK"/PWNED_* "$ROOT"/PWNED_* >/dev/null 2>&1; then fail "shell values: a command ran"; else
    ok "shell values: no command ran"; fi
printf '#ifndef SHIFT\n#error SHIFT not defined\n#endif\n__global__ void k(float *y, int n) { y[0] = SHIFT; }\n' >"$WORK/needs_define.cu"
run define_reaches_source 0 -- -D 'SHIFT=(1+2)' "$WORK/needs_define.cu" "$WORK/needs_define.cu"

# Smaller ones.
printf '// kerndiff: n=4K\r__global__ void cr_only(float *y, int n) { y[0] = 1; }\r' >"$WORK/cr.cu"
run cr_only 0 -- list "$WORK/cr.cu"
has cr_only out '^cr_only  \(line 2\)'
has cr_only out 'n 4096 \(annotation\)'
run dash_file 2 -- -dash.cu "$B"
has dash_file err "unknown option '-d' in '-dash.cu' \(a file whose name starts with '-' goes after '--'"
run dir_input 3 -- examples "$B"
has dir_input err "v1: 'examples' is a folder, not a kernel file"
PATH=/nonexistent run no_git 7 -- "$A"
has no_git err 'git not found: install git'
Z=$(printf '0%.0s' $(seq 1 70))
run long_range 0 -- --n "${Z}1K..${Z}4K:x2" "$A" "$B"
has long_range out '^  4096 '
