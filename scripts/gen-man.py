#!/usr/bin/env python3
"""Makes docs/kerndiff.1 from docs/kerndiff.1.in and `kerndiff --help`, so that the man page
lists exactly the options the program has.    gen-man.py KERNDIFF TEMPLATE > kerndiff.1"""
import re, subprocess, sys

kerndiff, template = sys.argv[1], sys.argv[2]
help_text = subprocess.run([kerndiff, "--help"], capture_output=True, text=True, check=True).stdout
version = subprocess.run([kerndiff, "--version"], capture_output=True, text=True, check=True).stdout.split()[1]

def roff(s):
    return s.replace("\\", "\\e").replace("-", "\\-")

out, in_options = [], False
for line in help_text.splitlines():
    if re.match(r"^[A-Z].*:$", line):               # a section heading: "Timing (with a GPU):"
        in_options = not line.startswith("Examples")
        if in_options:
            out.append(".SS " + roff(line[:-1]))
        continue
    if not line.startswith(" "):                    # prose after the options (exit status ...)
        in_options = False
    if not in_options or not line.strip():
        continue
    m = re.match(r"^  (-\S.*?)(?:\s{2,}(.*))?$", line)
    if m:                                            # "  --opt ARG      what it does"
        out += [".TP", ".B " + roff(m.group(1).strip())]
        if m.group(2):
            out.append(roff(m.group(2)))
    else:                                            # a continuation line
        out.append(roff(line.strip()))
page = open(template).read().replace("@OPTIONS@", "\n".join(out)).replace("@VERSION@", version)
sys.stdout.write(page)
