/* The ids of ncu/'s messages (util/diag.h); their words are in report/words_ncu.c. */
#ifndef KD_NCU_MSGS_H
#define KD_NCU_MSGS_H

#include "util/diag.h"

enum {
    KD_MSG_NCU_FIRST = KD_DIAG_ID(KD_AREA_NCU, 0),
    KD_MSG_NCU_CUPTI_FALLBACK, /* why CUPTI could not: --counters auto asks ncu instead */
};

#endif
