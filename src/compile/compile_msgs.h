/* The ids of compile/'s messages (util/diag.h); their words are in report/words_compile.c. */
#ifndef KD_COMPILE_MSGS_H
#define KD_COMPILE_MSGS_H

#include "util/diag.h"

enum {
    KD_MSG_COMPILE_FIRST = KD_DIAG_ID(KD_AREA_COMPILE, 0),
    /* what to do after a failed build (kd_build_failure_hint): any error: the source */
    KD_MSG_COMPILE_HINT_FIX = KD_MSG_COMPILE_FIRST,
    /* a header nvcc could not open that lies near the source: the header, its folder */
    KD_MSG_COMPILE_HINT_INCLUDE_NEAR,
    /* ... that does not: the header, the source */
    KD_MSG_COMPILE_HINT_INCLUDE_NONE,
    /* nvcc's errors name a flag that allows what they refuse: the flag ("--expt-relaxed-constexpr") */
    KD_MSG_COMPILE_HINT_FLAG,
};

#endif
