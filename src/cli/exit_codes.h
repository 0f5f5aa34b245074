/* exit_codes.h — kerndiff's documented exit statuses: ONE table, from which `kerndiff --help`
 * prints its "Exit status" block (cli/help.c), the man page's EXIT STATUS is made (scripts/
 * gen-man.py, from --help) and README.md's and docs/OPTIONS.md's tables are rewritten
 * (scripts/gen-exit-codes.py, `make man`; tests/e2e/hostile/f1_first_hour.sh checks they agree).
 * Scripts and CI depend on these values: never renumber one.
 *
 * A row: the name, the value, the summary (help, man page, README; at most 70 columns) and
 * the details docs/OPTIONS.md adds after it. */
#ifndef KD_CLI_EXIT_CODES_H
#define KD_CLI_EXIT_CODES_H

#define KD_EXIT_TABLE(X)                                                                                               \
    X(KD_EXIT_OK, 0, "the command ran (whatever the diff found)",                                                     \
      "a run where neither side has anything to compare says NOT CHECKED and exits 0; a reader that stops "          \
      "reading early (`head` reading kerndiff's output) is no failure: the status is the run's")                                 \
    X(KD_EXIT_USAGE, 2, "usage: a bad command line",                                                                   \
      "unknown option, bad value, wrong number of files; options that contradict each other; two documents on "     \
      "stdout; an output that would overwrite an input, a file with a source extension or a file git tracks "       \
      "(without `--force`)")                                                                                          \
    X(KD_EXIT_INPUT, 3, "input: a file, the kernel's choice or its launch",                                          \
      "a file is missing or unreadable, not a regular file (a FIFO, a device) or over 64 MiB; a side's buffers "    \
      "over 1 TiB; `compare`: a saved sample outside 1 ns to 1 hour, or an empty kernel name; `--at ..`, `A..`, "  \
      "`..B` (both revisions must be given); no kernel, unknown `--fn`; several kernels shared without `--fn` "     \
      "(each one's static diff is shown; `--no-run` for the static diff alone); a launch that cannot be "           \
      "described (a scalar without a value, a pointee type kerndiff cannot allocate), or that names what the "     \
      "kernel lacks (`--arg`/`--buf` of no parameter, an unknown annotation key): the same with and without a GPU") \
    X(KD_EXIT_BUILD, 4, "build: nvcc, Triton or ptxas failed on v1 or v2",                                         \
      "its diagnostics are shown, with the side; `kerndiff app`: `--prepare` failed on a side")                     \
    X(KD_EXIT_RUNTIME, 5, "runtime: a kernel faulted or hung, a harness broke",                                     \
      "or GPU memory ran out (the message names the side); a launch wrote past a buffer's end (the bounds "      \
      "guard) or, assumed by kerndiff, accessed memory outside its buffers under memcheck: not timed; "           \
      "`kerndiff app`: a command exited non-zero or was killed, or its records are unreadable (nothing compared)") \
    X(KD_EXIT_MISMATCH, 6, "INCORRECT: outputs differ or an audit failed",                                         \
      "one side writes nothing the other writes, or an audit during the timing failed (unless "                     \
      "`--allow-mismatch`)")                                                                                           \
    X(KD_EXIT_TOOL, 7, "a tool is missing (nvcc, git) or an output failed",                                         \
      "kerndiff could not write its output (a full disk, a missing folder) or temporary files, or ran out of "      \
      "memory")                                                                                                       \
    X(KD_EXIT_SLOWER, 8, "--fail-if-slower: v2 is significantly slower",                                           \
      "by more than the limit, judged on the 95% CI (`kerndiff app`: its total GPU kernel time)")                   \
    X(KD_EXIT_SANITIZER, 9, "--sanitize found a problem in v1 or v2",                                               \
      "nothing was timed; `--sanitize-warn` times anyway")                                                           \
    X(KD_EXIT_NOT_EVALUATED, 10, "a gate could not be evaluated (NOT EVALUATED)",                                  \
      "`--fail-if-slower`, `--require-match` or `--sanitize` asked where nothing was timed or compared (no GPU, "   \
      "no outputs compared): the gate is named with the reason; never a pass")

enum kd_exit {
#define KD_EXIT_ENUM(name, value, summary, details) name = value,
    KD_EXIT_TABLE(KD_EXIT_ENUM)
#undef KD_EXIT_ENUM
};

/* One row of the table, for the help (cli/help.c). */
typedef struct kd_exit_row {
    int code;
    const char *summary, *details;
} kd_exit_row;

/* util/xalloc.c ends an out-of-memory command below the CLI with its own status, which must
 * stay this table's KD_EXIT_TOOL. */
#include "util/xalloc.h"
_Static_assert(KD_XALLOC_EXIT_STATUS == KD_EXIT_TOOL, "out of memory exits with KD_EXIT_TOOL");

#endif
