/* model.h — kd_app_comparison, everything `kerndiff app` knows about two programs' GPU
 * activity: each side's runs (exit status, wall time, activity), and the diff made from
 * them (app/diff.h): totals, the per-kernel table matched by name, the API table, with
 * medians over runs and, with two runs or more a side, 95% confidence intervals from
 * measure/stats. The renderers (report/app_*.c) read only this. */
#ifndef KD_APP_MODEL_H
#define KD_APP_MODEL_H

#include <stdbool.h>
#include <stddef.h>

#include "app/activity.h"
#include "measure/stats.h"

typedef struct kd_app_run {
    int exit_code, signal;   /* the command's status (a profile: 0, 0) */
    double wall_ns;          /* the command's wall time; 0 for a profile */
    kd_app_activity activity;
} kd_app_run;

typedef struct kd_app_side {
    const char *label;       /* the command, or the profile's path; with --at, "REF (a1b2c3d): CMD"
                              * or "working tree: CMD" (then owned: label_storage) */
    char *label_storage;
    char *dir;               /* where the command runs (a checkout, --at); NULL: the current folder */
    const char *ref;         /* --at: the revision as given (borrowed from the options), else NULL */
    char *commit;            /* --at: the full hash it resolved to (owned), else NULL */
    bool profile;            /* an nsys SQLite export, read rather than run */
    kd_app_run *runs;
    size_t nruns;
} kd_app_side;

/* One quantity, v1 against v2, over runs. */
typedef struct kd_app_change {
    double v[2];             /* median over runs */
    double per_step[2];      /* v / steps, when steps are known */
    bool has_ratio;          /* both medians > 0 */
    kd_speedup ratio;        /* v1 / v2 (> 1: v2 took less); lo/hi valid when has_ci */
    bool has_ci;             /* two runs or more a side */
    kd_verdict verdict;      /* from the CI; NO_DIFFERENCE without one */
} kd_app_change;

typedef enum kd_app_total_id {
    KD_APP_KERNEL_NS,        /* sum of kernel durations */
    KD_APP_LAUNCHES,
    KD_APP_KERNELS,          /* distinct kernel names */
    KD_APP_COPY_NS,          /* copies and memsets, summed */
    KD_APP_HTOD_BYTES,
    KD_APP_DTOH_BYTES,
    KD_APP_DTOH_COPIES,
    KD_APP_SYNCS,
    KD_APP_ALLOCS,
    KD_APP_WALL_NS,          /* the command's wall time (not for profiles) */
    KD_APP_TOTALS
} kd_app_total_id;

typedef enum kd_app_unit { KD_APP_UNIT_NS, KD_APP_UNIT_COUNT, KD_APP_UNIT_BYTES } kd_app_unit;

typedef struct kd_app_total_info {
    const char *id;          /* JSON id: "kernel_ns" */
    const char *label;       /* "GPU kernel time" */
    kd_app_unit unit;
    bool per_step;           /* worth showing per step */
} kd_app_total_info;
extern const kd_app_total_info kd_app_total_infos[KD_APP_TOTALS];

typedef struct kd_app_row {  /* one kernel name */
    const char *name;        /* borrowed from a run's activity */
    bool present[2];
    double launches[2];      /* median per run */
    kd_app_change time;      /* its total time per run */
    double mean_ns[2];       /* per launch */
    double share[2];         /* of the side's kernel time, 0..1 */
    kd_app_config config[2]; /* the most launched configuration */
    size_t nconfigs[2];      /* distinct configurations (the most in one run) */
} kd_app_row;

typedef struct kd_app_api_row {
    const char *name;
    bool driver;
    double count[2], ns[2];  /* means per run */
} kd_app_api_row;

typedef enum kd_app_gate { KD_APP_GATE_OFF, KD_APP_GATE_PASSED, KD_APP_GATE_SLOWER } kd_app_gate;

typedef struct kd_app_comparison {
    kd_app_side sides[2];
    const char *range;       /* --range NAME, or NULL */
    double steps;            /* --steps, else NVTX ranges per run (median); 0: unknown */
    bool steps_from_ranges;
    bool gpu[2];             /* the side did GPU work in some run */
    kd_app_change totals[KD_APP_TOTALS];
    kd_app_row *rows;        /* by the larger side's time, descending */
    size_t nrows;
    kd_app_api_row *apis;    /* by the larger side's time, descending */
    size_t napis;
    uint64_t lost[2];        /* records lost, all runs */
    size_t unavailable[2];   /* processes where collection could not start, all runs */
    double fail_if_slower_pct; /* < 0: no gate */
    kd_app_gate gate;
} kd_app_comparison;

void kd_app_comparison_free(kd_app_comparison *c);

#endif
