/* The ids of regions/'s messages (util/diag.h); their words are in report/words_regions.c. */
#ifndef KD_REGIONS_MSGS_H
#define KD_REGIONS_MSGS_H

#include "util/diag.h"

enum {
    KD_MSG_REGIONS_FIRST = KD_DIAG_ID(KD_AREA_REGIONS, 0),
    /* A side's markers (regions/instrument.c's kd_regions_scan): its label ("v1"), then */
    KD_MSG_REGIONS_MARKER_NEEDS_NAME, /* the marker as written (its first 60 characters) */
    KD_MSG_REGIONS_GROUP_NEEDS_NAME,  /* the same */
    KD_MSG_REGIONS_TOO_MANY_REGIONS,  /* the most there can be */
    KD_MSG_REGIONS_TOO_MANY_GROUPS,   /* the same */
};

#endif
