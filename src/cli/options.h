/* options.h — the command line, parsed into one struct (getopt_long). The parser writes
 * straight into the engine's option structs (kd_diff_options, kd_render_options); only
 * main.c and workflow/sweep.c (which varies it per point) see the whole kd_options. */
#ifndef KD_CLI_OPTIONS_H
#define KD_CLI_OPTIONS_H

#include <stdbool.h>
#include <stddef.h>

#include "app/collect.h"
#include "diff/options.h"
#include "rank/slurm.h"
#include "report/formats.h"
#include "report/report.h"
#include "util/progress.h"

typedef enum kd_command {
    KD_CMD_DIFF, KD_CMD_LIST, KD_CMD_COMPARE, KD_CMD_APP, KD_CMD_HELP, KD_CMD_VERSION, KD_CMD_COMPLETION,
    KD_CMD_CAPTURE, KD_CMD_RANK
} kd_command;

/* kerndiff rank BASE CAND... (cmd/rank.c; cli/opts_rank.c). */
typedef struct kd_rank_cli_options {
    const char *baseline;
    const char *const *operands; /* the candidates as given (files, directories), NULL-ended */
    size_t noperands;
    unsigned heats;           /* --heats H (0: 1; --shard I/N: N) */
    int shard;                /* --shard I/N: I; -1: every heat */
    unsigned shard_of;        /* ... N */
    double budget_ms;         /* --budget-ms per heat (0: none) */
    unsigned max_rounds;      /* --max-rounds (0: the race's default) */
    int gpus[16];             /* --gpus 0,2,3 */
    size_t ngpus;
    bool gpus_all;            /* --gpus all */
    bool mixed_gpus;          /* --mixed-gpus */
    bool follow_links;        /* --follow-links: candidates that are symbolic links are ranked */
    unsigned jobs;            /* --jobs N: builds at once ahead of the gate (0: the host's cores) */
    kd_strlist refs;          /* --refs REV,...: revisions of the baseline's file, each a candidate
                                 "REV:BASE" (owned copies) */
    kd_slurm_options slurm;   /* --slurm, --shards, --wait, --only-shard, --slurm-dir, --merge (cli/opts_slurm.c) */
} kd_rank_cli_options;

/* kerndiff capture --fn NAME [--nth K] [--continue] -o FILE -- CMD ARGS... (cmd/capture.c) */
typedef struct kd_capture_options {
    const char *out;          /* -o FILE: the capture file */
    bool keep_going;          /* --continue: the program runs on after the capture */
    const char *const *argv;  /* the program and its arguments (the words after --), NULL-ended */
} kd_capture_options;


struct kd_command_row; /* cli/command.h */

typedef struct kd_options {
    kd_command command;
    const struct kd_command_row *row;  /* the command's row (cli/command.h) */
    const struct kd_command_row *rows; /* the table it was found in (cmd/commands.c's kd_cmds) */
    const char *const *operands; /* the words after the command's word (capture: the program's argv) */
    int noperands;
    const char *operand_words[8]; /* where the operands of a command with a bound are kept */
    kd_diff_options diff;     /* what the engine is asked (diff/options.h), operands included */
    kd_render_options render; /* --no-color, --all-instructions, --all-metrics, --brief ... */
    const char *sweep;        /* --sweep NAME=a,b,c */
    const char *at_second;    /* a second --at (app only: v2's revision) */
    bool watch;               /* --watch */
    const char *compare_side; /* compare --side v1|v2 (default v2) */
    kd_app_options app;       /* kerndiff app: --runs, -N, --range, --steps, --top, --at, --prepare */
    kd_verbosity verbosity;   /* -q, -v (util/progress.h) */
    const char *completion_shell; /* --completion bash|zsh|fish */
    /* Each output option's FILE ("-": stdout; NULL: not given), by its slot in
     * report/formats.h's table (kd_format_option_at); by the option's name: kd_options_output. */
    const char *output_path[KD_FORMAT_OPTIONS_MAX];
    bool force;               /* --force: an output may overwrite an input, a source or a tracked file */
    kd_capture_options capture; /* kerndiff capture */
    kd_rank_cli_options rank; /* kerndiff rank */
} kd_options;

/* Parses argv. On a usage error prints the reason to stderr and returns KD_EXIT_USAGE;
 * otherwise returns 0. */
int kd_options_parse(int argc, char **argv, kd_options *opts);
void kd_options_free(kd_options *opts);
/* The FILE given to output option `option` ("--json", "--html" ...; "-": stdout), NULL when it
 * was not given or is no output option. */
const char *kd_options_output(const kd_options *opts, const char *option);
/* Whether a document (--json, --markdown, ... any output option's "-") goes to stdout: then
 * the terminal report does not. */
bool kd_options_stdout_taken(const kd_options *opts);
/* A completion script for bash, zsh or fish, from the option table and the commands' rows. */
void kd_print_completion(const char *shell, const struct kd_command_row *rows);

#endif
