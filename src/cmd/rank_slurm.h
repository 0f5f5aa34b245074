/* rank_slurm.h — `kerndiff rank --slurm 'SBATCH OPTIONS' [--shards N] [--wait] BASE CAND...`
 * and `kerndiff rank --merge DIR` (issue 32 item 3; rank/slurm.h, rank/merge.h). cmd/rank.c
 * hands the command over when either is asked. */
#ifndef KD_CMD_RANK_SLURM_H
#define KD_CMD_RANK_SLURM_H

#include "cmd/cmd.h"
#include "rank/slurm.h"

/* What cmd/rank.c calls first: when --slurm or --merge was given (cli/opts_slurm.h), checks
 * them and runs one of the two below, returning its exit status; otherwise -1 (a rank in
 * this process). */
int kd_cmd_rank_slurm_dispatch(const kd_cmd_args *a);
/* Submits the job array (or, with --only-shard, one shard of an existing DIR), says its id
 * and DIR; with --wait, waits for it and merges. Returns the exit status. */
int kd_cmd_rank_slurm(const kd_cmd_args *a, const kd_slurm_options *so);
/* One report from DIR's shards, or the shards without a result named with the command that
 * re-runs each (exit 5, KD_EXIT_RUNTIME). Returns the exit status. */
int kd_cmd_rank_merge(const kd_cmd_args *a, const char *dir);

#endif
