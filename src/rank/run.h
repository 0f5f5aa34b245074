/* run.h — runs a rank's heats (rank/rank.h): expands the candidates, gates each one (built,
 * checked against the baseline through the diff pipeline, diff/pipeline.h), then races the
 * correct ones (rank/race.h) with one harness child per candidate and GPU holding the
 * baseline and the candidate on shared buffers, as the timing pass holds a pair. Says
 * nothing: what failed is data (kd_rank_error), worded by report/rank_text.c. */
#ifndef KD_RANK_RUN_H
#define KD_RANK_RUN_H

#include <stdbool.h>
#include <stddef.h>

#include "diff/options.h"
#include "rank/rank.h"
#include "util/outcome.h"
#include "util/strlist.h"

#define KD_RANK_MAX_GPUS 16

typedef struct kd_rank_request {
    const kd_diff_options *diff;  /* the diff's options (launch, build, --seed, --sanitize ...) */
    const char *baseline;
    const kd_strlist *candidates; /* expanded (kd_rank_expand) */
    unsigned heats;               /* --heats H (1) */
    int shard;                    /* --shard I/N: only heat I; -1: every heat */
    size_t top;                   /* --top K (3) */
    unsigned max_rounds;          /* --max-rounds (0: the race's default) */
    double budget_ms;             /* --budget-ms per heat (0: none) */
    int gpus[KD_RANK_MAX_GPUS];   /* --gpus: device indices; ngpus 0: the default device */
    size_t ngpus;
    bool gpus_all;                /* --gpus all: every device the first harness reports */
    bool mixed_gpus;              /* --mixed-gpus */
    unsigned jobs;                /* --jobs: builds at once ahead of the gate (0: the host's cores) */
} kd_rank_request;

typedef enum kd_rank_error_kind {
    KD_RANK_ERR_NONE,
    KD_RANK_ERR_NO_CANDIDATES,    /* detail: the operand that gave none */
    KD_RANK_ERR_SYMLINK,          /* detail: a candidate that is a symbolic link (without --follow-links) */
    KD_RANK_ERR_BASELINE,         /* the baseline does not build or cannot be read (said above) */
    KD_RANK_ERR_MIXED_GPUS,       /* detail: the two models */
} kd_rank_error_kind;

typedef struct kd_rank_error {
    kd_rank_error_kind kind;
    char *detail;
    long count;
} kd_rank_error;

/* The candidate files of the operands: a file as given, a directory's kernel files (.cu,
 * .py, .ptx, .cubin) in name order, the baseline left out when the folder holds it. An
 * operand REV:FILE that names no file is FILE at git revision REV (kd_rank_run writes it
 * out with what it includes; a ref that cannot be had is a build_failed candidate). KD_OK, or
 * KD_FAIL_INPUT with the operand in *e. */
/* KD_RANK_ERR_SYMLINK for the first candidate that is itself a symbolic link (a file given,
 * or a folder's entry): a link to /etc/passwd would be read and quoted into a build log. The
 * user who means them says --follow-links. (rank/candidates.c) */
kd_outcome kd_rank_refuse_links(const kd_strlist *candidates, kd_rank_error *e);
kd_outcome kd_rank_expand(const char *const *operands, size_t n, const char *baseline, kd_strlist *out,
                          kd_rank_error *e);

/* Runs the heats asked (every heat, or the shard's). *heats gets one kd_rank_heat per heat
 * run (the caller frees each and the array). KD_OK, or the baseline's outcome. */
kd_outcome kd_rank_run(const kd_rank_request *r, kd_rank_heat **heats, size_t *nheats, kd_rank_error *e);

#endif
