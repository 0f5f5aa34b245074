# Issue 29 (words only in report/): scripts/check-layers.py catches a print to a stream below
# report/, but not a sentence built into a strbuf or a buffer that travels up as the user's
# reason (`kd_sb_printf(why, "cannot fork: %s", ...)`). This check greps wire/ (the harness
# child and its protocol) for such a sentence: kd_sb_printf/kd_sb_puts/snprintf into a
# why/error/err/reason/out buffer with a literal that holds two words. Its words belong in
# report/words_wire.c, reached through a kd_diag (wire/child.c's kd_child_failure_words shows
# how). Sourced by tests/e2e/hostile.sh.

# l1_sentences FILE...: the matching lines, as FILE:LINE:TEXT.
l1_sentences() {
    grep -nHE '(kd_sb_printf|kd_sb_puts|snprintf)[[:space:]]*\([[:space:]]*[&a-z_>.-]*(why|error|err|reason|out)\b[^"]*"[^"]*[A-Za-z]+ [A-Za-z]+' "$@" || true
}

# The detector catches what it is for, and not a value or a label (the check can fail).
L1W=$WORK/l1_words
mkdir -p "$L1W"
cat >"$L1W/made_up.c" <<'EOF'
    kd_sb_printf(why, "cannot fork: %s", strerror(errno));
    snprintf(r->error, sizeof r->error, "the harness exited with status %d", code);
    kd_sb_printf(&c->stderr_text, "(stdout) %s\n", c->line);
    kd_sb_printf(why, "%s", value);
    kd_say(KD_MSG_WIRE_CHILD_NO_FORK, 0, KD_S("cannot fork"));
EOF
l1_got=$(l1_sentences "$L1W/made_up.c" | cut -d: -f2 | tr '\n' ' ')
if [ "$l1_got" = "1 2 " ]; then ok "l1_words: the detector finds a sentence built into why and r->error, and only those"
else fail "l1_words: the detector found lines '$l1_got' in a made-up file (want '1 2 ')" "$L1W/made_up.c"; fi

# Sentences in wire/ files let through until they move to report/words_wire.c (each a fixed
# piece of its line; the list may only shrink, and is empty now).
L1W_ALLOWED=''
l1_sentences src/wire/*.c src/wire/*.h >"$L1W/found.txt"
: >"$L1W/new.txt"
while IFS= read -r l1_line; do
    l1_known=0
    while IFS= read -r l1_allowed; do
        [ -n "$l1_allowed" ] && [[ "$l1_line" == *"$l1_allowed"* ]] && l1_known=1
    done <<<"$L1W_ALLOWED"
    [ "$l1_known" = 1 ] || printf '%s\n' "$l1_line" >>"$L1W/new.txt"
done <"$L1W/found.txt"
if [ -s "$L1W/new.txt" ]; then
    fail "l1_words: a sentence is built in wire/ (word it in report/words_wire.c through a kd_diag)" "$L1W/new.txt"
else
    ok "l1_words: no sentence built in wire/ beyond the $(grep -c . <<<"$L1W_ALLOWED") known ones"
fi
# The harness child's own failure is worded in report/ now: none of its sentences in wire/.
if grep -nE 'killed by signal|did not answer in time|broke the protocol|its last words|cannot fork' src/wire/*.c >"$L1W/child.txt"; then
    fail "l1_words: wire/ still words a child's failure" "$L1W/child.txt"
else
    ok "l1_words: a child's failure is worded only in report/words_wire.c"
fi
if grep -q 'its last words' src/report/words_wire.c; then ok "l1_words: report/words_wire.c holds the child's words"
else fail "l1_words: report/words_wire.c lacks the child's words" src/report/words_wire.c; fi
