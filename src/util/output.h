/* output.h — the files kerndiff writes for the user (--json, --save, --markdown, to a
 * file or to stdout as "-"). A report is rendered into memory first and then written
 * whole with kd_write_file (util/fs.h: temporary file and rename), so a failed write
 * never leaves a truncated file or destroys the previous one, and every failure is one
 * message that names the file. */
#ifndef KD_UTIL_OUTPUT_H
#define KD_UTIL_OUTPUT_H

#include <stddef.h>
#include <stdio.h>

typedef struct kd_output {
    FILE *stream;     /* where the renderer writes (memory) */
    char *data;
    size_t len;
    const char *path; /* "-": stdout */
    const char *what; /* "JSON", "Markdown": for the message */
} kd_output;

/* The stream to render into, or NULL (with the message printed) when out of memory. */
FILE *kd_output_open(kd_output *o, const char *path, const char *what);
/* Writes what was rendered to its destination and releases it. Returns 0, or -1 after
 * printing "kerndiff: cannot write the JSON to 'PATH': REASON ..." to stderr (exit 7 is
 * the caller's: KD_EXIT_TOOL). `failed`: the renderer already failed; nothing is written
 * and the message says so. */
int kd_output_close(kd_output *o, int failed);
/* Writes out what stdout holds (the terminal report before any message on stderr, so that
 * with 2>&1 no message lands inside it). 0, or -1 with the reason kept for kd_stdout_check. */
int kd_stdout_flush(void);
/* The end of a run: stdout must have been written in full (a full disk, a closed pipe).
 * Returns 0, or -1 after saying so on stderr. */
int kd_stdout_check(void);

#endif
