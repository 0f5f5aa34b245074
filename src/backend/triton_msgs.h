/* The ids of triton/'s messages (util/diag.h); their words are in report/words_triton.c. */
#ifndef KD_TRITON_MSGS_H
#define KD_TRITON_MSGS_H

#include "util/diag.h"

enum {
    KD_MSG_TRITON_FIRST = KD_DIAG_ID(KD_AREA_TRITON, 0),
    /* the helper (scripts/kerndiff-triton.py): {0} is "v1: ", "v2: " or "" */
    KD_MSG_TRITON_NO_HELPER,          /* prefix, helper name */
    KD_MSG_TRITON_NO_PYTHON,          /* prefix, python, strerror */
    KD_MSG_TRITON_HELPER_TOOK_TOO_LONG, /* prefix, doing, python */
    KD_MSG_TRITON_HELPER_CRASHED,     /* prefix, doing, python */
    KD_MSG_TRITON_HELPER_NO_TRITON,   /* prefix, doing, python, what it said */
    KD_MSG_TRITON_HELPER_COMPILE,     /* prefix, doing, what Triton said */
    KD_MSG_TRITON_HELPER_INPUT,       /* prefix, what it said */
    KD_MSG_TRITON_HELPER_STATUS,      /* prefix, doing, python, status, what it said */
    KD_MSG_TRITON_CANNOT_READ,        /* prefix, path, strerror */
    KD_MSG_TRITON_LIST_UNREADABLE,    /* why */
    /* a side's launch and build: {0} is the side's label */
    KD_MSG_TRITON_ARG_TYPE,           /* side, argument, kernel, Triton type */
    KD_MSG_TRITON_CAPTURE_MALFORMED,  /* side, kernel, folder */
    KD_MSG_TRITON_NO_DESCRIPTION,     /* side */
    KD_MSG_TRITON_BAD_WARPS,          /* side, num_warps, num_stages */
    KD_MSG_TRITON_CONSTEXPR_NEEDS_VALUE, /* side, constexpr, kernel, file */
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
};

#endif
