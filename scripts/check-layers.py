#!/usr/bin/env python3
"""check-layers.py — the floors of src/ hold (issue 29; docs/ARCHITECTURE.md, "Floors").

Two rules, checked over every .c/.h file under src/:

  floors  An `#include "X/..."` in a file may name a file on the includer's floor or lower,
          never higher. A folder's floor is in FLOORS below; a few files sit on another floor
          than their folder's (FILE_FLOORS), each with the reason.
  words   Below report/ nothing writes a sentence to a stream: no printf, fprintf, fputs,
          puts, perror, vprintf, vfprintf outside src/report/, src/cli/, src/cmd/ and
          src/main.c (snprintf, vsnprintf and kd_sb_printf build strings and are fine). The
          engine says things through util/diag.h.

  links   What the compiler made, read back with nm (issue 44 item 3: a prototype declared
          by hand, a print behind a macro or a function pointer, fwrite, an include written
          <...> or ../ all fool the two text rules): each object file's undefined symbols
          are resolved to the object that defines them; a call up a floor, or a stream-print
          function (printf family, fwrite, putchar, dprintf, their _chk forms) referenced below
          report/, is a violation. --objects DIR (default build/src) holds the objects, one
          per source (DIR/diff/passes.o for src/diff/passes.c); with none there the rule
          fails closed ("build first").

The include rule reads `#include "..."` and `#include <...>` that name a file of src/, and
paths with ../ resolved from the includer's folder.

Each violation is printed as `FILE:LINE: ...` and the script exits 1. A file listed in
scripts/layers-allow.txt has its violations printed as allowed (work in progress by
another change); that list must end empty.

  scripts/check-layers.py [--root DIR] [--allow FILE]   check the tree (default: this repo)
  scripts/check-layers.py --floors                      print the floors table
  scripts/check-layers.py --self-test                   check the checker on a made-up tree

Python 3 standard library only.
"""
import argparse
import fnmatch
import os
import re
import sys
import tempfile

# Bottom to top. A folder of src/ not listed here is an error: give it a floor.
FLOORS = [
    ("util", ["util"]),
    ("machine", ["gpu"]),
    ("kernel", ["source", "launch", "static", "compile", "wire", "git", "capture"]),
    ("passes", ["measure", "check", "ncu", "sanitizer", "regions", "hotspots"]),
    ("backend", ["backend"]),
    ("engine", ["diff", "app", "rank"]),
    ("report", ["report"]),
    ("commands", ["cli", "cmd", "workflow", "main.c"]),
]

# Files on another floor than their folder's: (glob under src/, floor name, why).
FILE_FLOORS = [
    ("*/*_msgs.h", "util",
     "an area's message ids (enums over util/diag.h): data that report/words_*.c words"),
    ("regions/instrument.*", "kernel",
     "the scan of a file's KD_REGION markers, done for the instrumented build (compile/build)"),
    ("regions/names.h", "kernel", "the region names an instrumented build defines"),
    ("diff/notes.*", "backend", "a note is data a backend leaves too (regions skipped)"),
]

WORDS_ALLOWED = ("report/", "cli/", "cmd/", "main.c")
# kd_text_fprintf is util/text.c's escape-and-print: a print to a stream all the same.
WORDS_RE = re.compile(r"(?<![A-Za-z0-9_])(printf|fprintf|fputs|puts|perror|vprintf|vfprintf|kd_text_fprintf)\s*\(")
INCLUDE_RE = re.compile(r'^\s*#\s*include\s*(?:"([^"]+)"|<([^>]+)>)')
# What prints to a stream, as the linker sees it (a macro or a function pointer still links it).
PRINT_SYMBOLS = {"printf", "fprintf", "vprintf", "vfprintf", "puts", "fputs", "perror", "putchar", "fputc", "putc",
                 "fwrite", "dprintf", "vdprintf", "__printf_chk", "__fprintf_chk", "__vprintf_chk",
                 "__vfprintf_chk", "__dprintf_chk", "__vdprintf_chk", "fputs_unlocked", "fwrite_unlocked",
                 "putc_unlocked", "putchar_unlocked", "fputc_unlocked"}
# Objects below report/ that write bytes, not sentences, with a print function: (file under
# src/, the symbols it may use, why).
DATA_WRITERS = [
    ("util/output.c", {"fwrite"}, "writes a finished document (JSON, HTML, ...) to its file or stdout"),
    ("wire/child.c", {"dprintf"}, "writes protocol commands to the harness child's pipe"),
]

FLOOR_INDEX = {name: i for i, (name, _) in enumerate(FLOORS)}
FOLDER_FLOOR = {folder: FLOOR_INDEX[name] for name, folders in FLOORS for folder in folders}


def floor_of(rel):
    """The floor index of a path under src/ ("diff/comparison.h"), or None when it has none."""
    for pattern, name, _ in FILE_FLOORS:
        if fnmatch.fnmatchcase(rel, pattern):
            return FLOOR_INDEX[name]
    head = rel.split("/", 1)[0]
    return FOLDER_FLOOR.get(head)


def floor_name(i):
    return FLOORS[i][0]


def strip_code(text):
    """The text with comments and string/char literals blanked (newlines kept, so line
    numbers hold): a printf named in a comment or a message is not a call."""
    out = []
    i, n = 0, len(text)
    while i < n:
        c = text[i]
        if text.startswith("/*", i):
            j = text.find("*/", i + 2)
            j = n if j < 0 else j + 2
            out.append(re.sub(r"[^\n]", " ", text[i:j]))
            i = j
        elif text.startswith("//", i):
            j = text.find("\n", i)
            j = n if j < 0 else j
            out.append(" " * (j - i))
            i = j
        elif c in "\"'":
            j = i + 1
            while j < n and text[j] != c and text[j] != "\n":
                j += 2 if text[j] == "\\" else 1
            j = min(j + 1, n)
            out.append(c + re.sub(r"[^\n]", " ", text[i + 1:j - 1]) + (c if j - 1 > i else ""))
            i = j
        else:
            out.append(c)
            i += 1
    return "".join(out)


def read_allow(path):
    allow = set()
    if path and os.path.exists(path):
        with open(path, encoding="utf-8") as f:
            for line in f:
                line = line.split("#", 1)[0].strip()
                if line:
                    allow.add(line)
    return allow


def check(root, allow):
    """Returns (violations, allowed, problems, stale): (path, message) pairs, messages, and the
    allowlist's paths that have nothing to allow."""
    src = os.path.join(root, "src")
    violations, allowed, problems = [], [], []
    files = []
    for dirpath, _, names in os.walk(src):
        for name in names:
            if name.endswith((".c", ".h")):
                files.append(os.path.relpath(os.path.join(dirpath, name), src).replace(os.sep, "/"))
    for rel in sorted(files):
        path = "src/" + rel
        mine = floor_of(rel)
        if mine is None:
            problems.append("%s: its folder is on no floor: add it to FLOORS in scripts/check-layers.py" % path)
            continue
        with open(os.path.join(src, rel), encoding="utf-8", errors="replace") as f:
            text = f.read()
        found = []
        for lineno, line in enumerate(text.splitlines(), 1):
            m = INCLUDE_RE.match(line)
            if not m:
                continue
            written = m.group(1) or m.group(2)
            target = written
            beside = os.path.normpath(os.path.join(os.path.dirname(rel), written)).replace(os.sep, "/")
            if "/" not in written or written.startswith(("./", "../")):  # from the includer's folder
                target = beside
            if target.startswith("../") or not os.path.isfile(os.path.join(src, target)):
                continue  # not a file of src/ (a generated or a system header)
            theirs = floor_of(target)
            if theirs is None:
                continue  # reported once, as the file itself
            if theirs > mine:
                found.append("%s:%d: floors: includes %s: floor %d (%s) -> floor %d (%s), an arrow up"
                             % (path, lineno, written, mine, floor_name(mine), theirs, floor_name(theirs)))
        if not rel.startswith(WORDS_ALLOWED) and rel != "main.c":
            for lineno, line in enumerate(strip_code(text).splitlines(), 1):
                for m in WORDS_RE.finditer(line):
                    found.append("%s:%d: words: %s() below report/ (say it through util/diag.h's kd_say)"
                                 % (path, lineno, m.group(1)))
        (allowed if path in allow else violations).extend((path, v) for v in found)
    stale = sorted(p for p in allow if not any(a[0] == p for a in allowed))
    return violations, allowed, problems, stale


def nm_symbols(obj):
    """(defined global symbols, undefined symbols) of an object file, by nm."""
    import subprocess
    out = subprocess.run(["nm", "-P", obj], capture_output=True, text=True, check=True).stdout
    defined, undefined = set(), set()
    for line in out.splitlines():
        parts = line.split()
        if len(parts) < 2:
            continue
        name, kind = parts[0], parts[1]
        if kind == "U":
            undefined.add(name)
        elif kind.isupper() and kind not in "UW":
            defined.add(name)
    return defined, undefined


def check_links(root, objects):
    """The links rule over the objects of src/'s .c files: (violations, problems)."""
    src = os.path.join(root, "src")
    sources = []
    for dirpath, _, names in os.walk(src):
        for name in names:
            if name.endswith(".c"):
                sources.append(os.path.relpath(os.path.join(dirpath, name), src).replace(os.sep, "/"))
    objs = {}
    for rel in sorted(sources):
        obj = os.path.join(objects, rel[:-2] + ".o")
        if os.path.isfile(obj):
            objs[rel] = nm_symbols(obj)
    if not objs:
        return [], ["links: no object files under %s: build first (make), or pass --objects DIR" % objects]
    missing = [rel for rel in sources if rel not in objs]
    owner = {}
    for rel, (defined, _) in objs.items():
        for name in defined:
            owner.setdefault(name, rel)
    writers = {f: syms for f, syms, _ in DATA_WRITERS}
    violations = []
    for rel, (_, undefined) in sorted(objs.items()):
        mine = floor_of(rel)
        if mine is None:
            continue
        path = "src/" + rel
        for name in sorted(undefined):
            theirs_file = owner.get(name)
            if theirs_file:
                theirs = floor_of(theirs_file)
                if theirs is not None and theirs > mine:
                    violations.append((path, "%s: links: uses %s of src/%s: floor %d (%s) -> floor %d (%s), an arrow "
                                             "up (however it was declared)" % (path, name, theirs_file, mine,
                                                                               floor_name(mine), theirs,
                                                                               floor_name(theirs))))
            elif (name in PRINT_SYMBOLS and not rel.startswith(WORDS_ALLOWED) and rel != "main.c"
                  and name not in writers.get(rel, ())):
                violations.append((path, "%s: links: %s below report/ (a print, however it is spelled: say it "
                                         "through util/diag.h's kd_say)" % (path, name)))
    problems = ["links: src/%s has no object under %s (build first)" % (rel, objects) for rel in missing]
    return violations, problems


def print_floors():
    print("floor  name       folders (files on another floor than their folder's below)")
    for i, (name, folders) in enumerate(FLOORS):
        print("%5d  %-9s  %s" % (i, name, ", ".join(folders)))
    for pattern, name, why in FILE_FLOORS:
        print("       %-9s  src/%s: %s" % (name, pattern, why))


def self_test():
    """The checker on a made-up tree: each rule must catch what it is for, and only that."""
    with tempfile.TemporaryDirectory() as root:
        def put(rel, text):
            path = os.path.join(root, "src", rel)
            os.makedirs(os.path.dirname(path), exist_ok=True)
            with open(path, "w") as f:
                f.write(text)
        put("util/a.h", '#include "util/b.h"\n')
        put("util/b.h", "\n")
        put("util/bad.c", '#include "diff/comparison.h"\n#include "util/a.h"\n')
        put("util/util_msgs.h", '#include "util/b.h"\n')
        put("diff/comparison.h", '#include "backend/side.h"\n#include "util/util_msgs.h"\n')
        put("backend/side.h", '#include "util/a.h"\n')
        put("report/r.c", '#include "diff/comparison.h"\nvoid f(void) { printf("x"); }\n')
        put("diff/talk.c", 'void g(void) {\n  snprintf(b, 1, "printf(");\n  /* fprintf( */\n'
                            '  kd_sb_printf(s, "x");\n  fputs("y", stderr);\n}\n')
        put("diff/allowed.c", 'void h(void) { puts("z"); kd_text_fprintf(stderr, "%s", s); }\n')
        put("launch/dtype.c", '#include "dtype.h"\n')
        put("launch/dtype.h", "\n")
        put("newfolder/x.c", "\n")
        v, a, p, stale = check(root, {"src/diff/allowed.c", "src/diff/gone.c"})
        got = sorted(m.split(": ", 2)[0] + " " + m.split(": ", 2)[1] for _, m in v)
        want = ["src/diff/talk.c:5 words", "src/util/bad.c:1 floors"]
        ok = (got == want and [x[0] for x in a] == ["src/diff/allowed.c"] * 2
              and len(p) == 1 and "newfolder" in p[0] and stale == ["src/diff/gone.c"])
        if not ok:
            print("check-layers self-test FAILED:\n  violations %s (want %s)\n  allowed %s\n  problems %s\n  stale %s"
                  % (got, want, a, p, stale))
            return 1
        print("check-layers self-test: ok (an arrow up, a printf below report/, an unplaced folder, "
              "the allowlist and a stale entry caught; snprintf, kd_sb_printf, comments and strings not)")
    return self_test_links()


def self_test_links():
    """The six ways around the text rules (issue 44 item 3), each in a decoy file, compiled and
    caught: a prototype declared by hand, a print behind a macro, a function pointer to one,
    fwrite, an include written <...>, one written ../ . A data writer and a call down are not."""
    import shutil
    import subprocess
    cc = shutil.which("cc") or shutil.which("gcc") or shutil.which("clang")
    if not cc or not shutil.which("nm"):
        print("check-layers self-test (links) FAILED: no C compiler or no nm to build the decoys with")
        return 1
    with tempfile.TemporaryDirectory() as root:
        files = {
            "util/u.h": "int kd_u(void);\n",
            "util/u.c": '#include "util/u.h"\nint kd_u(void) { return 1; }\n',
            "util/output.c": "#include <stdio.h>\nvoid kd_out(FILE *f) { fwrite(\"{}\", 1, 2, f); }\n",
            "diff/d.h": "int kd_d(void);\n",
            "diff/d.c": '#include "diff/d.h"\n#include "util/u.h"\nint kd_d(void) { return kd_u(); }\n',
            "report/r.c": "void kd_report_say(void) {}\n",
            "diff/proto.c": "void kd_report_say(void);\nvoid kd_p(void) { kd_report_say(); }\n",
            "diff/macro.c": '#include <stdio.h>\n#define SAY printf\nvoid kd_m(int x) { SAY("%d\\n", x); }\n',
            "diff/fptr.c": "#include <stdio.h>\nint (*kd_fp)(FILE *, const char *, ...) = fprintf;\n",
            "diff/fw.c": '#include <stdio.h>\nvoid kd_w(void) { fwrite("x", 1, 1, stderr); }\n',
            "util/angle.c": "#include <diff/d.h>\nint kd_a(void) { return 0; }\n",
            "util/rel.c": '#include "../diff/d.h"\nint kd_r(void) { return 0; }\n',
        }
        for rel, text in files.items():
            path = os.path.join(root, "src", rel)
            os.makedirs(os.path.dirname(path), exist_ok=True)
            with open(path, "w") as f:
                f.write(text)
        objects = os.path.join(root, "objs")
        for rel in files:
            if rel.endswith(".c"):
                obj = os.path.join(objects, rel[:-2] + ".o")
                os.makedirs(os.path.dirname(obj), exist_ok=True)
                r = subprocess.run([cc, "-O0", "-c", "-I", os.path.join(root, "src"), "-o", obj,
                                    os.path.join(root, "src", rel)], capture_output=True, text=True)
                if r.returncode != 0:
                    print("check-layers self-test (links) FAILED: cannot compile the decoy %s: %s" % (rel, r.stderr))
                    return 1
        v, _, p, _ = check(root, set())
        lv, lp = check_links(root, objects)
        got = sorted(set(m.split(": ", 2)[0].split(":")[0] + " " + m.split(": ", 2)[1] for _, m in v + lv))
        want = ["src/diff/fptr.c links", "src/diff/fw.c links", "src/diff/macro.c links", "src/diff/proto.c links",
                "src/util/angle.c floors", "src/util/rel.c floors"]
        _, none = check_links(root, os.path.join(root, "nothing"))
        if got != want or p or lp or not none or "build first" not in none[0]:
            print("check-layers self-test (links) FAILED:\n  caught %s\n  want   %s\n  problems %s %s\n  no objects: %s"
                  % (got, want, p, lp, none))
            return 1
    print("check-layers self-test (links): ok (a hand-declared prototype up a floor, a print behind a macro, a "
          "function pointer to fprintf, fwrite, an <...> include and a ../ include caught; a data writer and a "
          "call down not; no objects fails closed)")
    return 0


def main():
    here = os.path.dirname(os.path.abspath(__file__))
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--root", default=os.path.dirname(here))
    ap.add_argument("--allow", default=None, help="allowlist (default: scripts/layers-allow.txt of the root)")
    ap.add_argument("--floors", action="store_true")
    ap.add_argument("--self-test", action="store_true")
    ap.add_argument("--objects", default=None, help="the object files of src/ (default: ROOT/build/src)")
    args = ap.parse_args()
    if args.floors:
        print_floors()
        return 0
    if args.self_test:
        return self_test()
    allow_path = args.allow or os.path.join(args.root, "scripts", "layers-allow.txt")
    violations, allowed, problems, stale = check(args.root, read_allow(allow_path))
    link_violations, link_problems = check_links(args.root, args.objects or os.path.join(args.root, "build", "src"))
    allow = read_allow(allow_path)
    for path, m in link_violations:
        (allowed if path in allow else violations).append((path, m))
    problems += link_problems
    for _, m in allowed:
        print("allowed (%s): %s" % (os.path.basename(allow_path), m))
    for p in stale:
        print("note: %s is in %s but has nothing to allow: take it out" % (p, os.path.basename(allow_path)))
    for m in problems:
        print(m)
    for _, m in violations:
        print(m)
    files = len({p for p, _ in allowed})
    print("check-layers: %d violation(s), %d allowed in %d file(s) of %s (it must end empty)"
          % (len(violations) + len(problems), len(allowed), files, os.path.basename(allow_path)))
    return 1 if violations or problems else 0


if __name__ == "__main__":
    sys.exit(main())
