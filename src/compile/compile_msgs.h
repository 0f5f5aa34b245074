/* The ids of compile/'s messages (util/diag.h); their words are in report/words_compile.c. */
#ifndef KD_COMPILE_MSGS_H
#define KD_COMPILE_MSGS_H

#include "util/diag.h"

enum {
    KD_MSG_COMPILE_FIRST = KD_DIAG_ID(KD_AREA_COMPILE, 0),
};

#endif
