/* The ids of launch/'s messages (util/diag.h); their words are in report/words_launch.c. */
#ifndef KD_LAUNCH_MSGS_H
#define KD_LAUNCH_MSGS_H

#include "util/diag.h"

enum {
    KD_MSG_LAUNCH_FIRST = KD_DIAG_ID(KD_AREA_LAUNCH, 0),
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
