/* backend.h — the table of backends. A backend is one file (cuda.c, binary.c, sim.c; the
 * Triton backend a file per job, backend/triton.h lists them) and one entry in backend.c's
 * table: which inputs it claims, how it turns a file into kernels and a cubin (its front end),
 * and which harness child runs the cubin. The pipeline asks the table and never names a
 * backend.
 *
 * Two questions are asked of the table. Per side: which front end reads this file
 * (kd_frontend_for: the first entry with a front end that claims it), so that the two sides
 * of a diff may be written in different languages (scan.cu against scan.py). For the run:
 * which harness child runs both cubins (kd_backend_for: the first entry that claims both
 * inputs), so the simulated backend, first in the table, takes over every language. */
#ifndef KD_BACKEND_BACKEND_H
#define KD_BACKEND_BACKEND_H

#include <stdbool.h>
#include "backend/side.h"
#include "diff/notes.h"
#include "launch/spec.h"
#include "source/kinds.h"
#include "static/occupancy.h"
#include "util/strbuf.h"

/* What a build reads of the comparison it is made for, and nothing more (the comparison,
 * diff/comparison.h, is a floor up): diff/build_target.h fills it. */
typedef struct kd_build_target {
    const char *arch;             /* "sm_90": what nvcc, ptxas and Triton compile for */
    const kd_arch_limits *limits; /* its limits (max shared memory per block); NULL: not known */
    bool gpu;                     /* a GPU is present */
    bool times;                   /* the comparison times anything: a GPU, or a harness that needs none */
} kd_build_target;

/* What the front ends are asked, filled once by the option parser. Include folders reach
 * a build through side->include_dirs (git mode gives each revision its own). */
typedef struct kd_frontend_options {
    const char *nvcc;         /* --nvcc PATH, else $KERNDIFF_NVCC, else "nvcc" */
    const char *python;       /* --python PATH: the interpreter with Triton (NULL: python3) */
    kd_strlist include_dirs;  /* -I */
    kd_strlist defines;       /* -D */
    kd_strlist nvcc_flags;    /* --nvcc-flag */
    bool no_cache;            /* --no-cache */
    bool no_build_ahead;      /* not an option: rank's gate, whose candidates its own workers built
                                 ahead (rank/prebuild.h), so v2's build ahead (CUDA's prefetch)
                                 would be a fork per candidate for nothing */
    bool building_ahead;      /* not an option: set in the build ahead's own worker, whose build
                                 fills the cache only where nothing is there (compile/build.h's
                                 only_new) */
    bool regions_every_block; /* --region-blocks all: the instrumented build has no block sampling */
    /* Triton: where a side's launch is taken from. The file's own call of the kernel when it
     * has one, or `--run CMD` (a Python program that launches it); the capture_nth-th launch
     * (0: the first), given up after capture_timeout_s seconds (0: the default). */
    const char *run_command;
    int capture_nth;
    int capture_timeout_s;
    bool no_capture;          /* --no-capture: describe the launch (flags, annotations) instead */
    const char *config;       /* --config K|NAME=VALUE,...: the @triton.autotune config to use (1-based
                                 index into the decorator's list, or the values it has); NULL: tuned */
} kd_frontend_options;

/* --python, else wire/locate.h's default ($KERNDIFF_PYTHON, the project's .venv, python3),
 * looked up once: the Python the Triton helper runs in and the one a PyTorch extension's
 * torch is asked of (the same, so that one answer serves both). */
const char *kd_frontend_python(const kd_frontend_options *opts);

/* A harness command line: argv[0] the program, NULL-terminated, every string owned. */
typedef struct kd_argv {
    char *items[4];
} kd_argv;
void kd_argv_free(kd_argv *a);

/* An instrumented build (kd_backend.build_instrumented): the build's
 * inputs, the region names, the folder it goes into, where the result and a skip note go. */
typedef struct kd_instrumented_build {
    const kd_frontend_options *opts;
    const kd_launch_options *launch;
    const kd_build_target *target;
    kd_side *side;
    kd_region_names *regions;
    const char *folder;
    kd_build *out;
    kd_note *skip;
} kd_instrumented_build;

typedef struct kd_backend {
    const char *name;        /* "cuda", "triton", "binary", "sim" */
    bool simulated;          /* its timings are synthetic: the reports say so */
    bool needs_gpu;          /* without a GPU the diff is static only */
    bool scan_misses_macros; /* its scan does not expand macros: a kernel declared through one
                                is looked for in the compiled entries (source/compiled.h) */
    /* Whether the backend takes this input file. A front end that goes by the file's suffix
     * asks source/kinds.h's kd_source_kind_of, the one list of suffixes, so that what the
     * table claims and what rank, list and the output guard take for a kernel cannot differ. */
    bool (*claims)(const char *path);
    /* The harness child for one side (side 0 or 1) or for both at once (side -1), whose
     * program is found beside kerndiff. Returns 0, or -1 with what is missing in why. */
    int (*harness)(int side, kd_argv *argv, kd_strbuf *why);

    /* The front end; NULL in a backend that only runs what the others build (sim). Each
     * returns a kd_outcome and prints any failure to stderr, naming `side` ("v1"/"v2",
     * or NULL for `kerndiff list`) and what to do. */
    /* The kernels of one file and its `kerndiff:` annotations (annotations may be NULL). */
    int (*scan)(const kd_frontend_options *opts, const char *path, const char *side, kd_kernel_list *kernels,
                kd_annotations *annotations);
    /* Autotuned kernels: the configs the side's kernel may be built with, each in words
     * ("BLOCK=256, num_warps=8", malloc'd, pushed onto `configs`), and the one the values
     * the user gave select (*given; -1: none). prepare and build then use side->config.
     * NULL, or fewer than two configs: nothing to choose.
     * `launch`, here and below: the launch values the user gave, which a compiler that
     * specialises on them (Triton's constexprs) reads. */
    void (*configs)(const kd_frontend_options *opts, const kd_launch_options *launch, const kd_side *side,
                   kd_strlist *configs, int *given);
    /* Called once before either side is prepared, when both sides are read by this front end
     * (sides[0] is v1): work for both that may run at once (Triton starts both sides'
     * captures, which prepare then waits for; CUDA starts v2's build, which its build then
     * waits for). `target` is what build will get. NULL: nothing. */
    void (*prefetch)(const kd_frontend_options *opts, const kd_build_target *target, kd_side *sides[2]);
    /* Before the launch is described: what the kernel's compiler fixes about its launch
     * (side->abi) and the kernel as it will be compiled (side->kernel_info). NULL: nothing. */
    int (*prepare)(const kd_frontend_options *opts, const kd_launch_options *launch, kd_side *side);
    /* Builds the chosen kernel into side->build (PTX when there is any, cubin, a resource
     * report); side->launch is the launch described so far (a build may specialise on it). */
    int (*build)(const kd_frontend_options *opts, const kd_launch_options *launch, const kd_build_target *target,
                 kd_side *side);
    /* --regions: the instrumented build (b) into its own build folder b->folder. NULL: the backend
     * has no regions. With region_markers, the build is instrumented for
     * include/kerndiff/regions.h with region and group ids from `regions` (the names a scan
     * of the file found); without, the compiler assigns the ids (Triton's Proton scopes) and
     * the build puts the names into regions->regions, id = index + 1. Returns KD_OK with a KD_REGIONS_* note set in
     * *skip (its sides left to the caller) when the side cannot be recorded after all (no
     * scopes, a Triton without Proton). */
    int (*build_instrumented)(const kd_instrumented_build *b);
    bool region_markers;     /* its regions are KD_REGION markers found by scanning the file */
} kd_backend;

/* The first backend in the table that claims both inputs; NULL if none does. */
const kd_backend *kd_backend_for(const char *v1_path, const char *v2_path);

/* The backend whose front end reads `path` (the CUDA one takes whatever is left). */
const kd_backend *kd_frontend_for(const char *path);

/* Shared by backends: `program` found beside kerndiff (or in KERNDIFF_HARNESS_DIR). */
int kd_backend_find_harness(const char *program, kd_argv *argv, kd_strbuf *why);

#endif
