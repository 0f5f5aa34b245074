/* option_parse.h — what cli/'s option groups share (private to cli/). Each subsystem declares
 * its own options: one group per file, cli/opts_<subsystem>.c (its long options and the parse
 * of their values, into the subsystem's part of kd_options); cli/options.c walks the groups
 * (kd_option_groups), recording which group took each option, then finds the command's row
 * (cli/command.h), hands it its operands and checks the options against the groups the row
 * accepts and against each other. A
 * new option is a row in its group's table and a case in its group's parse, plus its line in
 * the help text (cli/help.c), which the man page and the completions are made from. An
 * output format's option is none of these: it comes from its row in report/formats.c. */
#ifndef KD_CLI_OPTION_PARSE_H
#define KD_CLI_OPTION_PARSE_H

#include <getopt.h>
#include <stdbool.h>

#include "cli/options.h"
#include "report/formats.h"

/* getopt's codes of the long options: one list, so that no two groups share a code. */
enum {
    OPT_FN = 256, OPT_ARCH, OPT_NVCC_FLAG, OPT_NVCC, OPT_NO_COLOR,
    OPT_NO_CACHE, OPT_BLOCK, OPT_ALL_INSTRUCTIONS, OPT_VERSION, OPT_N, OPT_GRID, OPT_SMEM, OPT_BUF,
    OPT_ARG, OPT_CALL, OPT_NO_RUN, OPT_TARGET, OPT_MAX_TIME, OPT_MIN_RUNS, OPT_MAX_RUNS, OPT_TIMEOUT,
    OPT_SEED, OPT_NO_CHECK, OPT_REQUIRE_MATCH, OPT_RTOL, OPT_ATOL, OPT_BATCH, OPT_LOCK_CLOCKS,
    OPT_NCU, OPT_NO_NCU, OPT_NCU_SET, OPT_NCU_REPEATS, OPT_NCU_CLOCK, OPT_ALL_METRICS, OPT_PER_KERNEL,
    OPT_REGIONS, OPT_REGION_RECORDS, OPT_REGION_BLOCKS, OPT_SANITIZE, OPT_SANITIZE_WARN, OPT_SANITIZER, OPT_SANITIZE_N, OPT_NO_LAUNCH_MEMCHECK,
    OPT_BRIEF, OPT_COMPLETION,
    OPT_NO_ADVICE, OPT_FAIL_IF_SLOWER, OPT_SWEEP, OPT_AT, OPT_MIN_EFFECT, OPT_WATCH, OPT_SIDE,
    /* Triton (.py) inputs */
    OPT_PYTHON, OPT_NO_AUTOTUNE, OPT_RUN, OPT_CAPTURE_NTH, OPT_CAPTURE_TIMEOUT, OPT_NO_CAPTURE, OPT_CONFIG,
    OPT_APP_RUNS, OPT_APP_RANGE, OPT_APP_STEPS, OPT_APP_TOP, OPT_APP_PREPARE,
    OPT_FORCE,
    /* captured launches (issue 30): --launch FILE, --from 'CMD' (diff); capture --continue */
    OPT_LAUNCH_FILE, OPT_FROM, OPT_CAPTURE_CONTINUE,
    /* the hot-spot diff (issue 31 item 2) */
    OPT_HOTSPOTS, OPT_HOTSPOTS_PERIOD, OPT_COUNTERS,
};

/* --timeout's upper bound, seconds: a harness silent for an hour has hung. */
#define MAX_TIMEOUT_S 3600
/* ncu's own output: one block, so that flags added elsewhere merge cleanly. */
enum { OPT_NCU_REPORT = 1000, OPT_METRIC_NAMES, OPT_METRICS };
/* The outputs' options (report/formats.h's table): the option in slot S has code
 * OPT_FORMAT + S (cli/opts_output.c makes their getopt rows). The built-in ones by name, in
 * the table's order, for the checks between options (test_formats holds them to it). */
enum { OPT_FORMAT = 800, OPT_FORMAT_END = OPT_FORMAT + KD_FORMAT_OPTIONS_MAX };
enum { OPT_JSON = OPT_FORMAT, OPT_SAVE, OPT_TRACE, OPT_MARKDOWN, OPT_HTML, OPT_CSV };
/* Makes the outputs' getopt rows (kd_opt_long_options calls it before it reads the groups). */
void kd_opts_output_prepare(void);


/* What the parse remembers besides the options: the words as given (GNU getopt permutes
 * argv), the words an optional output took, and which options were given. */
typedef struct kd_parse_state {
    char **original;           /* argv before getopt moved anything */
    int argc;
    const char **taken_by[KD_FORMAT_OPTIONS_MAX]; /* where an optional output stored a word it took (&opts->output_path[S]) */
    const char *taken[KD_FORMAT_OPTIONS_MAX];
    unsigned char seen[1024];  /* by getopt code: options given, for the checks between them */
    const struct kd_option_group *group_of[1024]; /* by getopt code: the group whose parse took it */
    const struct kd_command_row *rows;     /* the commands (cli/command.h) */
} kd_parse_state;

/* What a group's parse sees of the command line besides its option's value (optarg). */
typedef struct kd_opt_ctx {
    int argc;
    char **argv;
    kd_parse_state *st;
} kd_opt_ctx;

/* A group's parse returns 0 (taken), KD_OPT_STOP (taken, and the command is decided: --help,
 * --version, --completion), KD_OPT_NOT_MINE (another group's code), or KD_EXIT_USAGE after
 * its message. */
enum { KD_OPT_NOT_MINE = -1, KD_OPT_STOP = -2 };

typedef struct kd_option_group {
    const char *name;              /* the subsystem */
    const struct option *options;  /* its long options, ended by a NULL name */
    int (*parse)(int code, kd_options *opts, kd_opt_ctx *ctx);
} kd_option_group;

/* The groups, in the order --help lists their subsystems; NULL-ended. */
extern const kd_option_group *const kd_option_groups[];
/* Every group's long options in one getopt table (built once), NULL-ended. */
const struct option *kd_opt_long_options(void);
/* The one-letter options (-q -v -h -N, and -I DIR -D NAME[=VALUE] with a value). */
extern const char kd_short_options[];
/* The help text (cli/help.c), the outputs' lines from their table included (made once):
 * also where the completions find each option's description. */
const char *kd_help(void);
/* Whether the help has a place for a format option's section ("Output"): a row whose section
 * has none would be listed nowhere (test_formats checks every row). */
bool kd_help_has_section(const char *section);

/* Whether a word after an optional output (--json [FILE]) is its FILE: not when it is an
 * option, a command's word (of `rows`, cli/command.h) or a source file by its extension.
 * cli/options.c's parse and cli/opts_slurm.c's second reading of the command line share it. */
struct kd_command_row;
bool kd_opt_takes_word(const struct kd_command_row *rows, const char *word);

/* A number in [lo, hi]; with `percent`, a trailing % is allowed. */
int kd_opt_number(const char *s, double lo, double hi, bool percent, double *out);
/* A usage message on stderr (what was typed is escaped), then "Try 'kerndiff --help'.";
 * returns KD_EXIT_USAGE. (A refusal naming a command's own `kerndiff help CMD` omits that
 * second line: cli/options.c.) */
int kd_usage_error(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* --json [FILE]-style options whose value is optional (cli/options.c says the rule). */
void kd_opt_optional_output(kd_opt_ctx *ctx, const char **dest);

#endif
