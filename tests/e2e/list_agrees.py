#!/usr/bin/env python3
"""`kerndiff list FILE` and a diff of FILE against itself resolve the same launch (issue 41 item 6).

usage: list_agrees.py LIST_OUTPUT DIFF_JSON [SIDE]
Finds the diff's kernel (sides[SIDE].kernel, SIDE 0 by default: the file is that side's) in list's output and compares its launch line with the
JSON's launch: grid, block and n with their origins; every argument of the diff's launch (its
buffers' counts, dtypes and directions, its scalars' values) as list shows it. What only the
build fixes is left out: a Triton kernel's shared memory and scratch pointers, and the scalars
its compiler specialised away (in list, absent from the diff's launch). Exit 0 when they agree,
1 with the differences on stdout."""
import json
import re
import sys

DIRECTION = {"input buffer": "in", "output buffer": "out", "in-out buffer": "in-out"}


def list_launch(text, kernel):
    """The two launch lines of `kernel` (or of an instance named so) in list's output."""
    lines = text.splitlines()
    current = None
    for i, line in enumerate(lines):
        if line and not line.startswith(" "):
            current = line.split("  (")[0].rstrip("<...>").strip()
        m = re.match(r"  instance (\S+),", line)
        if m:
            current = m.group(1)
        if line.startswith("  launch: ") and current is not None and current == kernel:
            if "not launchable" in line:
                return line, None
            return line, lines[i + 1] if i + 1 < len(lines) else ""
    return None, None


def dims(v):
    while len(v) > 1 and v[-1] == 1:
        v = v[:-1]
    return "x".join(str(x) for x in v)


def main():
    text = open(sys.argv[1]).read()
    side = json.load(open(sys.argv[2]))["sides"][int(sys.argv[3]) if len(sys.argv) > 3 else 0]
    kernel, launch = side["kernel"], side.get("launch")
    geometry, args = list_launch(text, kernel)
    if geometry is None:
        print(f"list shows no launch for {kernel}")
        return 1
    if launch is None or args is None:
        same = launch is None and args is None
        if not same:
            print(f"{kernel}: list says {geometry.strip()!r}, the diff {'launches it' if launch else 'does not'}")
        return 0 if same else 1
    bad = []
    triton = side["path"].endswith(".py")
    for key, word in (("grid", "grid"), ("block", "block")):
        want = dims(launch[key])
        m = re.search(word + r" (\S+) \(", geometry)
        if not m or m.group(1) != want:
            bad.append(f"{word}: list {m.group(1) if m else None}, diff {want}")
    m = re.search(r" n (\d+) \(([^)]*)\)", geometry)
    if not m or int(m.group(1)) != launch["n"] or m.group(2) != launch["n_origin"]:
        bad.append(f"n: list {m.groups() if m else None}, diff {launch['n']} ({launch['n_origin']})")
    if not triton:
        m = re.search(r"smem (\d+) B", geometry)
        if not m or int(m.group(1)) != launch["dynamic_smem"]:
            bad.append(f"smem: list {m.group(1) if m else None}, diff {launch['dynamic_smem']}")
    for a in launch["args"]:
        role = a["role"]
        if role in ("scratch",) or a["name"].startswith("("):
            continue
        if role in DIRECTION:
            lanes = f"x{a['lanes']}" if a.get("lanes", 1) > 1 else ""
            want = f"{a['name']}: {a['count']} {a['dtype']}{lanes} {DIRECTION[role]} ({a['origin']})"
        elif "value" in a:
            v = a["value"]
            shown = str(int(v)) if float(v).is_integer() else f"{v:.9g}"
            want = f"{a['name']} = {shown} ({a['origin']})"
        else:
            continue
        if want not in args:
            bad.append(f"argument: the diff's {want!r} is not in list's {args.strip()!r}")
    for line in bad:
        print(f"{side['path']} {kernel}: {line}")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
