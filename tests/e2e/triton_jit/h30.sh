# Session 4, H30: the Triton checks of issues 26/27 that a machine without a GPU can make.
if python3 -c 'import triton' 2>/dev/null; then
    # issue 27: a file whose launch cannot be taken (it imports torch, or has no GPU) and whose
    # constexpr has no value: with a timing harness the diff refuses, and that refusal, which
    # names the flag that fixes it, is the FIRST stderr line; the "not taken from the user's
    # code" notice follows it.
    # a file whose own run reaches the launch (the realfiles softmax with a __main__ that calls
    # softmax()), but ends without it here (no torch, no GPU): the notice that the launch was not
    # taken comes after the refusal
    h30_called="$WORK/softmax_called.py"
    { cat tests/realfiles/triton_softmax.py
      printf '\n\nif __name__ == "__main__":\n    softmax(torch.randn(1823, 781, device="cuda"))\n'; } >"$h30_called"
    KERNDIFF_SIMULATE="median=20us" run h30_refusal_first 3 -- --no-ncu "$h30_called" "$h30_called"
    if head -1 "$WORK/h30_refusal_first.err" | grep -Eq -- "needs a value: --arg BLOCK_SIZE=VALUE"; then
        ok "h30_refusal_first: the first stderr line is the refusal naming --arg BLOCK_SIZE"
    else fail "h30_refusal_first: first stderr line" "$WORK/h30_refusal_first.err"; fi
    has h30_refusal_first err "the launch of softmax_kernel was not taken from the user's code"
    # without a harness (static diff) the notice is still said, once per side
    run h30_notice_static 0 -- --no-ncu "$h30_called" "$h30_called"
    if [ "$(grep -c "was not taken from the user's code" "$WORK/h30_notice_static.err")" = 2 ]; then
        ok "h30_notice_static: the notice once per side"
    else fail "h30_notice_static: notice count" "$WORK/h30_notice_static.err"; fi
    # the realfiles softmax launches only inside softmax(), which nothing calls: the file is not
    # run for a launch it never makes, the refusal is the first line and no notice follows
    KERNDIFF_SIMULATE="median=20us" run h30_unreached 3 -- --no-ncu \
        tests/realfiles/triton_softmax.py tests/realfiles/triton_softmax.py
    # (after the line that says no caller in the project reaches it: issue 45 item 1)
    has h30_unreached err "^kerndiff: .*triton_softmax\.py does not launch softmax_kernel itself, and no test, benchmark or script in .* reaches it"
    if grep -Ev "does not launch .* itself" "$WORK/h30_unreached.err" | head -1 | grep -Eq -- "needs a value: --arg BLOCK_SIZE=VALUE"; then
        ok "h30_unreached: the first stderr line is the refusal naming --arg BLOCK_SIZE"
    else fail "h30_unreached: first stderr line" "$WORK/h30_unreached.err"; fi
    lacks h30_unreached err "was not taken from the user's code"
fi
if python3 -c 'import triton' 2>/dev/null; then
    # issue 26: `list`'s constexprs line shows a value that --arg or an annotation gives, and where
    # it came from, instead of "needs a value"
    run h30_list_arg 0 -- list --arg BLOCK_SIZE=512 tests/realfiles/triton_softmax.py
    has h30_list_arg out '^  constexprs: BLOCK_SIZE=512 \(--arg\)'
    lacks h30_list_arg out 'BLOCK_SIZE \(needs a value'
    { echo '# kerndiff: BLOCK_SIZE=256'; cat tests/realfiles/triton_softmax.py; } >"$WORK/h30_annotated.py"
    run h30_list_annotation 0 -- list "$WORK/h30_annotated.py"
    has h30_list_annotation out "^  constexprs: BLOCK_SIZE=256 \(the file's annotation\)"
    run h30_list_none 0 -- list tests/realfiles/triton_softmax.py
    has h30_list_none out '^  constexprs: BLOCK_SIZE \(needs a value: --arg BLOCK_SIZE=VALUE'
fi
