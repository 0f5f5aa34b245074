/* exit_codes.h — kerndiff's documented exit statuses (docs/OPTIONS.md, kerndiff(1)).
 * Scripts and CI depend on these values: never renumber one. */
#ifndef KD_CLI_EXIT_CODES_H
#define KD_CLI_EXIT_CODES_H

enum kd_exit {
    KD_EXIT_OK = 0,        /* the diff ran (whatever it found) */
    KD_EXIT_USAGE = 2,     /* bad command line */
    KD_EXIT_INPUT = 3,     /* a file is missing/unreadable, or the kernel cannot be chosen */
    KD_EXIT_BUILD = 4,     /* nvcc or ptxas failed on one side */
    KD_EXIT_RUNTIME = 5,   /* a kernel faulted, hung, or a harness broke */
    KD_EXIT_MISMATCH = 6,  /* outputs differ or an audit failed (unless --allow-mismatch) */
    KD_EXIT_TOOL = 7,      /* a required tool is missing (nvcc) or kerndiff's own environment failed */
    KD_EXIT_SLOWER = 8,    /* --fail-if-slower: v2 is significantly slower by more than the limit */
    KD_EXIT_SANITIZER = 9, /* --sanitize found a problem in v1 or v2 (and not --sanitize-warn) */
};

/* util/xalloc.c ends an out-of-memory command below the CLI with its own status, which must
 * stay this table's KD_EXIT_TOOL. */
#include "util/xalloc.h"
_Static_assert(KD_XALLOC_EXIT_STATUS == KD_EXIT_TOOL, "out of memory exits with KD_EXIT_TOOL");

#endif
