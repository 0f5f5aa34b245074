/* formats.h — kerndiff's outputs as ONE table: the terminal report and each document a user
 * can ask for (JSON, trace, Markdown, HTML, CSV). A row names the format, the options that
 * ask for it, and a render function per subject it can show: a comparison (a diff or
 * `kerndiff compare`), a sweep, or `kerndiff app`; a row without one for a subject is not
 * written for it. The fan-out (kd_formats_write) is the only code that opens, renders and
 * writes outputs: it attempts every output asked for, even after one fails, and says each
 * failure (the output and its path).
 *
 * Adding a format: one file report/NAME.c that defines its row (`const kd_format
 * kd_format_NAME = {"Name", {"--name"}, render_comparison, render_sweep, render_app, NULL};`)
 * and one line X(NAME) in report/formats.c's table, KD_FORMAT_LIST (and, until options come
 * from a table, the option that sets its FILE: cli/options.c, cli/outputs.c's list). */
#ifndef KD_REPORT_FORMATS_H
#define KD_REPORT_FORMATS_H

#include <jansson.h>
#include <stdbool.h>
#include <stdio.h>

#include "app/app_model.h"
#include "diff/comparison.h"
#include "report/report.h"

/* What is being shown: one of comparison, sweep (with json and, for pictures, comparison:
 * its first analysed point or NULL) and app is the subject. */
typedef enum kd_subject_kind { KD_SUBJECT_COMPARISON, KD_SUBJECT_SWEEP, KD_SUBJECT_APP, KD_SUBJECT_RANK } kd_subject_kind;

typedef struct kd_format_subject {
    kd_subject_kind kind;
    const kd_comparison *comparison;
    const kd_sweep_result *sweep;
    json_t *sweep_json;              /* the sweep's whole JSON document (borrowed) */
    const kd_app_comparison *app;
    const kd_render_options *render; /* the terminal's; documents get it without colour */
    int app_top;                     /* --top: app's kernels shown (0: all) */
    const struct kd_rank_result *rank; /* kerndiff rank (rank/rank.h) */
} kd_format_subject;

/* A renderer: the subject to `out`; 0, or -1 when it could not be rendered. */
typedef int (*kd_format_render)(FILE *out, const kd_format_subject *s);

typedef struct kd_format {
    const char *name;           /* "JSON": what the messages call it */
    const char *options[3];     /* the options whose FILE gets it ("--json", "--save"); none: the terminal */
    kd_format_render comparison, sweep, app; /* NULL: not written for that subject */
    /* Whether there is something to write (NULL: always): --trace with no region run writes nothing. */
    bool (*applies)(const kd_format_subject *s);
    kd_format_render rank;      /* kerndiff rank's report; NULL: not written for a rank */
} kd_format;

/* The table (report/formats.c's KD_FORMAT_LIST), the terminal first, ending with NULL. */
extern const kd_format *const kd_formats[];
/* The terminal report's row (written to the human stream, asked for by no option). */
extern const kd_format kd_format_terminal;

/* The row an option asks for ("--save": JSON), or NULL. */
const kd_format *kd_format_for_option(const char *option);

/* One output asked for: an option and its FILE ("-": stdout). */
typedef struct kd_format_request {
    const char *option;
    const char *path;
} kd_format_request;

/* The fan-out. The terminal report to `human` first (NULL: none) and flushed (with 2>&1 no
 * message lands inside it), then every request, each attempted whatever became of the
 * others; a request whose path is NULL, or whose format has nothing for this subject, is
 * skipped. Each failure is said on stderr, naming the output and the path. Returns how many
 * outputs failed (0: all written). */
int kd_formats_write(const kd_format_subject *s, FILE *human, const kd_format_request *requests, size_t n);

/* The end of a run: 0 when stdout was written in full, else -1 after saying why. */
int kd_formats_stdout_check(void);

#endif
