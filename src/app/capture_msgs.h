/* The ids of `kerndiff capture`'s messages (app/capture_run.h, cmd/capture.c), in app's area
 * from 800 (the capture file's own are capture/capture_msgs.h's, from 700); their words are
 * in report/words_app.c's block "kerndiff capture (C3)". */
#ifndef KD_APP_CAPTURE_MSGS_H
#define KD_APP_CAPTURE_MSGS_H

#include "util/diag.h"

enum {
    KD_MSG_CAPTURE_RUN_FIRST = KD_DIAG_ID(KD_AREA_APP, 800),
    KD_MSG_CAPTURE_RUN_NO_GPU,       /* the probe's reason */
    KD_MSG_CAPTURE_RUN_NO_LIBRARY,
    KD_MSG_CAPTURE_RUN_NO_COMMAND,
    KD_MSG_CAPTURE_RUN_SPLIT,        /* the command, what is wrong with its quoting */
    KD_MSG_CAPTURE_RUN_CANNOT_START, /* the program, strerror */
    KD_MSG_CAPTURE_RUN_TIMED_OUT,    /* the program, seconds */
    KD_MSG_CAPTURE_RUN_NO_FOLDER,    /* strerror */
    KD_MSG_CAPTURE_RUN_DONE,         /* launch K, the kernel, the api, grid, block, data bytes, the file */
    KD_MSG_CAPTURE_RUN_EXITED,       /* the program, its exit status: it failed and launched no kernel */
    KD_MSG_CAPTURE_RUN_SIGNALLED,    /* the program, the signal's number: likewise */
};

#endif
