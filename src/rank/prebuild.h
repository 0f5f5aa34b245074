/* prebuild.h — a rank's candidates built ahead of the gate, in parallel on the host's cores
 * (issue 32). Each worker is a process of its own that builds its share of the CUDA
 * candidates (.cu, .cuh) as `kerndiff list` builds them (diff/pipeline.h kd_list_file: the
 * scan and nvcc's build, no analysis), its output discarded. What a worker leaves is the
 * build cache's entries (compile/cache.h, keyed by content), which the gate (rank/run.c) then
 * finds, so the gate's own builds are cache hits. A candidate that does not build is said
 * and judged by the gate, as before; a worker that dies costs only the cache entries it did
 * not make. Each worker's fresh builds lie in folders of their own (compile/build.h
 * kd_build_folder). The other backends (.ptx, Triton) still build into one folder per side
 * (TMP/v2), which two workers would write at once: those candidates are built in the gate,
 * one after another. Nothing is done without the cache (--no-cache), for fewer than two
 * jobs, or for fewer than two candidates. A launcher file (include/kerndiff/launcher.h)
 * builds with its shim in the gate: its build here is not the gate's. */
#ifndef KD_RANK_PREBUILD_H
#define KD_RANK_PREBUILD_H

#include <stddef.h>

#include "diff/options.h"

typedef struct kd_rank_prebuild {
    const kd_diff_options *diff;  /* the rank's diff options (build flags, launch ...) */
    const char *baseline;         /* built already (the gate's first side) */
    const char *const *paths;     /* the files to build (git refs materialised) */
    size_t n;
    unsigned jobs;                /* worker processes (kd_rank_default_jobs when 0) */
    /* Called in the worker before candidate i's build (the simulated backend's specs). */
    void (*prepare)(void *ctx, size_t i);
    void *ctx;
} kd_rank_prebuild;

/* Builds the paths; returns how many workers ran (0: none, the gate builds them). */
unsigned kd_rank_prebuild_run(const kd_rank_prebuild *p);

/* The host's cores this process may run on (sched_getaffinity), at least 1. */
unsigned kd_rank_default_jobs(void);

#endif
