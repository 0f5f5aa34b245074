# kerndiff rank builds its candidates ahead of the gate on several cores (--jobs N, issue 32):
# every candidate still builds and gates as it would one after another (statuses, the broken
# one build_failed with nvcc's reason), each distinct text is one cache entry, and the builds
# overlap. No timing is asserted: an nvcc wrapper counts the compiles running when each one
# starts (a file per running compile), and the most seen must be above 1 with --jobs 3 and
# exactly 1 with --jobs 1. Then git refs as candidates: REV:FILE operands and --refs.
# Sourced by tests/e2e/rank.sh.
RP="$WORK/rank_parallel"
mkdir -p "$RP/cands" "$RP/running"
real_nvcc=$(command -v nvcc || echo /usr/local/cuda/bin/nvcc)
cat >"$RP/nvcc" <<SH
#!/bin/sh
[ "\$1" = --version ] && exec "$real_nvcc" --version
touch "$RP/running/\$\$"
ls "$RP/running" | wc -l >>"$RP/concurrency.log"
sleep 0.5
"$real_nvcc" "\$@"
rc=\$?
rm -f "$RP/running/\$\$"
exit \$rc
SH
chmod +x "$RP/nvcc"
for k in 1 2 3 4 5 6; do # distinct texts: a constant differs
    printf '__global__ void scale(const float *in, float *out, int n)\n{\n    int i = blockIdx.x * blockDim.x + threadIdx.x;\n    if (i < n)\n        out[i] = in[i] * %d.0f;\n}\n' "$k" >"$RP/cands/c$k.cu"
done
printf '__global__ void scale(const float *in, float *out, int n) { out[0] = ; }\n' >"$RP/cands/c7.cu"
cp "$RP/cands/c1.cu" "$RP/base.cu"
rp_specs="median=100us,cv=1%,seed=2;median=90us,cv=1%"
XDG_CACHE_HOME="$RP/cache" KERNDIFF_SIMULATE="$rp_specs" run rank_jobs 0 -- \
    rank --jobs 3 --nvcc "$RP/nvcc" --max-rounds 5 --json "$WORK/rank_jobs.json" "$RP/base.cu" "$RP/cands"
rexpect rank_jobs "$WORK/rank_jobs.json" 'sorted((c["name"], c["status"]) for c in d["candidates"])' \
    "[('c1.cu', 'faster'), ('c2.cu', 'faster'), ('c3.cu', 'faster'), ('c4.cu', 'faster'), ('c5.cu', 'faster'), ('c6.cu', 'faster'), ('c7.cu', 'build_failed')]"
has rank_jobs out 'c7\.cu +build_failed'
# base.cu and c1.cu are one text: one entry; c2..c6 one each; c7 none
rp_entries=$(ls "$RP/cache/kerndiff/builds" | wc -l)
if [ "$rp_entries" -eq 6 ]; then ok "rank_jobs: 6 cache entries for 7 files of 6 texts that build"
else fail "rank_jobs: $rp_entries cache entries, wanted 6"; fi
rp_most=$(sort -n "$RP/concurrency.log" | tail -n 1)
if [ "${rp_most:-0}" -gt 1 ]; then ok "rank_jobs: up to $rp_most compiles ran at once with --jobs 3"
else fail "rank_jobs: at most ${rp_most:-0} compile at once with --jobs 3" "$RP/concurrency.log"; fi
# the same rank again: every build a cache hit, no compile at all
: >"$RP/concurrency.log"
XDG_CACHE_HOME="$RP/cache" KERNDIFF_SIMULATE="$rp_specs" run rank_jobs_warm 0 -- \
    rank --jobs 3 --nvcc "$RP/nvcc" --max-rounds 5 "$RP/base.cu" "$RP/cands/c1.cu" "$RP/cands/c2.cu" "$RP/cands/c3.cu"
rp_compiles=$(wc -l <"$RP/concurrency.log")
if [ "$rp_compiles" -eq 0 ]; then ok "rank_jobs_warm: no compile with a warm cache"
else fail "rank_jobs_warm: $rp_compiles compiles with a warm cache"; fi
: >"$RP/concurrency.log"
XDG_CACHE_HOME="$RP/cache1" KERNDIFF_SIMULATE="$rp_specs" run rank_jobs1 0 -- \
    rank --jobs 1 --nvcc "$RP/nvcc" --max-rounds 5 "$RP/base.cu" "$RP/cands/c2.cu" "$RP/cands/c3.cu"
rp_most=$(sort -n "$RP/concurrency.log" | tail -n 1)
if [ "${rp_most:-0}" -eq 1 ]; then ok "rank_jobs1: one compile at a time with --jobs 1"
else fail "rank_jobs1: at most ${rp_most:-0} compiles at once with --jobs 1" "$RP/concurrency.log"; fi
run rank_bad_jobs 2 -- rank --jobs 0 "$RP/base.cu" "$RP/cands/c2.cu"
has rank_bad_jobs err 'jobs wants a whole number'

# Git refs: revisions of one file, each a candidate (REV:FILE, --refs); a ref that is not one is
# build_failed with git's reason; the first revision does not compile, and is build_failed
# (its own text is what is built, not the working copy's)
RG="$WORK/rank_git"
mkdir -p "$RG"
(
    cd "$RG" && git init -q . && git config user.email t@example.com && git config user.name t
    printf '__global__ void scale(const float *in, float *out, int n) { out[0] = ; }\n' >k.cu
    git add k.cu && git commit -q -m "k broken"
    for k in 1 2 3; do
        sed "s/\* 1\.0f/* $k.0f/" "$RP/cands/c1.cu" >k.cu
        git add k.cu && git commit -q -m "k $k"
    done
) >"$WORK/rank_git.setup" 2>&1
(cd "$RG" && KERNDIFF_SIMULATE="median=100us,cv=1%;median=90us,cv=1%" \
    "$KD" rank --max-rounds 5 --json "$WORK/rank_git.json" k.cu HEAD~2:k.cu --refs HEAD~1,HEAD~3 nosuchrev:k.cu \
    >"$WORK/rank_git.out" 2>"$WORK/rank_git.err" </dev/null)
rg_status=$?
if [ "$rg_status" -eq 0 ]; then ok "rank_git: exit 0"; else fail "rank_git: exit $rg_status" "$WORK/rank_git.err"; fi
rexpect rank_git "$WORK/rank_git.json" 'sorted((c["name"], c["status"]) for c in d["candidates"])' \
    "[('HEAD~1:k.cu', 'faster'), ('HEAD~2:k.cu', 'faster'), ('HEAD~3:k.cu', 'build_failed'), ('nosuchrev:k.cu', 'build_failed')]"
rexpect rank_git "$WORK/rank_git.json" '"nosuchrev" in {c["name"]: c["reason"] for c in d["candidates"]}["nosuchrev:k.cu"]' True
rexpect rank_git "$WORK/rank_git.json" '{c["name"]: c["reason"] for c in d["candidates"]}["HEAD~3:k.cu"] is not None' True
