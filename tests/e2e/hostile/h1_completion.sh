# Issue 28, item 7: completions made from the option table: every command (app too), the
# one-letter options (-N), descriptions (zsh, fish) and the values of options with a fixed
# set; and the documented sentence that a .py side is executed. Sourced by tests/e2e/hostile.sh.
"$KD" --completion bash >"$WORK/h1_completion.bash"
h1_bash() { # h1_bash WANTED WORD...: what bash completes the last word to
    local want=$1; shift
    local got
    got=$(bash -c 'source "$1"; shift; COMP_WORDS=("$@"); COMP_CWORD=$((${#COMP_WORDS[@]} - 1)); _kerndiff; echo "${COMPREPLY[*]}"' \
        _ "$WORK/h1_completion.bash" kerndiff "$@" 2>&1)
    if [ "$got" = "$want" ]; then ok "h1_completion: bash completes '$*' to '$want'"; else
        fail "h1_completion: bash completes '$*' to '$got', wanted '$want'"; fi
}
h1_bash "v1 v2" --side ""
h1_bash "v2" --side = v2     # --side=v2: bash splits at '='
h1_bash "racecheck" --sanitize = r
h1_bash "fish" --completion f
h1_bash "fast full" --ncu-set ""
h1_bash "app" ap
h1_bash "compare" comp
h1_bash "-N" -N
h1_bash "--no-shell" --no-sh
h1_bash "" --fn ""           # a kernel name: nothing to offer, no files
mkdir -p "$WORK/h1_compl_dir.d"
h1_bash "$WORK/h1_compl_dir.d" -I "$WORK/h1_compl_dir"

"$KD" --completion zsh >"$WORK/h1_completion.zsh"
has_h1() { if grep -Eq -- "$2" "$WORK/$1"; then ok "$1 has /$2/"; else fail "$1 lacks /$2/" "$WORK/$1"; fi; }
has_h1 h1_completion.zsh "^    '--side=\[compare\\\\: which side of each saved run \(v2\)\]:value:\(v1 v2\)'$"
has_h1 h1_completion.zsh "^    '--max-time=\[stop measuring after S seconds \(10\)\]:value: '$"
has_h1 h1_completion.zsh "^    '--json=-\[write JSON .*\]::file:_files'$"
has_h1 h1_completion.zsh "^    '-N\[split each command into words"
has_h1 h1_completion.zsh "^    '-I\+\[add an include folder \(both sides\)\]:folder:_files -/'$"
has_h1 h1_completion.zsh "app\\\\:\"two programs'\\\\''"
if command -v zsh >/dev/null; then
    zsh -n "$WORK/h1_completion.zsh" 2>"$WORK/h1_zsh.err" && ok "h1_completion: zsh parses the script" ||
        fail "h1_completion: zsh" "$WORK/h1_zsh.err"
fi

"$KD" --completion fish >"$WORK/h1_completion.fish"
has_h1 h1_completion.fish "^complete -c kerndiff -l side -r -f -a 'v1 v2' -d 'compare: which side of each saved run \(v2\)'$"
has_h1 h1_completion.fish "^complete -c kerndiff -l no-shell -s N -d 'split each command"
has_h1 h1_completion.fish "^complete -c kerndiff -l html -r -F -d '"
has_h1 h1_completion.fish "^complete -c kerndiff -n __fish_use_subcommand -a app -d 'two programs\\\\' GPU activity, kernel by kernel'$"
if command -v fish >/dev/null; then
    h1_fish=$(fish -c 'source $argv[1]; complete -C "kerndiff --side "; complete -C "kerndiff ap"' "$WORK/h1_completion.fish" 2>&1 | cut -f1 | tr '\n' ' ')
    [ "$h1_fish" = "v1 v2 app " ] && ok "h1_completion: fish completes --side and app" ||
        fail "h1_completion: fish completes to '$h1_fish'"
fi

# Every option in the table has a description in zsh (its line of --help).
h1_undescribed=$(grep -c "^    '-[^[]*\[\]" "$WORK/h1_completion.zsh")
[ "$h1_undescribed" = 0 ] && ok "h1_completion: every zsh option has a description" ||
    fail "h1_completion: $h1_undescribed zsh options without a description" "$WORK/h1_completion.zsh"

# docs/OPTIONS.md says that a .py side is executed, also on a cache hit.
grep -q 'a `.py` side is executed.*' docs/OPTIONS.md && grep -q 'also when the build cache already holds' docs/OPTIONS.md &&
    ok "h1_docs: OPTIONS.md says a .py side is executed, also from the cache" ||
    fail "h1_docs: OPTIONS.md does not say that a .py side is executed"
