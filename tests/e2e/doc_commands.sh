# Sourced by run.sh (issue 41 item 6): every command line in README.md, examples/README.md and
# docs/*.md is run here, so the documentation cannot fall behind the tool.
#
# A command line is a line of a fenced code block that starts with kerndiff, build/kerndiff,
# make or scripts/*.sh (after a `$ ` prompt; in a block with prompts, only the prompted lines:
# the rest is output), cut at a trailing comment (`  #`) or an aligned description (3 spaces).
# Each is run without a GPU (KERNDIFF_NO_GPU=1), in a folder of its own where examples/ is the
# repository's, and must exit with its documented status:
#   - every file it names exists (the examples): 0;
#   - a placeholder file (a.cu, old.cu, base.cu ...): 3 with "cannot read" (an input error),
#     which shows that the whole command line was parsed (a bad option exits 2 first);
#   - make TARGET: `make -n TARGET` succeeds (the target exists; nothing is built);
#   - a synopsis (`[options]`, FILE, CMD, REF ...): its options only.
# Every long or short option of every command line must be one the tool knows (its completion
# table, as tests/e2e/docs.sh reads it). Lines that cannot run here are in doc_skip below, each
# with why, and still have their options checked.
dc_dir=$WORK/doc_commands
mkdir -p "$dc_dir/run"
ln -sfn "$ROOT/examples" "$dc_dir/run/examples"

# doc_skip CMD WANT: the reason a documented command line is not run here, or nothing. WANT is
# the status the line must exit with (3: it names a placeholder file), which --watch and app
# check before anything runs or waits: such a line is run, and must say "cannot read".
doc_skip() {
    case "$1" in
    scripts/install-deps.sh*) echo "installs packages from the network (apt-get, pip); bash -n checks it parses" ;;
    *--watch*) [ "$2" = 3 ] || echo "--watch runs until interrupted when its files exist" ;;
    *--slurm*) echo "submits to a Slurm cluster" ;;
    "kerndiff app "*) [ "$2" = 3 ] || echo "app runs the named programs (or reads nsys profiles) under nsys on a GPU" ;;
    "kerndiff capture "*) echo "capture runs the program on a GPU (without one it exits 5, said)" ;;
    esac
}

python3 - "$dc_dir/lines.tsv" <<'PY'
import glob, re, sys
files = ['README.md', 'examples/README.md'] + sorted(glob.glob('docs/*.md'))
out = open(sys.argv[1], 'w')
for f in files:
    block, inblock = [], False
    for i, line in enumerate(open(f, encoding='utf-8'), 1):
        if line.startswith('```'):
            if inblock:
                prompts = any(l.strip().startswith('$ ') for _, l in block)
                for n, l in block:
                    l = l.strip()
                    if prompts and not l.startswith('$ '):
                        continue  # the output under a prompt's command
                    l = l[2:] if l.startswith('$ ') else l
                    if not re.match(r'(sudo )?(kerndiff|build/kerndiff|make|scripts/[\w.-]+\.sh)( |$)', l):
                        continue
                    m = re.search(r"\s{2,}#|\s{3,}", l)
                    cmd = l[:m.start()].rstrip() if m else l
                    synopsis = re.search(r'\[|\b(FILE|CMD\d?|REF\d?|V\d|BUILD|A\.\.B)\b', cmd)
                    out.write(f"{f}:{n}\t{'synopsis' if synopsis else 'cmd'}\t{cmd}\n")
            block, inblock = [], not inblock
            continue
        if inblock:
            block.append((i, line.rstrip('\n')))
PY
dc_total=$(wc -l <"$dc_dir/lines.tsv")
[ "$dc_total" -ge 40 ] && ok "doc_commands: $dc_total command lines found in README.md and docs" ||
    fail "doc_commands: only $dc_total command lines found (the extraction broke?)" "$dc_dir/lines.tsv"

# The options the tool knows: its completion table (every command's), short ones included.
"$KD" --completion bash >"$dc_dir/completion.bash"
dc_known=" $(grep -o -- ' -[-a-zA-Z][a-z0-9-]*' "$dc_dir/completion.bash" | sort -u | tr '\n' ' ') "

dc_ran=0 dc_skipped=0 dc_bad_options=""
dc_n=0
while IFS=$'\t' read -r dc_where dc_kind dc_cmd; do
    dc_n=$((dc_n + 1))
    # options: every -x / --long token before a ` -- ` (what follows is the program's)
    dc_opts=$(printf '%s\n' "${dc_cmd%% -- *}" | sed "s/'[^']*'//g; s/\"[^\"]*\"//g" | grep -o -- ' --\?[a-zA-Z][a-z0-9-]*' | sort -u)
    case "$dc_cmd" in make* | "sudo make"* | scripts/*) dc_opts="" ;; esac # make's and the script's own
    for o in $dc_opts; do
        [[ "$dc_known" == *" $o "* ]] || dc_bad_options="$dc_bad_options $dc_where:$o"
    done
    [ "$dc_kind" = synopsis ] && continue
    # the files it names: all there (run it, exit 0), or a placeholder (exit 3, "cannot read")
    dc_want=0
    for w in $(printf '%s\n' "$dc_cmd" | sed "s/'[^']*'//g; s/\"[^\"]*\"//g"); do
        case "$w" in -* | *=*) continue ;; esac
        case "$w" in *.cu | *.py | *.ptx | *.cubin | *.sqlite | *.kdcap | */)
            [ -e "$dc_dir/run/${w#*:}" ] || dc_want=3 ;;
        esac
        case "$w" in yesterday.json | today.json) dc_want=3 ;; esac # compare's two saved runs
    done
    case "$dc_cmd" in *"--merge "*) dc_want=3 ;; esac # the folder a Slurm job made
    dc_why=$(doc_skip "${dc_cmd#build/}" "$dc_want")
    if [ -n "$dc_why" ]; then
        echo "skip doc_commands: $dc_where: $dc_cmd: $dc_why"
        dc_skipped=$((dc_skipped + 1))
        case "$dc_cmd" in scripts/*.sh*)
            if bash -n "${dc_cmd%% *}" 2>"$dc_dir/script.err"; then ok "doc_commands: $dc_where: ${dc_cmd%% *} parses"; else
                fail "doc_commands: $dc_where: ${dc_cmd%% *} does not parse" "$dc_dir/script.err"; fi ;;
        esac
        continue
    fi
    dc_out=$dc_dir/$dc_n
    case "$dc_cmd" in
    make* | "sudo make"*)
        dc_targets=${dc_cmd#sudo }
        dc_targets=${dc_targets#make}
        if make -n -C "$ROOT" $dc_targets >"$dc_out.out" 2>"$dc_out.err" </dev/null; then
            ok "doc_commands: $dc_where: make -n$dc_targets"; else
            fail "doc_commands: $dc_where: make -n$dc_targets fails" "$dc_out.err"; fi
        dc_ran=$((dc_ran + 1))
        continue ;;
    esac
    (cd "$dc_dir/run" && KERNDIFF_NO_GPU=1 timeout 300 bash -c "kerndiff() { \"$KD\" \"\$@\"; }; ${dc_cmd#build/}" \
        >"$dc_out.out" 2>"$dc_out.err" </dev/null)
    dc_got=$?
    dc_ran=$((dc_ran + 1))
    if [ "$dc_got" -ne "$dc_want" ]; then
        fail "doc_commands: $dc_where: '$dc_cmd' exits $dc_got, wanted $dc_want" "$dc_out.err"
    elif [ "$dc_want" -eq 3 ] && ! grep -Eq "cannot read|cannot be read|No such file" "$dc_out.err"; then
        fail "doc_commands: $dc_where: '$dc_cmd' exits 3 but not for its placeholder file" "$dc_out.err"
    else
        ok "doc_commands: $dc_where: exit $dc_want: $dc_cmd"
    fi
done <"$dc_dir/lines.tsv"
echo "doc_commands: $dc_ran run, $dc_skipped skipped (reasons above), $dc_total in all"
if [ -z "$dc_bad_options" ]; then ok "doc_commands: every documented option is one the tool knows"; else
    fail "doc_commands: options the tool does not know:$dc_bad_options"; fi

# Counts the docs state that the tree can check: examples/README.md's number of pairs (the
# folders with two kernel files) and its table's rows (the CUDA pairs at the top level).
dc_pairs=0
for d in $(find examples -type d); do
    [ "$(find "$d" -maxdepth 1 -type f \( -name '*.cu' -o -name '*.py' \) | wc -l)" -eq 2 ] && dc_pairs=$((dc_pairs + 1))
done
dc_words=(zero one two three four five six seven eight nine ten eleven twelve thirteen fourteen fifteen sixteen
    seventeen eighteen nineteen twenty)
dc_said=$(sed -n '3p' examples/README.md | grep -oiE '^[a-z]+' | tr 'A-Z' 'a-z')
if [ "$dc_said" = "${dc_words[$dc_pairs]:-$dc_pairs}" ]; then ok "doc_commands: examples/README.md says $dc_said pairs"; else
    fail "doc_commands: examples/README.md says '$dc_said' pairs, examples/ has $dc_pairs"; fi
dc_rows=$(grep -cE '^\| `[a-z_]+` \|' examples/README.md)
dc_cuda=$(find examples -mindepth 2 -maxdepth 2 -name v1.cu | wc -l)
dc_table_pairs=$(find examples -mindepth 1 -maxdepth 1 -type d ! -name triton ! -name regions | wc -l)
if [ "$dc_rows" -eq "$dc_table_pairs" ]; then ok "doc_commands: examples/README.md's table has the $dc_rows top-level pairs"; else
    fail "doc_commands: examples/README.md's table has $dc_rows rows, examples/ has $dc_table_pairs top-level pairs ($dc_cuda v1.cu)"; fi

# What docs/OPTIONS.md says of an empty side of --at A..B is what the tool does (it said "an
# empty side means HEAD" while the tool exits 3).
grep -qF '`..B` or `A..` is refused (exit 3)' docs/OPTIONS.md && ok "doc_commands: OPTIONS.md: --at's empty side is refused" ||
    fail "doc_commands: docs/OPTIONS.md no longer says what --at ..B does"
for dc_at in ..HEAD HEAD..; do
    run "doc_at_$dc_at" 3 -- --at "$dc_at" examples/vector_loads/v1.cu
    has "doc_at_$dc_at" err "^kerndiff: --at '$dc_at': the range names no revision"
done
