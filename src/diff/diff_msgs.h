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
    KD_MSG_DIFF_DESCRIPTOR_NOT_COMPARED, /* side, its path, the kernel */
    /* issue 45 item 1, the project's callers of a kernel its file does not launch
       (source/callers.h): the kernel, the file, the wrappers that launch it ("" none), the
       project's root, why the best caller is not run (a KD_M message) */
    KD_MSG_DIFF_CALLERS_FOUND,
    /* ... of a file of several kernels that launches none of them (no --fn): the file, the
       wrappers (KD_M), the root, why the best caller is not run (KD_M) */
    KD_MSG_DIFF_CALLERS_FOUND_ANY,
    /* ... and none found: the file, the root, the Python files read, what bounded the walk (KD_M),
       the ops registered for other devices only (KD_M) */
    KD_MSG_DIFF_CALLERS_NONE_ANY,
    /* the kernel is launched through jax_triton.triton_call: the kernel, the file, the line */
    KD_MSG_DIFF_CALLER_JAX,
    /* one caller: its number, its name (FILE::TEST), how it reaches the kernel (a KD_M
       message), the --from argument (quoted), the kernel */
    KD_MSG_DIFF_CALLER,
    KD_MSG_DIFF_CALLER_CALLS,        /* how: the calls on the way ("helper -> rms_norm") */
    KD_MSG_DIFF_CALLER_IMPORTS,      /* how: it only imports the module */
    KD_MSG_DIFF_CALLER_WHY_NO_GPU,   /* why not run: no GPU (the probe's reason) */
    KD_MSG_DIFF_CALLER_WHY_NO_RUN,   /* why not run: --no-run */
    KD_MSG_DIFF_CALLER_WHY_FLAGS,    /* why not run: launch flags describe it (the first flag) */
    /* none found: the kernel, the file, the root, the Python files read, what bounded the
       walk ("" or a KD_M message), the likeliest files ("" none), the kernel */
    KD_MSG_DIFF_CALLERS_NONE,
    KD_MSG_DIFF_CALLERS_CAPPED,      /* the walk's bound: what ("files", "folders", "bytes") */
    KD_MSG_DIFF_CALLERS_NEAREST,     /* the likeliest files ("a, b") */
    KD_MSG_DIFF_CALLERS_ELSEWHERE,   /* the ops registered for other devices only ("ns::op for xpu, ...") */
    KD_MSG_DIFF_CALLER_WRAPPERS,     /* the module's functions that launch it ("a, b") */
    KD_MSG_DIFF_CALLER_NOTHING,      /* an empty clause */
    /* the best caller run with capture: the kernel, its name, how (KD_M), the --from argument */
    KD_MSG_DIFF_CALLER_TAKEN,
    /* ... and it did not give the launch: the kernel, its name, why (KD_M), the --from argument */
    KD_MSG_DIFF_CALLER_FAILED,
    /* `list`: a kernel whose launch its front end could not prepare, and said nothing: its name */
    KD_MSG_DIFF_LIST_NOT_PREPARED,
    /* a pass asked for by name when nothing runs (diff/runtime.c): the flag as given, the reason */
    KD_MSG_DIFF_PASS_NOT_RUN,
    /* ... with no reason beyond the report's: the flag */
    KD_MSG_DIFF_PASS_NOT_RUN_BARE,
};

#endif
