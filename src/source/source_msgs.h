/* The ids of source/'s messages (util/diag.h); their words are in report/words_source.c. */
#ifndef KD_SOURCE_MSGS_H
#define KD_SOURCE_MSGS_H

#include "util/diag.h"

enum {
    KD_MSG_SOURCE_FIRST = KD_DIAG_ID(KD_AREA_SOURCE, 0),
    /* source/select.c: which kernel to compare */
    KD_MSG_SOURCE_NO_KERNEL_NAMED,      /* side label, --fn's name, the file, its kernels */
    KD_MSG_SOURCE_NO_KERNEL_NAMED_NEAR, /* side label, --fn's name, the file, the nearest name, its kernels */
    KD_MSG_SOURCE_NO_CUDA_KERNEL,       /* side label, the file */
    KD_MSG_SOURCE_NO_TRITON_KERNEL,     /* side label, the file */
    KD_MSG_SOURCE_NO_PTX_ENTRY,         /* side label, the file */
    KD_MSG_SOURCE_NO_CUBIN_FUNCTION,    /* side label, the file */
    KD_MSG_SOURCE_SEVERAL_KERNELS,      /* the kernels both files define */
    KD_MSG_SOURCE_NO_COMMON_KERNEL,     /* v1's kernels, v2's kernels */
};

#endif
