/* The ids of git/'s messages (util/diag.h); their words are in report/words_git.c. */
#ifndef KD_GIT_MSGS_H
#define KD_GIT_MSGS_H

#include "util/diag.h"

enum {
    KD_MSG_GIT_FIRST = KD_DIAG_ID(KD_AREA_GIT, 0),
    /* A side's checkout (app --at, git/worktree.c): side number, the revision, then: */
    KD_MSG_GIT_CHECKOUT_NO_GIT,     /* why git cannot be run (git/run.c's sentence) */
    KD_MSG_GIT_CHECKOUT_FAILED,     /* what failed (git/run.c's sentence: an unknown revision ...) */
    KD_MSG_GIT_CHECKOUT_NOT_A_REPO,
    KD_MSG_GIT_CHECKOUT_ADD_FAILED, /* git's message (its first line) */
    KD_MSG_GIT_CHECKOUT_UNTRACKED,
    KD_MSG_GIT_CHECKOUT_NO_FOLDER,  /* the current folder (relative to the top), the revision's label */
};

#endif
