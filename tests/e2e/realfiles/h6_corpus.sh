# The corpus of kernel files written the ways real projects write them (tests/realfiles/,
# see its README): with zero flags, each one's static diff against itself succeeds and its
# `kerndiff list` is exactly the FILE.list recorded beside it (names, types, roles, the
# launch kerndiff would make and what it assumed). Sourced by tests/e2e/realfiles.sh.
h6_corpus_files=0
for h6_file in tests/realfiles/*.cu tests/realfiles/*.ptx tests/realfiles/*.py; do
    [ -e "$h6_file" ] || continue
    case $(basename "$h6_file") in h5_*) continue ;; esac # checked by tests/e2e/realfiles/h5_*.sh
    h6_corpus_files=$((h6_corpus_files + 1))
    h6_name=corpus_$(basename "$h6_file" | tr '.' '_')
    # Files that do not yet pass with zero flags, each with the reason it gives today (issue 27,
    # not done): asserted as such, so the day one passes this check fails and moves it up.
    case $(basename "$h6_file") in
    *) h6_known="" ;;
    esac
    # Several kernels and no --fn: timing asks for one with or without a GPU (exit 3, checked
    # below by h6_several); the static diff alone (--no-run) succeeds with no other flag.
    case $(basename "$h6_file") in
    axpy_templates.cu | reduction.cu | transpose.cu) h6_static="--no-run" ;;
    *) h6_static="" ;;
    esac
    if [ -n "$h6_known" ]; then
        run "${h6_name}_diff_known_gap" 3 -- "$h6_file" "$h6_file"
        has "${h6_name}_diff_known_gap" err "$h6_known"
    else
        run "${h6_name}_diff" 0 -- $h6_static "$h6_file" "$h6_file"
    fi
    if [ ! -f "$h6_file.list" ]; then
        fail "$h6_name: $h6_file.list is missing (record it with: kerndiff list $h6_file > $h6_file.list)"
        continue
    fi
    run "${h6_name}_list" 0 -- list "$h6_file"
    if diff -u "$h6_file.list" "$WORK/${h6_name}_list.out" >"$WORK/${h6_name}_list.diff"; then
        ok "$h6_name: list matches $h6_file.list"
    else
        fail "$h6_name: list differs from $h6_file.list" "$WORK/${h6_name}_list.diff"
    fi
done
# Files with several kernels or a template's several instances: every one the two sides
# share has its static section, under its name; timing, which needs one, is named once, on
# one line, with the names --fn takes; with no GPU too it is the exit status's reason (exit 3,
# as where a GPU could time one: CPU-only CI catches the missing --fn; --no-run asks for none).
h6_several() { # NAME FILE EXPECTED_SECTIONS...
    local name=$1 file=$2
    shift 2
    run "$name" 3 -- "tests/realfiles/$file" "tests/realfiles/$file"
    local want
    for want in "$@"; do has "$name" out "^== $want ==  \\["; done
    local sections
    sections=$(grep -c '^== .* ==  \[' "$WORK/$name.out")
    if [ "$sections" -eq $# ]; then ok "$name: $# static sections"; else
        fail "$name: $sections static sections, wanted $#" "$WORK/$name.out"; fi
    local untimed
    untimed=$(grep -c '^timing needs one kernel: --fn NAME (' "$WORK/$name.out")
    if [ "$untimed" -eq 1 ]; then ok "$name: timing named once"; else
        fail "$name: 'timing needs one kernel' said $untimed times" "$WORK/$name.out"; fi
    has "$name" err '^kerndiff: timing needs one kernel: --fn NAME \('
}
h6_several corpus_several_transpose transpose.cu copy transposeNaive transposeCoalesced
has corpus_several_transpose out '^timing needs one kernel: --fn NAME \(copy, transposeNaive, transposeCoalesced\)$'
h6_several corpus_several_axpy axpy_templates.cu 'axpy<float>' 'axpy<double>'
has corpus_several_axpy out '^== axpy<double> ==  \[void axpy<double>\(double, double const\*, double\*, int\)\]$'
h6_several corpus_several_reduction reduction.cu 'reduce0<float>' 'reduce0<int>' 'reduce2<float>' 'reduce2<int>' \
    'reduce4<float, 256u>' 'reduce4<int, 256u>'
has corpus_several_reduction out '^kerndiff 6 kernels compared: reduce0<float>, '
has corpus_several_reduction out '^resources \(ptxas\) '
# Where timing could run (the simulated harness stands in for a GPU) it was asked and not
# done: exit 3, as for a launch that cannot be described: the report has the line, and
# stderr says it as the exit status's reason (as it says every other one).
KERNDIFF_SIMULATE="median=50us;median=50us" run corpus_several_timed 3 -- tests/realfiles/transpose.cu tests/realfiles/transpose.cu
has corpus_several_timed out '^timing needs one kernel: --fn NAME \(copy, transposeNaive, transposeCoalesced\)$'
has corpus_several_timed out '^== transposeCoalesced ==  \['
has corpus_several_timed err '^kerndiff: timing needs one kernel: --fn NAME \(copy, transposeNaive, transposeCoalesced\)$'
# --no-run asked for no timing: nothing to say about it.
run corpus_several_no_run 0 -- --no-run tests/realfiles/transpose.cu tests/realfiles/transpose.cu
lacks corpus_several_no_run out 'timing needs one kernel'
# --fn still chooses one kernel (as before: the timed request's way).
run corpus_several_fn 0 -- --fn 'axpy<double>' tests/realfiles/axpy_templates.cu tests/realfiles/axpy_templates.cu
lacks corpus_several_fn out '^== '
has corpus_several_fn out '^kerndiff axpy<double> '
# Kernels only one side has are listed, not compared.
mkdir -p "$WORK/h6"
sed 's/transposeCoalesced/transposeTiled/g' tests/realfiles/transpose.cu >"$WORK/h6/transpose_renamed.cu"
run corpus_several_only 3 -- tests/realfiles/transpose.cu "$WORK/h6/transpose_renamed.cu"
has corpus_several_only out '^  note: only in v1 \(not compared\): transposeCoalesced$'
has corpus_several_only out '^  note: only in v2 \(not compared\): transposeTiled$'
has corpus_several_only out '^kerndiff 2 kernels compared: copy, transposeNaive '
# The same in JSON (a `kernels` array) and Markdown.
run corpus_several_json 3 -- --json "$WORK/h6/several.json" --markdown "$WORK/h6/several.md" \
    tests/realfiles/transpose.cu "$WORK/h6/transpose_renamed.cu"
if python3 - "$WORK/h6/several.json" <<'PY'; then ok "several kernels: JSON kernels array"; else fail "several kernels: JSON kernels array" "$WORK/h6/several.json"; fi
import json, sys
d = json.load(open(sys.argv[1]))
assert [k["name"] for k in d["kernels"]] == ["copy", "transposeNaive"], d["kernels"]
assert all(k["sides"][0]["kernel"] == k["name"] for k in d["kernels"])
assert all(k["ptx"]["total"][0] > 0 for k in d["kernels"])
assert d["kernels_only"] == {"v1": ["transposeCoalesced"], "v2": ["transposeTiled"]}, d["kernels_only"]
assert d["kernels_untimed"] is True
assert d["kernels_text"] == "timing needs one kernel: --fn NAME (copy, transposeNaive)"
PY
if python3 -c "import jsonschema" 2>/dev/null; then
    if python3 tests/e2e/validate_json.py docs/json-schema.json "$WORK/h6/several.json" >"$WORK/h6/validate.out" 2>&1; then
        ok "several kernels: JSON valid against docs/json-schema.json"
    else fail "several kernels: JSON not valid against the schema" "$WORK/h6/validate.out"; fi
fi
if grep -q '^#### `transposeNaive` ' "$WORK/h6/several.md" && grep -c '^- timing needs one kernel' "$WORK/h6/several.md" | grep -qx 1; then
    ok "several kernels: Markdown sections"; else fail "several kernels: Markdown sections" "$WORK/h6/several.md"; fi
# A saved run of several kernels is read back by kerndiff compare.
run corpus_several_compare 0 -- compare "$WORK/h6/several.json" "$WORK/h6/several.json"
# A damaged kernels array or list is refused, naming the field (found clean under ASan+UBSan).
python3 - "$WORK/h6/several.json" "$WORK/h6" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
a = json.loads(json.dumps(d)); a["kernels"] = [{}]
json.dump(a, open(sys.argv[2] + "/bad_kernels.json", "w"))
b = json.loads(json.dumps(d)); b["kernels_only"] = {"v1": ["x"], "v2": "y"}
json.dump(b, open(sys.argv[2] + "/bad_only.json", "w"))
PY
run corpus_several_bad_kernels 3 -- compare "$WORK/h6/bad_kernels.json" "$WORK/h6/several.json"
has corpus_several_bad_kernels err 'kernels\[0\]\.sides: is missing'
run corpus_several_bad_only 3 -- compare "$WORK/h6/bad_only.json" "$WORK/h6/several.json"
has corpus_several_bad_only err 'kernels_only\.v2: must be an array of kernel names'

# The files whose timed diff fails with zero flags (bench/realfiles.txt) each say so in ONE
# line that names the one flag that fixes it (--arg, once per value), as `list` shows it with
# no GPU: the whole sentence, from "not launchable" to the annotation it offers, on one line.
for h6_file in adamw.cu bitonic_step.cu saxpy_bounds.cu sgemm_naive.cu scaled_add.ptx; do
    h6_name=corpus_one_flag_$(echo "$h6_file" | tr '.' '_')
    run "$h6_name" 0 -- list "tests/realfiles/$h6_file"
    has "$h6_name" out '^  launch: not launchable as described: scalar parameters? .* needs? a value: (--arg [A-Za-z_0-9]+=VALUE ?)+ or `// kerndiff: [^`]*=VALUE`$'
    h6_lines=$(grep -c 'not launchable' "$WORK/$h6_name.out")
    if [ "$h6_lines" -eq 1 ]; then ok "$h6_name: one line"; else fail "$h6_name: $h6_lines 'not launchable' lines" "$WORK/$h6_name.out"; fi
done

if [ "$h6_corpus_files" -ge 20 ]; then ok "corpus: $h6_corpus_files kernel files"; else
    fail "corpus: $h6_corpus_files kernel files under tests/realfiles, wanted at least 20"; fi

# What the corpus shows of geometry read from the code, checked in words so that a
# re-recorded .list cannot quietly lose it.
h6_list() { run "$1" 0 -- list "tests/realfiles/$2"; }
h6_list corpus_smem_assumed reduction.cu
has corpus_smem_assumed out 'block 256 \(template argument\)  smem 1024 B \(assumed\)'
h6_list corpus_macro_block scan_block.cu
has corpus_macro_block out 'grid 8192 \(default\)  block 128 \(shared array\)'
h6_list corpus_gemm_shape sgemm_naive.cu
has corpus_gemm_shape out 'sgemm_naive'
run corpus_gemm_launch 0 -- list --arg alpha=1 --arg beta=0 tests/realfiles/sgemm_naive.cu
has corpus_gemm_launch out 'grid 64x64 \(default\)  block 16x16 \(default 2-D\)'
has corpus_gemm_launch out 'A: 1048576 f32 in \(indexing\)'
has corpus_gemm_launch out 'M = 1024 \(assumed\)  N = 1024 \(assumed\)  K = 1024 \(assumed\)'
run corpus_gemm_given 0 -- list --arg alpha=1 --arg beta=0 --arg M=64 --arg N=32 --arg K=8 tests/realfiles/sgemm_naive.cu
has corpus_gemm_given out 'A: 512 f32 in \(indexing\)  B: 256 f32 in \(indexing\)'
h6_list corpus_rows layernorm.cu
has corpus_rows out 'inp: 1048576 f32 in \(indexing\)'
has corpus_rows out 'N = 1024 \(assumed\)  C = 1024 \(assumed\)'
# Unguarded 2-D kernels (issue 27 item 3): the shape from the row-major indexing (x + width * y:
# x < width; y < height, the name beside width; a lone Width: a square), said as assumed; the
# block from the samples' tile loop (TILE_DIM x BLOCK_ROWS), the grid from the tile.
h6_list corpus_tile transpose.cu
h6_n=$(grep -c 'launch: grid 32x32 (default)  block 32x8 (tile)  smem 0 B (default)  n 1048576 (default)$' "$WORK/corpus_tile.out")
if [ "$h6_n" -eq 3 ]; then ok "corpus_tile: three kernels launchable, 32x32 tiles of 32x8"; else
    fail "corpus_tile: $h6_n launch lines of grid 32x32 block 32x8" "$WORK/corpus_tile.out"; fi
has corpus_tile out 'width = 1024 \(assumed\)  height = 1024 \(assumed\)$'
has corpus_tile out 'assumed: width = 1024: sqrt\(n\), the row length in xIndex \+ width \* yIndex \(--arg width=VALUE\); height = 1024: sqrt\(n\), the rows of the y index in xIndex \+ width \* yIndex, named beside its row length'
has corpus_tile out 'height = 1024: sqrt\(n\), the rows of the y index in yIndex \+ height \* xIndex \(--arg height=VALUE\)'
has corpus_tile out 'block 32x8: a 32 x 32 tile a block \(blockIdx \* 32\), its rows walked by for \( int i = 0 ; i < TILE_DIM ; i \+= BLOCK_ROWS \); grid 32x32: covers the kernel.s x < width and y < height'
lacks corpus_tile out 'not launchable'
# given a non-square shape: every buffer the extent its index reaches (naive: idata (63+64*31)+31*64+1,
# odata (31+32*63)+31+1); the coalesced kernel reassigns its indices, so only a square is read
run corpus_tile_given 0 -- list --arg width=64 --arg height=32 tests/realfiles/transpose.cu
has corpus_tile_given out 'odata: 2079 f32 out \(indexing\)  idata: 4032 f32 in \(indexing\)  width = 64 \(--arg\)  height = 32 \(--arg\)$'
has corpus_tile_given out "launch: not launchable as described: the kernel gives its index 'xIndex' a second value, so kerndiff reads how far its buffers reach only for a square shape \(width = height\), not 64 x 32: give each buffer's element count with --buf NAME=COUNT$"
h6_list corpus_square sgemm_tiled.cu
has corpus_square out 'launch: grid 64x64 \(default\)  block 16x16 \(shared array\)  smem 0 B \(default\)  n 1048576 \(default\)$'
has corpus_square out 'Md: 1048576 f32 in \(n\)  Nd: 1048576 f32 in \(n\)  Pd: 1048576 f32 out \(n\)  Width = 1024 \(assumed\)$'
has corpus_square out 'Width = 1024: sqrt\(n\), the row length in Row \* Width \+ Col, and as many rows \(a square: nothing names them\)'
run corpus_square_given 0 -- list --arg Width=64 tests/realfiles/sgemm_tiled.cu
has corpus_square_given out 'launch: grid 4x4 \(default\)  block 16x16 \(shared array\)'
has corpus_square_given out 'Md: 1048576 f32 in \(n\)  Nd: 1048576 f32 in \(n\)  Pd: 1048576 f32 out \(n\)  Width = 64 \(--arg\)$' # n covers Width*Width
# Triton, one program a row (issue 27 item 3): the row strides are the row length (a contiguous
# row-major tensor), the row length sqrt(n), the grid n / the widest of them; a given row
# length carries to the strides, a given stride widens the rows (its launch is inside softmax(),
# which the file never calls, so BLOCK_SIZE is given as a user would)
run corpus_rows_triton 0 -- list --arg BLOCK_SIZE=1024 tests/realfiles/triton_softmax.py
has corpus_rows_triton out 'launch: grid 1024 \(assumed\)  block 128 \(compiler\)'
has corpus_rows_triton out 'input_row_stride = 1024 \(assumed\)  output_row_stride = 1024 \(assumed\)  n_cols = 1024 \(assumed\)$'
has corpus_rows_triton out 'input_row_stride = 1024: the row length n_cols, rows contiguous \(a row-major tensor\), from input_ptr \+ row_idx \* input_row_stride \(--arg input_row_stride=VALUE\)'
has corpus_rows_triton out 'output_row_stride = 1024: the row length n_cols, rows contiguous \(a row-major tensor\), from output_ptr \+ row_idx \* output_row_stride \+ col_offsets'
has corpus_rows_triton out 'grid 1024: one program a row, n / 1024 rows$'
run corpus_rows_triton_cols 0 -- list --arg BLOCK_SIZE=1024 --arg n_cols=512 tests/realfiles/triton_softmax.py
has corpus_rows_triton_cols out 'launch: grid 2048 \(assumed\)'
has corpus_rows_triton_cols out 'input_row_stride = 512 \(assumed\)  output_row_stride = 512 \(assumed\)  n_cols = 512 \(--arg\)$'
run corpus_rows_triton_stride 0 -- list --arg BLOCK_SIZE=1024 --arg input_row_stride=4096 tests/realfiles/triton_softmax.py
has corpus_rows_triton_stride out 'launch: grid 256 \(assumed\)'
has corpus_rows_triton_stride out 'grid 256: one program a row, n / 4096 rows$'
# a constexpr block is no row stride (triton_add: pid * BLOCK_SIZE): its length stays n
run corpus_rows_not_block 0 -- list --arg BLOCK_SIZE=1024 tests/realfiles/triton_add.py
has corpus_rows_not_block out 'n_elements = 1048576 \(n\)$'
# where nothing relates the index to a row length (r = blockIdx.y alone, c = threadIdx.x), the
# scalar keeps asking before any launch; a block wider than the index's tile is refused
mkdir -p "$WORK/h27"
printf '__global__ void t(float *out, const float *in, int ld) {\n  int r = blockIdx.y, c = threadIdx.x;\n  out[r * ld + c] = in[c];\n}\n' >"$WORK/h27/unclear.cu"
run corpus_shape_unclear 0 -- list "$WORK/h27/unclear.cu"
has corpus_shape_unclear out "launch: not launchable as described: scalar parameter 'ld' \(int\) needs a value: --arg ld=VALUE or"
printf '__global__ void t(float *out, const float *in, int ld) {\n  int r = blockIdx.y * 16 + threadIdx.y, c = blockIdx.x * 16 + threadIdx.x;\n  out[r * ld + c] = in[r * ld + c] * 2.0f;\n}\n' >"$WORK/h27/tile16.cu"
run corpus_shape_wide 0 -- list --block 32,8 "$WORK/h27/tile16.cu"
has corpus_shape_wide out "not launchable as described: block 32x8: the kernel's x index moves 16 a block \(r \* ld \+ c\), fewer than the block's 32 threads, so it would pass ld = 1024: give --block with at most 16 threads in x, or --grid X,Y$"
run corpus_shape_tile16 0 -- list "$WORK/h27/tile16.cu"
has corpus_shape_tile16 out 'out: 1048576 f32 out \(n\)  in: 1048576 f32 in \(n\)  ld = 1024 \(assumed\)$'
# A PTX length by what the code does with it (issue 27): compared (setp) with the global index
# ctaid*ntid+tid, it is the element count, as a .cu `if (i < n)` makes it, and list says why;
# the demangled scaled_add's `int p4` the same, its float p3 still asks.
h6_list corpus_ptx_count block_sum.ptx
has corpus_ptx_count out '^  unsigned int             block_sum_param_2 element count$'
has corpus_ptx_count out 'block_sum_param_2 = 1048576 \(n\)$'
has corpus_ptx_count out 'assumed: block_sum_param_2 = n: the compiled code compares it with the global thread index \(blockIdx\.x \* blockDim\.x \+ threadIdx\.x\), as a bounds check `if \(i < n\)` does \(--arg block_sum_param_2=VALUE\)'
h6_list corpus_ptx_count_mangled scaled_add.ptx
has corpus_ptx_count_mangled out '^  int                      p4           element count$'
has corpus_ptx_count_mangled out "not launchable as described: scalar parameter 'p3' \(float\) needs a value: --arg p3=VALUE or"
# a 2-D kernel's x bound is a row length, not the count: it keeps asking
printf '.version 8.0\n.target sm_90\n.address_size 64\n.visible .entry k(\n\t.param .u64 k_param_0,\n\t.param .u32 k_param_1\n)\n{\n\t.reg .pred %%p<2>;\n\t.reg .b32 %%r<8>;\n\t.reg .b64 %%rd<4>;\n\tld.param.u64 %%rd1, [k_param_0];\n\tld.param.u32 %%r1, [k_param_1];\n\tmov.u32 %%r2, %%ctaid.x;\n\tmov.u32 %%r3, %%ntid.x;\n\tmov.u32 %%r4, %%tid.x;\n\tmad.lo.s32 %%r5, %%r2, %%r3, %%r4;\n\tmov.u32 %%r6, %%tid.y;\n\tsetp.ge.s32 %%p1, %%r5, %%r1;\n\t@%%p1 bra $L__BB0_2;\n\tcvta.to.global.u64 %%rd2, %%rd1;\n\tst.global.u32 [%%rd2], %%r6;\n$L__BB0_2:\n\tret;\n}\n' >"$WORK/h27/two_d.ptx"
run corpus_ptx_count_2d 0 -- list "$WORK/h27/two_d.ptx"
has corpus_ptx_count_2d out "scalar parameter 'k_param_1' \(unsigned int\) needs a value"
run corpus_ptx_smem 0 -- list --arg block_sum_param_2=1000 tests/realfiles/block_sum.ptx
has corpus_ptx_smem out 'block 256 \(default\)  smem 4096 B \(assumed\)'
h6_list corpus_cast_smem dot_product.cu
has corpus_cast_smem out 'smem 1024 B \(assumed\)'
h6_list corpus_clamped box_blur.cu
has corpus_clamped out 'grid 64x64 \(default\)  block 16x16 \(default 2-D\)'
has corpus_clamped out 'in: 1048576 f32 in \(indexing\)  out: 1048576 f32 out \(indexing\)  width = 1024 \(assumed\)'

# An annotation key that means nothing is an error that names it, in a .cu file.
mkdir -p "$WORK/h6"
printf '// kerndiff: inputs=g_idata blok=128\n__global__ void k(float *g_idata, float *out, int n) { out[0] = g_idata[0]; }\n' >"$WORK/h6/typo.cu"
run corpus_unknown_key 0 -- list "$WORK/h6/typo.cu"
has corpus_unknown_key out "not launchable as described: \`// kerndiff: blok=128\` \(line 1\): 'blok' is not an annotation key kerndiff knows \(did you mean 'block'\?\)"

# inputs= in a .cu file makes the non-const g_idata an input of the launch.
printf '// kerndiff: inputs=g_idata\n__global__ void k(float *g_idata, float *out, int n) { int i = threadIdx.x; if (i < n) out[i] = g_idata[i]; }\n' >"$WORK/h6/inputs.cu"
run corpus_inputs_cu 0 -- list "$WORK/h6/inputs.cu"
has corpus_inputs_cu out 'g_idata: 1048576 f32 in \(n\)  out: 1048576 f32 out \(n\)'
