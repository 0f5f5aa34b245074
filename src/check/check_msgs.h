/* The ids of check/'s messages (util/diag.h); their words are in report/words_check.c. */
#ifndef KD_CHECK_MSGS_H
#define KD_CHECK_MSGS_H

#include "util/diag.h"

enum {
    KD_MSG_CHECK_FIRST = KD_DIAG_ID(KD_AREA_CHECK, 0),
};

#endif
