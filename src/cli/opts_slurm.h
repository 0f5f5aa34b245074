/* opts_slurm.h — the option group of `kerndiff rank --slurm` and `--merge` (issue 32 item 3;
 * rank/slurm.h): --slurm 'SBATCH OPTIONS', --shards N, --wait, --only-shard I,
 * --slurm-dir DIR, --merge DIR. cli/options.c lists the group in kd_option_groups (and refuses
 * its options outside `kerndiff rank`, as it does rank's own); the values parsed go to
 * kd_options' rank.slurm (only_shard -1 and NULLs when not given). */
#ifndef KD_CLI_OPTS_SLURM_H
#define KD_CLI_OPTS_SLURM_H

#include "cli/option_parse.h"
#include "rank/slurm.h"

extern const kd_option_group kd_opts_slurm;
/* The checks between them, once the whole command line is parsed: --wait, --only-shard and
 * --slurm-dir need --slurm; --only-shard needs --slurm-dir; --merge goes alone. 0, or
 * KD_EXIT_USAGE after the reason. */
int kd_opts_slurm_check(const kd_slurm_options *o);

#endif
