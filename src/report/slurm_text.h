/* slurm_text.h — the words of `kerndiff rank --slurm` and `--merge` (rank/slurm.h,
 * rank/merge.h): what was submitted, what failed, and for each shard without a result, what
 * Slurm says of its task and the command that re-runs it alone. */
#ifndef KD_REPORT_SLURM_TEXT_H
#define KD_REPORT_SLURM_TEXT_H

#include <stdio.h>

#include "rank/merge.h"
#include "rank/slurm.h"
#include "util/strbuf.h"

/* "kerndiff: --slurm: ..." for a failed submission, wait or manifest, to stderr. */
void kd_slurm_say_error(const kd_slurm_error *e);
/* The job submitted: its id, the shards, DIR, and how to merge (to out). */
void kd_slurm_say_submitted(FILE *out, const kd_slurm_job *j);
/* Appends the shards that have no result, each with its task's state and the command that
 * re-runs it alone, and a last line saying how many are done; nothing when all are. */
void kd_slurm_merge_problems(const kd_merge *m, kd_strbuf *out);
/* The submission as JSON, for `--slurm ... --json FILE` without --wait: {"kerndiff_rank_slurm":
 * 1, "job": "1234", "tasks": ["1234_0", ...], "shards", "only_shard" (null: all), "dir",
 * "merge_command": [words]}. 0, or -1 after saying why on stderr. */
int kd_slurm_submitted_json(const kd_slurm_job *j, const char *path);
/* An incomplete merge as JSON, for the agent that asked --json: {"kerndiff_rank_merge": 1,
 * "complete": false, "shards", "done", "missing": [{shard, state ("missing"|"invalid"),
 * slurm_task, slurm_state, in_queue, ran, path, detail, rerun (words), rerun_command}]}.
 * Written to path ("-": stdout); 0, or -1 after saying why on stderr. */
int kd_slurm_merge_json(const kd_merge *m, const char *path);
/* words quoted for a POSIX shell, separated by blanks. */
void kd_slurm_shell_words(const kd_strlist *words, kd_strbuf *out);

#endif
