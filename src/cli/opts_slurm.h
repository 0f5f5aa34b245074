/* opts_slurm.h — the option group of `kerndiff rank --slurm` and `--merge` (issue 32 item 3;
 * rank/slurm.h): --slurm 'SBATCH OPTIONS', --shards N, --wait, --only-shard I,
 * --slurm-dir DIR, --merge DIR. cli/options.c lists the group in kd_option_groups; the values
 * parsed are kept here (kd_opts_slurm_values) until kd_options has a field for them. */
#ifndef KD_CLI_OPTS_SLURM_H
#define KD_CLI_OPTS_SLURM_H

#include "cli/option_parse.h"
#include "rank/slurm.h"

extern const kd_option_group kd_opts_slurm;
/* What the command line gave (only_shard -1 and NULLs when nothing). */
const kd_slurm_options *kd_opts_slurm_values(void);
/* The checks between them, once the whole command line is parsed: --wait, --only-shard and
 * --slurm-dir need --slurm; --only-shard needs --slurm-dir; --merge goes alone. 0, or
 * KD_EXIT_USAGE after the reason. */
int kd_opts_slurm_check(void);
/* "--slurm" ... the first of the group's options the parse saw (kd_parse_state.seen), or NULL:
 * for cli/options.c to refuse them outside `kerndiff rank`. */
const char *kd_opts_slurm_given(const unsigned char *seen, size_t n);

#endif
