"""Issue 31: is the 5 us kernel's occupancy/IPC difference between CUPTI and ncu what ncu flushes, or how the
counters are collected? The same launch profiled by ncu (--cache-control all) and by the harness's CUPTI range
profiler (its defaults: with CUPTI 13.4+, kernel replay and cache control) for four cycle metrics only, then for
tests/gpu/counters_experiment.py's 28, then the four again (LAYOUT_SIZES=4,28,4: how many metrics each time, the
four first); 3 launches each, medians.

usage: python3 counters_layout.py RUN.json HARNESS   (RUN.json: a kerndiff --json run of the kernel)"""
import json
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import counters_experiment as ce  # noqa: E402  (its protocol, ncu and cupti helpers)

FEW = ["sm__warps_active.avg.pct_of_peak_sustained_active", "sm__inst_executed.avg.per_cycle_active",
       "sm__cycles_active.avg", "gpc__cycles_elapsed.max"]


def main():
    run = json.load(open(sys.argv[1]))
    harness = sys.argv[2]
    side = run["sides"][0]
    cache = os.environ.get("XDG_CACHE_HOME", os.path.expanduser("~/.cache"))
    cubin = os.path.join(cache, "kerndiff", "builds", side["build"]["key"], "kernel.cubin")
    others = [m for m in ce.METRICS if m not in FEW]
    sizes = [int(x) for x in os.environ.get("LAYOUT_SIZES", "4,28,4").split(",")]
    for size in sizes:  # the four, then the experiment's other metrics in order, up to `size` in all
        metrics = FEW + others[:max(0, size - len(FEW))]
        n, note = ce.ncu(side, cubin, harness, "all", metrics)
        c, _, cnote = ce.cupti(side, cubin, harness, "touch", None, metrics)
        print(f"== {len(metrics)} metrics: ncu {note if not n else 'ok'}; cupti {cnote}")
        for m in FEW:
            x, y = (c or {}).get(m), (n or {}).get(m)
            d = "" if x is None or y is None else (f"{x - y:+.2f}p" if "pct" in m else f"{100 * (x - y) / y:+.2f}%")
            print(f"   {m:52} ncu {y}  cupti {x}  {d}")


if __name__ == "__main__":
    main()
