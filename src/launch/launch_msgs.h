/* The ids of launch/'s messages (util/diag.h); their words are in report/words_launch.c. */
#ifndef KD_LAUNCH_MSGS_H
#define KD_LAUNCH_MSGS_H

#include "util/diag.h"

enum {
    KD_MSG_LAUNCH_FIRST = KD_DIAG_ID(KD_AREA_LAUNCH, 0),
    /* launch/spec.c's refusals of a launch's settings (b->error), from 100: */
    KD_MSG_SPEC_FIRST = KD_DIAG_ID(KD_AREA_LAUNCH, 100),
    KD_MSG_SPEC_ENTRY_FORM,        /* the flag (--buf), the entry, "COUNT" or "VALUE" */
    KD_MSG_SPEC_NO_PARAM,          /* the flag, the entry, the kernel, the name, its parameters ("a, b") */
    KD_MSG_SPEC_BUFFER_NOT_SCALAR, /* the flag, the entry, the parameter, its type */
    KD_MSG_SPEC_SCALAR_NOT_BUFFER, /* the flag, the entry, the parameter, its type */
    KD_MSG_SPEC_SCALAR_TYPE,       /* the parameter, its type */
    KD_MSG_SPEC_SCALAR_VECTOR,     /* the parameter, its type */
    KD_MSG_SPEC_DESCRIPTOR,        /* the parameter, the kernel */
    KD_MSG_SPEC_NOT_WHOLE,         /* the parameter, its type, where its value came from, the value */
    KD_MSG_SPEC_NOT_WHOLE_N,       /* the same, the value from n */
    KD_MSG_SPEC_OUT_OF_RANGE,      /* the parameter, its type, lowest, highest, where its value came from, the value */
    KD_MSG_SPEC_OUT_OF_RANGE_N,    /* the same, the value from n */
    /* A launch replayed from a capture (launch/replay.h, C3), from 900: */
    KD_MSG_REPLAY_FIRST = KD_DIAG_ID(KD_AREA_LAUNCH, 900),
    KD_MSG_REPLAY_TOO_MANY,        /* the file, parameters, allocations, the most a harness takes */
    KD_MSG_REPLAY_PARAM_COUNT,     /* the side ("v1"), the side's kernel, its parameter count, the captured kernel, its count */
    KD_MSG_REPLAY_PARAM_SIZE,      /* the side, index, name, declared type, its size, the captured size */
    KD_MSG_REPLAY_PARAM_POINTER,   /* the side, index, name, declared type */
    KD_MSG_REPLAY_OUTPUTS_SHORT,   /* bytes the check gave, bytes the changed allocations need */
    KD_MSG_REPLAY_AFTER_UNREADABLE,/* the extracted file */
    KD_MSG_REPLAY_CLUSTER,         /* the file, the grid ("4x1x1"), the cluster ("3x1x1") */
};

#endif
