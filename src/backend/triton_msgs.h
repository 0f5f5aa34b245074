/* The ids of the Triton backend's messages (backend/triton*.c; util/diag.h); their words are in
 * report/words_triton.c. */
#ifndef KD_TRITON_MSGS_H
#define KD_TRITON_MSGS_H

#include "util/diag.h"

enum {
    KD_MSG_TRITON_FIRST = KD_DIAG_ID(KD_AREA_TRITON, 0),
    /* the helper (scripts/kerndiff-triton.py), said with the side first or, for a file listed
     * on its own, without it (id + 1): backend_msgs.h's kd_say_sided picks one */
    KD_MSG_TRITON_NO_HELPER, /* side, helper name */
    KD_MSG_TRITON_NO_HELPER_NO_SIDE,
    KD_MSG_TRITON_NO_PYTHON, /* side, python, strerror */
    KD_MSG_TRITON_NO_PYTHON_NO_SIDE,
    KD_MSG_TRITON_HELPER_TOOK_TOO_LONG, /* side, doing, python */
    KD_MSG_TRITON_HELPER_TOOK_TOO_LONG_NO_SIDE,
    KD_MSG_TRITON_HELPER_CRASHED, /* side, doing, python */
    KD_MSG_TRITON_HELPER_CRASHED_NO_SIDE,
    KD_MSG_TRITON_HELPER_NO_TRITON, /* side, doing, python, what it said */
    KD_MSG_TRITON_HELPER_NO_TRITON_NO_SIDE,
    KD_MSG_TRITON_HELPER_COMPILE, /* side, doing, what Triton said */
    KD_MSG_TRITON_HELPER_COMPILE_NO_SIDE,
    KD_MSG_TRITON_HELPER_INPUT, /* side, what it said */
    KD_MSG_TRITON_HELPER_INPUT_NO_SIDE,
    KD_MSG_TRITON_HELPER_STATUS, /* side, doing, python, status, what it said */
    KD_MSG_TRITON_HELPER_STATUS_NO_SIDE,
    KD_MSG_TRITON_CANNOT_READ, /* side, path, strerror */
    KD_MSG_TRITON_CANNOT_READ_NO_SIDE,
    KD_MSG_TRITON_LIST_UNREADABLE, /* why */
    /* a side's launch and build: {0} is the side's label */
    KD_MSG_TRITON_ARG_TYPE,           /* side, argument, kernel, Triton type */
    KD_MSG_TRITON_CAPTURE_MALFORMED,  /* side, kernel, folder */
    KD_MSG_TRITON_NO_DESCRIPTION,     /* side */
    KD_MSG_TRITON_BAD_WARPS,          /* side, num_warps, num_stages */
    KD_MSG_TRITON_CONSTEXPR_NEEDS_VALUE, /* side, constexpr, kernel, file */
    KD_MSG_TRITON_CONSTEXPRS_NEED_VALUES, /* side, the names ("A, B"), kernel, file */
    KD_MSG_TRITON_CAPTURE_UNREADABLE, /* side, folder */
    KD_MSG_TRITON_NOT_CAPTURED,       /* side, kernel, why */
    KD_MSG_TRITON_CONFIG_NONE,        /* side, --config, kernel, the configs */
    KD_MSG_TRITON_CONFIG_NO_CONFIGS,  /* side, --config, kernel */
    KD_MSG_TRITON_OUT_OF_MEMORY,
    KD_MSG_TRITON_HEURISTICS_NOT_JSON, /* side, the helper's output */
    KD_MSG_TRITON_CANNOT_WRITE,       /* side, path, strerror */
    KD_MSG_TRITON_NO_BUILD_FOLDER,    /* side, strerror */
    KD_MSG_TRITON_BUILD_LEFT_NOTHING, /* side, folder */
    KD_MSG_TRITON_CAPTURE_LEFT_NOTHING, /* side, folder */
    KD_MSG_TRITON_DESCRIPTOR,           /* side, kernel, its descriptor parameters ("a, b") */
    KD_MSG_TRITON_LIST_NEEDS_VALUE,   /* constexpr, kernel, file: `list`'s not-launchable reason */
    KD_MSG_TRITON_LIST_NEED_VALUES,      /* constexprs ("A, B"), kernel, file */
    KD_MSG_TRITON_LIST_NEEDS_BLOCK,   /* constexpr, kernel, file, the block a static diff assumes */
    KD_MSG_TRITON_RUN_NOT_TAKEN,      /* side, --run's command, kernel, why */
};

#endif
