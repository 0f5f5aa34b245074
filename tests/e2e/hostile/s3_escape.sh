# Escaping by format, everywhere (issue 40 items 4 and 6): names in Markdown open no tag or
# link, slurm.json's strings reach no terminal raw, CSV cells run no formula, an echoed value's
# newline forges no `kerndiff:` line, no TMPDIR reaches nvcc's shell, candidate symlinks are
# refused, misspelt knobs are said, bash completion keeps file names whole. One check (or a
# few) per defect; each failed before the change.
s3="$WORK/s3_escape"
mkdir -p "$s3"
S3_IMG='<img src=x onerror=alert(1)>'
S3_LINK='[x](javascript:alert(1))'

# --- Markdown: rank's table and pairwise list (names in code spans), with a candidate that is
# a symbolic link ranked because --follow-links says so
mkdir -p "$s3/cands"
cp examples/vector_loads/v2.cu "$s3/cands/$S3_IMG.cu"
cp examples/vector_loads/v2.cu "$s3/cands/$S3_LINK.cu"
ln -s "$s3/cands/$S3_LINK.cu" "$s3/cands/zlink.cu"
KERNDIFF_SIMULATE="median=100us,cv=1%,seed=5;median=80us,cv=1%;median=90us,cv=1%;median=85us,cv=1%" \
    run s3_rank_md 0 -- rank --follow-links --n 4096 --markdown "$s3/rank.md" "$A" "$s3/cands"
cp "$s3/rank.md" "$WORK/s3_rank_md.md"
has s3_rank_md md '^- `<img src=x onerror=alert\(1\)>\.cu` vs `'
# outside a code span, no raw tag and no link (a span is `...` without a backquote inside)
if sed 's/`[^`]*`//g' "$s3/rank.md" | grep -Eq '<img|\[x\]\(javascript'; then
    fail "s3_rank_md: a name outside a code span in Markdown" "$s3/rank.md"; else
    ok "s3_rank_md: every name in a code span"; fi
has s3_rank_md md '^\| [0-9] \| `zlink\.cu` \| faster'

# --- symbolic links among candidates: refused without --follow-links (a link to /etc/passwd
# was built, and nvcc quoted the file into the log)
mkdir -p "$s3/evil"
cp examples/vector_loads/v2.cu "$s3/evil/a.cu"
ln -s /etc/passwd "$s3/evil/passwd.cu"
run s3_symlink 3 -- rank --n 4096 "$A" "$s3/evil"
has s3_symlink err "the candidate '.*passwd\.cu' is a symbolic link: .*--follow-links"
lacks s3_symlink out 'root:'
run s3_symlink_file 3 -- rank --n 4096 "$A" "$s3/evil/passwd.cu"

# --- Markdown: compare's kernel-mismatch warning
KERNDIFF_SIMULATE="median=60us;median=50us" run s3_save 0 -- --n 64K --save "$s3/saved.json" "$A" "$B"
python3 - "$s3/saved.json" "$s3/other.json" "$S3_IMG$S3_LINK" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
for s in d["sides"]:
    s["kernel"] = sys.argv[3]
json.dump(d, open(sys.argv[2], "w"))
PY
run s3_compare_md 0 -- compare --markdown "$s3/other.json" "$s3/saved.json"
has s3_compare_md out 'WARNING: the saved runs timed different kernels, &lt;img src=x onerror=alert\(1\)>\[x&#93;\(javascript'
lacks s3_compare_md out 'WARNING.*(<img|\]\()'

# --- Markdown: app's kernel table
python3 tests/e2e/make_nsys_sqlite.py "$s3/a.sqlite" three && python3 tests/e2e/make_nsys_sqlite.py "$s3/b.sqlite" fused
python3 - "$s3/a.sqlite" "$s3/b.sqlite" "$S3_IMG$S3_LINK" <<'PY'
import sqlite3, sys
for f in sys.argv[1:3]:
    db = sqlite3.connect(f)
    db.execute("UPDATE StringIds SET value = ? WHERE id IN (1, 4)", (sys.argv[3],))
    db.commit()
PY
run s3_app_md 0 -- app --steps 10 --markdown "$s3/app.md" "$s3/a.sqlite" "$s3/b.sqlite"
cp "$s3/app.md" "$WORK/s3_app_md.md"
has s3_app_md md '^\| `<img src=x onerror=alert\(1\)>\[x\]\(javascript:alert\(1\)\)` \| '
if sed 's/`[^`]*`//g' "$s3/app.md" | grep -Eq '<img|\[x\]\(javascript'; then
    fail "s3_app_md: a kernel name outside a code span" "$s3/app.md"; else ok "s3_app_md: kernel names in code spans"; fi

# --- --merge: slurm.json's strings shown escaped on the terminal
mkdir -p "$s3/slurm"
python3 - "$s3/slurm/slurm.json" <<'PY'
import json, sys
json.dump({"kerndiff": "rank-slurm", "version": 1, "shards": 1, "sbatch": "", "cwd": "",
           "command": ["kerndiff", "rank", "b\x1b]0;pwned\x07.cu", "c\nkerndiff: forged"],
           "jobs": ["12\x1b[2J_0"]}, open(sys.argv[1], "w"))
PY
# (a task id that is no Slurm's is refused whole since slurm.json is validated: exit 3)
run s3_merge 3 -- rank --merge "$s3/slurm"
if grep -q $'\033' "$WORK/s3_merge.err"; then fail "s3_merge: an ESC byte on stderr" "$WORK/s3_merge.err"; else
    ok "s3_merge: no ESC byte on stderr"; fi
lacks s3_merge err '^kerndiff: forged'
# valid task ids, control characters in the command's words: merged (no shard: exit 5), and
# nothing of them reaches the terminal raw
python3 - "$s3/slurm/slurm.json" "$s3" <<'PY'
import json, sys
json.dump({"kerndiff": "rank-slurm", "version": 1, "shards": 1, "sbatch": "", "cwd": sys.argv[2],
           "command": ["kerndiff", "rank", "b\x1b]0;pwned\x07.cu", "c\nkerndiff: forged"],
           "jobs": ["12_0"]}, open(sys.argv[1], "w"))
PY
run s3_merge_words 5 -- rank --merge "$s3/slurm"
if grep -q $'\033' "$WORK/s3_merge_words.err" "$WORK/s3_merge_words.out"; then
    fail "s3_merge_words: an ESC byte on the terminal" "$WORK/s3_merge_words.err"; else ok "s3_merge_words: no ESC byte"; fi
lacks s3_merge_words err '^kerndiff: forged'
lacks s3_merge_words out '^kerndiff: forged'

# --- CSV: a --sweep value a spreadsheet would run is written as text (a -D macro the kernel
# does not use, so that every point builds)
run s3_csv 0 -- --sweep 'S3_UNUSED=1024,=1+2,-4+5,-3' --csv "$s3/sweep.csv" "$A" "$B"
cp "$s3/sweep.csv" "$WORK/s3_csv.csv"
has s3_csv csv "^S3_UNUSED,\"'=1\+2\","
has s3_csv csv "^S3_UNUSED,\"'-4\+5\","
has s3_csv csv '^S3_UNUSED,1024,'
has s3_csv csv '^S3_UNUSED,-3,' # a number stays a number
lacks s3_csv csv '^S3_UNUSED,[=@+]'

# --- stderr: a newline in an echoed --at / --arg / --call value cannot forge a line
mkdir -p "$s3/git"
cp "$A" "$s3/git/k.cu"
git -C "$s3/git" init -q && git -C "$s3/git" add k.cu &&
    git -C "$s3/git" -c user.email=t@t -c user.name=t commit -qm k
run s3_at_newline 3 -- --at $'HEAD\nkerndiff: forged' "$s3/git/k.cu"
lacks s3_at_newline err '^kerndiff: forged'
has s3_at_newline err "unknown revision 'HEAD\\\\x0akerndiff: forged'"
KERNDIFF_SIMULATE="median=60us;median=50us" run s3_arg_newline 3 -- --arg $'nn=1\nkerndiff: forged' "$A" "$B"
lacks s3_arg_newline err '^kerndiff: forged'
lacks s3_arg_newline out '^kerndiff: forged'
KERNDIFF_SIMULATE="median=60us;median=50us" run s3_call_newline 3 -- --call $'v1:n=1\nkerndiff: forged' "$A" "$B"
lacks s3_call_newline err '^kerndiff: forged'

# --- TMPDIR with $(...): never reaches nvcc's shell (nvcc runs its steps through one)
if command -v nvcc >/dev/null; then
    s3_tmp="$s3/t\$(touch $s3/pwned)"
    mkdir -p "$s3_tmp"
    TMPDIR="$s3_tmp" run s3_tmpdir 0 -- --no-cache "$A" "$B"
    if [ -e "$s3/pwned" ]; then fail "s3_tmpdir: \$(...) in TMPDIR ran"; else ok "s3_tmpdir: \$(...) in TMPDIR did not run"; fi
    has s3_tmpdir err "^kerndiff: TMPDIR '.*' holds characters a shell splits or acts on"
fi

# --- misspelt knobs: a value refused with the values it takes, an unknown name warned about
KERNDIFF_TIMER=evnts run s3_knob_value 2 -- --no-run "$A" "$B"
has s3_knob_value err "^kerndiff: KERNDIFF_TIMER='evnts' is not a value KERNDIFF_TIMER takes \(events"
KERNDIFF_TIMR=events run s3_knob_name 0 -- --no-run "$A" "$B"
has s3_knob_name err "'KERNDIFF_TIMR' is not a variable kerndiff reads: it has no effect; did you mean 'KERNDIFF_TIMER'"
KERNDIFF_FOO=1 run s3_knob_unknown 0 -- --no-run "$A" "$B"
has s3_knob_unknown err "'KERNDIFF_FOO' is not a variable kerndiff reads.*KERNDIFF_TIMER"

# --- bash completion: a file name with a space is one candidate, a file named '*.cu' is not
# expanded to every .cu file
mkdir -p "$s3/compl"
touch "$s3/compl/c d.cu" "$s3/compl/*.cu" "$s3/compl/x.cu"
(cd "$s3/compl" && bash -c 'source <("$1" --completion bash)
    COMP_WORDS=(kerndiff x.cu c); COMP_CWORD=2; _kerndiff; printf "[%s]" "${COMPREPLY[@]}"; echo
    COMP_WORDS=(kerndiff x.cu "*"); COMP_CWORD=2; _kerndiff; printf "[%s]" "${COMPREPLY[@]}"; echo' _ "$KD") \
    >"$WORK/s3_completion.out" 2>&1
has s3_completion out '^\[c d\.cu\]$'
has s3_completion out '^\[\*\.cu\]$'

# --- rank's confidence per candidate: with 201 candidates at 99% family-wise it is 99.995%,
# which "%.4g" wrote as "100%"
mkdir -p "$s3/many"
for i in $(seq 201); do cp examples/vector_loads/v2.cu "$s3/many/c$i.cu"; done
KERNDIFF_SIMULATE="median=100us,cv=1%,seed=5;median=90us,cv=1%" run s3_family 0 -- rank --n 4096 "$A" "$s3/many"
has s3_family out '\(99% family-wise, 99\.995[0-9]*% each\)'
lacks s3_family out '100% each'
