# The output fits the terminal (issue 41, item 5): every bundled example pair, static and
# timed (simulated, small --n), each example file's `list`, `--help` and every command's
# help: no line wider than 80 columns when stdout is not a terminal (columns are characters);
# under a pseudo-terminal with COLUMNS=120, no line wider than 120 and the lines that fit 120
# are not wrapped at 80; --verbose prints the lines whole (the full signature the default
# elides). docs/OPTIONS.md, "The report's width".

# run.sh sets KERNDIFF_WIDTH=0 (every line whole, for the suites' line checks); here the
# report is fitted as a user's is. Restored at the end.
f2_width_saved=${KERNDIFF_WIDTH-unset}
unset KERNDIFF_WIDTH

# f2_widest FILE WIDTH: prints each line wider than WIDTH characters (UTF-8), nothing if none
f2_widest() {
    python3 - "$1" "$2" <<'EOF'
import sys
width = int(sys.argv[2])
for n, line in enumerate(open(sys.argv[1], encoding="utf-8", errors="replace").read().split("\n"), 1):
    line = line.rstrip("\r")
    if len(line) > width:
        print(f"line {n}: {len(line)} columns: {line}")
EOF
}
# f2_fits NAME WIDTH: NAME's stdout has no line wider than WIDTH
f2_fits() {
    f2_widest "$WORK/$1.out" "$2" >"$WORK/$1.wide"
    if [ -s "$WORK/$1.wide" ]; then fail "$1: lines wider than $2 columns" "$WORK/$1.wide"; else
        ok "$1: every line within $2 columns"; fi
}

# --- every example pair, static and timed; every example file's list --------------------------
f2_pairs=()
for f2_dir in examples/*/; do
    [ -f "$f2_dir/v1.cu" ] && [ -f "$f2_dir/v2.cu" ] && f2_pairs+=("$f2_dir/v1.cu $f2_dir/v2.cu")
done
if python3 -c 'import triton' 2>/dev/null; then
    for f2_dir in examples/triton/*/; do
        [ -f "$f2_dir/v1.py" ] && [ -f "$f2_dir/v2.py" ] && f2_pairs+=("$f2_dir/v1.py $f2_dir/v2.py")
    done
    f2_pairs+=("examples/triton/scan/blelloch.cu examples/triton/scan/scan.py")
fi
[ "${#f2_pairs[@]}" -ge 10 ] && ok "f2: ${#f2_pairs[@]} example pairs" || fail "f2: only ${#f2_pairs[@]} example pairs"
for f2_pair in "${f2_pairs[@]}"; do
    read -r f2_v1 f2_v2 <<<"$f2_pair"
    f2_name=$(basename "$(dirname "$f2_v1")")
    run "f2_static_$f2_name" 0 -- "$f2_v1" "$f2_v2"
    f2_fits "f2_static_$f2_name" 80
    # a small n (the side of a matrix where the example's n is one) keeps the simulated run quick
    case $f2_name in bank_conflicts | cublas | matmul | regions) f2_n=256 ;; *) f2_n=64K ;; esac
    KERNDIFF_NO_GPU= KERNDIFF_SIMULATE="median=100us;median=80us" run "f2_timed_$f2_name" 0 -- --n "$f2_n" "$f2_v1" "$f2_v2"
    has "f2_timed_$f2_name" out '^v2 is 1\.[0-9]+x faster'
    f2_fits "f2_timed_$f2_name" 80
    for f2_file in "$f2_v1" "$f2_v2"; do
        run "f2_list_${f2_name}_$(basename "$f2_file")" 0 -- list "$f2_file"
        f2_fits "f2_list_${f2_name}_$(basename "$f2_file")" 80
    done
done
# --brief too
KERNDIFF_NO_GPU= KERNDIFF_SIMULATE="median=100us;median=80us" run f2_brief 0 -- --brief --n 64K \
    examples/crossover/v1.cu examples/crossover/v2.cu
f2_fits f2_brief 80

# --- help: the global text, help CMD and CMD --help for every command ---------------------------
run f2_help 0 -- --help
f2_fits f2_help 80
f2_commands=$(sed -n '/^Commands/,/^$/p' "$WORK/f2_help.out" | awk 'NR > 1 && $1 ~ /^[a-z]+$/ {print $1}')
[ "$(echo "$f2_commands" | wc -w)" -ge 6 ] && ok "f2: help lists $(echo $f2_commands)" ||
    fail "f2: help lists too few commands: $f2_commands" "$WORK/f2_help.out"
for f2_cmd in $f2_commands; do
    run "f2_help_$f2_cmd" 0 -- help "$f2_cmd"
    f2_fits "f2_help_$f2_cmd" 80
    [ "$f2_cmd" = help ] && continue
    run "f2_dashhelp_$f2_cmd" 0 -- "$f2_cmd" --help
    f2_fits "f2_dashhelp_$f2_cmd" 80
done

# --- what fitting keeps: the lines whole with --verbose, nothing of a signature lost ------------
# crossover's launcher names both kernels it launches (140 columns): elided in the middle by
# default, whole with --verbose
run f2_elided 0 -- examples/crossover/v1.cu examples/crossover/v2.cu
has f2_elided out '^      \[launcher sum: block_sums\(in.*\.\.\..*unsigned long long\*, int\)\]'
lacks f2_elided out 'finish\(unsigned long long const\*'
run f2_verbose 0 -- --verbose examples/crossover/v1.cu examples/crossover/v2.cu
has f2_verbose out '^  v2: examples/crossover/v2\.cu  \[launcher sum: block_sums\(int const\*, unsigned long long\*, int\), finish\(unsigned long long const\*, unsigned long long\*, int\)\]'
has f2_verbose out '^          x: 1048576 i32 in \(n\)  partial: 4096 u64 out \(annotation\)  out: 1 u64 out \(annotation\)  n = 1048576 \(n\)  stream: the harness.s stream$'
# the fitted launch says the same fields, wrapped at their boundaries (none cut)
tr -s ' \n' ' ' <"$WORK/f2_elided.out" | grep -q 'x: 1048576 i32 in (n) partial: 4096 u64 out (annotation) out: 1 u64 out (annotation) n = 1048576 (n) stream: the harness.s stream' &&
    ok "f2_elided: the launch's fields all there, in order" || fail "f2_elided: a launch field lost" "$WORK/f2_elided.out"
run f2_list_verbose 0 -- list --verbose examples/crossover/v1.cu
has f2_list_verbose out 'in-out buffer of unsigned long long \(read and written in the compiled code\)$'

# a kernel whose name is wider than a line, with a control character in it: elided in the middle,
# its escape (\x1b) never cut, the line within 80 columns
f2_long="k_$(printf 'a%.0s' $(seq 1 120))_end"
mkdir -p "$WORK/f2_long"
printf '__global__ void %s(float *out, int n) { int i = threadIdx.x; if (i < n) out[i] = 1.0f; }\n' "$f2_long" >"$WORK/f2_long/v1.cu"
printf '__global__ void %s(float *out, int n) { int i = threadIdx.x; if (i < n) out[i] = 2.0f; }\n' "$f2_long" >"$WORK/f2_long/v2.cu"
f2_odd="$WORK/f2_long/$(printf 'odd_%s\033[31mend' "$(printf 'b%.0s' $(seq 1 100))")"
mkdir -p "$f2_odd"
cp "$WORK/f2_long/v1.cu" "$WORK/f2_long/v2.cu" "$f2_odd/"
run f2_long 0 -- "$f2_odd/v1.cu" "$f2_odd/v2.cu"
f2_fits f2_long 80
has f2_long out '^ +k_a+\.\.\.a+_end$'
lacks f2_long out $'\033'
has f2_long out '^  v1: /.*\.\.\.b+\\x1b\[31mend/v1\.cu$'
lacks f2_long out '\\x?\.\.\.|\\x[0-9a-f]?\.\.\.'
run f2_long_verbose 0 -- --verbose "$f2_odd/v1.cu" "$f2_odd/v2.cu"
has f2_long_verbose out "^kerndiff $f2_long "
has f2_long_verbose out "odd_b{100}\\\\x1b\\[31mend/v1\\.cu"

# --- under a terminal: $COLUMNS ------------------------------------------------------------------
# f2_pty NAME COLUMNS ARGS...: kerndiff with stdout on a pseudo-terminal, COLUMNS set
f2_pty() {
    local name=$1 columns=$2; shift 2
    COLUMNS=$columns python3 - "$KD" "$@" >"$WORK/$name.out" 2>"$WORK/$name.err" <<'EOF'
import os, pty, sys
pid, fd = pty.fork()
if pid == 0:  # stdout on the terminal; stderr (the status line) not
    null = os.open(os.devnull, os.O_WRONLY)
    os.dup2(null, 2)
    os.execv(sys.argv[1], sys.argv[1:])
chunks = []
while True:
    try:
        data = os.read(fd, 65536)
    except OSError:
        break
    if not data:
        break
    chunks.append(data)
os.waitpid(pid, 0)
sys.stdout.write(b"".join(chunks).decode("utf-8", "replace").replace("\r\n", "\n"))
EOF
}
if python3 -c 'import pty' 2>/dev/null; then
    f2_pty f2_pty120 120 examples/vector_loads/v1.cu examples/vector_loads/v2.cu
    has f2_pty120 out '^kerndiff saxpy'
    f2_fits f2_pty120 120
    # the lines of 81 to 120 columns stay whole at 120
    has f2_pty120 out '^  v1: examples/vector_loads/v1\.cu  \[saxpy\(float const\*, float const\*, float\*, int\)\]  \(cached build\)$'
    f2_pty f2_pty120_triton 120 examples/triton/matmul/v1.py examples/triton/matmul/v2.py
    f2_fits f2_pty120_triton 120
    f2_pty f2_pty120_help 120 --help
    f2_fits f2_pty120_help 80
fi

# --- KERNDIFF_WIDTH: that width wherever stdout goes ---------------------------------------------
KERNDIFF_WIDTH=100 run f2_width100 0 -- examples/vector_loads/v1.cu examples/vector_loads/v2.cu
f2_fits f2_width100 100
has f2_width100 out '^  v1: examples/vector_loads/v1\.cu  \[saxpy\(float const\*, float const\*, float\*, int\)\]  \(cached build\)$'
KERNDIFF_WIDTH=0 run f2_width0 0 -- examples/crossover/v1.cu examples/crossover/v2.cu
cmp -s "$WORK/f2_width0.out" "$WORK/f2_verbose.out" && ok "f2_width0: the same lines as --verbose" ||
    fail "f2_width0: not the lines --verbose prints" "$WORK/f2_width0.out"

[ "$f2_width_saved" = unset ] || export KERNDIFF_WIDTH="$f2_width_saved"
