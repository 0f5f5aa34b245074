/* side.h — one side of a comparison: the part the backends fill (its kernels, build, launch,
 * static result, Triton's capture and autotune choice) and the runtime passes add to (its
 * region profile). It sits on the backends' floor, under diff/comparison.h's kd_comparison,
 * which holds two of them: a backend needs this file, never the whole model
 * (docs/ARCHITECTURE.md, "Floors"). */
#ifndef KD_BACKEND_SIDE_H
#define KD_BACKEND_SIDE_H

#include <stdbool.h>
#include <stddef.h>

#include "compile/build.h"
#include "diff/notes.h"
#include "launch/spec.h"
#include "regions/names.h"
#include "regions/region_profile.h"
#include "source/annotation.h"
#include "source/scan.h"
#include "static/analysis.h"
#include "util/strlist.h"

/* How an autotuned kernel's config was chosen (src/diff/autotune.h). */
typedef enum kd_tune_how {
    KD_TUNE_FASTEST,  /* each config timed briefly alone, the fastest kept */
    KD_TUNE_GIVEN,    /* the values given (--arg, --call, annotations) select it */
    KD_TUNE_FIRST,    /* the first: nothing could be timed, or --no-autotune */
} kd_tune_how;

/* Why the configs were not all timed (kd_autotune.untimed). */
typedef enum kd_tune_untimed {
    KD_UNTIMED_NONE = 0,
    KD_UNTIMED_NO_AUTOTUNE,    /* --no-autotune */
    KD_UNTIMED_NOTHING_TIMED,  /* nothing can be timed here: untimed_note says why */
    KD_UNTIMED_NO_HARNESS,     /* the harness could not be prepared: untimed_detail */
    KD_UNTIMED_LAUNCH_FAILED,  /* config untimed_config cannot be launched: untimed_detail */
    KD_UNTIMED_TIMING_FAILED,  /* config untimed_config could not be timed: untimed_detail */
    KD_UNTIMED_NONE_RAN,       /* no config could run */
} kd_tune_untimed;

typedef struct kd_autotune {
    size_t count;          /* the kernel's configs; 0: the kernel is not autotuned */
    size_t chosen;         /* the config built, timed and reported (index) */
    kd_tune_how how;
    bool decided;          /* the choice was made (false: a config failed to build) */
    char **configs;        /* each config in words: "BLOCK=256, num_warps=8" (owned) */
    double *median_ns;     /* KD_TUNE_FASTEST: each config's brief time alone, NAN where it
                              could not run; else NULL */
    /* Why configs went untimed, or the first that could not run (data: report/autotune_text.c
     * words it with the choice, for every report). */
    kd_tune_untimed untimed;
    size_t untimed_config; /* _LAUNCH_FAILED, _TIMING_FAILED: the config (index) */
    char *untimed_detail;  /* _NO_HARNESS, _LAUNCH_FAILED, _TIMING_FAILED: text from outside (owned) */
    kd_note untimed_note;  /* _NOTHING_TIMED: why nothing can be timed (diff/runtime.h) */
} kd_autotune;
void kd_autotune_free(kd_autotune *t);

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
    const struct kd_replay *replay; /* --launch FILE: the capture `launch` was made from (the comparison's) */
    char *launch_error;         /* why no launch could be described */
    kd_region_names region_names; /* --regions: its markers' region and group names */
    kd_build regions_build;     /* --regions: the instrumented build */
    bool regions_branched;      /* --regions: its markers branch in blocks that do not record */
    kd_region_branch_reason regions_branch_reason; /* why (regions/region_profile.h) */
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
    char *unset_block;          /* Triton: a block-sized constexpr that nothing gives a value to (no flag,
                                   annotation, default, config or call of the file's own), which the
                                   static preparation assumed (KD_TRITON_ASSUMED_BLOCK): a diff that times
                                   refuses the launch (the build's resolve_meta); NULL: none, or the file
                                   launches the kernel itself (a GPU takes the value from there) */
    int unset_block_value;      /* ... the value assumed (kd_pykernels_assumed_block: smaller when several are) */
    int config;                 /* the autotune config to build (index into the backend's list); -1: the
                                   backend's own choice */
    kd_autotune autotune;       /* how that config was chosen; count 0 when there was no choice */
} kd_side;

/* Frees what preparing, building, describing the launch and analysing a side made (abi,
 * compiled kernel, build, launch, static result, build note), leaving what scanning made. */
void kd_side_release_built(kd_side *side);

#endif
