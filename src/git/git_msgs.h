/* The ids of git/'s messages (util/diag.h); their words are in report/words_git.c. */
#ifndef KD_GIT_MSGS_H
#define KD_GIT_MSGS_H

#include "util/diag.h"

enum {
    KD_MSG_GIT_FIRST = KD_DIAG_ID(KD_AREA_GIT, 0),
    /* A side's checkout (app --at, git/worktree.c): side number, the revision, then: */
    KD_MSG_GIT_CHECKOUT_NOT_A_REPO,
    KD_MSG_GIT_CHECKOUT_ADD_FAILED, /* git's message (its first line) */
    KD_MSG_GIT_CHECKOUT_UNTRACKED,
    KD_MSG_GIT_CHECKOUT_NO_FOLDER,  /* the current folder (relative to the top), the revision's label */
    /* Why git gave no answer (git/run.c), in four places: git mode (kerndiff FILE), its check
     * that git runs, a side's checkout (app --at) and its check. The same reason in each is
     * the same offset from its first id (git/run.h's kd_git_say_in moves a reason between
     * them): NOT_FOUND (no values), CANNOT_RUN (strerror), TIMED_OUT, KILLED, then, not in
     * the checks, UNKNOWN_REVISION (the ref) and CANNOT_ABBREVIATE (the hash). A side's
     * checkout puts its side number and revision first. */
    KD_MSG_GIT_NOT_FOUND,
    KD_MSG_GIT_CANNOT_RUN,
    KD_MSG_GIT_TIMED_OUT,
    KD_MSG_GIT_KILLED,
    KD_MSG_GIT_UNKNOWN_REVISION,
    KD_MSG_GIT_CANNOT_ABBREVIATE,
    KD_MSG_GIT_PROBE_NOT_FOUND,
    KD_MSG_GIT_PROBE_CANNOT_RUN,
    KD_MSG_GIT_PROBE_TIMED_OUT,
    KD_MSG_GIT_PROBE_KILLED,
    KD_MSG_GIT_AT_NOT_FOUND,
    KD_MSG_GIT_AT_CANNOT_RUN,
    KD_MSG_GIT_AT_TIMED_OUT,
    KD_MSG_GIT_AT_KILLED,
    KD_MSG_GIT_AT_UNKNOWN_REVISION,
    KD_MSG_GIT_AT_CANNOT_ABBREVIATE,
    KD_MSG_GIT_AT_PROBE_NOT_FOUND,
    KD_MSG_GIT_AT_PROBE_CANNOT_RUN,
    KD_MSG_GIT_AT_PROBE_TIMED_OUT,
    KD_MSG_GIT_AT_PROBE_KILLED,
    /* Git mode (git/revision.c): */
    KD_MSG_GIT_NEEDS_FILE,          /* no values */
    KD_MSG_GIT_IS_FOLDER,           /* the file */
    KD_MSG_GIT_NO_SUCH_FOLDER,      /* the file, its folder */
    KD_MSG_GIT_NOT_A_REPO,          /* the file */
    KD_MSG_GIT_NOT_TRACKED,         /* the file */
    KD_MSG_GIT_CANNOT_WRITE,        /* the path, strerror */
    KD_MSG_GIT_NOT_AT_REVISION,     /* the file, the revision */
    KD_MSG_GIT_NOT_IN_WORKING_COPY, /* the file */
    KD_MSG_GIT_TOO_MANY_INCLUDES,   /* the file, the most the include walk follows */
    KD_MSG_GIT_TRIPLE_DOTS,         /* --at's value */
    KD_MSG_GIT_RANGE_EMPTY,         /* --at's value (nothing before nor after '..') */
    KD_MSG_GIT_RANGE_NO_FROM,       /* --at's value */
    KD_MSG_GIT_RANGE_NO_TO,         /* --at's value */
};

#endif
