/* records.h — reading the records files that libkerndiff-inject.so writes, one per process
 * of a run, into a folder named by KERNDIFF_APP_RECORDS (format: docs/APP.md). Any program
 * may write such a file itself: the end-to-end tests' fake programs do, which is how
 * `kerndiff app` is tested without a GPU. */
#ifndef KD_APP_RECORDS_H
#define KD_APP_RECORDS_H

#include "app/activity.h"
#include "util/diag.h"

/* What is wrong with a records file: the message (app/app_msgs.h's KD_MSG_APP_RECORDS_*),
 * the line and its first 60 bytes for KD_MSG_APP_RECORDS_BAD_LINE. */
typedef struct kd_app_records_error {
    int id;
    int line;
    char text[61];
} kd_app_records_error;

/* Adds one records file's text (NUL-terminated) to `a`. Kernel names are demangled.
 * Returns 0, or -1 with what is wrong in *err. A file without its final "end" line (a
 * process killed while writing) is an error too. */
int kd_app_records_parse(const char *text, kd_app_activity *a, kd_app_records_error *err);

/* Which run's records a folder holds: the side (0 or 1) and the run (from 0), which its
 * messages name. */
typedef struct kd_app_records_run {
    int side;
    size_t run;
} kd_app_records_run;

/* Adds every *.rec file of `dir` (one per process) to `a`; none is no GPU activity.
 * Returns 0, or -1 with the message naming the file and what is wrong in *err (for the
 * caller to say; kd_diag_free it). */
int kd_app_records_read_dir(const char *dir, kd_app_records_run which, kd_app_activity *a, kd_diag *err);

#endif
