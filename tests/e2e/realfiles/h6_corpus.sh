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
    axpy_templates.cu) h6_known="kernel 'axpy' has 2 instances" ;;
    reduction.cu | transpose.cu) h6_known="both files define several kernels; choose one with --fn" ;;
    triton_add.py | triton_softmax.py) h6_known="tl.constexpr 'BLOCK_SIZE' of kernel '[a-z_]+' needs a value" ;;
    *) h6_known="" ;;
    esac
    if [ -n "$h6_known" ]; then
        run "${h6_name}_diff_known_gap" 3 -- "$h6_file" "$h6_file"
        has "${h6_name}_diff_known_gap" err "$h6_known"
    else
        run "${h6_name}_diff" 0 -- "$h6_file" "$h6_file"
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
h6_list corpus_tile transpose.cu
has corpus_tile out "buffer '[a-z]+' is indexed as|needs? a value"
run corpus_tile_given 0 -- list --fn transposeNaive --arg width=64 --arg height=64 tests/realfiles/transpose.cu
has corpus_tile_given out "not launchable as described: buffer 'odata' is indexed as odata\[index_out \+ i\], in 2-D, and kerndiff cannot tell how far that reaches.*--buf odata=COUNT"
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
