/* The ids of cli/'s messages (util/diag.h); their words are in report/words_cli.c. */
#ifndef KD_CLI_MSGS_H
#define KD_CLI_MSGS_H

#include "util/diag.h"

enum {
    KD_MSG_CLI_FIRST = KD_DIAG_ID(KD_AREA_CLI, 0),
};

#endif
