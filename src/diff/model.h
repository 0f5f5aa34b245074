/* model.h — one struct describes a whole comparison. Every renderer (terminal, JSON,
 * Markdown) is a view of it, so the formats never disagree. */
#ifndef KD_DIFF_MODEL_H
#define KD_DIFF_MODEL_H

#include <stdbool.h>
#include "compile/build.h"
#include "git/revision.h"
#include "gpu/probe.h"
#include "launch/spec.h"
#include "measure/timing.h"
#include "diff/counters.h"
#include "diff/findings.h"
#include "diff/gate.h"
#include "diff/notes.h"
#include "source/annotation.h"
#include "source/scan.h"
#include "static/analysis.h"
#include "regions/profile.h"
#include "sanitizer/pass.h"

typedef struct kd_count_row {
    const char *key;  /* borrowed from the sides' histograms */
    long v1, v2;
} kd_count_row;

/* How an autotuned kernel's config was chosen (src/diff/autotune.h). */
typedef enum kd_tune_how {
    KD_TUNE_FASTEST,  /* each config timed briefly alone, the fastest kept */
    KD_TUNE_GIVEN,    /* the values given (--arg, --call, annotations) select it */
    KD_TUNE_FIRST,    /* the first: nothing could be timed, or --no-autotune */
} kd_tune_how;

typedef struct kd_autotune {
    size_t count;          /* the kernel's configs; 0: the kernel is not autotuned */
    size_t chosen;         /* the config built, timed and reported (index) */
    kd_tune_how how;
    char **configs;        /* each config in words: "BLOCK=256, num_warps=8" (owned) */
    double *median_ns;     /* KD_TUNE_FASTEST: each config's brief time alone, NAN where it
                              could not run; else NULL */
    char *summary;         /* the sentence the reports print */
} kd_autotune;
void kd_autotune_free(kd_autotune *t);

/* Two histograms side by side: changed rows first (largest change first), then the
 * unchanged ones, each group in key order. */
typedef struct kd_count_table {
    kd_count_row *rows;
    size_t count;
    size_t changed;   /* rows[0..changed) differ */
    long total[2];
} kd_count_table;

typedef struct kd_side {
    const char *label;          /* "v1" / "v2" */
    const char *path;           /* as the user gave it (git mode: the file to build) */
    char *origin;               /* git mode: "HEAD (3f2a1c9)", "working copy"; else NULL */
    const kd_strlist *include_dirs; /* the side's -I folders (git mode: its revision's) */
    char *kernel;               /* the source-level name compared */
    kd_kernel_list kernels;     /* every kernel of the file */
    kd_annotations annotations; /* its `// kerndiff:` settings */
    const kd_kernel *kernel_info;
    kd_build build;
    kd_strlist libs;            /* a launcher's `libs=` (points into libs_text) */
    char *libs_text;
    kd_static_result stat;
    kd_launch_spec launch;      /* how it is launched (valid when launch_error is NULL) */
    char *launch_error;         /* why no launch could be described */
    kd_region_names region_names; /* --regions: its markers' region and group names */
    kd_build regions_build;     /* --regions: the instrumented build */
    bool regions_branched;      /* --regions: its markers branch in blocks that do not record */
    kd_region_branch_reason regions_branch_reason; /* why (diff/markers.h) */
    unsigned long long regions_smem, regions_profile_scratch; /* --regions, Triton: the instrumented
                                   build's dynamic shared memory and profile scratch per program */
    kd_launch_spec regions_launch; /* --regions: the instrumented build's launch when it differs from
                                   `launch` (Triton: Proton's shared memory and scratch); nargs 0: none */
    kd_region_profile regions;  /* --regions: what the instrumented runs recorded */
    const struct kd_backend *frontend; /* the backend that read and built it (backend.h) */
    kd_launch_abi abi;          /* what its compiler fixes about the launch (Triton); abi.fixed false: nothing */
    kd_kernel *compiled;        /* the kernel as compiled, when it differs from the source's (Triton:
                                   constexprs and specialised values removed); kernel_info points here */
    char *build_note;           /* how it was compiled, when worth saying (Triton: version, num_warps ...) */
    char *captured;             /* Triton: the folder of the launch taken from the user's own code
                                   (launch.json, the JIT's kernel.cubin ...), or NULL: described */
    char *launch_source;        /* Triton: where the launch came from, as a JSON object's text
                                   ({"from": "captured"|"described", ...}); NULL: not Triton */
    int config;                 /* the autotune config to build (index into the backend's list); -1: the
                                   backend's own choice */
    kd_autotune autotune;       /* how that config was chosen; count 0 when there was no choice */
} kd_side;

/* Frees what preparing, building, describing the launch and analysing a side made (abi,
 * compiled kernel, build, launch, static result, build note), leaving what scanning made. */
void kd_side_release_built(kd_side *side);

typedef struct kd_comparison {
    kd_side side[2];
    bool analysed;              /* the static half is complete: the comparison can be shown */
    char arch[32];
    const char *arch_origin;    /* "--arch", "GPU" or "default, no GPU" */
    const kd_arch_limits *limits;
    kd_gpu_info gpu;
    kd_note selection_note;     /* how the kernel was chosen, or why two saved runs differ */
    kd_note git_note;           /* git mode: the versions are identical */
    kd_git_result git;          /* git mode's two sides (owned) */
    kd_note sass_note;          /* why SASS is missing */
    kd_note runtime_note;       /* why nothing was measured, or what failed */
    bool timed;                 /* `timing` holds a measurement */
    bool simulated;             /* ... taken from the simulated harness (KERNDIFF_SIMULATE) */
    kd_timing timing;
    kd_counters counters;       /* present when the counter pass ran */
    kd_gate gate;               /* --fail-if-slower, --require-match */
    int argc;                   /* the command line, for saved results (borrowed) */
    char **argv;
    long long started;          /* Unix time the comparison started */
    kd_note counters_note;      /* why there are no counters */
    unsigned sanitize_tools;    /* --sanitize: the tools that ran on both sides (0: none) */
    kd_sanitize_side sanitize[2];
    char *fault_explained;      /* a fault re-run under memcheck: what it says, or NULL */
    bool regions_run;           /* both sides' region profiles are present */
    kd_note regions_note;       /* why there are no region profiles */
    kd_count_table ptx_ops, ptx_families, sass_ops, sass_families;
    kd_finding *findings;       /* what changed that matters (findings.h) */
    size_t finding_count;
} kd_comparison;

/* Builds the side-by-side table of two histograms. */
void kd_count_table_build(const kd_histogram *v1, const kd_histogram *v2, kd_count_table *out);
void kd_count_table_free(kd_count_table *t);

/* Fills the four instruction tables and the findings from the sides' static results. */
void kd_comparison_tabulate(kd_comparison *c);
void kd_comparison_free(kd_comparison *c);

/* The registers a thread and theoretical blocks per SM of `side`'s build `b` (an instrumented
 * one) at the plain build's launch: its block size, and its shared memory with b's static
 * share. Returns 0, or -1 when the plain build's occupancy or b's ptxas log is unknown. */
int kd_build_occupancy(const kd_comparison *c, const kd_side *side, const kd_build *b, int *registers,
                       int *blocks_per_sm);

/* The comparison's note slot of a kind (selection_note for KD_NOTE_SELECTION ...); NULL for no kind. */
kd_note *kd_comparison_note(kd_comparison *c, kd_note_kind kind);

#endif
