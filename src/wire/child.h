/* child.h — one harness child process: started once per side, spoken to over pipes, one
 * reply line per command, with a watchdog on every reply. A child that crashes, hangs or
 * answers nonsense is reported, never followed: kerndiff itself must survive it. */
#ifndef KD_HARNESS_CHILD_H
#define KD_HARNESS_CHILD_H

#include <stdbool.h>
#include <sys/types.h>
#include "wire/protocol.h"
#include "util/diag.h"
#include "util/strbuf.h"

typedef enum kd_reply_status {
    KD_REPLY_OK = 0,   /* "ok ..." */
    KD_REPLY_ERR,      /* "err KIND ...": the child reported a failure */
    KD_REPLY_TIMEOUT,  /* no reply within the limit: the child was killed */
    KD_REPLY_DIED,     /* the child exited or was killed by a signal */
    KD_REPLY_GARBLED,  /* a reply that is neither ok nor err */
} kd_reply_status;

typedef struct kd_child {
    const char *side;     /* "v1" / "v2" */
    pid_t pid;
    int to_child, from_child, child_err;
    kd_strbuf pending;    /* bytes read past the last full line */
    kd_strbuf stderr_text;/* everything the child wrote to stderr */
    char *line;           /* the last reply line (owned) */
    kd_words words;       /* the last reply, split */
    bool exited;
    bool send_failed;     /* the last command could not be written: the child is gone */
    int exit_code, signal;
} kd_child;

/* Starts argv. Returns 0, or -1 with the reason in why. */
int kd_child_start(kd_child *c, const char *side, const char *const argv[], kd_strbuf *why);

/* Sends one command line and reads the reply (c->line, c->words). */
kd_reply_status kd_child_call(kd_child *c, int timeout_ms, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

/* The two halves of kd_child_call, so that both sides can work at once (setup, check):
 * send to each, then receive from each. A failed send is reported by the receive. */
void kd_child_send(kd_child *c, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
kd_reply_status kd_child_receive(kd_child *c, int timeout_ms);

/* The last failure as data: what became of the child and what it last said. Worded by
 * report/ only (report/words_wire.c: "the harness was killed by signal 11 (Segmentation
 * fault); its last words: ...", "the harness did not answer in time ...", the err message). */
typedef struct kd_child_failure {
    kd_reply_status status;
    int exit_code, signal;  /* KD_REPLY_DIED: one of them (signal 0: it exited) */
    char *answer;           /* ERR: its message (the words after "err KIND"); GARBLED: the reply (owned) */
    char *last_words;       /* DIED: the last line the child wrote to stderr, or NULL (owned) */
} kd_child_failure;

void kd_child_failure_get(const kd_child *c, kd_reply_status st, kd_child_failure *f);
void kd_child_failure_free(kd_child_failure *f);
/* The failure as a message (wire/wire_msgs.h's KD_MSG_WIRE_CHILD_*, values copied); with
 * `doing` ("starting the harness") it is KD_MSG_WIRE_CHILD_WHILE: "doing: failure". */
void kd_child_failure_diag(const kd_child_failure *f, const char *doing, int side, kd_diag *d);
/* The same, straight from the child, for a reason still handed up as text: report/'s words
 * for it (with `doing`, "doing: failure") appended to `why` (util/diag.h's
 * kd_diag_append_words). */
void kd_child_failure_words(const kd_child *c, kd_reply_status st, const char *doing, kd_strbuf *why);

/* Asks the child to quit, waits briefly, kills it if needed, frees everything. */
void kd_child_stop(kd_child *c);

#endif
