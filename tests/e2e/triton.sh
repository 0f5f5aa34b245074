# Triton (.py) and .ptx/.cubin inputs: discovery, the AOT build, the static diff, and the
# launch each side gets, through the simulated harness (sourced by tests/e2e/run.sh).
# The outputs-differ check of the scan pair needs a GPU: tests/gpu/run.sh.
if python3 -c 'import triton' 2>/dev/null; then
    run triton_list 0 -- list examples/triton/softmax/v1.py
    has triton_list out '^softmax_kernel  \(line [0-9]+'
    # a Triton buffer's type is the launch's dtype (as the diff compiles it), not a guessed float
    has triton_list out '^  f32 \* +out_ptr .*output buffer of f32'
    has triton_list out '^  const f32 \* +x_ptr .*input buffer of f32'
    has triton_list out 'n_rows .*element count'
    # constexprs are no parameters: listed on their own line, with where their value comes from
    lacks triton_list out '^  [^ ].* +BLOCK[A-Z_]* +(input|output|scalar|element)'
    has triton_list out '^  constexprs: BLOCK'

    run triton_static 0 -- examples/triton/block_size/v1.py examples/triton/block_size/v2.py
    has triton_static out '^kerndiff add_kernel'
    has triton_static out '^      Triton [0-9.]+ ahead of time: num_warps=4 \(given\) num_stages=3 \(Triton.s default[^)]*\) shared=[0-9]+ B BLOCK=256'
    has triton_static out '^      Triton [0-9.]+ ahead of time: num_warps=8 \(given\) .* BLOCK=1024'
    has triton_static out 'block threads +128 +256 +\(launch / launch\)'
    has triton_static out '^  registers/thread +[0-9]+'
    has triton_static out 'LDG'
    run triton_cached 0 -- examples/triton/block_size/v1.py examples/triton/block_size/v2.py
    has triton_cached out 'v1: .*\(cached build\)'

    # the launch: 32 x num_warps threads, constexprs in the grid, the scratch pointers
    KERNDIFF_SIMULATE="median=20us" run triton_sim 0 -- --json="$WORK/triton.json" \
        examples/triton/block_size/v1.py examples/triton/block_size/v2.py
    has triton_sim out 'outputs match'
    if python3 - "$WORK/triton.json" >"$WORK/triton_json.err" 2>&1 <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
v1, v2 = (s["launch"] for s in d["sides"])
assert v1["block"][0] == 128 and v2["block"][0] == 256, (v1["block"], v2["block"])
assert v1["grid"][0] == 16 * 1024 * 1024 // 256 and v2["grid"][0] == 16 * 1024 * 1024 // 1024
names = [a["name"] for a in v1["args"]]
assert names == ["x_ptr", "y_ptr", "out_ptr", "n_elements", "(global scratch)", "(profile scratch)"], names
PY
    then ok "triton_sim: block 32 x num_warps, grid cdiv(n,BLOCK), scratch last"
    else fail "triton_sim: launch in JSON" "$WORK/triton_json.err"; fi

    # specialisation: an int equal to 1 leaves the signature (matmul's unit strides)
    run triton_matmul 0 -- examples/triton/matmul/v1.py examples/triton/matmul/v2.py
    has triton_matmul out 'specialised as constexpr: stride_ak=1, stride_bn=1, stride_cn=1'
    has triton_matmul out 'shared=[0-9]+ B BLOCK_M=128'

    # cross-language: the seed's scan pair (the mismatch itself is a GPU check)
    KERNDIFF_SIMULATE="median=20us" run cross_lang 0 -- examples/triton/scan/blelloch.cu examples/triton/scan/scan.py
    has cross_lang out 'v1: examples/triton/scan/blelloch.cu  \[prefix_scan\]'
    has cross_lang out 'v2: examples/triton/scan/scan.py  \[prefix_scan\]'
    has cross_lang out 'barriers +[1-9]'
    has cross_lang out '^      Triton .*BLOCK=1024'

    # git mode and a sweep over a constexpr (one cached build per value)
    mkdir -p "$WORK/pyrepo" && cp examples/triton/block_size/v1.py "$WORK/pyrepo/k.py"
    (cd "$WORK/pyrepo" && git init -q && git add k.py && git -c user.email=t@t -c user.name=t commit -qm k &&
        sed -i 's/BLOCK=256/BLOCK=512/' k.py)
    run triton_git 0 -- "$WORK/pyrepo/k.py"
    has triton_git out 'v1: .*k.py @ HEAD .*\[add_kernel\]'
    has triton_git out '^      Triton .*BLOCK=512'
    KERNDIFF_SIMULATE="median=5us" run triton_sweep 0 -- --sweep BLOCK=256,512 "$WORK/pyrepo/k.py" "$WORK/pyrepo/k.py"
    has triton_sweep out '^  512 .*match'

    # errors: a constexpr without value, a compile error, --block on a Triton side
    cat >"$WORK/noval.py" <<'PY'
import triton
import triton.language as tl
@triton.jit
def k(x_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    tl.store(x_ptr + offs, tl.load(x_ptr + offs, mask=offs < n) * 2, mask=offs < n)
PY
    KERNDIFF_SIMULATE="median=20us" run triton_noval 3 -- "$WORK/noval.py" "$WORK/noval.py"
    has triton_noval err "v1: tl.constexpr 'BLOCK' of kernel 'k' needs a value: --arg BLOCK=VALUE"
    KERNDIFF_SIMULATE="median=20us" run triton_blockflag 3 -- --arg BLOCK=128 --block 64 "$WORK/noval.py" "$WORK/noval.py"
    has triton_blockflag err 'block is fixed by its compiler'
    sed 's/\* 2/* undefined_name/' "$WORK/noval.py" >"$WORK/broken.py"
    run triton_compile_error 4 -- --arg BLOCK=128 "$WORK/noval.py" "$WORK/broken.py"
    has triton_compile_error err "^kerndiff: v2: Triton's compile of k .*failed; Triton said:"
    has triton_compile_error err 'undefined_name'

    # autotune: each config timed briefly alone (the sim's by_block= makes num_warps=4, a
    # 128-thread block, the fastest), the fastest kept on each side and said
    cat >"$WORK/autotuned.py" <<'PY'
import triton
import triton.language as tl
# kerndiff: n=1M grid=cdiv(n,BLOCK)
@triton.autotune(configs=[triton.Config({"BLOCK": 256}, num_warps=2), triton.Config({"BLOCK": 512}, num_warps=4),
                          triton.Config({"BLOCK": 1024}, num_warps=8)], key=["n"])
@triton.jit
def tuned(x_ptr, out_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    tl.store(out_ptr + offs, tl.load(x_ptr + offs, mask=offs < n) * 2, mask=offs < n)
PY
    TUNE_SIM="median=50us,by_block=64:55us+128:41us+256:60us"
    KERNDIFF_SIMULATE="$TUNE_SIM" run autotune 0 -- --no-ncu --json="$WORK/autotune.json" --markdown="$WORK/autotune.md" \
        "$WORK/autotuned.py" "$WORK/autotuned.py"
    has autotune out '^      autotune: config 2 of 3 \(BLOCK=512, num_warps=4\) was fastest, 4[01]\.[0-9]+us vs 5[45]\.[0-9]+us/(59|60)\.[0-9]+us'
    has autotune out '^      Triton .*num_warps=4 .*BLOCK=512'
    has autotune out 'block 128 \(compiler\)'
    if grep -q '^- v2 autotune: config 2 of 3 (BLOCK=512, num_warps=4) was fastest' "$WORK/autotune.md" &&
        python3 tests/e2e/validate_json.py docs/json-schema.json "$WORK/autotune.json" >"$WORK/autotune_json.err" 2>&1 &&
        python3 - "$WORK/autotune.json" >>"$WORK/autotune_json.err" 2>&1 <<'PY'
import json, sys
for s in json.load(open(sys.argv[1]))["sides"]:
    t = s["autotune"]
    assert t["how"] == "fastest" and t["chosen"] == 1, t
    assert [c["config"] for c in t["configs"]] == ["BLOCK=256, num_warps=2", "BLOCK=512, num_warps=4",
                                                   "BLOCK=1024, num_warps=8"], t
    medians = [c["median_ns"] for c in t["configs"]]
    assert min(medians) == medians[1] and 50e3 < medians[0] < 58e3 < medians[2], medians
PY
    then ok "autotune: Markdown and JSON (schema-valid) say the fastest config and each config's time"
    else fail "autotune: Markdown/JSON" "$WORK/autotune_json.err"; fi
    # --arg of a meta-parameter picks a config (per side with --call); --no-autotune and a
    # static-only run take the first, and say why
    KERNDIFF_SIMULATE="$TUNE_SIM" run autotune_given 0 -- --no-ncu --call v2:BLOCK=1024 "$WORK/autotuned.py" "$WORK/autotuned.py"
    has autotune_given out '^      autotune: config 2 of 3 .* was fastest'
    has autotune_given out '^      autotune: config 3 of 3 \(BLOCK=1024, num_warps=8\) used, the one the values given'
    KERNDIFF_SIMULATE="$TUNE_SIM" run autotune_off 0 -- --no-ncu --no-autotune "$WORK/autotuned.py" "$WORK/autotuned.py"
    has autotune_off out '^      autotune: config 1 of 3 \(BLOCK=256, num_warps=2\) used, the first: --no-autotune'
    has autotune_off out 'block 64 \(compiler\)'
    run autotune_static 0 -- "$WORK/autotuned.py" "$WORK/autotuned.py"
    has autotune_static out '^      autotune: config 1 of 3 .* used, the first: nothing could be timed \(runtime measurement'

    # @triton.heuristics: computed from the launch's values (n per side), in order
    cat >"$WORK/heur.py" <<'PY'
import triton
import triton.language as tl
# kerndiff: n=1000
@triton.heuristics({"BLOCK": lambda args: min(triton.next_power_of_2(args["n"]) // 4, 1024),
                    "EVEN": lambda args: args["n"] % args["BLOCK"] == 0})
@triton.jit
def scale(x_ptr, out_ptr, n, BLOCK: tl.constexpr, EVEN: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    if EVEN:
        tl.store(out_ptr + offs, tl.load(x_ptr + offs) * 2)
    else:
        tl.store(out_ptr + offs, tl.load(x_ptr + offs, mask=offs < n) * 2, mask=offs < n)
PY
    KERNDIFF_SIMULATE="median=5us" run heuristics 0 -- --no-ncu --allow-mismatch --call v2:n=4096 "$WORK/heur.py" "$WORK/heur.py"
    has heuristics out '^      Triton .* BLOCK=256 EVEN=false; from @triton.heuristics: BLOCK, EVEN'
    has heuristics out '^      Triton .* BLOCK=1024 EVEN=true; from @triton.heuristics: BLOCK, EVEN'
    has heuristics out '^  v1: +grid 4 \(default grid\)'
    has heuristics out '^  v2: +grid 4 \(default grid\)'
    # a heuristic on a buffer cannot be evaluated: named, with --arg to give it
    sed 's/args\["n"\] % args\["BLOCK"\] == 0/args["x_ptr"].dtype.is_fp16()/' "$WORK/heur.py" >"$WORK/heur_buf.py"
    run heuristics_unknown 3 -- --no-run "$WORK/heur_buf.py" "$WORK/heur_buf.py"
    has heuristics_unknown err '^kerndiff: v1: @triton.heuristics value EVEN of kernel scale .* cannot be evaluated: .*--arg EVEN=VALUE'
    run heuristics_given 0 -- --no-run --arg EVEN=0 "$WORK/heur_buf.py" "$WORK/heur_buf.py"
    has heuristics_given out 'EVEN=0 BLOCK=256; from @triton.heuristics: BLOCK$'

    # a .py side is told to write `# kerndiff:`, not `// kerndiff:`
    printf 'import triton\nimport triton.language as tl\n# kerndiff: grid=4\n@triton.jit\ndef k(x_ptr, alpha, BLOCK: tl.constexpr = 128):\n    o = tl.arange(0, BLOCK)\n    tl.store(x_ptr + o, tl.load(x_ptr + o) * alpha)\n' >"$WORK/alpha.py"
    KERNDIFF_SIMULATE="median=5us" run py_comment 3 -- "$WORK/alpha.py" "$WORK/alpha.py"
    has py_comment err "needs a value: --arg alpha=VALUE or \`# kerndiff: alpha=VALUE\`"
else
    fail "triton: Triton is not importable by python3, so the Triton build tests cannot run (scripts/install-deps.sh installs it)"
fi

# discovery needs only Python's ast: autotuned and heuristics-wrapped kernels are found
cat >"$WORK/tuned.py" <<'PY'
import triton
import triton.language as tl
@triton.autotune(configs=[triton.Config({"BLOCK": 256}, num_warps=2), triton.Config({"BLOCK": 1024}, num_warps=8)], key=["n"])
@triton.heuristics({"EVEN": lambda a: a["n"] % a["BLOCK"] == 0})
@triton.jit
def tuned(src, dst, n, BLOCK: tl.constexpr, EVEN: tl.constexpr):
    p = src + tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    tl.store(dst + tl.arange(0, BLOCK), tl.load(p))
PY
run triton_list_tuned 0 -- list "$WORK/tuned.py"
has triton_list_tuned out '^tuned  \(line 6\)'
has triton_list_tuned out 'src .*input buffer'
has triton_list_tuned out 'dst .*output buffer'
run triton_no_python 7 -- --python /nonexistent/python3 "$WORK/tuned.py" "$WORK/tuned.py"
has triton_no_python err 'cannot run /nonexistent/python3 .*pip install triton.*--python PATH'

# --- .ptx and .cubin inputs ------------------------------------------------------------------
nvcc -arch=sm_90 -ptx -o "$WORK/copy.ptx" tests/gpu/kernels/copy.cu 2>"$WORK/ptx_build.err" ||
    fail "ptx: nvcc -ptx" "$WORK/ptx_build.err"
cp "$WORK/copy.ptx" "$WORK/copy2.ptx"
# nvcc's PTX names parameters NAME_param_K: its types are all the PTX says
run ptx_list 0 -- list "$WORK/copy.ptx"
has ptx_list out 'kd_copy_param_0 +input buffer of float'
has ptx_list out 'unsigned int +kd_copy_param_2 +element count$' # compared with the global index (source/ptxcount.h)
# the sidecar names and types them, and says which buffers are inputs
for f in copy copy2; do
    printf '# kerndiff: signature=in:f32*,out:f32*,n:i32 inputs=in n=64K\n' >"$WORK/$f.ptx.kerndiff"
done
run ptx_list_sidecar 0 -- list "$WORK/copy.ptx"
has ptx_list_sidecar out 'in +input buffer of float'
has ptx_list_sidecar out 'n +element count'
KERNDIFF_SIMULATE="median=5us" run ptx_diff 0 -- "$WORK/copy.ptx" "$WORK/copy2.ptx"
has ptx_diff out '^  registers/thread +[0-9]+ +[0-9]+'
has ptx_diff out 'PTX instructions'
has ptx_diff out 'outputs match'
# ptxas builds are cached like every build
KERNDIFF_SIMULATE="median=5us" run ptx_cached 0 -- --no-run "$WORK/copy.ptx" "$WORK/copy2.ptx"
has ptx_cached out 'v1: .*copy.ptx .*\(cached build\)'
ptxas -arch=sm_90 -o "$WORK/copy.cubin" "$WORK/copy.ptx" 2>"$WORK/cubin_build.err" || fail "cubin: ptxas" "$WORK/cubin_build.err"
printf '# kerndiff: signature=in:f32*,out:f32*,n:i32 inputs=in n=64K\n' >"$WORK/copy.cubin.kerndiff"
KERNDIFF_SIMULATE="median=5us" run cubin_diff 0 -- "$WORK/copy.ptx" "$WORK/copy.cubin"
has cubin_diff out '^  registers/thread +[0-9]+ +[0-9]+ *$'
has cubin_diff out 'SASS instructions'
has cubin_diff out 'outputs match'
rm "$WORK/copy.cubin.kerndiff"
KERNDIFF_SIMULATE="median=5us" run cubin_nosig 3 -- "$WORK/copy.ptx" "$WORK/copy.cubin"
has cubin_nosig err 'v2: cannot launch kd_copy: .*signature=NAME:DTYPE'

# Triton regions (Proton's scopes, Triton 3.5+): the instrumented build lists the scope
# names by id and has Proton's profile scratch; through the simulated harness, whose
# `regions` writes synthetic records for ids 1..3, the table and trace carry those names
# (a .py file has no other source of them). Proton's own records need a GPU: tests/gpu/run.sh.
if python3 -c 'import triton.profiler.language' 2>/dev/null; then
    TR1=examples/regions/triton/v1.py TR2=examples/regions/triton/v2.py
    spec='{"signature":{"x_ptr":"*fp32","out_ptr":"*fp32","n_rows":"i32","n_cols":"i32","BLOCK":"constexpr"},"constexprs":{"BLOCK":128},"arch":90,"num_warps":4'
    for variant in plain instrumented; do
        extra=$([ $variant = instrumented ] && echo ',"instrument":true,"max_shared":232448')
        python3 scripts/kerndiff-triton.py build "$PWD/$TR1" row_sum "$spec$extra}" "$WORK/proton_$variant" \
            >/dev/null 2>"$WORK/proton_$variant.err" || fail "proton_build: $variant build" "$WORK/proton_$variant.err"
    done
    if python3 - "$WORK/proton_plain/metadata.json" "$WORK/proton_instrumented/metadata.json" \
        >"$WORK/proton_meta.err" 2>&1 <<'PY'
import json, sys
plain, inst = (json.load(open(p)) for p in sys.argv[1:])
assert "scopes" not in plain and plain["profile_scratch_size"] == 0, plain
assert inst["proton"] is True and inst["scopes"] == ["load", "add", "reduce"], inst
assert inst["profile_scratch_size"] > 0 and inst["shared"] > plain["shared"], (plain, inst)
PY
    then ok "proton_build: the instrumented build names load, add, reduce by id and has a profile scratch"
    else fail "proton_build: metadata" "$WORK/proton_meta.err"; fi

    KERNDIFF_SIMULATE="median=900us,cv=0.3%,regions=9000+20000+500;median=700us,cv=0.3%,regions=2000+20000+900" \
        run triton_regions 0 -- --regions --trace "$WORK/triton_trace.json" "$TR1" "$TR2"
    has triton_regions out '^  load +(8|9)[0-9]{3} \[[0-9]+-[0-9]+\] +(19|20)[0-9]{2} \[[0-9]+-[0-9]+\]  -7[0-9]\.[0-9]%'
    has triton_regions out '^  add +[0-9]+ \[[0-9]+-[0-9]+\] +[0-9]+ \[[0-9]+-[0-9]+\]'
    has triton_regions out '^  reduce +[0-9]+ \[[0-9]+-[0-9]+\] +[0-9]+ \[[0-9]+-[0-9]+\]'
    if python3 tests/e2e/check_trace.py "$WORK/triton_trace.json" load=32 add=32 reduce=32 >"$WORK/triton_trace.err" 2>&1
    then ok "triton_regions: the trace has slices named like the scopes"
    else fail "triton_regions: trace" "$WORK/triton_trace.err"; fi
    # CUDA against Triton: regions matched by name
    KERNDIFF_SIMULATE="median=900us,cv=0.3%,regions=9000+20000;median=700us,cv=0.3%,regions=2000+20000+900" \
        run triton_regions_cross 0 -- --allow-mismatch --regions examples/regions/v1.cu "$TR1"
    has triton_regions_cross out '^  load +[0-9]+ \[[0-9]+-[0-9]+\] +[0-9]+ \[[0-9]+-[0-9]+\]  [-+][0-9.]+%'
    has triton_regions_cross out '^  mma .*only in v1$'
    has triton_regions_cross out '^  reduce .*only in v2$'
    # a kernel without scopes, and a Triton without Proton (before 3.5; a fake interpreter)
    KERNDIFF_SIMULATE="median=20us" run triton_no_scopes 0 -- --regions \
        examples/triton/block_size/v1.py examples/triton/block_size/v2.py
    has triton_no_scopes out "^regions not recorded: v1's kernel has no Proton scopes"
    KERNDIFF_SIMULATE="median=20us" run triton_no_proton 0 -- --regions --json="$WORK/no_proton.json" \
        --python tests/fakes/fake_python_no_proton examples/triton/block_size/v1.py examples/triton/block_size/v2.py
    has triton_no_proton out "^regions not recorded: v1's Triton [0-9.]+ has no Proton instrumentation"
    if python3 tests/e2e/validate_json.py docs/json-schema.json "$WORK/no_proton.json" >"$WORK/no_proton_schema.err" 2>&1 &&
        grep -q '"id": *"no_proton"' "$WORK/no_proton.json"; then ok "triton_no_proton: JSON note no_proton, valid"
    else fail "triton_no_proton: JSON" "$WORK/no_proton_schema.err"; fi
fi

# A launch asked for (--run) that cannot be had is an error naming the side and the program,
# never replaced by a guessed launch (issue 39: it printed "v2 is 1.25x faster", exit 0).
KERNDIFF_SIMULATE="median=10us;median=9us" run run_missing 3 -- --run 'python3 nosuch.py' examples/triton/softmax/v1.py examples/triton/softmax/v2.py
has run_missing err "^kerndiff: v1: --run 'python3 nosuch.py' gave no launch of softmax_kernel: .*A launch asked for is never replaced by a guessed one"
lacks run_missing out 'faster|slower'

# --- list and the diff share one launch resolution (issue 41 item 6) ---------------------------
# For every shipped example file, what `list` shows of a kernel's launch (or that it is not
# launchable) is what the static diff of its pair launches (its JSON); here, after the Triton
# pairs' own checks, most builds come from the cache: one
# resolution (diff/pipeline.h kd_list_launch calls the diff's kd_resolve_launch). Triton's five
# "unknown name 'BLOCK'" and the matmul's a_ptr=f16 listed as float were list's own copy.
la_n=0 la_skipped=0
for la_dir in $(find examples -type d | sort); do
    la_files=$(find "$la_dir" -maxdepth 1 -type f \( -name '*.cu' -o -name '*.py' \) | sort)
    [ "$(echo "$la_files" | grep -c .)" -eq 2 ] || continue
    if echo "$la_files" | grep -q '\.py$' && ! python3 -c 'import triton' 2>/dev/null; then
        echo "skip list_agrees: $la_dir: Triton is not installed"; la_skipped=$((la_skipped + 2)); continue
    fi
    la_name=$(echo "$la_dir" | tr '/.' '__')
    # the pair's own diff (the examples suite built both sides: from the cache here)
    "$KD" --json="$WORK/la_$la_name.json" $la_files >/dev/null 2>"$WORK/la_$la_name.err" </dev/null
    la_side=0
    for la_file in $la_files; do
        "$KD" list "$la_file" >"$WORK/la_$la_name.$la_side.list" 2>>"$WORK/la_$la_name.err" </dev/null
        if python3 tests/e2e/list_agrees.py "$WORK/la_$la_name.$la_side.list" "$WORK/la_$la_name.json" $la_side \
            >"$WORK/la_$la_name.$la_side.diff" 2>&1; then
            la_n=$((la_n + 1))
        else fail "list_agrees: $la_file: list and the diff resolve different launches" "$WORK/la_$la_name.$la_side.diff"; fi
        if grep -q "unknown name" "$WORK/la_$la_name.$la_side.list"; then
            fail "list_agrees: $la_file: list refuses a name the diff knows" "$WORK/la_$la_name.$la_side.list"; fi
        la_side=$((la_side + 1))
    done
done
[ $((la_n + la_skipped)) -eq "$(find examples -name '*.cu' -o -name '*.py' | grep -c .)" ] &&
    ok "list_agrees: all $la_n example files: list's launch is the diff's" || fail "list_agrees: only $la_n example files agreed"
# the matmul's buffers are f16 in the parameter table too (the launch's dtype, not a guessed float)
run la_matmul_f16 0 -- list examples/triton/matmul/v1.py
has la_matmul_f16 out '^  const f16 \* +a_ptr +input buffer of f16'
lacks la_matmul_f16 out 'not launchable'
