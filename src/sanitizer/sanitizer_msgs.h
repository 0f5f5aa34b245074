/* The ids of sanitizer/'s messages (util/diag.h); their words are in report/words_sanitizer.c. */
#ifndef KD_SANITIZER_MSGS_H
#define KD_SANITIZER_MSGS_H

#include "util/diag.h"

enum {
    KD_MSG_SANITIZER_FIRST = KD_DIAG_ID(KD_AREA_SANITIZER, 0),
};

#endif
