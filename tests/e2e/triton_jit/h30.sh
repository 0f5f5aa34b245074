# Session 4, H30: the Triton checks of issues 26/27 that a machine without a GPU can make.
if python3 -c 'import triton' 2>/dev/null; then
    # issue 27: a file whose launch cannot be taken (it imports torch, or has no GPU) and whose
    # constexpr has no value: with a timing harness the diff refuses, and that refusal, which
    # names the flag that fixes it, is the FIRST stderr line; the "not taken from the user's
    # code" notice follows it.
    KERNDIFF_SIMULATE="median=20us" run h30_refusal_first 3 -- --no-ncu \
        tests/realfiles/triton_softmax.py tests/realfiles/triton_softmax.py
    if head -1 "$WORK/h30_refusal_first.err" | grep -Eq -- "needs a value: --arg BLOCK_SIZE=VALUE"; then
        ok "h30_refusal_first: the first stderr line is the refusal naming --arg BLOCK_SIZE"
    else fail "h30_refusal_first: first stderr line" "$WORK/h30_refusal_first.err"; fi
    has h30_refusal_first err "the launch of softmax_kernel was not taken from the user's code"
    # without a harness (static diff) the notice is still said, once per side
    run h30_notice_static 0 -- --no-ncu tests/realfiles/triton_softmax.py tests/realfiles/triton_softmax.py
    if [ "$(grep -c "was not taken from the user's code" "$WORK/h30_notice_static.err")" = 2 ]; then
        ok "h30_notice_static: the notice once per side"
    else fail "h30_notice_static: notice count" "$WORK/h30_notice_static.err"; fi
fi
