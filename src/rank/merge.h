/* merge.h — `kerndiff rank --merge DIR`: the shards of a rank run on Slurm (rank/slurm.h),
 * gathered. DIR holds the manifest (slurm.json: the shard count, the command, each shard's
 * Slurm task) and each shard's heat, DIR/shard-I.json, written by `kerndiff rank --shard I/N
 * --json DIR/shard-I.json` in the array's task I.
 *
 * A shard is done when its heat file is there and reads as heat I of N (kd_rank_heat_read),
 * with the seed and the candidate count of the other shards (whatever the task's exit status:
 * a rank that found a slower candidate may exit non-zero). Any other shard is named
 * with what Slurm says of its task (sacct where accounting is on, else scontrol: FAILED,
 * PREEMPTED, TIMEOUT, CANCELLED, OUT_OF_MEMORY, NODE_FAIL, still PENDING/RUNNING, or
 * unknown) and the command that re-runs it alone (`... --only-shard I`). The report is made
 * from the heats only when every shard is done: the heats partition the candidates, so a
 * missing one would silently drop candidates. This module says nothing (report/slurm_text.h
 * words it). */
#ifndef KD_RANK_MERGE_H
#define KD_RANK_MERGE_H

#include <stdbool.h>

#include "rank/rank.h"
#include "rank/slurm.h"
#include "util/outcome.h"
#include "util/strlist.h"

typedef enum kd_shard_state {
    KD_SHARD_DONE,    /* its heat file reads */
    KD_SHARD_MISSING, /* no heat file */
    KD_SHARD_INVALID, /* a heat file that does not read as one (detail says why) */
} kd_shard_state;

typedef struct kd_shard {
    unsigned index;
    kd_shard_state state;
    char *path;       /* DIR/shard-I.json */
    char *job;        /* its Slurm task ("1234_2", the latest submitted), NULL: never submitted */
    char *scheduler;  /* what Slurm says of that task ("FAILED"...), NULL: nothing known */
    char *detail;     /* INVALID: what is wrong with the file */
    bool ran;         /* its log (DIR/shard-I.log) is there: the task started */
    kd_strlist rerun; /* not DONE: the words of the command that re-runs it alone */
    kd_rank_heat heat; /* DONE: its heat (rank/heat_json.c read it) */
} kd_shard;

typedef struct kd_merge {
    char *dir;                   /* as given */
    kd_slurm_manifest manifest;
    kd_shard *shards;            /* manifest.shards of them */
    unsigned done;               /* how many are DONE */
} kd_merge;

/* Reads DIR's manifest and every shard's heat file, and (when a shard is not done) asks
 * Slurm about its task. KD_OK with *m filled (look at m->done), or KD_FAIL_INPUT with *e when
 * DIR has no manifest. */
kd_outcome kd_merge_read(const char *dir, kd_merge *m, kd_slurm_error *e);
void kd_merge_free(kd_merge *m);

/* The heats of a complete merge, in shard order, for kd_rank_finish (borrowed from m; NULL
 * unless every shard is done). Free the array (not the heats) with free(). */
kd_rank_heat **kd_merge_heats(const kd_merge *m);

/* Whether the scheduler's state of a task says it may still write its heat
 * (PENDING, RUNNING, CONFIGURING, COMPLETING, REQUEUED, RESIZING, SUSPENDED). */
bool kd_shard_in_queue(const kd_shard *s);

#endif
