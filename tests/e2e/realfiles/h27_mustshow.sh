# The CPU part of the GPU must-show (tests/gpu/realfiles.sh, issue 27) on the simulated
# harness: a file that cannot launch with zero flags fails with one first line naming the
# flags that fix it, and exits 0 given exactly those: a template file's one line names --fn
# and the --arg its instances need (the launch's own rule, launch/spec.h needs_value).
h27_dir=$(dirname "$KD")
KERNDIFF_SIMULATE="median=50us;median=50us" REALFILES_BUDGET_S=300 \
    REALFILES_ONLY="adamw.cu reduction.cu transpose.cu sgemm_tiled.cu block_sum.ptx axpy_templates.cu triton_add.py" \
    tests/gpu/realfiles.sh "$h27_dir" >"$WORK/h27_mustshow.out" 2>"$WORK/h27_mustshow.err"
h27_rc=$?
if [ "$h27_rc" = 0 ]; then ok "h27_mustshow: exit 0"; else fail "h27_mustshow: exit $h27_rc, wanted 0" "$WORK/h27_mustshow.out"; fi
has h27_mustshow out '^ok   adamw\.cu: one line named --arg learning_rate=0\.001 --arg beta1=0\.9 --arg beta2=0\.999 --arg beta1_correction=0\.1 --arg beta2_correction=0\.001 --arg eps=1e-8 --arg weight_decay=0\.01; with them, exit 0$'
has h27_mustshow out "^ok   reduction\.cu: one line named --fn 'reduce2<float>'; with them, exit 0$"
has h27_mustshow out "^ok   transpose\.cu: one line named --fn 'transposeNaive'; with them, exit 0$"
has h27_mustshow out '^ok   sgemm_tiled\.cu: zero flags$'
has h27_mustshow out '^ok   block_sum\.ptx: zero flags$' # its length compared with the global index: n
has h27_mustshow out "^ok   axpy_templates\.cu: one line named --fn 'axpy<float>' --arg alpha=2\.0; with them, exit 0$"
# a Triton kernel with no launch in its file and no caller in the project: the described
# launch's refusal (naming the flag) is the first line; the callers' line follows it
has h27_mustshow out '^ok   triton_add\.py: one line named --arg BLOCK_SIZE=1024; with them, exit 0$'
has h27_mustshow out '^realfiles must-show: 7 of 7 ok \(2 with zero flags, 5 with the flags their one line named\), 0 FAIL$'
# the summary goes to $OUT when set
mkdir -p "$WORK/h27_out"
OUT="$WORK/h27_out" KERNDIFF_SIMULATE="median=50us;median=50us" REALFILES_ONLY="sgemm_tiled.cu" \
    tests/gpu/realfiles.sh "$h27_dir" >"$WORK/h27_mustshow_out.out" 2>&1
if grep -q '^realfiles must-show: 1 of 1 ok (1 with zero flags' "$WORK/h27_out/results-realfiles-mustshow.txt" 2>/dev/null; then
    ok "h27_mustshow: summary copied to \$OUT"; else fail "h27_mustshow: no summary in \$OUT" "$WORK/h27_mustshow_out.out"; fi
