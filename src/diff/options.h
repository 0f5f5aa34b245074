/* options.h — what a comparison is asked to do: the engine's options, one struct per
 * subsystem, filled once by the option parser (cli/options.h embeds a kd_diff_options).
 * Each layer below passes on only the struct its callee needs: the front ends get
 * kd_frontend_options (and the launch values), the launch kd_launch_options, each pass its
 * own (timing, counters, sanitizer, regions), the gate kd_gate_options. */
#ifndef KD_DIFF_OPTIONS_H
#define KD_DIFF_OPTIONS_H

#include <stdbool.h>
#include "backend/backend.h"
#include "diff/gate.h"
#include "launch/spec.h"
#include "measure/timing.h"
#include "ncu/ncu_run.h"
#include "regions/regions_pass.h"
#include "sanitizer/sanitize_pass.h"

typedef struct kd_diff_options {
    const char *files[2];     /* v1 and v2 (the operands: list: files[0]; compare: two saved runs;
                                 app: the commands or profiles) */
    const char *fn[2];        /* --fn NAME or NAME1:NAME2; NULL: choose */
    const char *git_file;     /* git mode: `kerndiff FILE` (files[] are filled later) */
    const char *at;           /* --at REF or A..B (git mode); app: v1's revision */
    const char *arch;         /* --arch sm_XX; NULL: the GPU's, else sm_90 */
    kd_frontend_options frontend; /* -I, -D, --nvcc-flag, --nvcc, --python, --no-cache */
    kd_launch_options launch; /* --n, --grid, --block, --smem, --buf, --arg, --call */
    const char *capture;      /* --launch FILE: the launch replayed from a capture (launch/replay.h) */
    const char *capture_from; /* --from 'CMD': captured first (kerndiff capture), then replayed */
    bool no_run;              /* --no-run: static diff only, even with a GPU */
    bool no_autotune;         /* --no-autotune: an autotuned kernel's first config, untimed */
    bool lock_clocks;         /* --lock-clocks */
    kd_timing_options timing; /* --target, --max-time, --seed, --rtol ... */
    kd_gate_options gate;     /* --fail-if-slower PCT (< 0: not given), --require-match */
    kd_counters_options counters; /* --no-ncu, --ncu, --ncu-set, --metrics ... */
    kd_sanitize_options sanitize; /* --sanitize, --sanitize-warn, --compute-sanitizer */
    bool regions_on;          /* --regions (or --trace) */
    bool hotspots_on;         /* --hotspots (or --hotspots-period) */
    unsigned hotspots_period; /* --hotspots-period: log2 of the PC-sampling period in cycles, 0: CUPTI's */
    kd_regions_options regions; /* --region-records */
} kd_diff_options;

#endif
