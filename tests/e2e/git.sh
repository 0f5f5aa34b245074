# Sourced by run.sh: git mode with temporary repositories.
export GIT_CONFIG_NOSYSTEM=1 GIT_AUTHOR_NAME=t GIT_AUTHOR_EMAIL=t@example.com GIT_COMMITTER_NAME=t GIT_COMMITTER_EMAIL=t@example.com
REPO="$WORK/repo"
mkdir -p "$REPO/kernels/inc" "$REPO/other"
git -C "$REPO" init -q
printf '#define SCALE 2.0f\n' >"$REPO/kernels/inc/scale.h"
printf '#include "inc/scale.h"\n__global__ void k(const float *x, float *y, int n) { int i = threadIdx.x; if (i < n) y[i] = x[i] * SCALE; }\n' >"$REPO/kernels/k.cu"
git -C "$REPO" add . && git -C "$REPO" commit -qm one && git -C "$REPO" tag v1
# The second revision changes only the header the kernel includes.
printf '#define SCALE 2.0f\n#define EXTRA + 1.0f\n' >"$REPO/kernels/inc/scale.h"
sed -i 's/\* SCALE;/* SCALE EXTRA;/' "$REPO/kernels/k.cu"
git -C "$REPO" commit -qam two

(cd "$REPO/kernels" && "$KD" --json="$WORK/git_same.json" k.cu >"$WORK/git_same.out" 2>"$WORK/git_same.err"); st=$?
if [ $st -eq 0 ]; then ok "git_same: exit 0"; else fail "git_same: exit $st" "$WORK/git_same.err"; fi
has git_same out '^  v1: k\.cu @ HEAD \([0-9a-f]{7,}\) '
has git_same out '^  v2: k\.cu @ working copy '
has git_same out 'are identical \(file and includes\)'

# From another folder of the repository, the first revision against the second: the
# committed file must build against its own revision's header (v1 has no EXTRA macro).
(cd "$REPO/other" && "$KD" --at v1..HEAD --json="$WORK/git_refs.json" ../kernels/k.cu >"$WORK/git_refs.out" 2>"$WORK/git_refs.err"); st=$?
if [ $st -eq 0 ]; then ok "git_refs: exit 0 (each revision built with its own header)"; else fail "git_refs: exit $st" "$WORK/git_refs.err"; fi
has git_refs out '^  v1: \.\./kernels/k\.cu @ v1 \('
lacks git_refs out 'identical'
expect_json git_refs "$WORK/git_refs.json" 'any(r["key"] == "fma.rn.f32" and r["v1"] == 0 and r["v2"] == 1 for r in d["ptx"]["opcodes"])' True

printf '// work in progress\n' >>"$REPO/kernels/k.cu"
(cd "$REPO" && "$KD" --at HEAD~1 kernels/k.cu >"$WORK/git_at.out" 2>&1); st=$?
if [ $st -eq 0 ] && grep -q '@ HEAD~1 (' "$WORK/git_at.out"; then ok "git_at: HEAD~1 against the working copy"; else fail "git_at: exit $st" "$WORK/git_at.out"; fi

cp "$REPO/kernels/k.cu" "$REPO/kernels/untracked.cu"
(cd "$REPO" && "$KD" kernels/untracked.cu >/dev/null 2>"$WORK/git_untracked.err"); st=$?
if [ $st -eq 3 ] && grep -q 'not tracked by git' "$WORK/git_untracked.err"; then ok "git_untracked: exit 3, says so"; else fail "git_untracked: exit $st" "$WORK/git_untracked.err"; fi
(cd "$REPO" && "$KD" --at no-such-ref kernels/k.cu >/dev/null 2>"$WORK/git_badref.err"); st=$?
if [ $st -eq 3 ] && grep -q "unknown revision 'no-such-ref'" "$WORK/git_badref.err"; then ok "git_badref: exit 3, says so"; else fail "git_badref: exit $st" "$WORK/git_badref.err"; fi
mkdir -p "$WORK/norepo" && cp "$REPO/kernels/k.cu" "$WORK/norepo/"
(cd "$WORK/norepo" && GIT_CEILING_DIRECTORIES="$WORK" "$KD" k.cu >/dev/null 2>"$WORK/git_norepo.err"); st=$?
if [ $st -eq 3 ] && grep -q 'not inside a git repository' "$WORK/git_norepo.err"; then ok "git_norepo: exit 3, says so"; else fail "git_norepo: exit $st" "$WORK/git_norepo.err"; fi
run git_at_two_files 2 -- --at HEAD "$A" "$B"
has git_at_two_files err '--at compares revisions of one file'
