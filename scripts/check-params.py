#!/usr/bin/env python3
"""check-params.py — no function takes more than 6 parameters (issue 29).

A function that needs more than 6 values takes a struct instead (a request or context struct
named for its job, filled with designated initializers at the call site): a long positional
list is easy to call with two arguments swapped, and a struct names each value where it is
given. This script finds every function definition or declaration in the C files under src/
and harness/ (harness/cupti_compat/ is skipped: vendored CUPTI headers, not ours) whose
parameter list has more than MAX_PARAMS entries, prints each as `FILE:LINE: NAME takes N
parameters`, and exits 1; it exits 0 when there is none. Comments are ignored; a parameter
that is itself a function pointer counts once.

  scripts/check-params.py [--root DIR]     check src/ and harness/ under DIR (default: this repo)
  scripts/check-params.py FILE...          check these files only
  scripts/check-params.py --self-test      check the checker on made-up code

Python 3 standard library only.
"""
import argparse
import os
import re
import sys

MAX_PARAMS = 6
DIRS = ("src", "harness")
SKIP = ("harness/cupti_compat",)

# A definition or declaration at the start of a line: return type and name, then a parameter
# list that may hold one level of parentheses (function-pointer parameters), then { or ;.
FUNC = re.compile(r"^[A-Za-z_][\w \*]*?\b(\w+)\s*\(([^;{}()]*(?:\([^()]*\)[^;{}()]*)*)\)\s*[{;]", re.M)
COMMENT = re.compile(r"/\*.*?\*/", re.S)


def count_params(args):
    """Top-level commas + 1; `()` and `(void)` take none."""
    a = args.strip()
    if not a or a == "void":
        return 0
    depth, n = 0, 1
    for ch in a:
        if ch == "(":
            depth += 1
        elif ch == ")":
            depth -= 1
        elif ch == "," and depth == 0:
            n += 1
    return n


def offenders(text):
    """(line, name, count) for each function in C source `text` over MAX_PARAMS."""
    # Comments become blank lines of the same count, so that line numbers stay right.
    text = COMMENT.sub(lambda m: "\n" * m.group(0).count("\n"), text)
    out = []
    for m in FUNC.finditer(text):
        n = count_params(m.group(2))
        if n > MAX_PARAMS:
            out.append((text.count("\n", 0, m.start()) + 1, m.group(1), n))
    return out


def tree_files(root):
    for d in DIRS:
        for base, dirs, files in os.walk(os.path.join(root, d)):
            rel = os.path.relpath(base, root).replace(os.sep, "/")
            dirs[:] = sorted(x for x in dirs if not any((rel + "/" + x).startswith(s) for s in SKIP))
            for f in sorted(files):
                if f.endswith((".c", ".h")):
                    yield os.path.join(base, f)


def check(paths, root):
    bad = 0
    for p in paths:
        with open(p, encoding="utf-8", errors="replace") as fh:
            text = fh.read()
        shown = os.path.relpath(p, root) if root else p
        for line, name, n in offenders(text):
            print(f"{shown}:{line}: {name} takes {n} parameters (more than {MAX_PARAMS}: take a struct)")
            bad += 1
    return bad


def self_test():
    src = """/* a comment
   spanning lines */
static int seven(int a, int b, int c, int d, int e, int f, int g)
{
    return 0;
}
int six(int a, int b, int c, int d, int e, int f);
void cb(void (*fn)(int, int, int, int), int a, int b, int c, int d, int e);
void none(void);
int many_decl(const char *a, size_t b, int c,
              int d, int e, int f, double *g);
/* int commented(int a, int b, int c, int d, int e, int f, int g); */
"""
    got = offenders(src)
    want = [(3, "seven", 7), (10, "many_decl", 7)]
    if got != want:
        print(f"check-params self-test FAILED: got {got}, want {want}")
        return 1
    print("check-params self-test: ok")
    return 0


def main():
    ap = argparse.ArgumentParser(description="Functions with more than 6 parameters (issue 29).")
    ap.add_argument("--root", default=os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    ap.add_argument("--self-test", action="store_true")
    ap.add_argument("files", nargs="*")
    a = ap.parse_args()
    if a.self_test:
        return self_test()
    if a.files:
        bad = check(a.files, None)
    else:
        bad = check(tree_files(a.root), a.root)
    if bad:
        print(f"check-params: {bad} function(s) take more than {MAX_PARAMS} parameters: give each a struct")
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
