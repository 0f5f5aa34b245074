# The CPU part of the GPU must-show (tests/gpu/realfiles.sh, issue 27) on the simulated
# harness: a file that cannot launch with zero flags fails with one first line naming the
# flags that fix it, and exits 0 given exactly those; a file whose fix takes two lines (a
# template file: --fn, then the instance's --arg) is a FAIL of the script, said so.
h27_dir=$(dirname "$KD")
KERNDIFF_SIMULATE="median=50us;median=50us" REALFILES_BUDGET_S=300 \
    REALFILES_ONLY="adamw.cu reduction.cu transpose.cu sgemm_tiled.cu block_sum.ptx axpy_templates.cu" \
    tests/gpu/realfiles.sh "$h27_dir" >"$WORK/h27_mustshow.out" 2>"$WORK/h27_mustshow.err"
h27_rc=$?
if [ "$h27_rc" = 1 ]; then ok "h27_mustshow: exit 1 (one FAIL)"; else fail "h27_mustshow: exit $h27_rc, wanted 1" "$WORK/h27_mustshow.out"; fi
has h27_mustshow out '^ok   adamw\.cu: one line named --arg learning_rate=0\.001 --arg beta1=0\.9 --arg beta2=0\.999 --arg beta1_correction=0\.1 --arg beta2_correction=0\.001 --arg eps=1e-8 --arg weight_decay=0\.01; with them, exit 0$'
has h27_mustshow out "^ok   reduction\.cu: one line named --fn 'reduce2<float>'; with them, exit 0$"
has h27_mustshow out "^ok   transpose\.cu: one line named --fn 'transposeNaive'; with them, exit 0$"
has h27_mustshow out '^ok   sgemm_tiled\.cu: zero flags$'
has h27_mustshow out '^ok   block_sum\.ptx: one line named --arg block_sum_param_2=1048576; with them, exit 0$'
has h27_mustshow out "^FAIL axpy_templates\.cu: one line named --fn 'axpy<float>'; with them, exit 3: kerndiff: v1 and v2: cannot launch axpy<float>: scalar parameter 'alpha' \(float\) needs a value: --arg alpha=VALUE"
has h27_mustshow out '^realfiles must-show: 5 of 6 ok \(1 with zero flags, 4 with the flags their one line named\), 1 FAIL$'
# the summary goes to $OUT when set
mkdir -p "$WORK/h27_out"
OUT="$WORK/h27_out" KERNDIFF_SIMULATE="median=50us;median=50us" REALFILES_ONLY="sgemm_tiled.cu" \
    tests/gpu/realfiles.sh "$h27_dir" >"$WORK/h27_mustshow_out.out" 2>&1
if grep -q '^realfiles must-show: 1 of 1 ok (1 with zero flags' "$WORK/h27_out/results-realfiles-mustshow.txt" 2>/dev/null; then
    ok "h27_mustshow: summary copied to \$OUT"; else fail "h27_mustshow: no summary in \$OUT" "$WORK/h27_mustshow_out.out"; fi
