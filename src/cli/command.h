/* command.h — a command is ONE row (as git's cmd_struct with its flags): its word, its help,
 * how many operands it takes and its own check of them, the option groups it accepts, its
 * flags, the subjects its outputs render, and its run function. The table itself is
 * cmd/commands.c's kd_cmds[] (its run functions are cmd/'s); cli/ reads only the rows, and
 * applies them generically: the parse finds the command by its word and hands it the words
 * after it (cli/options.c), an option of a group the row does not accept is refused naming
 * the command, an output whose format has no renderer for the row's subjects is refused for
 * it, the output guards run for a row that writes (cli/outputs.c), and the help, the man page
 * (made from the help) and the completions list the rows (cli/help.c, cli/completion.c).
 *
 * Adding a command: one file cmd/NAME.c (its run function), one row in cmd/commands.c, and
 * its id in kd_command (cli/options.h); with options of its own, their group
 * (cli/opts_NAME.c, listed in kd_option_groups). tests/unit/test_command_rows.c makes such a
 * command inside the test and checks that the parser, the help and the completions take it. */
#ifndef KD_CLI_COMMAND_H
#define KD_CLI_COMMAND_H

#include <stdbool.h>
#include <stddef.h>

#include "cli/help.h"
#include "cli/options.h"
#include "report/formats.h"

/* A row's flags. */
enum {
    KD_CMDF_DEFAULT = 1 << 0,   /* no word: the command when the first operand is no command's word (the diff) */
    KD_CMDF_BY_OPTION = 1 << 1, /* no word: reached by an option alone (--version, --completion) */
    KD_CMDF_CHECKS = 1 << 2,    /* its request is checked (the option groups, the outputs, the values
                                   that go together); help, --version and --completion take any option */
    KD_CMDF_WRITES = 1 << 3,    /* writes files: every output is guarded (cli/outputs.c) before it runs */
    KD_CMDF_ARGV = 1 << 4,      /* every word after its word is a program's argv (capture ... -- CMD ARGS) */
};

/* A subject's bit in a row's `subjects` (report/formats.h's kd_subject_kind). */
#define KD_SUBJECT_BIT(kind) (1u << (kind))

/* What a row's operand check is handed: the words after the command word (the operands; for
 * a KD_CMDF_ARGV row, the program's argv), and which options were given. */
struct kd_parse_state;
typedef struct kd_operands {
    const char *const *words;
    int n;
    const struct kd_parse_state *st; /* cli/option_parse.h */
} kd_operands;

struct kd_cmd_args; /* cmd/cmd.h: what a command runs on */

typedef struct kd_command_row {
    kd_command id;            /* cli/options.h */
    const char *name;         /* "diff", "list", ...: its word unless a flag says it has none */
    kd_command_help help;     /* its synopsis, options and examples (cli/help.h); none for --version */
    /* Operands after the word: at least min, at most max (-1: any number). A word an optional
     * output (--json [FILE]) took is given back while fewer than `wanted` are there. */
    int min_operands, max_operands;
    int (*wanted)(const kd_options *opts); /* operands it wants, from the options (NULL: min_operands) */
    /* Its own check of the operands, which also stores them in opts (NULL: only their count
     * is checked, against min and max). 0, or KD_EXIT_USAGE after the reason. */
    int (*operands)(kd_options *opts, const kd_operands *in);
    /* The option groups it accepts (cli/opts_*.c's names), "|"-separated: a whole group
     * ("timing") or some of its options ("app:--top", "output:-q,-v"). An output format's
     * option is not named here: `subjects` decides it. */
    const char *groups;
    unsigned flags;           /* KD_CMDF_* */
    unsigned subjects;        /* what its outputs show (KD_SUBJECT_BIT): a format option with no
                                 renderer for any of them is refused for it; 0: terminal only */
    int (*run)(const struct kd_cmd_args *a); /* returns the exit status */
} kd_command_row;

/* The table (cmd/commands.c), ending with a row whose name is NULL. */
extern const kd_command_row kd_cmds[];

/* The row of a command id, or NULL. */
const kd_command_row *kd_command_by_id(const kd_command_row *rows, kd_command id);
/* The row whose word `word` is (a row with a word of its own), or NULL. */
const kd_command_row *kd_command_by_word(const kd_command_row *rows, const char *word);
/* The row used when no word is given (KD_CMDF_DEFAULT), or NULL. */
const kd_command_row *kd_command_default(const kd_command_row *rows);
/* Whether a row is typed as a word (no KD_CMDF_DEFAULT, no KD_CMDF_BY_OPTION). */
bool kd_command_has_word(const kd_command_row *row);
/* Whether the row accepts an option of `group` named `option` ("--top", "-q"). */
bool kd_command_accepts(const kd_command_row *row, const char *group, const char *option);
/* Whether the format option renders any of the row's subjects. */
bool kd_command_renders(const kd_command_row *row, const kd_format_option *o);
/* The row's first synopsis line without "kerndiff " and "[options] " ("rank BASE CAND..."),
 * into buf, for messages that name the command. */
const char *kd_command_usage(const kd_command_row *row, char *buf, size_t size);

/* The built-in operand checks (cli/operands.c), one per command of cmd/commands.c. */
int kd_operands_diff(kd_options *opts, const kd_operands *in);
int kd_operands_list(kd_options *opts, const kd_operands *in);
int kd_operands_compare(kd_options *opts, const kd_operands *in);
int kd_operands_app(kd_options *opts, const kd_operands *in);
int kd_operands_app_wanted(const kd_options *opts);
int kd_operands_capture(kd_options *opts, const kd_operands *in);
int kd_operands_rank(kd_options *opts, const kd_operands *in);

/* kd_options_parse with another table (a test's made-up command): the rows stay in
 * opts->rows for the help, the completions and the outputs' checks. */
int kd_options_parse_rows(const kd_command_row *rows, int argc, char **argv, kd_options *opts);

#endif
