#!/usr/bin/env python3
"""Writes the exit-status table of src/cli/exit_codes.h (KD_EXIT_TABLE: code, summary,
details) into README.md and docs/OPTIONS.md, between the lines
<!-- exit-codes: ... --> and <!-- /exit-codes -->: the README gets the summaries (as --help
and the man page show them), OPTIONS.md the summaries and the details. `make man` runs it;
with --check it only says whether the files are current (exit 1 when not).
    gen-exit-codes.py [--check] [ROOT]"""
import re, sys

args = [a for a in sys.argv[1:] if a != "--check"]
check = "--check" in sys.argv[1:]
root = args[0] if args else "."

def rows():
    text = open(f"{root}/src/cli/exit_codes.h").read()
    table = text[text.index("#define KD_EXIT_TABLE"):text.index("enum kd_exit")]
    out = []
    for entry in re.split(r"\bX\(", table)[1:]:
        strings = re.findall(r'"((?:[^"\\]|\\.)*)"', entry)
        m = re.match(r"\s*(\w+),\s*(\d+),", entry)
        # the summary is the first string literal; the details, the rest joined (C concatenation)
        first = re.search(r'"((?:[^"\\]|\\.)*)"\s*,', entry)
        summary = first.group(1)
        details = "".join(strings[1:])
        out.append((int(m.group(2)), summary, details))
    return out

def block(details):
    lines = ["| code | meaning |", "|---|---|"]
    for code, summary, more in rows():
        lines.append(f"| {code} | {summary}{'; ' + more if details and more else ''} |")
    return lines

START = "<!-- exit-codes: made from src/cli/exit_codes.h by scripts/gen-exit-codes.py (make man) -->"
END = "<!-- /exit-codes -->"
stale = []
for path, details in (("README.md", False), ("docs/OPTIONS.md", True)):
    text = open(f"{root}/{path}").read()
    if START not in text or END not in text:
        sys.exit(f"gen-exit-codes: {path} has no {START} ... {END} block: add one where the table goes")
    a, b = text.index(START) + len(START), text.index(END)
    new = text[:a] + "\n" + "\n".join(block(details)) + "\n" + text[b:]
    if new != text:
        stale.append(path)
        if not check:
            open(f"{root}/{path}", "w").write(new)
if check and stale:
    sys.exit("gen-exit-codes: not current (run make man): " + ", ".join(stale))
