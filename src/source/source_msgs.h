/* The ids of source/'s messages (util/diag.h); their words are in report/words_source.c. */
#ifndef KD_SOURCE_MSGS_H
#define KD_SOURCE_MSGS_H

#include "util/diag.h"

enum {
    KD_MSG_SOURCE_FIRST = KD_DIAG_ID(KD_AREA_SOURCE, 0),
};

#endif
