/* The ids of git/'s messages (util/diag.h); their words are in report/words_git.c. */
#ifndef KD_GIT_MSGS_H
#define KD_GIT_MSGS_H

#include "util/diag.h"

enum {
    KD_MSG_GIT_FIRST = KD_DIAG_ID(KD_AREA_GIT, 0),
};

#endif
