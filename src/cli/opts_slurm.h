/* opts_slurm.h — the option group of `kerndiff rank --slurm` and `--merge` (issue 32 item 3;
 * rank/slurm.h): --slurm 'SBATCH OPTIONS', --shards N, --wait, --only-shard I,
 * --slurm-dir DIR, --merge DIR. cli/options.c lists the group in kd_option_groups; rank's row
 * (cmd/commands.c) is the only one that accepts it, so every other command refuses its
 * options (cli/command.h), as it does rank's own; the values parsed go to
 * kd_options' rank.slurm (only_shard -1 and NULLs when not given). */
#ifndef KD_CLI_OPTS_SLURM_H
#define KD_CLI_OPTS_SLURM_H

#include <stdbool.h>

#include "cli/option_parse.h"
#include "util/strlist.h"
#include "rank/slurm.h"

extern const kd_option_group kd_opts_slurm;
/* The checks between them, once the whole command line is parsed: --wait, --only-shard and
 * --slurm-dir need --slurm; --only-shard needs --slurm-dir; --merge goes alone. 0, or
 * KD_EXIT_USAGE after the reason. */
int kd_opts_slurm_check(const kd_slurm_options *o);

/* What each shard of `kerndiff rank --slurm` runs, made from the parsed request rather than
 * copied from argv: the command line parsed again with the same getopt table (so that an
 * abbreviated option, --x VALUE or --x=VALUE, and `--` read as they did), each option kept
 * written out whole (--name=VALUE, -XVALUE), less the ones that are not the shard's (Slurm's:
 * --slurm --shards --wait --only-shard --slurm-dir --merge; the outputs, which the merge
 * writes; --shard and --heats, the shard's own; --force); then "--", the baseline and the
 * candidates as parsed. rank/slurm.h's job script puts `rank --shard I/N --json=FILE` in
 * front. */
typedef struct kd_slurm_shard_request {
    kd_strlist words;   /* owned copies */
    bool heats_given;   /* --heats H was given (opts->rank.heats defaults to 1: this tells) */
    unsigned heats;
    size_t options;     /* options kept, -q and -v aside: --only-shard takes none */
    const char *first;  /* the first of them (in words), for a message */
} kd_slurm_shard_request;
/* 0, or -1 when the command line no longer parses (never: it parsed once). argv: as main
 * got it (getopt's permutation of it is fine). */
int kd_opts_slurm_shard_request(int argc, char *const argv[], const kd_options *opts, kd_slurm_shard_request *out);
void kd_slurm_shard_request_free(kd_slurm_shard_request *r);

#endif
