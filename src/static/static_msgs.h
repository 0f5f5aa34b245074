/* The ids of static/'s messages (util/diag.h); their words are in report/words_static.c. */
#ifndef KD_STATIC_MSGS_H
#define KD_STATIC_MSGS_H

#include "util/diag.h"

enum {
    KD_MSG_STATIC_FIRST = KD_DIAG_ID(KD_AREA_STATIC, 0),
};

#endif
