/* options.h — the command line, parsed into one struct (getopt_long). */
#ifndef KD_CLI_OPTIONS_H
#define KD_CLI_OPTIONS_H

#include <stdbool.h>
#include <stddef.h>

#include "app/collect.h"
#include "diff/gate.h"
#include "launch/call.h"
#include "measure/timing.h"
#include "regions/pass.h"
#include "sanitizer/pass.h"
#include "util/trace.h"
#include "util/strlist.h"

typedef enum kd_command {
    KD_CMD_DIFF, KD_CMD_LIST, KD_CMD_COMPARE, KD_CMD_APP, KD_CMD_HELP, KD_CMD_VERSION, KD_CMD_COMPLETION
} kd_command;


typedef struct kd_options {
    kd_command command;
    const char *files[2];     /* diff: v1 and v2; list: files[0]; app: the commands or profiles */
    const char *fn[2];        /* --fn NAME or NAME1:NAME2; NULL: choose */
    const char *arch;         /* --arch sm_XX; NULL: the GPU's, else sm_90 */
    kd_strlist include_dirs;  /* -I */
    kd_strlist defines;       /* -D */
    kd_strlist nvcc_flags;    /* --nvcc-flag */
    const char *nvcc;         /* --nvcc PATH, else $KERNDIFF_NVCC, else "nvcc" */
    const char *python;       /* --python PATH: the interpreter with Triton (NULL: python3) */
    /* Launch (launch/spec.h): NULL when not given. */
    const char *n, *grid, *block, *smem;
    kd_strlist buffers;       /* --buf NAME=EXPR */
    kd_strlist scalars;       /* --arg NAME=VALUE */
    kd_call_settings call[2]; /* --call vN:KEY=VALUE,...: each side's settings, merged */
    kd_timing_options timing; /* --target, --max-time, --seed, --rtol ... */
    bool no_run;              /* --no-run: static diff only, even with a GPU */
    bool no_autotune;         /* --no-autotune: an autotuned kernel's first config, untimed */
    bool lock_clocks;
    kd_gate_options gate;     /* --fail-if-slower PCT (< 0: not given), --require-match */
    const char *save_path;    /* --save FILE.json: the whole result */
    const char *sweep;        /* --sweep NAME=a,b,c */
    const char *git_file;     /* git mode: `kerndiff FILE` (files[] are filled later) */
    const char *at;           /* --at REF or A..B (git mode); app: v1's revision */
    const char *at_second;    /* a second --at (app only: v2's revision) */
    bool watch;               /* --watch */
    const char *compare_side; /* compare --side v1|v2 (default v2) */
    /* Counters (ncu/profile.h). */
    bool no_ncu, ncu_full, all_metrics, per_kernel, no_advice;
    const char *ncu;          /* --ncu PATH */
    int ncu_repeats;          /* --ncu-repeats; 0: 1, or 5 for kernels under 50 us */
    const char *ncu_clock_control; /* "none" (default) or "base" */
    kd_app_options app;       /* kerndiff app: --runs, -N, --range, --steps, --top, --at, --prepare */
    kd_sanitize_options sanitize; /* --sanitize, --sanitize-warn, --compute-sanitizer */
    bool regions_on;          /* --regions (or --trace) */
    kd_regions_options regions;/* --region-records */
    const char *trace_path;   /* --trace FILE: the region timelines */
    kd_verbosity verbosity;   /* -q, -v (util/trace.h) */
    bool brief;               /* --brief */
    const char *completion_shell; /* --completion bash|zsh|fish */
    /* ncu's own output (--ncu-report DIR, --metric-names, --metrics a,b,...). */
    const char *ncu_report_dir;
    bool metric_names;
    kd_strlist extra_metrics;      /* raw ncu metric names, pointing into extra_metrics_text */
    kd_strlist extra_metrics_text; /* the --metrics values, copied (owned) */
    bool color;               /* colour on: a TTY, no --no-color, no NO_COLOR */
    bool no_cache;
    bool all_instructions;    /* --all-instructions: unchanged histogram rows too */
    const char *json_path;    /* --json [FILE]: "-" is stdout; NULL: none */
    const char *markdown_path;/* --markdown [FILE] */
    const char *html_path;    /* --html FILE: the report with charts (report/html.c) */
    const char *csv_path;     /* --csv FILE: raw samples, or a sweep's points */
} kd_options;

/* Parses argv. On a usage error prints the reason to stderr and returns KD_EXIT_USAGE;
 * otherwise returns 0. */
int kd_options_parse(int argc, char **argv, kd_options *opts);
void kd_options_free(kd_options *opts);
void kd_print_help(void);
/* Whether a document (--json, --markdown, --html, --csv) goes to stdout: then the terminal
 * report does not. */
bool kd_options_stdout_taken(const kd_options *opts);
/* A completion script for bash, zsh or fish, from the option table. */
void kd_print_completion(const char *shell);

#endif
