# Sourced by run.sh: the HTML report (--html) and CSV (--csv). scripts/example-pictures.sh
# renders a simulated diff, a sweep, a compare, a --regions diff and an app diff and screenshots them; each page is then
# loaded in headless Chromium (Debian `chromium`, from scripts/install-deps.sh) and checked by
# check_html.py: self-contained, no script error, every chart with its axis labels.
CHROMIUM=${CHROMIUM:-chromium}
PICS="$WORK/pictures"
if ! command -v "$CHROMIUM" >/dev/null; then
    fail "html: $CHROMIUM not found (scripts/install-deps.sh installs it)"
elif CHROMIUM=$CHROMIUM scripts/example-pictures.sh "$KD" "$FAKE_NVML" "$PICS" >"$WORK/pictures.log" 2>&1; then
    ok "html: a diff, a sweep, a compare, a regions diff and an app diff rendered and screenshot"
    for page in "diff chart-speedup chart-histogram chart-samples chart-roofline" \
                "compare chart-speedup chart-histogram chart-samples chart-roofline" \
                "sweep chart-sweep-time chart-sweep-speedup chart-speedup chart-histogram chart-samples" \
                "regions chart-speedup chart-regions chart-region-timeline" \
                "app chart-app-kernels"; do
        read -r name charts <<<"$page"
        "$CHROMIUM" --headless --disable-gpu --no-sandbox --user-data-dir="$WORK/chromium" --enable-logging=stderr \
            --v=0 --dump-dom "file://$PICS/$name.html" >"$WORK/$name.dom" 2>"$WORK/$name.chromium.log"
        # shellcheck disable=SC2086 # the chart ids are words
        if python3 tests/e2e/check_html.py "$PICS/$name.html" "$WORK/$name.dom" "$WORK/$name.chromium.log" \
            "$PICS/$name.png" $charts >"$WORK/$name.check" 2>&1; then
            ok "html $name: loads cleanly in Chromium with $charts"
        else
            fail "html $name: page" "$WORK/$name.check"
        fi
    done
else
    fail "html: scripts/example-pictures.sh" "$WORK/pictures.log"
fi

# CSV: one row per raw sample (the same samples --save kept), one per sweep point.
if [ -f "$PICS/diff.csv" ] && python3 - "$PICS/diff.csv" "$PICS/new.json" >"$WORK/csv_check.txt" 2>&1 <<'PY'
import csv, json, sys
rows = list(csv.DictReader(open(sys.argv[1])))
sides = json.load(open(sys.argv[2]))["runtime"]["sides"]
want = [(f"v{s + 1}", i, sides[s]["samples_ns"][i]) for s in range(2) for i in range(len(sides[s]["samples_ns"]))]
got = [(r["side"], int(r["index"]), float(r["ns"])) for r in rows]
assert len(got) == len(want), (len(got), len(want))
assert all(g[:2] == w[:2] and abs(g[2] - w[2]) <= 1e-6 * w[2] for g, w in zip(got, want)), "samples differ"
assert all(r["throttled"] in ("0", "1") and r["round"].isdigit() for r in rows)
PY
then ok "csv: every saved sample, in order, with its round"; else fail "csv: samples" "$WORK/csv_check.txt"; fi
if [ -f "$PICS/sweep.csv" ] && [ "$(cut -d, -f2 "$PICS/sweep.csv" | tr '\n' ' ')" = "value 1024 4096 16384 65536 262144 1048576 " ]; then
    ok "csv: one row per sweep point"; else fail "csv: sweep points" "$PICS/sweep.csv"; fi
KERNDIFF_SIMULATE="median=50us" run csv_stdout 0 -- --n 64K --csv - "$A" "$B"
has csv_stdout out '^side,index,round,ns,throttled$'
lacks csv_stdout out '^kerndiff '

# Regions: the per-region bars and one block of each side on a timeline (the simulated
# harness records 2 blocks x 2 warps, 4 instances of each region per warp: blocks 0 and 8,
# one in 8 of its 16, as the example's 4096-block grid is sampled).
KERNDIFF_SIMULATE="median=900us,cv=0.3%,regions=9000+20000;median=700us,cv=0.3%,regions=2000+20000" \
    run html_regions 0 -- --regions --html "$WORK/html_regions.html" examples/regions/v1.cu examples/regions/v2.cu
has html_regions html '<svg id="chart-regions"'
has html_regions html '<td>load</td><td>[0-9]+ \[[0-9]+-[0-9]+\]</td>'
has html_regions html '<svg id="chart-region-timeline"'
has html_regions html '>v1 warp 1</text>.*>v2 warp 0</text>.*>v2 warp 1</text>'
has html_regions html 'v1: block (0|8) \(2 blocks traced\), 2 warps, [0-9.]+us; v2: block (0|8) \(2 blocks traced\)'
# A region keeps its colour on both sides: the legend's colour for "load" is the one of
# v2's short slices (2000 cycles against mma's 20000).
if python3 - "$WORK/html_regions.html" >"$WORK/html_timeline.check" 2>&1 <<'PY'
import re, sys
svg = re.search(r'<svg id="chart-region-timeline".*?</svg>', open(sys.argv[1]).read(), re.S).group(0)
legend = dict((name, cls) for cls, name in re.findall(r'<rect class="(r\d)"[^>]*/><text class="tick"[^>]*>([^<]+)</text>', svg))
assert set(legend) == {"load", "mma"}, legend
slices = re.findall(r'<rect class="slice (r\d)" x="[^"]+" y="([^"]+)" width="([^"]+)"', svg)
assert len(slices) == 2 * 2 * 2 * 4, len(slices)  # sides x warps x regions x instances
gap = float(re.search(r'<line class="reference"[^>]* y1="([^"]+)"', svg).group(1))  # between v1 and v2
v2 = [(c, float(w)) for c, y, w in slices if float(y) > gap]
assert len(v2) == len(slices) // 2, (gap, len(v2))
short = {c for c, w in v2 if w < min(w for _, w in v2) * 3}
assert short == {legend["load"]}, (short, legend)
PY
then ok "html regions: the timeline colours a region alike on both sides"; else fail "html regions: timeline colours" "$WORK/html_timeline.check"; fi

# No counters, no timing: the page says so; user text (a file name) is escaped.
hostile="$WORK/<b>&x'.cu"
cp "$A" "$hostile"
run html_static 0 -- --html "$WORK/html_static.html" "$hostile" "$B"
has html_static html '&lt;b&gt;&amp;x&#39;\.cu'
lacks html_static html '<b>&x'
has html_static html 'No counters|counters not collected'
lacks html_static html 'id="chart-histogram"'
run html_unwritable 7 -- --html /nonexistent/dir/r.html "$A" "$B"
has html_unwritable err "cannot write the HTML to '/nonexistent/dir/r.html'"

# kerndiff app --html: the stand-in program of app.sh (tests/fakes/fake_app writes the records
# the injection library would): v1 runs three kernels 100 times, v2 one fused kernel.
FA=$ROOT/tests/fakes/fake_app
run app_html 0 -- app --steps 100 --html "$WORK/app_html.html" "$FA three" "$FA fused"
has app_html out '^v2 is 2\.4[0-9]x faster'
has app_html html '<p class="verdict good">v2 is 2\.4[0-9]x faster in GPU kernel time \(2\.40[0-9] ms -&gt; 98[0-9]\.[0-9]+ us, 95% CI'
has app_html html '<td>GPU kernel time</td><td>2\.40[0-9] ms</td><td>98[0-9]\.[0-9]+ us</td><td>-59\.[0-9]% \[-59\.[0-9], -59\.[0-9]\] \*</td><td>24\.0[0-9] us</td>'
has app_html html '<td class="code">fused\(float const\*, float\*, int\)</td><td>-</td><td>100</td><td>-</td><td>98[0-9]\.[0-9]+ us</td><td>new</td>'
has app_html html '<p>3 kernels only in v1:</p>'
has app_html html 'cudaLaunchKernel_v7000 \(runtime\)</td><td>300</td><td>100</td>'
# One bar per kernel and side that ran it: v1's three, v2's fused one.
if [ "$(grep -o 'class="bar v1"' "$WORK/app_html.html" | wc -l),$(grep -o 'class="bar v2"' "$WORK/app_html.html" | wc -l)" = "3,1" ] &&
    grep -q '>#1 fused</text>' "$WORK/app_html.html"; then
    ok "app_html: a bar per kernel and side, the largest first"; else fail "app_html: kernel bars" "$WORK/app_html.html"; fi
run app_html_top 0 -- app --top 2 --runs 1 --html - "$FA three" "$FA fused"
lacks app_html_top out '^kerndiff app$'
has app_html_top out '<summary>Kernels \(2 of 4, by time; median per run\)</summary>'
has app_html_top out '<span class="muted">; one run a side: no confidence interval</span>'
run app_html_unwritable 7 -- app --html /nonexistent/dir/a.html "$FA three" "$FA fused"
has app_html_unwritable err "cannot write the HTML to '/nonexistent/dir/a.html'"
