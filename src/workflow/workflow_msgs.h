/* The ids of workflow/'s messages (util/diag.h); their words are in report/words_workflow.c. */
#ifndef KD_WORKFLOW_MSGS_H
#define KD_WORKFLOW_MSGS_H

#include "util/diag.h"

enum {
    KD_MSG_WORKFLOW_FIRST = KD_DIAG_ID(KD_AREA_WORKFLOW, 0),
    /* sweep (workflow/sweep.c, cmd/sweep.c) */
    KD_MSG_SWEEP_RANGE_FORM = KD_DIAG_ID(KD_AREA_WORKFLOW, 512), /* range text */
    KD_MSG_SWEEP_RANGE_VALUE,     /* range text, why */
    KD_MSG_SWEEP_RANGE_ORDER,     /* range text */
    KD_MSG_SWEEP_RANGE_TOO_MANY,  /* range text, max points */
    KD_MSG_SWEEP_LIST_BAD,        /* option, list text, max points */
    KD_MSG_SWEEP_DEFINE_BAD,      /* why (compile/'s check of -D) */
    KD_MSG_SWEEP_COUNT_BAD,       /* point, points, value, why */
    KD_MSG_SWEEP_FORM,            /* --sweep's text */
    KD_MSG_SWEEP_POINT,           /* parameter, value, what happened at that point */
    /* sweep (L1) above, watch and saved (L2b) below */
    KD_MSG_WORKFLOW_WATCH_UNREADABLE = KD_DIAG_ID(KD_AREA_WORKFLOW, 1), /* --watch: a watched file went away */
    KD_MSG_WORKFLOW_WATCH_NO_FILE,          /* --watch before the first run: side number, path, why */
    KD_MSG_WORKFLOW_WATCH_NO_GIT_FILE,      /* the same in git mode (one file): path, why */
    /* compare of saved runs (L4: workflow/saved.c), from 900 */
    KD_MSG_SAVED_CANNOT_READ = KD_DIAG_ID(KD_AREA_WORKFLOW, 900), /* OLD|NEW, path, reason */
    KD_MSG_SAVED_NOT_A_RESULT,        /* OLD|NEW, path, what the reader found */
    KD_MSG_SAVED_IMPLAUSIBLE_SAMPLE,  /* OLD|NEW, path, side index, sample index, ns */
    KD_MSG_SAVED_NO_KERNEL,           /* OLD|NEW, path, side index */
    KD_MSG_SAVED_NO_ROUNDS_KEPT,      /* path: one run re-compared, saved without its rounds */
    KD_MSG_SAVED_NO_ROUNDS_SAMPLES,   /* OLD|NEW, path: two runs, one saved without its rounds */
    KD_MSG_SAVED_INTERVAL_DIFFERS,    /* path, recomputed lo, hi, saved lo, hi, --seed */
    KD_MSG_SAVED_INTERVAL_CHANGED,    /* the same, the seed being the run's own */
};

#endif
