/* callers.h — who launches a kernel that its own file does not (issue 45 item 1): the
 * project's tests, benchmarks and scripts that import a Triton module and reach its kernel
 * through the module's wrapper (a function whose body does `kernel[grid](...)`), found
 * statically by the helper `kerndiff-triton.py callers FILE ROOT` (Python's ast: nothing is
 * imported or run; the walk is bounded in files, folders and bytes and never follows a link
 * to a folder), ranked by how directly they reach the kernel:
 *   1  a test function (or a __main__ block, module-level code) that calls the wrapper, or
 *      launches the kernel, itself;
 *   2  one that calls something that does (a helper of the test file, an autograd Function);
 *   3  a file that only imports the module (the whole test file, the benchmark script).
 * The wrapper may live in another module of the project (attorch: kernels in X_kernels.py,
 * launched by an autograd Function in X_layer.py, reached as `attorch.X` through the package's
 * re-export): a library module that imports the kernel, or a name that reaches it, and launches,
 * calls or re-exports it is followed too (a few rounds), as are aliases (a wrapper's local
 * `k = kernel; k[grid](...)`, a module's `l2_norm = l2norm`) and tables (`MAP = {...: fn}`).
 * A torch.library registration of such a function (`register_kernel("ns::op", "cuda")(fn)`,
 * `@register_kernel(...)`, `torch.library.impl`, `custom_op`) for CUDA or every device makes
 * `torch.ops.ns.op` reach the kernel, for the tests and the project's functions that call it;
 * one for other devices only is said (elsewhere), never taken as a caller.
 * Tests before the module's own __main__ block before benchmarks before other scripts, then
 * by path and line. Each candidate is a command (an argument vector: `PYTHON -m pytest -x -q
 * FILE::TEST`, `PYTHON -m pkg.bench`, run from the project's root) that `--from` can run. */
#ifndef KD_SOURCE_CALLERS_H
#define KD_SOURCE_CALLERS_H

#include <stddef.h>

#include "util/strbuf.h"
#include "util/strlist.h"

typedef struct kd_caller {
    char *file;      /* relative to the root */
    char *test;      /* the test (TestCls::test_x), or NULL: the file, its __main__ block */
    int line;
    int rank;        /* 1, 2, 3 as above */
    int depth;       /* the calls between it and the launch (the nearer first within a rank; 0 unknown) */
    int affinity;    /* 0: its file is named for the kernel's module (tests/test_cumsum.py for cumsum.py),
                        first among equal depths; 1 otherwise (and when not said) */
    char *kind;      /* "test", "self", "benchmark", "script" */
    char *via;       /* the calls on the way to the kernel: "helper -> rms_norm" ("" for rank 3) */
    kd_strlist kernels; /* the file's kernels it reaches (its wrappers launch), sorted by name */
    kd_strlist argv; /* the command's words, NULL-terminated */
    char *command;   /* the words joined, each quoted so that a shell's splitting gives them back */
    char *name;      /* what the report names: FILE::TEST, or FILE */
} kd_caller;

typedef struct kd_callers {
    char *root;        /* the project's root: the git top level, else a pyproject/setup folder */
    char *wrappers;    /* the module's functions that launch its kernels, "a, b" ("" none) */
    kd_caller *items;  /* best first */
    size_t count;
    long long found;   /* how many the helper found (it returns at most 12) */
    long long scanned; /* Python files read */
    char *capped;      /* NULL, or what bounded the walk: "files", "folders", "bytes" */
    char *nearest;     /* none found: the likeliest files ("a.py, b.py"; "" none) */
    char *elsewhere;   /* none found: the torch.library ops registered, for other devices only, with a
                          function that reaches the kernel ("ns::op for xpu, ..."; "" none): on an
                          NVIDIA GPU a call of torch.ops.ns.op runs another kernel */
} kd_callers;

/* Reads the helper's JSON into out (sorted best first, whatever the JSON's order). Returns 0,
 * or -1 with why in `why` (not JSON, a candidate without its command). */
int kd_callers_parse(const char *json, kd_callers *out, kd_strbuf *why);

/* Runs `python helper callers FILE "" [KERNEL]` (an argument vector, a 60 s limit) and parses
 * its answer: the callers of KERNEL, or of any of FILE's kernels when kernel is NULL. Returns 0,
 * or -1 with why in `why` (the helper missing, failed, or unreadable). */
int kd_callers_find(const char *python, const char *file, const char *kernel, kd_callers *out, kd_strbuf *why);

void kd_callers_free(kd_callers *c);

/* Appends `word` as a shell word: as it is when it holds only characters no shell treats
 * specially, else in single quotes ('\'' for a quote inside). app/command.h's splitter (and
 * sh) gives the word back. */
void kd_caller_quote(const char *word, kd_strbuf *out);

#endif
