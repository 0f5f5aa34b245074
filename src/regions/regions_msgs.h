/* The ids of regions/'s messages (util/diag.h); their words are in report/words_regions.c. */
#ifndef KD_REGIONS_MSGS_H
#define KD_REGIONS_MSGS_H

#include "util/diag.h"

enum {
    KD_MSG_REGIONS_FIRST = KD_DIAG_ID(KD_AREA_REGIONS, 0),
};

#endif
