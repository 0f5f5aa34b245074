/* slurm.h — a rank sharded over a Slurm job array (issue 32 item 3).
 *
 * `kerndiff rank --slurm 'SBATCH OPTIONS' [--shards N] BASE CAND...` submits ONE job array
 * with the real `sbatch`: one task per shard (heat, src/rank/rank.h's contract), one GPU each.
 * Every task runs `kerndiff rank ... --shard I/N --json DIR/shard-I.json` and writes its heat;
 * `kerndiff rank --merge DIR` (rank/merge.h) makes one report from them.
 *
 * Nothing the user typed ever becomes shell text. The SBATCH OPTIONS string is cut into words
 * here (kd_slurm_split_words: quotes and backslashes as sh reads them, no expansion), and
 * those words go to sbatch as its argument vector (util/spawn). The job's batch script
 * (DIR/job.sh) is a FIXED text: it reads the shard number from Slurm's environment
 * (SLURM_ARRAY_TASK_ID), enters the folder the rank was asked in, and execs kerndiff with
 * `rank --shard I/N --json=DIR/shard-I.json` and the words sbatch passes it ("$@": the rank's
 * options, --, the baseline and the candidates, made by cli/opts_slurm.h from the parsed
 * request: never argv copied, so that `--` or an abbreviated option cannot move them).
 * The folder DIR keeps what merge and a re-run need: slurm.json (the manifest: the shard
 * count, the command as given, the shards' words, each shard's Slurm job id) and each
 * task's log shard-I.log (sbatch's --output, DIR's % doubled for its filename patterns).
 *
 * This module says nothing: it returns kd_outcome and a kd_slurm_error (data);
 * report/slurm_text.h words them. */
#ifndef KD_RANK_SLURM_H
#define KD_RANK_SLURM_H

#include <stdbool.h>
#include <stddef.h>

#include "util/outcome.h"
#include "util/strlist.h"

/* The rank command's Slurm options (cli/opts_slurm.c parses them). */
typedef struct kd_slurm_options {
    const char *sbatch;  /* --slurm 'SBATCH OPTIONS' (NULL: not asked; "" is allowed) */
    unsigned shards;     /* --shards N (0: KD_SLURM_DEFAULT_SHARDS) */
    bool wait;           /* --wait: poll squeue until the array ends, then merge */
    int only_shard;      /* --only-shard I: submit shard I alone into an existing DIR; -1: all */
    const char *dir;     /* --slurm-dir DIR (NULL: a new ./kerndiff-rank-XXXXXX) */
    const char *merge;   /* --merge DIR */
    unsigned poll_ms;    /* how often --wait asks squeue (0: KD_SLURM_POLL_MS) */
} kd_slurm_options;

#define KD_SLURM_DEFAULT_SHARDS 4u
#define KD_SLURM_MAX_SHARDS 10000u
#define KD_SLURM_POLL_MS 5000u
/* The files of DIR. */
#define KD_SLURM_MANIFEST "slurm.json"
#define KD_SLURM_SCRIPT "job.sh"

/* What failed, as data (report/slurm_text.c words it). */
typedef enum kd_slurm_error_kind {
    KD_SLURM_ERR_NONE,
    KD_SLURM_ERR_QUOTE,      /* the SBATCH OPTIONS string: an unclosed quote or a trailing \ at `at` */
    KD_SLURM_ERR_DIR,        /* DIR cannot be made or resolved (path, err) */
    KD_SLURM_ERR_WRITE,      /* a file of DIR cannot be written (path, err) */
    KD_SLURM_ERR_NO_PROGRAM, /* sbatch/squeue not found (detail: its name) */
    KD_SLURM_ERR_PROGRAM,    /* sbatch/squeue failed (detail: its name; output: what it said) */
    KD_SLURM_ERR_MANIFEST,   /* DIR/slurm.json missing or not kerndiff's (path, detail: what is wrong) */
    KD_SLURM_ERR_SHARD,      /* --only-shard I out of the manifest's range (at: I, count: N) */
    KD_SLURM_ERR_SELF,       /* kerndiff's own path cannot be found (/proc/self/exe) */
    KD_SLURM_ERR_DIR_USED,   /* a new rank into a DIR that holds one (path) */
} kd_slurm_error_kind;

typedef struct kd_slurm_error {
    kd_slurm_error_kind kind;
    char *path;   /* owned, may be NULL */
    char *detail; /* owned, may be NULL */
    char *output; /* owned: what the program printed on stderr (or stdout), may be NULL */
    int err;      /* errno, 0 if none */
    size_t at;    /* QUOTE: the byte offset; SHARD: the index asked */
    unsigned count; /* SHARD: the shard count */
} kd_slurm_error;
void kd_slurm_error_free(kd_slurm_error *e);

/* Cuts s into words as a POSIX shell would without expanding anything: blanks separate
 * words; '...' takes everything literally; "..." takes everything but \" \\ \$ \` (and a
 * backslash-newline, dropped); outside quotes a backslash takes the next character. $, ~,
 * globs and ; | & are ordinary characters (no shell ever sees them). Appends each word (a
 * malloc'd copy, the caller frees) to words. 0, or -1 with *bad_at the offset of the unclosed
 * quote or the trailing backslash (words then holds nothing new). */
int kd_slurm_split_words(const char *s, kd_strlist *words, size_t *bad_at);

/* Whether the user's sbatch words already say how many GPUs (--gres, --gpus*, -G, --gpus-per-*):
 * then kerndiff adds no --gres=gpu:1. */
bool kd_slurm_words_ask_gpus(const kd_strlist *words);

/* The fixed batch script (DIR/job.sh). */
const char *kd_slurm_script(void);

/* A submission. */
typedef struct kd_slurm_submit_request {
    const kd_slurm_options *o;
    const kd_strlist *words; /* a new rank: each shard's words after `rank` (options, "--", the
                                baseline and the candidates); --only-shard: NULL, the manifest's */
    int argc;
    char *const *argv; /* kerndiff's command line as given, kept in the manifest for the record */
} kd_slurm_submit_request;

typedef struct kd_slurm_job {
    char *id;       /* the array's job id ("1234") */
    char *dir;      /* DIR, absolute */
    unsigned shards;
    int only_shard; /* -1: every shard */
} kd_slurm_job;
void kd_slurm_job_free(kd_slurm_job *j);

/* Makes DIR (or reuses it for --only-shard, whose manifest gives the shard count and the
 * shard's words and folder; a new rank refuses a DIR that holds one, or any file of the names
 * a rank writes there), writes the script, runs `sbatch --parsable --array=...` with the
 * user's words, and once sbatch took the job writes the manifest with its task ids. A DIR
 * with a backslash is refused (KD_SLURM_ERR_DIR, EINVAL): sbatch would read no pattern in
 * the logs' name.
 * KD_OK with *job filled; otherwise the failure in *e (KD_FAIL_USAGE: the options string or
 * --only-shard; KD_FAIL_TOOL: sbatch missing; KD_FAIL_RUNTIME: sbatch refused; KD_FAIL_INPUT:
 * DIR or its manifest). */
kd_outcome kd_slurm_submit(const kd_slurm_submit_request *r, kd_slurm_job *job, kd_slurm_error *e);

/* Polls `squeue -h -j ID` every poll_ms until the job has no task left in the queue (or the
 * controller no longer knows it). KD_OK, or KD_FAIL_TOOL/KD_FAIL_RUNTIME with *e when squeue
 * cannot be run, or failed KD_SLURM_WAIT_FAILURES times in a row. */
#define KD_SLURM_WAIT_FAILURES 3u
kd_outcome kd_slurm_wait(const char *job_id, unsigned poll_ms, kd_slurm_error *e);

/* The scheduler's state of each array task of the given job ids ("1234", "1240"):
 * `sacct -n -P -X -j IDS -o JobID,State` where accounting is on, else
 * `scontrol -o show job ID` (jobs the controller still remembers). Calls found(job id of the
 * task "1234_2", state "FAILED", ctx) for each task it learns about; returns how many, or -1
 * when neither program answered. */
int kd_slurm_task_states(const kd_strlist *job_ids, void (*found)(const char *task, const char *state, void *ctx),
                         void *ctx);

/* The manifest of DIR (slurm.json). */
typedef struct kd_slurm_manifest {
    unsigned shards;
    char *sbatch;       /* the SBATCH OPTIONS string as given */
    kd_strlist command; /* the command as given (owned copies), argv[0] first */
    char *cwd;          /* where it was given (the tasks run there) */
    char *self;         /* kerndiff's program, absolute (NULL in a version-1 manifest) */
    kd_strlist shard_command; /* the words each shard runs after `rank` (empty in version 1) */
    char **jobs;        /* per shard: the Slurm id of its latest task ("1234_2"), or NULL */
} kd_slurm_manifest;
kd_outcome kd_slurm_manifest_read(const char *dir, kd_slurm_manifest *m, kd_slurm_error *e);
void kd_slurm_manifest_free(kd_slurm_manifest *m);

/* The command that re-runs shard i alone, as words (owned copies appended to out), every
 * path absolute so that it runs from any folder: kerndiff's program, `rank --slurm SBATCH
 * --slurm-dir DIR --only-shard I` (the shard's own words are the manifest's). */
void kd_slurm_rerun_words(const kd_slurm_manifest *m, const char *dir, unsigned i, kd_strlist *out);
/* Where the operands start in a shard's words (after the "--"): the baseline, then the
 * candidates. words->count when there is no "--". */
size_t kd_slurm_operands_at(const kd_strlist *words);

#endif
