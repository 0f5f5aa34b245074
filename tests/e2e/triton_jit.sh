# Triton sides as Triton's JIT runs them: checks in tests/e2e/triton_jit/*.sh.
for triton_jit_file in tests/e2e/triton_jit/*.sh; do
    [ -e "$triton_jit_file" ] || continue
    source "$triton_jit_file"
done
