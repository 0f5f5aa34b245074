/* metrics.h — the counter model: one table of metric definitions, the values of one side
 * (per kernel and aggregated), and the diff of two sides (deltas, symbols, noise flags),
 * the roofline position and advice. Pure computation over numbers read by ncu/ncu_csv.h.
 *
 * A definition either names one ncu metric or computes from others (a formula over the
 * raw metrics of the same launch). One with no raw metric at all (arithmetic_intensity) is
 * derived from other definitions' values and recomputed after evaluation and aggregation.
 * Units are base units (ns, byte, byte/s, Hz, %, count). "pct" metrics are percentages and
 * their deltas are in percentage points (pp); other quantities' deltas are relative (%). */
#ifndef KD_NCU_METRICS_H
#define KD_NCU_METRICS_H

#include <stdbool.h>
#include <stddef.h>

typedef enum kd_metric_group {
    KD_GROUP_SOL,        /* speed of light: duration, throughput, DRAM, clock */
    KD_GROUP_ARITHMETIC, /* FLOPs, intensity, instructions, IPC, thread activity */
    KD_GROUP_CACHE,      /* hit rates, sectors/request, bank conflicts */
    KD_GROUP_WARP,       /* occupancy and its limiter, stall reasons */
    KD_GROUP_LAUNCH,     /* registers, shared memory, grid, block */
    KD_GROUP_TENSOR,     /* tensor pipe */
    KD_GROUP_COUNT
} kd_metric_group;

typedef enum kd_unit { KD_UNIT_NS, KD_UNIT_BYTES, KD_UNIT_BYTES_PER_S, KD_UNIT_HZ, KD_UNIT_PCT,
                       KD_UNIT_COUNT, KD_UNIT_RATIO, KD_UNIT_FLOPS_PER_S, KD_UNIT_FLOP_PER_BYTE } kd_unit;

typedef enum kd_direction { KD_LOWER_BETTER, KD_HIGHER_BETTER, KD_NEUTRAL } kd_direction;

/* How per-kernel values combine over a multi-kernel side: extensive ones add up,
 * intensive ones are averaged weighted by each kernel's duration. */
typedef enum kd_extent { KD_EXTENSIVE, KD_INTENSIVE } kd_extent;

#define KD_MAX_RAW 8

typedef struct kd_metric_def {
    const char *id;          /* stable key (JSON): "dram_bytes", "sectors_per_request_ld" */
    const char *label;       /* terminal label */
    kd_metric_group group;
    kd_unit unit;
    kd_direction better;
    kd_extent extent;
    bool full_set_only;      /* only in --ncu-set full */
    const char *raw[KD_MAX_RAW]; /* ncu metrics it needs, NULL-terminated */
    /* Computes the value from the raw values (same order as raw[]); NULL: raw[0] itself.
     * Returns false when undefined (e.g. 0 requests). */
    bool (*compute)(const double *raw, double *out);
} kd_metric_def;

extern const kd_metric_def kd_metric_defs[];
extern const size_t kd_metric_def_count;

/* The ncu metric names to request for a set ("fast" or "full"), de-duplicated, sorted,
 * NULL-terminated (static storage). */
const char *const *kd_ncu_request_list(bool full);

/* Values of one profiled launch: raw ncu values looked up by name. */
typedef struct kd_raw_lookup {
    const void *ctx;
    bool (*get)(const void *ctx, const char *ncu_metric, double *out);
} kd_raw_lookup;

typedef struct kd_metric_values {
    double value[64];        /* indexed like kd_metric_defs */
    bool present[64];
} kd_metric_values;

/* Evaluates every definition on one launch. A definition is absent when it is not in the set,
 * a raw metric it needs is missing, or its formula is undefined (0 requests, 0 DRAM bytes). */
void kd_metrics_evaluate(const kd_raw_lookup *raw, bool full, kd_metric_values *out);

/* Combines a side's kernels (one entry each, e.g. median over repeats already taken) into
 * the side's value: extensive summed, intensive weighted by duration (kd_metric "duration"),
 * each over the kernels where it is present (absent when none has it; an intensive one also
 * needs durations). Ratios without their parts in the table (sectors/request) and launch facts
 * are duration-weighted means too: exact for one kernel, a summary for several. */
void kd_metrics_aggregate(const kd_metric_values *kernels, size_t n, kd_metric_values *out);

/* The delta of one metric between sides. */
typedef struct kd_metric_delta {
    bool comparable;         /* both sides present */
    double v1, v2;
    double delta;            /* pp for KD_UNIT_PCT, else relative change in % */
    const char *symbol;      /* "++", "+", "~", "-", "--" (direction-aware: + is better);
                                KD_NEUTRAL metrics are not judged: "~" or "*" (changed);
                                "" when not comparable */
    bool noisy;              /* '?': inside the measured variability */
    bool changed;            /* |delta| above the threshold for "~" */
} kd_metric_delta;

/* Thresholds in the displayed unit: |delta| < small → "~"; < large → "+"/"-"; else "++"/"--".
 * Percent quantities: 2% / 10%; percentages: 1pp / 5pp. `noise` is the variability of this
 * metric's delta in the same unit (0 when unknown): |delta| <= noise → noisy.
 * A relative delta from v1 == 0 is 0 when v2 == 0, else ±inf (changed, judged by direction).
 * Pass NAN for a side without the value: comparable is then false. */
void kd_metric_diff(const kd_metric_def *def, double v1, double v2, double noise, kd_metric_delta *out);

/* Roofline. */
typedef struct kd_peaks {
    double dram_bytes_per_s; /* 2 x max memory clock x bus width / 8 */
    double fp32_flops_per_s; /* SMs x SM clock x FP32 FLOP/clk/SM */
    double fp64_flops_per_s;
    double tensor_flops_per_s; /* dense FP16/BF16 tensor peak from the per-arch table, 0 if unknown */
} kd_peaks;

/* Per-arch FLOP/clk/SM for FP32 and FP64 and dense FP16 tensor FLOP/clk/SM, from the
 * documented table; false for an arch not in it. */
bool kd_arch_flops_per_clock(int sm, double *fp32, double *fp64, double *tensor16);

typedef enum kd_bound { KD_BOUND_MEMORY, KD_BOUND_COMPUTE, KD_BOUND_LATENCY } kd_bound;

/* The units a kernel can keep busy, by ncu's speed-of-light throughputs. */
typedef enum kd_unit_busy {
    KD_BUSY_DRAM,    /* the larger of achieved / peak bandwidth and dram_throughput */
    KD_BUSY_L2,      /* l2_throughput */
    KD_BUSY_L1,      /* l1_throughput: L1, shared memory, texture */
    KD_BUSY_MEMORY,  /* mem_throughput, when the per-unit throughputs are absent */
    KD_BUSY_SM,      /* the larger of the FLOP fraction and sm_throughput */
} kd_unit_busy;

typedef struct kd_roofline {
    double flops, bytes, seconds;   /* achieved work and time */
    double intensity;               /* FLOP / DRAM byte */
    double bw_fraction;             /* achieved bandwidth / peak */
    double compute_fraction;        /* achieved FLOP/s / peak (tensor peak when the tensor pipe ran):
                                       the largest of (FP32 + FP16) / FP32 peak, FP64 / FP64 peak and
                                       the tensor pipe's utilization, since the FLOP counters miss
                                       tensor-core work */
    kd_unit_busy busiest;           /* the unit nearest its peak (memory units win a tie) */
    double busiest_fraction;
    kd_bound bound;                 /* latency when the busiest unit is under 0.6 of its peak, else
                                       compute (SM) or memory (DRAM, L2, L1/shared) */
    double headroom;                /* 1 - busiest_fraction, at least 0 */
} kd_roofline;

void kd_roofline_compute(const kd_metric_values *v, const kd_peaks *p, kd_roofline *out);
const char *kd_bound_name(kd_bound b);       /* "memory", "compute", "latency" */
const char *kd_bound_short(kd_bound b);      /* "mem", "com", "lat" */
const char *kd_busy_unit_name(kd_unit_busy u); /* "DRAM", "L2", "L1/shared", "memory system", "SM" */

/* Whether a metric is derived from the kernel's time (its noise is the timing CI's). */
bool kd_metric_time_derived(const kd_metric_def *def);

/* Index of a definition by id, or -1. */
long kd_metric_index(const char *id);

/* The resource that allows the fewest blocks per SM (occupancy_limit_*): "registers",
 * "shared memory", "warps" or "blocks" (the first of these on a tie), or NULL when none of
 * the limits is present. */
const char *kd_occupancy_limiter(const kd_metric_values *v);

#endif
