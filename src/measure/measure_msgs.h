/* The ids of measure/'s messages (util/diag.h); their words are in report/words_measure.c. */
#ifndef KD_MEASURE_MSGS_H
#define KD_MEASURE_MSGS_H

#include "util/diag.h"

enum {
    KD_MSG_MEASURE_FIRST = KD_DIAG_ID(KD_AREA_MEASURE, 0),
};

#endif
