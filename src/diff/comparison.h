/* model.h — one struct describes a whole comparison. Every renderer (terminal, JSON,
 * Markdown) is a view of it, so the formats never disagree. Each side, the part the
 * backends fill, is backend/side.h's kd_side (a floor lower: the backends never include
 * this file). */
#ifndef KD_DIFF_MODEL_H
#define KD_DIFF_MODEL_H

#include <stdbool.h>
#include "backend/side.h"
#include "compile/build.h"
#include "git/revision.h"
#include "gpu/probe.h"
#include "launch/replay.h"
#include "measure/timing.h"
#include "diff/counters.h"
#include "diff/findings.h"
#include "diff/gate.h"
#include "diff/notes.h"
#include "static/analysis.h"
#include "sanitizer/sanitize_pass.h"
#include "hotspots/hotspots_pass.h"

typedef struct kd_count_row {
    const char *key;  /* borrowed from the sides' histograms */
    long v1, v2;
} kd_count_row;

/* Two histograms side by side: changed rows first (largest change first), then the
 * unchanged ones, each group in key order. */
typedef struct kd_count_table {
    kd_count_row *rows;
    size_t count;
    size_t changed;   /* rows[0..changed) differ */
    long total[2];
} kd_count_table;

/* What the launch check did for a side (comparison's launch_check[]). */
typedef enum kd_launch_check {
    KD_LAUNCH_CHECK_NONE = 0,    /* nothing assumed (or not run: the simulated harness, --sanitize) */
    KD_LAUNCH_CHECK_CLEAN,       /* memcheck found nothing */
    KD_LAUNCH_CHECK_FINDINGS,    /* memcheck found accesses outside the buffers: not timed */
    KD_LAUNCH_CHECK_NO_SANITIZER,/* no compute-sanitizer was found */
    KD_LAUNCH_CHECK_UNCHECKED,   /* compute-sanitizer could not run it: launch_check_why */
    KD_LAUNCH_CHECK_SKIPPED,     /* --no-launch-memcheck */
} kd_launch_check;

/* One stage of a diff and its wall time (JSON timings.stages: where a run's seconds went,
 * issue 43): "kernels chosen" (reading both files, finding callers, choosing the kernel),
 * "built and analysed" (both builds, the static analysis), "runtime setup" (the launches'
 * sizes checked, the harnesses found), then each pass that ran, by its name in
 * diff/passes.h's table ("timing", "counters", ...). What follows (the report) is not in it. */
typedef struct kd_stage_time {
    char *name;
    double seconds;
} kd_stage_time;

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
    /* A fault re-run under memcheck (issue 44: data here, the sentence in report/): the side
     * that faulted and what memcheck found (shown when its memcheck report has findings),
     * or that no compute-sanitizer was found to re-run it with. */
    int fault_side;
    kd_sanitize_side fault_found;
    bool fault_no_sanitizer;
    /* The launch check (issue 39): a side whose launch kerndiff assumed (launch.assumed) runs
     * once under memcheck before it is timed; launch_check_why: why a side is unchecked. */
    kd_launch_check launch_check[2];
    char *launch_check_why;
    bool regions_run;           /* both sides' region profiles are present */
    kd_note regions_note;       /* why there are no region profiles */
    /* --hotspots (issue 31 item 2, hotspots/): each side's PC samples by source line and their
       diff; failure says why a side has none (step KD_HS_STEP_SOURCE: a side without its
       source text, the diff made anyway). */
    struct {
        bool asked, run;
        kd_hs_profile side[2];
        kd_hs_diff diff;            /* when run (points into side[]) */
        int failed_side;
        kd_hotspots_failure failure;
    } hotspots;
    kd_count_table ptx_ops, ptx_families, sass_ops, sass_families;
    kd_finding *findings;       /* what changed that matters (findings.h) */
    size_t finding_count;
    /* Several kernels compared statically (no --fn, and the files share several kernels or
       template instances; diff/pipeline.c): one comparison each (its sides built, analysed and
       tabulated; no timing), matched by name (a template's compiled instance, "reduce0<float>"),
       in v1's order; the fields above are the first one's as well. kernel_count 0: one kernel. */
    struct kd_comparison *kernels; /* owned */
    size_t kernel_count;
    char **only[2];             /* the kernels (instances) only v1 / only v2 has (owned) */
    size_t only_count[2];
    bool kernels_untimed;       /* timing was asked (no --no-run) and needs one kernel: --fn */
    /* --launch FILE (issue 30 item 2): the launch replayed from a capture (launch/replay.h),
       and each side's outputs against the program's own result (the capture's contents after
       the launch; diff/replay_pass.c). */
    struct {
        struct kd_replay *capture;  /* owned; NULL: the launch was described, not replayed */
        char *path;                 /* the capture file (owned) */
        bool checked[2];            /* side s's outputs were compared with the program's */
        kd_replay_match match[2];
        char *problem;              /* why they could not be compared, or NULL (owned) */
        char *caller;               /* the project's caller it was taken from, found by kerndiff
                                       (source/callers.h: FILE::TEST), or NULL: --launch/--from (owned) */
    } replay;
    kd_stage_time *stages;      /* where the run's time went, in order (kd_comparison_stage) */
    size_t nstages;
    double stage_mark;          /* kd_clock_s() when the current stage began */
} kd_comparison;

/* Builds the side-by-side table of two histograms. */
void kd_count_table_build(const kd_histogram *v1, const kd_histogram *v2, kd_count_table *out);
void kd_count_table_free(kd_count_table *t);

/* Fills the four instruction tables and the findings from the sides' static results. */
void kd_comparison_tabulate(kd_comparison *c);
void kd_comparison_free(kd_comparison *c);
/* Ends the current stage as `name` (its time since the last stage ended, or since
 * stage_mark was first set) and starts the next. */
void kd_comparison_stage(kd_comparison *c, const char *name);

/* The registers a thread and theoretical blocks per SM of `side`'s build `b` (an instrumented
 * one) at the plain build's launch: its block size, and its shared memory with b's static
 * share. Returns 0, or -1 when the plain build's occupancy or b's ptxas log is unknown. */
int kd_build_occupancy(const kd_comparison *c, const kd_side *side, const kd_build *b, int *registers,
                       int *blocks_per_sm);

/* The comparison's note slot of a kind (selection_note for KD_NOTE_SELECTION ...); NULL for no kind. */
kd_note *kd_comparison_note(kd_comparison *c, kd_note_kind kind);

/* Transitional (issue 29): the static analysis reads three texts of a build
 * (static/analysis.h's kd_static_input); diff/pipeline.c still hands it the whole build.
 * kd_static_analyze copies the texts over. Delete both once compare.c fills a
 * kd_static_input and calls kd_static_analyze_input. */
typedef struct kd_static_request {
    const kd_build *build;
    const char *kernel, *launch_bounds, *annotated_block;
    int block_threads;
    const char *block_origin;
    unsigned long long dynamic_smem;
    const kd_arch_limits *limits;
    const char *cuobjdump;
    bool launcher;
} kd_static_request;
int kd_static_analyze(const kd_static_request *req, kd_static_result *out, kd_strbuf *error);

#endif
