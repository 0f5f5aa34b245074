/* cmd.h — kerndiff's commands as ONE table (as git's commands[]): the command word that
 * cli/options.c parsed selects a row, and main.c calls its function. Each command is a
 * module here (cmd/NAME.c); a command runs the engine, hands what it got to report/'s
 * fan-out (report/formats.h) and returns the exit status cli/status.c makes.
 *
 * Adding a command: a word in cli/options (kd_command), one file cmd/NAME.c, one row in
 * cmd/commands.c, whose help part makes `kerndiff help NAME`, `kerndiff NAME --help`, its line
 * in `kerndiff --help` and its section of the man page (scripts/gen-man.py). */
#ifndef KD_CMD_CMD_H
#define KD_CMD_CMD_H

#include "cli/help.h"
#include "cli/options.h"
#include "diff/comparison.h"
#include "util/outcome.h"

/* What a command is given: the parsed options and the command line (recorded in the JSON,
 * re-run by --watch). */
typedef struct kd_cmd_args {
    const kd_options *opts;
    int argc;
    char **argv;
} kd_cmd_args;

typedef struct kd_cmd {
    kd_command id;     /* cli/options.h */
    const char *name;  /* "diff", "list", ... (for the table's readers) */
    int (*run)(const kd_cmd_args *a); /* returns the exit status */
    kd_command_help help; /* its synopsis, options and examples (cli/help.h); none for --version */
} kd_cmd;

/* The table, ending with a row whose name is NULL. */
extern const kd_cmd kd_cmds[];
/* The row of a command, or NULL. */
const kd_cmd *kd_cmd_find(kd_command id);

/* The commands (cmd/NAME.c). */
int kd_cmd_diff(const kd_cmd_args *a);    /* two inputs (or git mode); a sweep; --watch */
int kd_cmd_sweep(const kd_cmd_args *a);   /* the diff at several points (workflow/sweep.h) */
int kd_cmd_compare(const kd_cmd_args *a); /* two saved runs */
int kd_cmd_list(const kd_cmd_args *a);
int kd_cmd_app(const kd_cmd_args *a);
int kd_cmd_help(const kd_cmd_args *a);
int kd_cmd_version(const kd_cmd_args *a);
int kd_cmd_completion(const kd_cmd_args *a);
int kd_cmd_capture(const kd_cmd_args *a); /* a launch recorded from a program (cmd/capture.c) */
int kd_cmd_rank(const kd_cmd_args *a);    /* many candidates against one baseline (cmd/rank.c) */

/* kerndiff rank's report from its heats (rank/rank.h kd_rank_finish), every output asked for
 * (the terminal, --json, --markdown, --html); returns the exit status. --merge calls it with
 * the shards' heats (cmd/rank_slurm.c). */
struct kd_rank_heat;
int kd_cmd_rank_report(const kd_cmd_args *a, struct kd_rank_heat *const *heats, size_t n);

/* Shared by diff and compare (cmd/comparison.c). Every output of an analysed comparison
 * through the fan-out (nothing when it was not analysed); how many failed. */
int kd_cmd_comparison_outputs(const kd_options *opts, const kd_comparison *c);
/* The exit status (cli/status.c), with the gate's reason said when the gate failed. */
int kd_cmd_comparison_status(const kd_comparison *c, kd_outcome outcome, int output_failures);

#endif
