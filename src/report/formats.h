/* formats.h — kerndiff's outputs as ONE table: the terminal report and each document a user
 * can ask for (JSON, trace, Markdown, HTML, CSV). A row names the format, the options that
 * ask for it, and a render function per subject it can show: a comparison (a diff or
 * `kerndiff compare`), a sweep, `kerndiff app` or `kerndiff rank`; a row without one for a
 * subject is not written for it, and a command whose row (cli/command.h) shows only subjects
 * an option renders none of refuses that option before anything runs. The fan-out (kd_formats_write) is the only code that opens, renders and
 * writes outputs: it attempts every output asked for, even after one fails, and says each
 * failure (the output and its path).
 *
 * A row's options are the whole of its command line: the CLI makes each one's getopt row, its
 * FILE's place in kd_options (cli/options.h: output_path, by the option's slot), its --help
 * line (the man page is made from --help) and its completion (a file) from the row.
 *
 * Adding a format: one file report/NAME.c that defines its row
 *   const kd_format kd_format_NAME = {.name = "Name",
 *       .options = {{"--name", false, "--name FILE", "what it writes", "Output", ".name"}},
 *       .comparison = render_comparison};
 * and one line X(NAME) in report/formats.c's table, KD_FORMAT_LIST. Nothing else. */
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

/* An option that asks for a format, with everything the command line needs of it. */
typedef struct kd_format_option {
    const char *name;      /* "--json" */
    bool file_optional;    /* --json[=FILE]: a bare --json writes to stdout; else FILE is required */
    const char *usage;     /* --help's option column: "--json[=FILE]" */
    const char *help;      /* --help's description; each '\n' starts a continuation line */
    const char *section;   /* the --help heading it is listed under ("Output"; cli/help.c's places) */
    const char *extension; /* a report's usual extension, for the hint when FILE is refused (".json") */
    unsigned not_for;      /* subjects it is not written for although its row renders them, by bit
                              (1u << kd_subject_kind; --save: a diff's whole result, not app's) */
} kd_format_option;

/* Options in all the rows together, at most (kd_options holds one FILE per slot). */
enum { KD_FORMAT_OPTIONS_MAX = 12 };

typedef struct kd_format {
    const char *name;           /* "JSON": what the messages call it */
    kd_format_option options[2]; /* the options whose FILE gets it (--json, --save); none: the terminal */
    kd_format_render comparison, sweep, app; /* NULL: not written for that subject */
    /* Whether there is something to write (NULL: always): --trace with no region run writes nothing. */
    bool (*applies)(const kd_format_subject *s);
    kd_format_render rank;      /* kerndiff rank's report; NULL: not written for a rank */
    /* What applies() false means, for the line that says the output was not written. */
    const char *nothing_to_show;
} kd_format;

/* The table (report/formats.c's KD_FORMAT_LIST), the terminal first, ending with NULL. */
extern const kd_format *const kd_formats[];
/* The terminal report's row (written to the human stream, asked for by no option). */
extern const kd_format kd_format_terminal;

/* The row an option asks for ("--save": JSON), or NULL. */
const kd_format *kd_format_for_option(const char *option);
/* Whether what this option asks for is written for a subject: its row has a renderer for
 * it, and the option is not marked not_for it. A command's row (cli/command.h) names its
 * subjects; an option that renders none of them is refused for the command. */
bool kd_format_option_renders(const kd_format_option *o, kd_subject_kind kind);

/* The options of every row as one list, the table's order (terminal, JSON's --json then
 * --save, ...): the option in `slot` (0 up), NULL past the last one. Its slot is where its
 * FILE is kept (cli/options.h) and what its getopt code is made from. */
const kd_format_option *kd_format_option_at(size_t slot);
/* The slot of an option ("--save"), or -1 when no row has it. */
int kd_format_option_slot(const char *option);

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

/* Whether kd_formats_write ran in this process: a command that ended before it wrote none of
 * the outputs asked for. */
bool kd_formats_attempted(void);
/* The outputs of a command that stopped before its report (a build failure, a fault): each
 * one asked for a file is said not written, and a file already at its path is said to be an
 * earlier run's. It is left there: a failed run's status tells a script not to read it, and
 * the file may be a result the user keeps (a --save baseline). */
void kd_formats_unwritten(const kd_format_request *requests, size_t n);

#endif
