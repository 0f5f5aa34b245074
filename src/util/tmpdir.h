/* tmpdir.h — one private temporary folder per kerndiff run, removed at exit, on SIGINT,
 * SIGTERM and SIGHUP too. */
#ifndef KD_UTIL_TMPDIR_H
#define KD_UTIL_TMPDIR_H

/* The folder (mode 0700, under $TMPDIR or /tmp), created on first use; NULL on failure. */
const char *kd_tmpdir(void);

#endif
