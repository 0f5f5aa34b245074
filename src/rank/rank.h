/* rank.h — `kerndiff rank BASE CAND...` (issue 32): many candidates against one baseline.
 *
 * A rank is a set of HEATS. --heats H partitions the candidates into H heats by a stable
 * hash of (seed, candidate path) mod H (kd_rank_heat_of); each heat is gated and raced
 * (rank/race.h) against the baseline on its own, the baseline re-timed in every heat. The
 * report is a PURE FUNCTION of the heats' results (kd_rank_finish): per candidate its gate
 * status, its samples against the baseline (per GPU), its static facts. So a one-process
 * `kerndiff rank --seed S --heats 3` equals its three shards (`--shard I/3`, each heat I,
 * written with --json FILE by rank/heat_json.c) merged (`--merge DIR`, rank/merge.h).
 *
 * The correction for the number of candidates is Bonferroni's (intervals at confidence
 * 1 - 0.05 / m, m the candidates timed in the whole rank); the report names it. */
#ifndef KD_RANK_RANK_H
#define KD_RANK_RANK_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "measure/calib.h"
#include "measure/stats.h"
#include "rank/race.h"

/* A candidate's status, as an agent reads it (the JSON's "status"). */
typedef enum kd_rank_status {
    KD_RANK_FASTER = 0,    /* its corrected interval is wholly above 1 (+ --min-effect) */
    KD_RANK_SLOWER,        /* wholly below */
    KD_RANK_SAME,          /* timed: no significant difference from the baseline */
    KD_RANK_DROPPED,       /* left the race early, clearly slower than K others (its interval is still shown) */
    KD_RANK_INCORRECT,     /* its outputs differ from the baseline's: never timed */
    KD_RANK_BUILD_FAILED,  /* it did not build (or no kernel could be chosen): never timed */
    KD_RANK_SANITIZER,     /* --sanitize found a problem: never timed */
    KD_RANK_RUN_FAILED,    /* it faulted, hung, or its harness broke */
    KD_RANK_UNTIMED,       /* nothing to time it on (no GPU, --no-run): gated statically only */
    KD_RANK_STATUS_COUNT
} kd_rank_status;

/* "faster", "slower", "same", "dropped", "incorrect", "build_failed", "sanitizer", "run_failed", "untimed" */
const char *kd_rank_status_name(kd_rank_status s);
int kd_rank_status_parse(const char *name); /* -1: unknown */
/* Whether the candidate was timed (it has an interval). */
bool kd_rank_status_timed(kd_rank_status s);

/* The static facts shown beside a candidate (-1: unknown). */
typedef struct kd_rank_static {
    int registers;
    long spill_bytes;      /* stores + loads */
    double occupancy;      /* 0..1, < 0 unknown */
} kd_rank_static;

/* One candidate's samples on one GPU: paired blocks (race.h). */
typedef struct kd_rank_gpu_samples {
    int gpu;               /* the device index (--gpus), 0 without */
    double *base, *cand;
    unsigned *round;
    size_t n;
} kd_rank_gpu_samples;

/* One candidate in its heat. */
typedef struct kd_rank_entry {
    char *name;            /* the file's name (basename), or path when names collide */
    char *path;            /* as given (or found in a directory given) */
    size_t index;          /* its position among all the rank's candidates */
    kd_rank_status gate;   /* after the gate and the race: faster/slower/same are decided by finish */
    char *reason;          /* why it failed the gate, or NULL */
    kd_rank_static stat;
    kd_rank_gpu_samples *gpus;
    size_t ngpus;
    bool dropped;          /* raced, left early */
    unsigned left_round;
} kd_rank_entry;

/* One candidate of the whole rank, as every shard records it: the merge matches the shards'
 * candidates against this set, and the set against the files as they are now, so that a
 * shard re-run against another (renamed, edited) candidate set is refused, not merged. */
typedef struct kd_rank_member {
    char *path;            /* as given (or found in a directory given) */
    char sha256[65];       /* SHA-256 of its content; "" when it has no file (REV:FILE) */
} kd_rank_member;

/* The SHA-256 of a file's content (hex) into hex: 0, or -1 with errno (as kd_read_file:
 * a FIFO or a device is refused, never read). */
int kd_rank_file_sha256(const char *path, char hex[65]);

typedef struct kd_rank_device {
    int index;
    char name[128];
    unsigned harness_starts; /* harness children started on it (each a process and two warm-ups) */
} kd_rank_device;

/* One heat's result: what a shard writes (rank/heat_json.c) and the merge reads. */
typedef struct kd_rank_heat {
    unsigned heat, heats;  /* this heat's number, of how many */
    uint64_t seed;
    size_t family;         /* candidates in the whole rank (the correction's m) */
    char *baseline;        /* the baseline's path */
    char base_sha256[65];  /* its content's SHA-256 ("" unknown) */
    kd_rank_member *members; /* every candidate of the rank (family of them), in index order */
    size_t nmembers;
    kd_rank_static base_stat;
    kd_rank_device *devices;
    size_t ndevices;
    kd_rank_entry *entries;
    size_t count;
    unsigned rounds;       /* the race's rounds */
    size_t samples;        /* every sample taken, both sides */
    char stop[16];         /* race.h kd_race_stop_name */
    double gate_ms;        /* wall time in the gate (builds, checks) */
    double race_ms;        /* wall time in the race */
} kd_rank_heat;

void kd_rank_heat_free(kd_rank_heat *h);

/* The heat of a candidate: FNV-1a of the seed's decimal digits, '\0', the path, mod heats. */
unsigned kd_rank_heat_of(uint64_t seed, const char *path, unsigned heats);

/* What the report is made with. */
typedef struct kd_rank_opts {
    size_t top;            /* K (3) */
    double confidence;     /* family-wise (0.95) */
    double min_effect_pct; /* --min-effect: faster/slower only beyond this change */
} kd_rank_opts;

typedef struct kd_rank_gpu_ratio {
    int gpu;
    kd_speedup speedup;    /* on this GPU alone (corrected), ratio 0 when too few rounds */
} kd_rank_gpu_ratio;

/* One candidate in the report. */
typedef struct kd_rank_row {
    const kd_rank_entry *entry;  /* borrowed from the heats */
    unsigned heat;
    kd_rank_status status;
    kd_speedup speedup;          /* every GPU's rounds together; corrected */
    bool has_speedup;
    size_t samples;              /* the candidate's samples (one side) */
    kd_rank_gpu_ratio *gpus;     /* per GPU */
    size_t ngpus;
} kd_rank_row;

typedef struct kd_rank_pair {
    size_t a, b;                 /* rows */
    kd_verdict verdict;          /* a against b: faster (a faster), slower, no significant difference */
} kd_rank_pair;

typedef struct kd_rank_result {
    kd_rank_opts opts;
    const char *correction;      /* "bonferroni" */
    double corrected_confidence; /* per candidate */
    size_t family;
    uint64_t seed;
    unsigned heats;
    const char *baseline;
    kd_rank_static base_stat;
    kd_rank_row *rows;           /* timed ones by speedup (best first), then failures */
    size_t count, timed;
    kd_rank_pair *pairs;         /* among the top K timed */
    size_t npairs;
    const kd_rank_device *devices;
    size_t ndevices;
    size_t samples;
    unsigned rounds;             /* the most of any heat */
    double gate_ms, race_ms;     /* summed over the heats */
    kd_calib calib;              /* the A/A record (issue 42), read when the report is made */
} kd_rank_result;

/* The report from the heats (borrowed: they must outlive the result). Pure: the same heats
 * give the same result, whichever process made them. NULL when n is 0. */
kd_rank_result *kd_rank_finish(kd_rank_heat *const *heats, size_t n, const kd_rank_opts *o);
void kd_rank_result_free(kd_rank_result *r);

/* A heat as JSON (rank/heat_json.c), and back. Write: 0, or -1 with errno. Read: 0, or -1
 * with what is wrong in why (a malloc'd string). */
int kd_rank_heat_write(const kd_rank_heat *h, const char *path);
int kd_rank_heat_read(const char *path, kd_rank_heat *h, char **why);

#endif
