/* The ids of backend/'s messages (util/diag.h); their words are in report/words_backend.c. */
#ifndef KD_BACKEND_MSGS_H
#define KD_BACKEND_MSGS_H

#include "util/diag.h"

enum {
    KD_MSG_BACKEND_FIRST = KD_DIAG_ID(KD_AREA_BACKEND, 0),
};

#endif
