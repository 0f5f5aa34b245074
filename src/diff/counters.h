/* counters.h — the counter half of a comparison: both sides profiled in their harness by the
 * CUPTI range profiler (ncu/cupti_collect.h) or by ncu (ncu/ncu_run.h), in the same shape,
 * their metrics evaluated per kernel (median over --ncu-repeats), aggregated over a
 * pipeline's kernels, diffed with noise flags, placed on the roofline, and explained. */
#ifndef KD_DIFF_COUNTERS_H
#define KD_DIFF_COUNTERS_H

#include <stdbool.h>
#include <stddef.h>
#include "measure/stats.h"
#include "ncu/metrics.h"
#include "ncu/ncu_run.h"

typedef struct kd_kernel_counters {
    char *name;                 /* ncu's "Kernel Name" */
    kd_metric_values values;    /* median over repeats */
    kd_metric_values spread;    /* max - min over repeats (0 with one repeat) */
} kd_kernel_counters;

typedef struct kd_side_counters {
    kd_kernel_counters *kernels;
    size_t nkernels;
    kd_metric_values total;     /* aggregated: extensive summed, intensive duration-weighted */
    kd_metric_values spread;    /* aggregated like the values */
    bool roofline_valid;
    kd_roofline roofline;
} kd_side_counters;

/* A raw ncu metric asked for with --metrics. */
typedef struct kd_extra_metric {
    const char *name;           /* borrowed from the options */
    kd_unit unit;               /* a percentage (a name with "pct") or a count */
    kd_metric_delta delta;      /* v1, v2 and the change; never marked noisy */
} kd_extra_metric;

typedef struct kd_counters {
    bool present;
    bool full;                  /* --ncu-set full */
    int repeats;
    kd_side_counters side[2];
    kd_metric_delta delta[64];  /* indexed like kd_metric_defs */
    bool peaks_valid;
    kd_peaks peaks;
    char **advice;
    size_t nadvice;
    /* The timing verdict that ncu's duration delta contradicts (its sign differs; the row
     * is then marked noisy), else KD_VERDICT_NO_DIFFERENCE. */
    kd_verdict contradicted_verdict;
    kd_extra_metric *extras;    /* --metrics that both sides have */
    size_t nextras;
    char *missing_extra;        /* --metrics without a column on either side ("a, b"), or NULL */
    const char *collector;      /* who collected them: "cupti" (in the harness) or "ncu" */
    char *cupti_refused;        /* --counters auto fell back to ncu: why CUPTI could not (owned), or NULL */
    /* collector "cupti": the harness's CUPTI (130500: 13.5; 0: unknown), its replay ("user",
     * "kernel") and who prepared L2 before each pass ("cupti": its cache control, "harness",
     * "none"; "": not said) */
    unsigned cupti_version;
    char replay[16], l2[16];
} kd_counters;

/* Everything the counter diff needs to know about the run besides ncu's numbers. */
typedef struct kd_counter_context {
    int sm;                     /* compute capability (90) */
    int sms;                    /* multiprocessors */
    double max_sm_clock_hz;     /* 0: unknown */
    double peak_dram_bytes_per_s; /* 0: unknown */
    double timing_noise_pct;    /* the speedup CI's half-width, for time-derived metrics; 0: not timed */
    kd_verdict verdict;         /* the timing's verdict (no difference when not timed) */
    const kd_strlist *extra_metrics; /* --metrics (may be NULL) */
    long spill_bytes[2];
} kd_counter_context;

/* Builds `out` from both sides' profiles. */
void kd_counters_build(const kd_ncu_result results[2], bool full, const kd_counter_context *ctx, kd_counters *out);
void kd_counters_free(kd_counters *c);

#endif
