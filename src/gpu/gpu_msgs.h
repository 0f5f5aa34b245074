/* The ids of gpu/'s messages (util/diag.h); their words are in report/words_gpu.c. */
#ifndef KD_GPU_MSGS_H
#define KD_GPU_MSGS_H

#include "util/diag.h"

enum {
    KD_MSG_GPU_FIRST = KD_DIAG_ID(KD_AREA_GPU, 0),
};

#endif
