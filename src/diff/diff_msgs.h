/* The ids of diff/'s messages (util/diag.h); their words are in report/words_diff.c. */
#ifndef KD_DIFF_MSGS_H
#define KD_DIFF_MSGS_H

#include "util/diag.h"

enum {
    KD_MSG_DIFF_FIRST = KD_DIAG_ID(KD_AREA_DIFF, 0),
};

#endif
