#!/usr/bin/env python3
"""The A/A campaign's summary (issue 42): reads the campaign's rows (bench/aa_campaign.sh's
output, e.g. bench/aa_campaign.txt) and writes the calibration record kerndiff reads at run
time (share/kerndiff-calibration.txt).

  bench/aa_summary.py CAMPAIGN.txt > share/kerndiff-calibration.txt

Rows it reads (other lines are skipped):
  aa LABEL ... ratio R CI LO-HI n=N VERDICT     one A/A pair; VERDICT "faster" or "slower"
                                                 is a false positive, counted honestly
  between KERNEL #I ... median_ns M             one separate process's median of one kernel
  power P% LABEL ... VERDICT                    an injected change of P%: caught when the
                                                 verdict is not "no significant difference"
The record: aa_runs, aa_false; between_run_spread_pct (the standard deviation of log median
between processes, pooled over kernels, in %) with between_run_processes when at least two
processes of a kernel are there; comments with the power per injected change. The exact
Clopper-Pearson bound is computed by kerndiff itself from the two counts. Standard library only.
"""
import math
import re
import sys
from collections import defaultdict

AA = re.compile(r"^aa \S.*ratio \S+ CI \S+ n=\d+ (faster|slower|no significant difference)\s*$")
AA_ERROR = re.compile(r"^aa \S.* ERROR ")
BETWEEN = re.compile(r"^between (\S+) #\d+ .*median_ns ([0-9.eE+]+)\s*$")
POWER = re.compile(r"^power ([0-9.]+)% \S.* (faster|slower|no significant difference)\s*$")


def summarise(lines):
    runs = false = errors = 0
    between = defaultdict(list)
    power = defaultdict(lambda: [0, 0])
    header = []
    for line in lines:
        line = line.rstrip("\n")
        if line.startswith("# ") and len(header) < 3:
            header.append(line[2:])
        m = AA.match(line)
        if m:
            runs += 1
            false += m.group(1) != "no significant difference"
            continue
        if AA_ERROR.match(line):
            errors += 1
            continue
        m = BETWEEN.match(line)
        if m and float(m.group(2)) > 0:
            between[m.group(1)].append(math.log(float(m.group(2))))
            continue
        m = POWER.match(line)
        if m:
            power[m.group(1)][0] += 1
            power[m.group(1)][1] += m.group(2) != "no significant difference"
    # pooled sd of log medians between processes (each kernel around its own mean)
    ss = dof = procs = 0
    for logs in between.values():
        if len(logs) >= 2:
            mean = sum(logs) / len(logs)
            ss += sum((x - mean) ** 2 for x in logs)
            dof += len(logs) - 1
            procs += len(logs)
    out = ["# kerndiff calibration record (issue 42), read at run time for the verdict's calibration line.",
           "# Written by bench/aa_summary.py from an A/A campaign (bench/aa_campaign.sh)."]
    out += [f"# campaign: {h}" for h in header]
    out.append("# aa_runs: A/A pairs run; aa_false: of them, verdicts \"faster\" or \"slower\" (false positives).")
    if errors:
        out.append(f"# {errors} A/A pairs failed to run and are not counted.")
    out += [f"aa_runs {runs}", f"aa_false {false}"]
    if dof > 0:
        sd = math.sqrt(ss / dof)
        out.append("# between_run_spread_pct: sd of one kernel's log median between separate processes, pooled over "
                   f"{len([l for l in between.values() if len(l) >= 2])} kernels, in %")
        out += [f"between_run_spread_pct {100 * (math.exp(sd) - 1):.4f}", f"between_run_processes {procs}"]
    else:
        out.append("# between_run_spread_pct / between_run_processes: not measured by this campaign (no line):")
        out.append("# kerndiff compare of two separate runs then says its interval cannot carry it.")
    for pct in sorted(power, key=float):
        tries, caught = power[pct]
        out.append(f"# power: a {pct}% change caught in {caught} of {tries} tries")
    return "\n".join(out) + "\n", runs


def main():
    if len(sys.argv) != 2:
        sys.stderr.write("usage: bench/aa_summary.py CAMPAIGN.txt > share/kerndiff-calibration.txt\n")
        return 2
    with open(sys.argv[1], encoding="utf-8", errors="replace") as f:
        text, runs = summarise(f)
    if runs == 0:
        sys.stderr.write(f"aa_summary: no A/A rows in {sys.argv[1]}: no record written\n")
        return 1
    sys.stdout.write(text)
    return 0


if __name__ == "__main__":
    sys.exit(main())
