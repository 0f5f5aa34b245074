/* capture_run.h — `kerndiff capture` (issue 30 item 1): runs the user's program, unchanged,
 * with kerndiff's injection library in capture mode (harness/capture_inject.c; its raw
 * folder: docs/CAPTURE.md), waits for it, and packs what the library recorded into a
 * capture file (capture/file.h kd_capture_pack, mode 0600). Also the first half of
 * `kerndiff --from 'CMD' --fn NAME v1 v2` (diff/pipeline.c), which replays the file.
 *
 * The program is started from an argument vector, never through a shell; --from's one
 * string is split as a shell would split it (app/command.h kd_app_split_words). */
#ifndef KD_APP_CAPTURE_RUN_H
#define KD_APP_CAPTURE_RUN_H

#include <stdbool.h>

#include "util/diag.h"
#include "util/outcome.h"

typedef struct kd_capture_run_request {
    const char *const *argv;  /* the program and its arguments (NULL-terminated), or NULL: */
    const char *command;      /* ... one string, split like a shell's words */
    const char *fn;           /* the kernel (mangled or demangled name, template instance included) */
    unsigned long long nth;   /* its K-th launch (1: the first) */
    bool keep_going;          /* --continue: the program runs to its end after the capture */
    const char *out_path;     /* the capture file, checked by the caller (cli/outputs) */
    int timeout_s;            /* 0: no limit */
    const char *cwd;          /* the folder the program runs in (a found caller: the project's root); NULL: ours */
} kd_capture_run_request;

/* 0 with the capture written to req->out_path, or -1 with *err set: no GPU, the injection
 * library not found, the program not started or timed out, and every failure of the raw
 * folder (the kernel not launched: the kernels it did launch; the launch not captured ...). */
int kd_capture_run(const kd_capture_run_request *req, kd_diag *err);

/* What kd_capture_run's failure (its message id) is, for the exit status: the program or its
 * kernel is the user's input, a missing library kerndiff's (tool), the rest happened at run
 * time (no GPU, the program timed out, the launch not captured). */
kd_outcome kd_capture_run_outcome(int id);

#endif
