/* The ids of diff/'s messages (util/diag.h); their words are in report/words_diff.c. */
#ifndef KD_DIFF_MSGS_H
#define KD_DIFF_MSGS_H

#include "util/diag.h"

enum {
    KD_MSG_DIFF_FIRST = KD_DIAG_ID(KD_AREA_DIFF, 0),
    /* diff/pipeline.c (R27): numbered from 900, clear of the ids above */
    KD_MSG_DIFF_ARCH_WANTS_SM = KD_DIAG_ID(KD_AREA_DIFF, 900), /* --arch's value */
    KD_MSG_DIFF_CANNOT_READ_AGAIN,   /* side label, path */
    KD_MSG_DIFF_SIDE_SAYS,           /* side label, another module's sentence */
    KD_MSG_DIFF_STATIC_FAILED,       /* side label, path, static/'s sentence */
    KD_MSG_DIFF_GIT_NO_FILE,         /* the file, strerror */
    KD_MSG_DIFF_NO_TMPDIR,
    KD_MSG_DIFF_SAYS,                /* another module's sentence (git/) */
    KD_MSG_DIFF_NEEDS_ONE_KERNEL,    /* the kernels compared, ", "-separated */
    /* ... and scalars their launches still need (launch/spec.h kd_launch_needs_collect): the
       kernels, the flags ("--arg a=VALUE --arg b=VALUE"), the names ("a, b") */
    KD_MSG_DIFF_NEEDS_ONE_KERNEL_ARGS,
    /* ... when the kernels need different ones: the kernels, each kernel's ("ka: --arg
       a=VALUE; kc: --arg b=VALUE"), the names */
    KD_MSG_DIFF_NEEDS_ONE_KERNEL_EACH,
    /* a template kernel with no compiled instance beside kernels that have one: side label,
       path, the template's name */
    KD_MSG_DIFF_TEMPLATE_NOT_INSTANTIATED,
    /* `list`: a kernel whose launch its front end could not prepare, and said nothing: its name */
    KD_MSG_DIFF_LIST_NOT_PREPARED,
    /* a pass asked for by name when nothing runs (diff/runtime.c): the flag as given, the reason */
    KD_MSG_DIFF_PASS_NOT_RUN,
    /* ... with no reason beyond the report's: the flag */
    KD_MSG_DIFF_PASS_NOT_RUN_BARE,
};

#endif
