/* profile.h — the counter pass: Nsight Compute runs one side's harness in run-once mode
 * and profiles exactly the launches inside the harness's profiler range (`once` wraps
 * them in cuProfilerStart/Stop; ncu runs with --profile-from-start off).
 *
 *   ncu --profile-from-start off --clock-control <none> --cache-control all
 *       --metrics <list> --log-file <side>.ncu.log -o <side> -f  <harness>
 *   ncu -i <side>.ncu-rep --csv --page raw --print-units base
 *
 * ncu's own messages go to the log file, so the harness's protocol replies on stdout stay
 * clean; any "==ERROR==" line there, or a requested metric without a column, is a failure
 * whatever ncu's exit status (ncu drops unknown metrics silently). */
#ifndef KD_NCU_PROFILE_H
#define KD_NCU_PROFILE_H

#include <stdbool.h>
#include "wire/client.h"
#include "ncu/ncu_csv.h"
#include "util/strbuf.h"
#include "util/strlist.h"

enum { KD_NCU_MAX_EXTRA = 16 }; /* --metrics names */

/* What the command line asks of the counter pass, filled once by the option parser; the
 * pass (diff/passes.c) makes each side's kd_ncu_options from it. */
typedef struct kd_counters_options {
    bool off;                      /* --no-ncu */
    const char *collector;         /* --counters: "cupti", "ncu" or "auto"; NULL: not given (auto) */
    const char *ncu;               /* --ncu PATH */
    bool full;                     /* --ncu-set full */
    int repeats;                   /* --ncu-repeats; 0: kd_ncu_auto_repeats decides */
    const char *clock_control;     /* --ncu-clock-control: "none" (default) or "base" */
    const char *report_dir;        /* --ncu-report DIR */
    kd_strlist extra_metrics;      /* --metrics: raw ncu metric names, pointing into extra_metrics_text */
    kd_strlist extra_metrics_text; /* the --metrics values, copied (owned) */
} kd_counters_options;

typedef struct kd_ncu_options {
    const char *ncu;            /* --ncu PATH, else ncu on PATH, else /usr/local/cuda/bin/ncu */
    bool full;                  /* --ncu-set full */
    int repeats;                /* profiled launches per side (kd_ncu_auto_repeats) */
    const char *clock_control;  /* --ncu-clock-control: "none" (default) or "base" */
    int timeout_ms;
    double launch_ns;           /* the side's measured time per `once` (0: unknown) */
    const char *report_dir;     /* --ncu-report: keep the report as DIR/<side>.ncu-rep; NULL: not */
    const kd_strlist *extra;    /* --metrics: raw ncu metric names to collect too (may be NULL) */
} kd_ncu_options;

typedef enum kd_ncu_status {
    KD_NCU_OK = 0,
    KD_NCU_MISSING,     /* no ncu program */
    KD_NCU_PERMISSION,  /* ERR_NVGPUCTRPERM: counters not readable by this user */
    KD_NCU_FAILED,      /* anything else: the reason is in `why` */
} kd_ncu_status;

typedef struct kd_ncu_result {
    kd_ncu_table table;         /* one row per profiled launch, in launch order */
    size_t kernels_per_launch;  /* rows per `once` (a pipeline's kernels) */
    int repeats;
    char *missing_extra;        /* --metrics names ncu gave no column for ("a, b"), or NULL */
    /* The in-process collector's profiler (ncu/cupti_collect.c; zero for ncu): the CUPTI
     * version, its replay ("user", "kernel") and who prepared L2 before each pass. */
    unsigned cupti_version;
    char replay[16], l2[16];
} kd_ncu_result;

/* How long one `once` may take under ncu: --timeout plus ncu's start-up plus the launch's
 * replays (a bound on ncu's passes x twice the measured launch time). */
int kd_ncu_once_timeout_ms(const kd_ncu_options *o);

/* Profiled launches per side: `requested` (--ncu-repeats) when given (> 0), else 1, or
 * KD_NCU_SHORT_REPEATS when the shorter side's launch takes under KD_NCU_SHORT_NS: one
 * launch of a short kernel under ncu varies by more than the difference being explained. */
enum { KD_NCU_SHORT_NS = 50000, KD_NCU_SHORT_REPEATS = 5 };
int kd_ncu_auto_repeats(int requested, double shortest_launch_ns);

/* A plausible ncu metric name: letters, digits, '_' and '.', 1 to 200 characters. Whether
 * ncu knows it is only seen in its report (an unknown one has no column). */
bool kd_ncu_metric_name_ok(const char *name);

/* The ncu program to run, or NULL when none is found. */
const char *kd_ncu_find(const char *requested);

kd_ncu_status kd_ncu_profile(const kd_ncu_options *o, const kd_harness_side *side, unsigned long long seed,
                             const char *workdir, kd_ncu_result *out, kd_strbuf *why);
void kd_ncu_result_free(kd_ncu_result *r);

#endif
