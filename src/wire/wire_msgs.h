/* The ids of wire/'s messages (util/diag.h); their words are in report/words_wire.c. */
#ifndef KD_WIRE_MSGS_H
#define KD_WIRE_MSGS_H

#include "util/diag.h"

enum {
    KD_MSG_WIRE_FIRST = KD_DIAG_ID(KD_AREA_WIRE, 0),
};

#endif
