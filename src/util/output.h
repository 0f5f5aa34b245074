/* output.h — the files kerndiff writes for the user (--json, --save, --markdown, to a
 * file or to stdout as "-"). A report is rendered into memory first and then written
 * whole with kd_write_file (util/fs.h: temporary file and rename), so a failed write
 * never leaves a truncated file or destroys the previous one. Nothing here says anything:
 * each call returns what happened (and errno's reason), and report/formats.c words it. */
#ifndef KD_UTIL_OUTPUT_H
#define KD_UTIL_OUTPUT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

typedef struct kd_output {
    FILE *stream;     /* where the renderer writes (memory) */
    char *data;
    size_t len;
    const char *path; /* "-": stdout */
} kd_output;

/* What became of an output. */
typedef enum kd_output_result {
    KD_OUTPUT_WRITTEN = 0,
    KD_OUTPUT_NO_MEMORY,      /* no stream to render into (kd_output_open returned NULL) */
    KD_OUTPUT_NOT_RENDERED,   /* the renderer failed: nothing was written */
    KD_OUTPUT_NOT_WRITTEN,    /* the destination refused it (*err: errno's reason) */
} kd_output_result;

/* The stream to render into, or NULL when out of memory. */
FILE *kd_output_open(kd_output *o, const char *path);
/* Writes what was rendered to its destination and releases it (also after a failed open).
 * `failed`: the renderer already failed; nothing is written. *err: errno of a failed write,
 * else 0. */
kd_output_result kd_output_close(kd_output *o, int failed, int *err);
/* An output with nothing to show this run: a regular file (or a link) left at its path by an
 * earlier run is removed, since a reader would take it for this run's. stdout ("-"), a missing
 * path, a device or a FIFO are left alone. Returns 1 removed, 0 nothing there to remove, -1
 * with *err (errno) when it could not be removed. */
int kd_output_discard(const char *path, int *err);
/* Whether an output's path holds a file (or a link) already: what an earlier run left there. */
bool kd_output_left_over(const char *path);
/* Writes out what stdout holds (the terminal report before any message on stderr, so that
 * with 2>&1 no message lands inside it). 0, or -1 with the reason kept for kd_stdout_check. */
int kd_stdout_flush(void);
/* The end of a run: stdout must have been written in full (a full disk, a closed pipe).
 * Returns 0, or -1 with the first failure's errno in *err (0: not known). */
int kd_stdout_check(int *err);

/* The temporary file of a write under way (temp + rename: kd_write_file, the capture file):
 * kd_output_temp_make is mkstemp(template) with the file armed for removal, so that a signal
 * that ends kerndiff before the rename (SIGINT, SIGTERM, SIGHUP, SIGQUIT, SIGALRM, SIGXCPU,
 * SIGUSR1/2, SIGVTALRM, SIGPROF; those ignored stay ignored) never leaves it beside the file
 * it was to replace; the signal then does what it did before (util/cleanup.h's actions).
 * kd_output_temp_done disarms it (after the rename, or the unlink of a failed write). One
 * write at a time. Returns mkstemp's fd, or -1 with errno. */
int kd_output_temp_make(char *template);
void kd_output_temp_done(void);
/* SIGXFSZ (a write past `ulimit -f`) is caught from then on and does nothing, so that the
 * write fails with EFBIG and is said like any failed write (a full disk), its temporary file
 * removed, instead of killing kerndiff silently. Programs kerndiff runs get the default
 * again (exec resets a caught signal). kd_output_open, kd_stdout_flush and
 * kd_output_temp_make call it; calling it again does nothing. */
void kd_output_catch_xfsz(void);

#endif
