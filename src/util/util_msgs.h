/* The ids of util/'s messages (util/diag.h); their words are in report/words_util.c. */
#ifndef KD_UTIL_MSGS_H
#define KD_UTIL_MSGS_H

#include "util/diag.h"

enum {
    KD_MSG_UTIL_FIRST = KD_DIAG_ID(KD_AREA_UTIL, 0),
    /* util/progress.c: a stage, when verbose (seconds since start, what the caller said). */
    KD_MSG_UTIL_TRACE,
    /* util/progress.c: a result worth seeing before the run ends (what the caller said). */
    KD_MSG_UTIL_ANNOUNCE,
    /* util/xalloc.c: an allocation failed (the bytes asked for); then kerndiff exits. */
    KD_MSG_UTIL_OUT_OF_MEMORY,
    /* util/xalloc.c: the same where a library allocated and did not say how much. */
    KD_MSG_UTIL_OUT_OF_MEMORY_UNSIZED,
    /* util/tmpdir.c: $TMPDIR holds characters a shell acts on (its value): /tmp is used. */
    KD_MSG_UTIL_TMPDIR_UNSAFE,
    /* util/env.c: a KERNDIFF_ variable kerndiff does not read (its name, the known names), and
     * the same with the closest known name (its name, that name, the known names). Warnings. */
    KD_MSG_UTIL_ENV_UNKNOWN,
    KD_MSG_UTIL_ENV_UNKNOWN_NEAR,
    /* util/env.c: a knob set to a value it does not take (its name, the value, the values). */
    KD_MSG_UTIL_ENV_BAD_VALUE,
};

#endif
