# Issue 26: `kerndiff list` and a diff that times agree on a Triton launch (on the GPU,
# tests/realfiles/triton_add.py was listed launchable and refused by the timed diff: the file
# neither launches add_kernel nor gives BLOCK_SIZE). KERNDIFF_SIMULATE stands for the GPU: the
# diff times, so it takes no assumed block. The same rule (backend/triton_constexpr.c) and
# the same sentence (report/words_triton.c) serve both; list asks the diff's own resolution
# (diff/pipeline.h kd_list_launch, issue 41 item 6).
la_file=tests/realfiles/triton_add.py
# with no GPU and nothing timed, the static diff assumes the block and says so
run la_static 0 -- "$la_file" "$la_file"
has la_static out 'BLOCK_SIZE=1024 \(assumed: '
# (run keeps KERNDIFF_NO_GPU=1; the simulated harness is asked for explicitly)
KERNDIFF_SIMULATE="median=20us" "$KD" --no-ncu "$la_file" "$la_file" >"$WORK/la_sim.out" 2>"$WORK/la_sim.err" </dev/null
echo "exit $?" >>"$WORK/la_sim.out"
has la_sim out '^exit 3$'
has la_sim err "^kerndiff: v1: tl.constexpr 'BLOCK_SIZE' of kernel 'add_kernel' needs a value: --arg BLOCK_SIZE=VALUE, \`# kerndiff: BLOCK_SIZE=VALUE\` in tests/realfiles/triton_add.py, or a default in the signature$"
# the value named there makes the timed diff go
KERNDIFF_SIMULATE="median=20us" "$KD" --no-ncu --arg BLOCK_SIZE=1024 "$la_file" "$la_file" >"$WORK/la_arg.out" 2>"$WORK/la_arg.err" </dev/null
echo "exit $?" >>"$WORK/la_arg.out"
has la_arg out '^exit 0$'
has la_arg out 'BLOCK_SIZE=1024'
# list says the same launch is not launchable, in the diff's words
run la_list 0 -- list "$la_file"
la_reason=$(sed -n "s/^kerndiff: v1: //p" "$WORK/la_sim.err" | head -1)
if grep -qF "  launch: not launchable as described: $la_reason" "$WORK/la_list.out"; then
    ok "list_agree: list says not launchable, with the timed diff's reason"
else fail "list_agree: list and the timed diff disagree (diff: $la_reason)" "$WORK/la_list.out"; fi
# a kernel the file gives the value to (its own call): list and diff both go
run la_call_list 0 -- list tests/e2e/fixtures/triton_jit/raises.py
lacks la_call_list out 'not launchable'
run la_call_diff 0 -- --no-capture tests/e2e/fixtures/triton_jit/raises.py tests/e2e/fixtures/triton_jit/raises.py
has la_call_diff out "BLOCK=1024 \\(from the file.s call at line 14"
