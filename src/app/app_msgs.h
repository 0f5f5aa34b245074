/* The ids of app/'s messages (util/diag.h); their words are in report/words_app.c. */
#ifndef KD_APP_MSGS_H
#define KD_APP_MSGS_H

#include "util/diag.h"

enum {
    KD_MSG_APP_FIRST = KD_DIAG_ID(KD_AREA_APP, 0),
};

#endif
