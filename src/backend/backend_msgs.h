/* The ids of backend/'s messages (util/diag.h); their words are in report/words_backend.c. */
#ifndef KD_BACKEND_MSGS_H
#define KD_BACKEND_MSGS_H

#include "util/diag.h"

/* A message about one input that may be said without a side (a file scanned on its own, for
 * `kerndiff list`) comes in two ids, with the side first and without it (id + 1):
 * kd_say_sided picks one. */
enum {
    KD_MSG_BACKEND_FIRST = KD_DIAG_ID(KD_AREA_BACKEND, 0),
    /* A .cubin, and no cuobjdump to read it. */
    KD_MSG_BACKEND_NEEDS_CUOBJDUMP, /* side */
    KD_MSG_BACKEND_NEEDS_CUOBJDUMP_NO_SIDE,
    /* cuobjdump failed on a cubin: tool, cubin, what it said. */
    KD_MSG_BACKEND_CUOBJDUMP_FAILED, /* side, tool, cubin, its stderr */
    KD_MSG_BACKEND_CUOBJDUMP_FAILED_NO_SIDE,
    KD_MSG_BACKEND_CANNOT_READ, /* side, path, why */
    KD_MSG_BACKEND_CANNOT_READ_NO_SIDE,
    /* The input, or its sidecar, whose annotations do not fit its kernels. */
    KD_MSG_BACKEND_ANNOTATIONS, /* side, path, why */
    KD_MSG_BACKEND_ANNOTATIONS_NO_SIDE,
    KD_MSG_BACKEND_IS_FOLDER, /* side, path */
    KD_MSG_BACKEND_IS_FOLDER_NO_SIDE,
    /* Said always with a side. */
    KD_MSG_BACKEND_NO_PTXAS,        /* side, ptxas, path */
    KD_MSG_BACKEND_PTXAS_FAILED,    /* side, arch, path, ptxas's stderr */
    KD_MSG_BACKEND_CANNOT_WRITE,    /* side, path, why */
    KD_MSG_BACKEND_NO_BUILD_FOLDER, /* side, why */
    KD_MSG_BACKEND_ASSEMBLY_LEFT_NOTHING, /* side, path, folder */
    KD_MSG_BACKEND_BUILD_FAILED,    /* side, path, arch, nvcc's output, a hint line (may be "") */
    KD_MSG_BACKEND_BUILD_FAILED_HINT, /* the same, the hint (what to do) first: a missing -I, a flag */
    KD_MSG_BACKEND_INCLUDE_ADDED,     /* side, path, the header, the folder kerndiff added as -I */
    /* A sentence compile/ made (kd_build_source's why), said for a side, or alone. */
    KD_MSG_BACKEND_SIDE_SAYS, /* side, sentence */
    KD_MSG_BACKEND_SAYS,      /* sentence */
    /* A PyTorch extension file whose torch flags cannot be had of the Python (compile/torch.h):
     * side, path, the torch header it includes, the python, then: */
    KD_MSG_BACKEND_TORCH_NO_PYTHON,     /* ... why it cannot be run */
    KD_MSG_BACKEND_TORCH_NOT_INSTALLED, /* ... what `import torch` raised */
    KD_MSG_BACKEND_TORCH_QUERY_FAILED,  /* ... the last line it wrote to stderr */
    KD_MSG_BACKEND_TORCH_QUERY_SILENT,  /* ... "" (it failed and said nothing) */
    KD_MSG_BACKEND_TORCH_QUERY_TIMEOUT, /* ... the limit in seconds */
    KD_MSG_BACKEND_TORCH_UNSAFE_PATH,   /* ... torch's include folder */
};

/* kd_say(id, ...) with side's label as the first value, or kd_say(id + 1, ...) without it
 * when side is NULL. */
#define kd_say_sided(id, side, ...)                                                                                    \
    kd_say_sided_args((id), (side), (const kd_diag_arg[]){__VA_ARGS__},                                                \
                      sizeof((const kd_diag_arg[]){__VA_ARGS__}) / sizeof(kd_diag_arg))
void kd_say_sided_args(int id, const char *side, const kd_diag_arg *args, size_t nargs);

#endif
