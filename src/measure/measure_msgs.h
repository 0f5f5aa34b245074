/* The ids of measure/'s messages (util/diag.h); their words are in report/words_measure.c. */
#ifndef KD_MEASURE_MSGS_H
#define KD_MEASURE_MSGS_H

#include "util/diag.h"

enum {
    KD_MSG_MEASURE_FIRST = KD_DIAG_ID(KD_AREA_MEASURE, 0),
    /* measure/harness_pool.c: a sweep's harness started ahead did not answer its hello; the child's label */
    KD_MSG_MEASURE_SPARE_NOT_READY,
    /* measure/harness_pool.c: a harness kept from the previous point (reset) had exited; the child's label */
    KD_MSG_MEASURE_KEPT_NOT_READY,
};

#endif
