/* The ids of launch/'s messages (util/diag.h); their words are in report/words_launch.c. */
#ifndef KD_LAUNCH_MSGS_H
#define KD_LAUNCH_MSGS_H

#include "util/diag.h"

enum {
    KD_MSG_LAUNCH_FIRST = KD_DIAG_ID(KD_AREA_LAUNCH, 0),
};

#endif
