# Hostile and careless inputs (issue: nothing lost, nothing false, nothing injected).
# Each file under tests/e2e/hostile/ is one class of input; it uses run/has/lacks/ok/fail
# from run.sh and runs under ASan+UBSan with `make sanitize` like every suite.
for hostile_file in tests/e2e/hostile/*.sh; do
    [ -e "$hostile_file" ] || continue
    # HOSTILE_ONLY=s1_outputs,l1_words: only those files (a quick loop while working on one)
    name=$(basename "$hostile_file" .sh)
    if [ -n "${HOSTILE_ONLY:-}" ] && [[ ",$HOSTILE_ONLY," != *",$name,"* ]]; then continue; fi
    if ! bash -n "$hostile_file" 2>"$WORK/hostile.syntax"; then
        fail "hostile: $hostile_file does not parse, none of its checks ran" "$WORK/hostile.syntax"
        continue
    fi
    hostile_started=$SECONDS hostile_timed=$name
    source "$hostile_file"
    echo "time hostile $hostile_timed: $((SECONDS - hostile_started)) s" # where the suite's minutes go (issue 41)
done
