#!/usr/bin/env python3
"""Makes docs/kerndiff.1 from docs/kerndiff.1.in and `kerndiff --help` (with `kerndiff help CMD`
for each command it lists), so that the man page lists exactly the options, commands and exit
statuses the program has.    gen-man.py KERNDIFF TEMPLATE > kerndiff.1"""
import re, subprocess, sys

kerndiff, template = sys.argv[1], sys.argv[2]

def run(*args):
    return subprocess.run([kerndiff, *args], capture_output=True, text=True, check=True).stdout

help_text = run("--help")
version = run("--version").split()[1]

def roff(s):
    return s.replace("\\", "\\e").replace("-", "\\-")

def blocks(text):
    """{heading: [lines]} of the help's blocks that start with a line ending in ':'."""
    out, current = {}, None
    for line in text.splitlines():
        if re.match(r"^[A-Z].*:$", line):
            current = line[:-1]
            out[current] = []
        elif current is not None:
            out[current].append(line)
    return out

def nofill(lines):
    return [".nf"] + [roff(l) for l in lines] + [".fi"]

def options(text):
    """The .SS/.TP list of a help text's option sections."""
    out, in_options = [], False
    for line in text.splitlines():
        if re.match(r"^[A-Z].*:$", line):               # a section heading: "Timing (with a GPU):"
            in_options = not re.match(r"^(Examples|Commands|Exit status|Options)\b", line)
            if in_options:
                out.append(".SS " + roff(line[:-1]))
            continue
        if not line.startswith(" "):                    # prose after the options
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
    return out

usage = help_text.split("\n\n", 1)[0].splitlines()
synopsis = nofill([re.sub(r"^(usage: |       )", "", l) for l in usage])
top = blocks(help_text)
commands = [l.split()[0] for l in next(v for k, v in top.items() if k.startswith("Commands")) if l.strip()]
exit_status = []
for line in top["Exit status"]:
    m = re.match(r"^  (\d+)\s+(.*)$", line)
    if m:
        exit_status += [".TP", ".B " + m.group(1), roff(m.group(2))]

each = []
for word in commands:
    text = run("help", word)
    parts = blocks(text)
    head = text.split("\n\n")
    each += [".SS kerndiff " + roff(word)] + nofill([re.sub(r"^(usage: |       )", "", l) for l in head[0].splitlines()])
    each += [".PP", roff(" ".join(head[1].split()))]
    names = []                                       # every option of its option column, in order
    for l in text.splitlines():
        if l.startswith("  -"):
            for n in re.findall(r"(?:^|, )(-{1,2}[\w-]+)", re.split(r"\s{2,}", l[2:])[0]):
                names += [n] if n not in names else []
    if names:
        each += [".PP", "Options: " + roff(", ".join(names)) + "."]
    if "Examples" in parts:
        each += [".PP", "Examples:"] + nofill([l.strip() for l in parts["Examples"] if l.startswith("  ")])

page = open(template).read()
for key, lines in (("@SYNOPSIS@", synopsis), ("@OPTIONS@", options(help_text)), ("@COMMAND_HELP@", each),
                   ("@EXIT_STATUS@", exit_status)):
    page = page.replace(key, "\n".join(lines))
sys.stdout.write(page.replace("@VERSION@", version))
