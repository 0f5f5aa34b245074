/* cmd.h — kerndiff's commands as ONE table (as git's commands[]): each row (cli/command.h)
 * is the whole of a command, and cmd/commands.c holds them: the word the parse finds it by,
 * its help, its operands and their check, the option groups it accepts, its flags, the
 * subjects its outputs render, and its run function, which main.c calls. Each command is a
 * module here (cmd/NAME.c); a command runs the engine, hands what it got to report/'s
 * fan-out (report/formats.h) and returns the exit status cli/status.c makes.
 *
 * Adding a command: its id in cli/options.h (kd_command), one file cmd/NAME.c, one row in
 * cmd/commands.c. The row makes the rest: the parse, the refusal of options and outputs it
 * does not take, the output guards, `kerndiff help NAME`, `kerndiff NAME --help`, its line in
 * `kerndiff --help`, its section of the man page (scripts/gen-man.py) and its completions. */
#ifndef KD_CMD_CMD_H
#define KD_CMD_CMD_H

#include "cli/command.h"
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

/* A command's row (cli/command.h); the table is kd_cmds[] (cmd/commands.c), ending with a
 * row whose name is NULL. */
typedef kd_command_row kd_cmd;

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
