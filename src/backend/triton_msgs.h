/* The ids of triton/'s messages (util/diag.h); their words are in report/words_triton.c. */
#ifndef KD_TRITON_MSGS_H
#define KD_TRITON_MSGS_H

#include "util/diag.h"

enum {
    KD_MSG_TRITON_FIRST = KD_DIAG_ID(KD_AREA_TRITON, 0),
};

#endif
