/* The ids of wire/'s messages (util/diag.h); their words are in report/words_wire.c. */
#ifndef KD_WIRE_MSGS_H
#define KD_WIRE_MSGS_H

#include "util/diag.h"

enum {
    KD_MSG_WIRE_FIRST = KD_DIAG_ID(KD_AREA_WIRE, 0),
    /* A harness child's failure (wire/child.h's kd_child_failure_diag). */
    KD_MSG_WIRE_CHILD_NO_FAILURE,      /* (none) */
    KD_MSG_WIRE_CHILD_ERR,             /* the child's own message */
    KD_MSG_WIRE_CHILD_TIMEOUT,         /* (none) */
    KD_MSG_WIRE_CHILD_SIGNAL,          /* signal number, its name (strsignal) */
    KD_MSG_WIRE_CHILD_SIGNAL_WORDS,    /* signal number, its name, the child's last stderr line */
    KD_MSG_WIRE_CHILD_EXIT,            /* exit status */
    KD_MSG_WIRE_CHILD_EXIT_WORDS,      /* exit status, the child's last stderr line */
    KD_MSG_WIRE_CHILD_GARBLED,         /* the reply line as received */
    KD_MSG_WIRE_CHILD_WHILE,           /* what it was doing, the failure (a message) */
    KD_MSG_WIRE_CHILD_NO_PIPES,        /* strerror */
    KD_MSG_WIRE_CHILD_NO_FORK,         /* strerror */
    /* What the harness answered, read by wire/client.c and wire/counters.c. */
    KD_MSG_WIRE_PROTOCOL_VERSION,      /* the harness's version (text), kerndiff's */
    KD_MSG_WIRE_NEEDS_MEMORY,          /* GiB the launch needs (appended to an allocation failure) */
    KD_MSG_WIRE_COUNTERS_MALFORMED,    /* (none) */
    KD_MSG_WIRE_COUNTERS_VALUES,       /* values wanted per kernel */
};

#endif
