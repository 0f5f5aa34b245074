# Untrusted text (issue 28 item 2): a file name, a --fn value and a saved run's strings with
# terminal escape sequences, bidi overrides, newlines and table pipes reach no output raw,
# in the terminal (with and without colour) and in Markdown; they are shown escaped.
ESC=$'\033'
# h2_no_esc NAME: neither stream of run NAME holds an ESC byte
h2_no_esc() {
    local f n
    for f in "$WORK/$1.out" "$WORK/$1.err"; do
        n=$(grep -c "$ESC" "$f")
        if [ "$n" -eq 0 ]; then ok "$1: no ESC byte in ${f##*.}"; else fail "$1: $n lines with an ESC byte in ${f##*.}" "$f"; fi
    done
}

h2_dir="$WORK/h2_untrusted"
mkdir -p "$h2_dir"
h2_evil="$h2_dir/k${ESC}[31m${ESC}]0;pwned"$'\a'"${ESC}[2J.cu"
cp examples/vector_loads/v1.cu "$h2_evil"
for h2_mode in plain no_color markdown brief; do
    case $h2_mode in
        plain) h2_flags=() ;;
        no_color) h2_flags=(--no-color) ;;
        markdown) h2_flags=(--markdown) ;;
        brief) h2_flags=(--brief) ;;
    esac
    run "h2_esc_name_$h2_mode" 0 -- "${h2_flags[@]}" "$h2_evil" "$B"
    h2_no_esc "h2_esc_name_$h2_mode"
done
has h2_esc_name_plain out '^  v1: .*k\\x1b\[31m\\x1b\]0;pwned\\x07\\x1b\[2J\.cu'
has h2_esc_name_markdown out '^- v1: `.*k\\x1b\[31m\\x1b\]0;pwned\\x07\\x1b\[2J\.cu`'

# --fn with an escape sequence: refused (no such kernel); the report never shows it raw.
run h2_esc_fn 3 -- --fn "saxpy${ESC}]0;pwned"$'\a' "$A" "$B"
has h2_esc_fn err 'no kernel named'
if [ "$(grep -c "$ESC" "$WORK/h2_esc_fn.out")" -eq 0 ]; then ok "h2_esc_fn: no ESC byte in out"; else
    fail "h2_esc_fn: ESC in out" "$WORK/h2_esc_fn.out"; fi

# A saved run whose path, label, kernel and arch carry escapes, a bidi override, a newline
# and Markdown's pipe and backtick, compared with `kerndiff compare`.
run h2_save 0 -- --save "$h2_dir/saved.json" "$A" "$B"
python3 - "$h2_dir/saved.json" "$h2_dir/evil.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
E = "\x1b"
for s in d["sides"]:
    s["path"] = f"evil{E}]0;title\x07{E}[2J\u202e|`x.cu"
    s["label"] = f"v{E}[5m\nfake line"
    s["kernel"] = f"k{E}[31m|"
d["arch"]["name"] = f"sm_90{E}[1m"
json.dump(d, open(sys.argv[2], "w"))
PY
for h2_mode in plain no_color markdown; do
    case $h2_mode in
        plain) h2_flags=() ;;
        no_color) h2_flags=(--no-color) ;;
        markdown) h2_flags=(--markdown) ;;
    esac
    run "h2_esc_saved_$h2_mode" 0 -- compare "${h2_flags[@]}" "$h2_dir/evil.json" "$h2_dir/saved.json"
    h2_no_esc "h2_esc_saved_$h2_mode"
    lacks "h2_esc_saved_$h2_mode" out $'\u202e'
done
has h2_esc_saved_plain out 'evil\\x1b\]0;title\\x07\\x1b\[2J\\u202e\|`x\.cu'
# Markdown: the pipe and backtick cannot end the code span or split the table row
has h2_esc_saved_markdown out '^- v1: `[^`]*evil\\x1b\]0;title\\x07\\x1b\[2J\\u202e\\x7c\\x60x\.cu[^`]*` '
lacks h2_esc_saved_markdown out '^fake line'

# With colour on (a terminal, through script(1)): kerndiff's own colour codes, none of the
# injected sequences. script(1) runs its command with $SHELL, and printf %q quotes in bash's
# $'...' form, which dash (CI's /bin/sh) takes literally: the shell is named.
if command -v script >/dev/null; then
    env -u NO_COLOR SHELL=/bin/bash script -qec "$(printf '%q ' "$KD" compare "$h2_dir/evil.json" "$h2_dir/saved.json")" /dev/null \
        >"$WORK/h2_esc_tty.out" 2>&1 </dev/null
    if [ "$(grep -c "$ESC\[1m" "$WORK/h2_esc_tty.out")" -gt 0 ]; then ok "h2_esc_tty: colour on"; else
        fail "h2_esc_tty: no colour on a terminal" "$WORK/h2_esc_tty.out"; fi
    lacks h2_esc_tty out "$ESC\]0;|$ESC\[2J|$ESC\[5m"
    has h2_esc_tty out 'evil\\x1b\]0;title'
    "$KD" "$h2_evil" "$B" >/dev/null 2>&1 # built once, so the terminal run below is quick
    env -u NO_COLOR SHELL=/bin/bash script -qec "$(printf '%q ' "$KD" "$h2_evil" "$B")" /dev/null >"$WORK/h2_esc_tty_name.out" 2>&1 </dev/null
    lacks h2_esc_tty_name out "$ESC\]0;|$ESC\[2J"
    has h2_esc_tty_name out 'k\\x1b\[31m\\x1b\]0;pwned'
fi
