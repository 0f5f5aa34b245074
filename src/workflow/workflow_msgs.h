/* The ids of workflow/'s messages (util/diag.h); their words are in report/words_workflow.c. */
#ifndef KD_WORKFLOW_MSGS_H
#define KD_WORKFLOW_MSGS_H

#include "util/diag.h"

enum {
    KD_MSG_WORKFLOW_FIRST = KD_DIAG_ID(KD_AREA_WORKFLOW, 0),
    /* sweep (L1) above, watch and saved (L2b) below */
};

#endif
