/* records.h — reading the records files that libkerndiff-inject.so writes, one per process
 * of a run, into a folder named by KERNDIFF_APP_RECORDS (format: docs/APP.md). Any program
 * may write such a file itself: the end-to-end tests' fake programs do, which is how
 * `kerndiff app` is tested without a GPU. */
#ifndef KD_APP_RECORDS_H
#define KD_APP_RECORDS_H

#include "app/activity.h"
#include "util/strbuf.h"

/* Adds one records file's text (NUL-terminated) to `a`. Kernel names are demangled.
 * Returns 0, or -1 with "line N: what is wrong" in err. A file without its final "end"
 * line (a process killed while writing) is an error too. */
int kd_app_records_parse(const char *text, kd_app_activity *a, kd_strbuf *err);

/* Adds every *.rec file of `dir` (one per process) to `a`; none is no GPU activity.
 * Returns 0, or -1 with "FILE: line N: ..." in err. */
int kd_app_records_read_dir(const char *dir, kd_app_activity *a, kd_strbuf *err);

#endif
