# One rule for `kerndiff list` and the diff (issue 27 item 4): over the whole tests/realfiles
# corpus, each kernel (each compiled instance of a template) as list shows it against what a
# diff of that kernel does on the simulated harness (KERNDIFF_SIMULATE=1, --fn NAME):
#   - list says "needs --arg X" (a parameter's or a constexpr's) exactly for the X that the
#     diff's refusal (its first stderr line) names;
#   - list's launch line is launchable exactly where the diff runs (exit 0), except for a
#     Triton kernel that the file launches itself: on a GPU the diff takes that launch, which
#     the simulated harness cannot, so there only the names are compared.
# A scalar the launch assumes (a 2-D shape's side, a row stride) is "assumed N (why)" in
# list, never "needs --arg"; the e2e check fails on any kernel where the two disagree.
h27v_dir="$WORK/h27_verdicts"
mkdir -p "$h27v_dir"
KERNDIFF_SIMULATE="median=50us;median=50us" KERNDIFF_HARNESS_DIR=$(dirname "$KD") H27V_JOBS=2 \
    python3 - "$KD" "$h27v_dir" >"$h27v_dir/results.txt" 2>"$h27v_dir/script.err" <<'PY'
import concurrent.futures, glob, os, re, subprocess, sys

kd, out = sys.argv[1], sys.argv[2]
files = sorted(glob.glob("tests/realfiles/*.cu") + glob.glob("tests/realfiles/*.ptx") + glob.glob("tests/realfiles/*.py"))
NEEDS = re.compile(r"needs (?:a value: )?--arg ([A-Za-z_][A-Za-z_0-9]*)=VALUE")
FLAG = re.compile(r"--arg ([A-Za-z_][A-Za-z_0-9]*)=VALUE")
# the lines that name a library kernel's callers (issue 45 item 1) come before the refusal
CALLERS = re.compile(r"kerndiff: (.* does not launch .* itself|  [0-9]+\. )")

def units(text):
    """Each kernel (or template instance) list shows: name, needs set, launchable, file-launched."""
    found, kernel = [], None
    for line in text.splitlines():
        if line and not line.startswith(" "):
            name = line.split("  (")[0]
            kernel = {"name": name, "needs": set(), "by_file": False, "template": name.endswith("<...>")}
            continue
        if kernel is None:
            continue
        if line.startswith("  launched by the file at line"):
            kernel["by_file"] = True
        m = re.match(r"  instance (.*), compiled as ", line)
        if m:
            kernel["instance"] = m.group(1)
            continue
        if line.startswith("  launch: "):
            name = kernel.get("instance", kernel["name"])
            found.append({"name": name, "needs": set(kernel["needs"]), "by_file": kernel["by_file"],
                          "launchable": not line.startswith("  launch: not launchable"), "line": line.strip()})
            continue
        if not line.startswith("  launch") and not line.startswith("  assumed") and not line.startswith("        "):
            kernel["needs"] |= set(NEEDS.findall(line))
    return found

def check(path, unit):
    base = os.path.basename(path)
    tag = "%s %s" % (base, unit["name"])
    # the suite's build cache: the static diffs before this one built most of these files
    r = subprocess.run([kd, "--no-ncu", "--max-time", "1", "--fn", unit["name"], path, path],
                       stdin=subprocess.DEVNULL, capture_output=True, text=True, timeout=300)
    first = next((l for l in r.stderr.splitlines() if l.strip() and not CALLERS.match(l)), "")
    refused = set(FLAG.findall(first)) if r.returncode != 0 else set()
    problems = []
    if refused != unit["needs"]:
        problems.append("list needs %s, the diff's refusal names %s" % (sorted(unit["needs"]) or "nothing", sorted(refused) or "nothing"))
    runs = r.returncode == 0
    if runs != unit["launchable"] and not (unit["by_file"] and unit["launchable"] and refused == unit["needs"]):
        problems.append("list %s, the diff %s" % ("launchable" if unit["launchable"] else "not launchable",
                                                 "ran" if runs else "exited %d: %s" % (r.returncode, first[:160])))
    if problems:
        return "FAIL %s: %s" % (tag, "; ".join(problems))
    return "ok   %s: %s, %s" % (tag, "runs" if runs else "refused", "needs " + " ".join(sorted(refused)) if refused else "needs nothing")

jobs = []
for path in files:
    r = subprocess.run([kd, "list", path], capture_output=True, text=True)
    if r.returncode != 0:
        print("FAIL %s: list exited %d" % (os.path.basename(path), r.returncode))
        continue
    for unit in units(r.stdout):
        jobs.append((path, unit))
with concurrent.futures.ThreadPoolExecutor(int(os.environ.get("H27V_JOBS", "2"))) as pool:
    for line in pool.map(lambda j: check(*j), jobs):
        print(line)
print("units %d" % len(jobs))
PY
h27v_rc=$?
if [ "$h27v_rc" = 0 ]; then ok "h27_verdicts: the script ran"; else fail "h27_verdicts: the script exited $h27v_rc" "$h27v_dir/script.err"; fi
while IFS= read -r h27v_line; do
    case $h27v_line in
    ok*) ok "h27_verdicts: ${h27v_line#ok   }" ;;
    FAIL*) fail "h27_verdicts: ${h27v_line#FAIL }" ;;
    esac
done <"$h27v_dir/results.txt"
h27v_units=$(sed -n 's/^units //p' "$h27v_dir/results.txt")
# 25 files, 30 kernels and instances or more: a parse that found too few is itself a failure
if [ "${h27v_units:-0}" -ge 28 ]; then ok "h27_verdicts: $h27v_units kernels compared"; else
    fail "h27_verdicts: ${h27v_units:-no} kernels compared, wanted 28 or more" "$h27v_dir/results.txt"; fi

# Kernels of one file that need different values: the one line says which kernel needs which
# (an --arg of one kernel's parameter is refused for another), and the re-run of each kernel
# with its own flags runs.
printf '__global__ void ka(float *x, float alpha, int n) { int i = blockIdx.x * blockDim.x + threadIdx.x; if (i < n) x[i] *= alpha; }\n__global__ void kb(float *x, int n) { int i = blockIdx.x * blockDim.x + threadIdx.x; if (i < n) x[i] += 1.0f; }\n' >"$h27v_dir/two.cu"
KERNDIFF_SIMULATE="median=50us;median=50us" KERNDIFF_HARNESS_DIR=$(dirname "$KD") \
    run h27v_each 3 -- --no-ncu --max-time 1 "$h27v_dir/two.cu" "$h27v_dir/two.cu"
h27v_first=$(grep -m1 -v '^[[:space:]]*$' "$WORK/h27v_each.err")
if [ "$h27v_first" = "kerndiff: timing needs one kernel: --fn NAME (ka, kb), and the values the chosen kernel's launch needs: ka: --arg alpha=VALUE (no value given or in the file for alpha)" ]; then
    ok "h27v_each: one first line, each kernel's own flags"; else fail "h27v_each: first line: $h27v_first" "$WORK/h27v_each.err"; fi
has h27v_each out "^timing needs one kernel: --fn NAME \(ka, kb\), and the values the chosen kernel's launch needs: ka: --arg alpha=VALUE \(no value given or in the file for alpha\)$"
KERNDIFF_SIMULATE="median=50us;median=50us" KERNDIFF_HARNESS_DIR=$(dirname "$KD") \
    run h27v_each_ka 0 -- --no-ncu --max-time 1 --fn ka --arg alpha=2 "$h27v_dir/two.cu" "$h27v_dir/two.cu"
KERNDIFF_SIMULATE="median=50us;median=50us" KERNDIFF_HARNESS_DIR=$(dirname "$KD") \
    run h27v_each_kb 0 -- --no-ncu --max-time 1 --fn kb "$h27v_dir/two.cu" "$h27v_dir/two.cu"
