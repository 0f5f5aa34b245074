# s2: every file a command reads back is validated as `compare` validates a saved run (issue 40,
# item 2 and the "Silent wrong" and "Hang" bullets): rank's shard files and slurm.json for
# --merge, nsys profiles for `kerndiff app`, capture files, ptxas's report; and a candidate that
# failed is never ranked (item 3). Sourced by tests/e2e/hostile.sh: run/has/lacks/ok/fail,
# $KD, $WORK, $A/$B from run.sh.
s2_py() { python3 - "$@"; }

# --- rank --merge: shards made by --shard I/3, a manifest as --slurm writes it -------------
S2=$WORK/s2_merge
s2_base=$(realpath "$A") # the shards run in $S2: the baseline by its absolute path
mkdir -p "$S2/cands"
for i in 1 2 3 4; do { cat "$B"; echo "// candidate $i"; } >"$S2/cands/c$i.cu"; done
s2_shards() { # DIR: the three shards of the rank of $S2/cands, and its manifest
    mkdir -p "$1"
    for i in 0 1 2; do
        (cd "$S2" && KERNDIFF_SIMULATE="median=100us,cv=1%;median=80us,cv=1%" "$KD" rank --n 4096 --shard $i/3 --seed 7 \
            --json "$1/shard-$i.json" "$s2_base" cands >/dev/null 2>&1)
    done
    s2_py "$1" "$S2" "$s2_base" <<'PY'
import json, sys
json.dump({"kerndiff": "rank-slurm", "shards": 3, "sbatch": "", "cwd": sys.argv[2], "jobs": [None] * 3,
           "command": ["kerndiff", "rank", "--seed", "7", sys.argv[3], "cands"]}, open(sys.argv[1] + "/slurm.json", "w"))
PY
}
s2_shards "$S2/good"
run s2_merge_good 0 -- rank --merge "$S2/good"
has s2_merge_good out '^kerndiff rank: 4 candidates against'
# which shard holds candidates (the seed puts c2 and c4 in heat 0, c1 and c3 in heat 1, none in 2)
s2_full=$(s2_py "$S2/good" <<'PY'
import json, sys
print(min(i for i in range(3) if json.load(open(f"{sys.argv[1]}/shard-{i}.json"))["candidates"]))
PY
)
s2_variant() { # NAME PYTHON: a copy of the good merge folder whose shard $s2_full is changed by PYTHON (on h)
    rm -rf "$S2/$1"; cp -r "$S2/good" "$S2/$1"
    s2_py "$S2/$1/shard-$s2_full.json" "$2" <<'PY'
import json, sys
h = json.load(open(sys.argv[1]))
exec(sys.argv[2])
json.dump(h, open(sys.argv[1], "w"))
PY
}
# a shard edited to 1e-300 ns samples: refused as compare refuses them, never "faster 9.98e+301x"
s2_variant tiny 'h["candidates"][0]["gpus"][0]["cand"] = [1e-300] * len(h["candidates"][0]["gpus"][0]["cand"])'
run s2_merge_tiny 5 -- rank --merge "$S2/tiny"
has s2_merge_tiny err "shard $s2_full of 3 .*does not read: .*cand\[0\] is 1e-300 ns, not a plausible kernel time"
lacks s2_merge_tiny out 'faster'
# an emptied shard: its candidates are named, never silently dropped
s2_variant emptied 'h["candidates"] = []'
run s2_merge_emptied 5 -- rank --merge "$S2/emptied"
has s2_merge_emptied err "shard $s2_full of 3 .*does not read: it lacks its candidate cands/c[0-9]\.cu"
lacks s2_merge_emptied out 'candidates against'
# a candidate listed twice: refused, never ranked twice
s2_variant dup 'h["candidates"].append(h["candidates"][0])'
run s2_merge_dup 5 -- rank --merge "$S2/dup"
has s2_merge_dup err "shard $s2_full of 3 .*does not read: candidate cands/c[0-9]\.cu is listed twice"
lacks s2_merge_dup out 'candidates against'
# a timed candidate carrying a crash's reason (a hand-edited shard) is not ranked
s2_variant reason 'h["candidates"][0]["reason"] = "timing the candidate: the harness was killed by signal 11"'
run s2_merge_reason 5 -- rank --merge "$S2/reason"
has s2_merge_reason err "gate is 'same' but it has a failure's reason"
# one shard re-run against a renamed candidate set: the sets differ, nothing is merged
rm -rf "$S2/renamed"; cp -r "$S2/good" "$S2/renamed"
mv "$S2/cands/c1.cu" "$S2/cands/d1.cu"
(cd "$S2" && KERNDIFF_SIMULATE="median=100us,cv=1%;median=80us,cv=1%" "$KD" rank --n 4096 --shard 1/3 --seed 7 \
    --json "$S2/renamed/shard-1.json" "$s2_base" cands >/dev/null 2>&1)
run s2_merge_renamed 5 -- rank --merge "$S2/renamed"
has s2_merge_renamed err 'the shards ran different candidate sets|cands/c1\.cu cannot be read now'
lacks s2_merge_renamed out 'candidates against'
mv "$S2/cands/d1.cu" "$S2/cands/c1.cu"
# a candidate edited since its shard ran: refused with its name
echo '// edited' >>"$S2/cands/c2.cu"
run s2_merge_edited 5 -- rank --merge "$S2/good"
has s2_merge_edited err 'its candidate .*cands/c2\.cu changed since the shard ran it'
sed -i '$d' "$S2/cands/c2.cu"
run s2_merge_restored 0 -- rank --merge "$S2/good"
# a FIFO shard: refused at once, never opened for a blocking read (it hung --merge forever)
rm -rf "$S2/fifo"; cp -r "$S2/good" "$S2/fifo"; rm "$S2/fifo/shard-2.json"; mkfifo "$S2/fifo/shard-2.json"
printf '#!/bin/sh\nexec timeout 20 "%s" "$@"\n' "$KD" >"$WORK/s2_kd_timeout"; chmod +x "$WORK/s2_kd_timeout"
s2_kd=$KD; KD=$WORK/s2_kd_timeout
run s2_merge_fifo 5 -- rank --merge "$S2/fifo"
KD=$s2_kd
has s2_merge_fifo err 'shard 2 of 3 .*does not read: not a regular file'
# slurm.json of the wrong types or with a terminal's escape in a task id: refused whole
s2_py "$S2/good/slurm.json" "$S2" <<'PY'
import json, sys, os
m = json.load(open(sys.argv[1]))
for name, change in [("esc", {"jobs": ["1\u001b[31m_0", None, None]}), ("types", {"command": ["kerndiff", 7]}),
                     ("cwd", {"cwd": 5})]:
    d = sys.argv[2] + "/m_" + name; os.makedirs(d, exist_ok=True)
    json.dump(dict(m, **change), open(d + "/slurm.json", "w"))
PY
run s2_manifest_esc 3 -- rank --merge "$S2/m_esc"
has s2_manifest_esc err 'jobs holds something other than Slurm task ids'
run s2_manifest_types 3 -- rank --merge "$S2/m_types"
has s2_manifest_types err 'command holds something other than words'
run s2_manifest_cwd 3 -- rank --merge "$S2/m_cwd"
has s2_manifest_cwd err 'cwd is not an absolute path'

# --- rank: a candidate that failed is never ranked, in any format, its reason in words ------
S2R=$WORK/s2_rank
mkdir -p "$S2R/cands"
for i in 1 2 3; do { cat "$B"; echo "// candidate $i"; } >"$S2R/cands/c$i.cu"; done
printf '__global__ void broken(float *x) { x[0] = ; }\n' >"$S2R/cands/c4.cu"
# c1 is the fastest but its harness crashes mid-race (its 30th sample); c4 does not build
KERNDIFF_SIMULATE="median=100us,cv=1%;median=60us,cv=1%,crash_at=30;median=90us,cv=1%" run s2_rank_crash 0 -- rank \
    --n 4096 --json "$S2R/r.json" --markdown "$S2R/r.md" --html "$S2R/r.html" "$A" "$S2R/cands"
has s2_rank_crash out '^  c1\.cu +run_failed +timing the candidate: the harness was killed by signal 11'
lacks s2_rank_crash out '^ +[0-9]+ +c1\.cu'
# a build failure's reason is nvcc's first error line, not "build"
has s2_rank_crash out '^  c4\.cu +build_failed +.*c4\.cu\(1\): error: expected an expression$'
lacks s2_rank_crash out 'build_failed +build$'
s2_py "$S2R/r.json" "$S2R/r.md" "$S2R/r.html" >"$WORK/s2_rank_formats.txt" 2>&1 <<'PY'
import json, re, sys
d = json.load(open(sys.argv[1]))
c = {x["name"]: x for x in d["candidates"]}["c1.cu"]
assert c["status"] == "run_failed" and c["rank"] == 0 and c["speedup"] is None, c
# no interval of a failed candidate anywhere, not even per GPU
assert all(g["speedup"] is None for g in c["gpus"]), c["gpus"]
assert "signal 11" in c["reason"], c
b = {x["name"]: x for x in d["candidates"]}["c4.cu"]
assert b["status"] == "build_failed" and "error: expected an expression" in b["reason"], b
md = open(sys.argv[2]).read()
assert re.search(r"^\| - \| `c1\.cu` \| run_failed \| - \| timing the candidate: the harness was killed by signal 11", md, re.M), md
html = open(sys.argv[3]).read()
assert re.search(r"<td>-</td><td>[^<]*c1\.cu</td><td>run_failed</td>", html), "html"
print("formats ok")
PY
if grep -q '^formats ok$' "$WORK/s2_rank_formats.txt"; then ok "s2_rank_crash: JSON, Markdown and HTML rank no failed candidate"
else fail "s2_rank_crash: a failed candidate ranked or without its reason" "$WORK/s2_rank_formats.txt"; fi

# --- ptxas's report worded otherwise: registers unknown (?), never 0, no occupancy from them --
if s2_real_nvcc=$(command -v nvcc); then
    printf '#!/bin/sh\nerr=$(mktemp); "%s" "$@" 2>"$err"; rc=$?\nsed "s/Used \\([0-9]*\\) registers/Used \\1 regs/" "$err" >&2; rm -f "$err"; exit $rc\n' \
        "$s2_real_nvcc" >"$WORK/s2_nvcc"
    chmod +x "$WORK/s2_nvcc"
    # a cache of its own: the reworded report must not reach another test's builds
    XDG_CACHE_HOME="$WORK/s2_nvcc_cache" KERNDIFF_SIMULATE="median=100us;median=80us" run s2_ptxas_reworded 0 -- \
        --n 64K --nvcc "$WORK/s2_nvcc" "$A" "$B"
    has s2_ptxas_reworded out '^  registers/thread +\? +\?'
    lacks s2_ptxas_reworded out '^  registers/thread +0 '
    lacks s2_ptxas_reworded out '^  occupancy +[0-9]'
fi

# --- kerndiff app: nsys profiles checked before any value is read; a non-SQLite file named as
# a profile is refused, never run as a command -------------------------------------------------
python3 tests/e2e/make_nsys_sqlite.py "$WORK/s2_a.sqlite" three && python3 tests/e2e/make_nsys_sqlite.py "$WORK/s2_b.sqlite" fused
printf '#!/bin/sh\necho ran >>"%s"\n' "$WORK/s2_evil_ran" >"$WORK/s2_evil.sqlite"
chmod +x "$WORK/s2_evil.sqlite"
run s2_app_evil 3 -- app "$WORK/s2_a.sqlite" "$WORK/s2_evil.sqlite"
has s2_app_evil err 'v2: .*s2_evil\.sqlite is named as a profile but is not one \(not an SQLite database\); it is never run as a command'
if [ -e "$WORK/s2_evil_ran" ]; then fail "s2_app_evil: the non-SQLite .sqlite file was run"; else ok "s2_app_evil: never run"; fi
s2_sqlite_variant() { # NAME SQL: a copy of s2_b.sqlite changed by SQL
    cp "$WORK/s2_b.sqlite" "$WORK/s2_$1.sqlite"
    python3 -c 'import sqlite3, sys; d = sqlite3.connect(sys.argv[1]); d.execute(sys.argv[2]); d.commit()' "$WORK/s2_$1.sqlite" "$2"
}
s2_sqlite_variant endfirst 'UPDATE CUPTI_ACTIVITY_KIND_KERNEL SET "end" = start - 5 WHERE rowid = 3'
run s2_app_endfirst 3 -- app "$WORK/s2_a.sqlite" "$WORK/s2_endfirst.sqlite"
has s2_app_endfirst err 'v2: .*s2_endfirst\.sqlite: CUPTI_ACTIVITY_KIND_KERNEL row 3: end is [0-9]+, not a time in ns at or after start'
lacks s2_app_endfirst out 'takes'
s2_sqlite_variant int64 'UPDATE CUPTI_ACTIVITY_KIND_KERNEL SET start = 9223372036854775807 WHERE rowid = 2'
run s2_app_int64 3 -- app "$WORK/s2_a.sqlite" "$WORK/s2_int64.sqlite"
has s2_app_int64 err 'row 2: start is 9223372036854775807, not a time in ns'
s2_sqlite_variant minbytes 'UPDATE CUPTI_ACTIVITY_KIND_MEMCPY SET bytes = -9223372036854775808 WHERE rowid = 1'
run s2_app_minbytes 3 -- app "$WORK/s2_a.sqlite" "$WORK/s2_minbytes.sqlite"
has s2_app_minbytes err 'CUPTI_ACTIVITY_KIND_MEMCPY row 1: bytes is -9223372036854775808, not a size in bytes'
s2_sqlite_variant text 'UPDATE CUPTI_ACTIVITY_KIND_KERNEL SET registersPerThread = '"'lots'"' WHERE rowid = 4'
run s2_app_text 3 -- app "$WORK/s2_a.sqlite" "$WORK/s2_text.sqlite"
has s2_app_text err "row 4: registersPerThread is 'lots', not a register count"
s2_sqlite_variant block 'UPDATE CUPTI_ACTIVITY_KIND_KERNEL SET blockX = 2048'
run s2_app_block 3 -- app "$WORK/s2_a.sqlite" "$WORK/s2_block.sqlite"
has s2_app_block err 'blockX is 2048, not a block size \(1 to 1024\)'
# a FIFO named as a profile: refused at once, never read
mkfifo "$WORK/s2_fifo.sqlite"
s2_kd=$KD; KD=$WORK/s2_kd_timeout
run s2_app_fifo 3 -- app "$WORK/s2_a.sqlite" "$WORK/s2_fifo.sqlite"
KD=$s2_kd
has s2_app_fifo err 's2_fifo\.sqlite is named as a profile but is not one \(not a regular file'

# --- capture files: a launch no CUDA device makes (block 0, block 2048, grid 0) is refused with
# the launch named, never replayed ----------------------------------------------------------------
s2_cap_variant() { # NAME KEY "X Y Z": tests/e2e/capture/copy.kdcap with that manifest line (size, checksums redone)
    python3 - tests/e2e/capture/copy.kdcap "$WORK/s2_$1.kdcap" "$2" "$3" <<'PY'
import struct, sys, zlib
b = open(sys.argv[1], "rb").read()
m, size = struct.unpack_from("<QQ", b, 16)
lines = b[m:m + size].decode().split("\n")
at = [i for i, l in enumerate(lines) if l.startswith(sys.argv[3] + " ")]
assert len(at) == 1, sys.argv[3]
lines[at[0]] = sys.argv[3] + " " + sys.argv[4]
man = "\n".join(lines).encode()
head = bytearray(b[:64])
struct.pack_into("<QQQ", head, 16, m, len(man), m + len(man))
struct.pack_into("<I", head, 40, zlib.crc32(man))
struct.pack_into("<I", head, 60, zlib.crc32(bytes(head[:60])))
open(sys.argv[2], "wb").write(bytes(head) + b[64:m] + man)
PY
}
mkdir -p "$WORK/s2_cap"
printf '__global__ void copy(const float *in, float *out, int n)\n{\n    int i = blockIdx.x * blockDim.x + threadIdx.x;\n    if (i < n)\n        out[i] = in[i];\n}\n' >"$WORK/s2_cap/v1.cu"
while read -r s2_name s2_key s2_x s2_y s2_z; do
    s2_cap_variant "$s2_name" "$s2_key" "$s2_x $s2_y $s2_z"
    KERNDIFF_SIMULATE="copy=all" run "s2_cap_$s2_name" 3 -- --launch "$WORK/s2_$s2_name.kdcap" --max-time 1 \
        "$WORK/s2_cap/v1.cu" "$WORK/s2_cap/v1.cu"
    has "s2_cap_$s2_name" err "s2_$s2_name\.kdcap: the captured launch 1 of copy\(float const\*, float\*, int\) has $s2_key $s2_x $s2_y $s2_z, which no CUDA device launches"
    lacks "s2_cap_$s2_name" out 'outputs match|faster|slower'
done <<'CASES'
block0 block 0 1 1
block2048 block 2048 1 1
grid0 grid 0 1 1
threads block 64 32 1
CASES

# --- rank: a candidate that hangs mid-race (killed by --timeout) is never ranked either -------
mkdir -p "$S2R/hang"; cp "$S2R/cands/c1.cu" "$S2R/cands/c2.cu" "$S2R/hang/"
KERNDIFF_SIMULATE="median=100us,cv=1%;median=60us,cv=1%,hang_at=20;median=90us,cv=1%" run s2_rank_hang 0 -- rank \
    --n 4096 --timeout 1 --json "$S2R/hang.json" "$A" "$S2R/hang"
has s2_rank_hang out '^  c1\.cu +run_failed +timing the candidate: the harness did not answer in time'
s2_py "$S2R/hang.json" >"$WORK/s2_rank_hang.txt" 2>&1 <<'PY'
import json, sys
c = {x["name"]: x for x in json.load(open(sys.argv[1]))["candidates"]}["c1.cu"]
assert c["rank"] == 0 and c["speedup"] is None and all(g["speedup"] is None for g in c["gpus"]), c
print("unranked")
PY
if grep -q '^unranked$' "$WORK/s2_rank_hang.txt"; then ok "s2_rank_hang: the hung candidate has no speedup in the JSON, not even per GPU"
else fail "s2_rank_hang: the hung candidate has a speedup" "$WORK/s2_rank_hang.txt"; fi
