/* analysis.h — everything the compiler tells about one side's chosen kernel: its entry,
 * resources, PTX and SASS histograms, SASS checks and theoretical occupancy. */
#ifndef KD_STATIC_ANALYSIS_H
#define KD_STATIC_ANALYSIS_H

#include <stdbool.h>
#include "static/histogram.h"
#include "static/occupancy.h"
#include "static/resources.h"
#include "static/sass.h"
#include "util/strbuf.h"

typedef struct kd_static_result {
    bool launcher;             /* a custom launcher: everything below sums every kernel of the file */
    char *entry;               /* mangled entry name; for a launcher, "(launcher)" */
    char *demangled;
    char **entries;            /* a launcher's kernels (mangled), entry_count of them */
    size_t entry_count;
    kd_resources resources;
    kd_histogram ptx_ops, ptx_families;
    bool sass_present;         /* false when no cuobjdump, the build has no disassembly, or ... */
    const char *sass_missing_function; /* ... it has none of this entry (borrowed from entry/entries) */
    kd_histogram sass_ops, sass_families;
    kd_sass_checks sass_checks;
    int block_threads;         /* used for the occupancy estimate */
    const char *block_origin;  /* "launch", "--block", "annotation", "__launch_bounds__", "default", "launcher" */
    long shared_per_block;     /* static + the launch's dynamic shared memory, bytes (occupancy input) */
    bool occupancy_valid;
    kd_occupancy occupancy;
} kd_static_result;

/* What the analysis reads: the three texts of one side's build (compile/build.h's kd_build
 * holds them; the analysis needs nothing else of it) and what is known of the launch. */
typedef struct kd_static_input {
    const char *ptx;                /* the PTX text ("" when there is none: a .cubin) */
    const char *ptxas_log;          /* ptxas -v's resource report */
    const char *sass;               /* cuobjdump -sass of the cubin, or NULL */
    const char *kernel;             /* source-level name, maybe with template args */
    const char *launch_bounds;      /* the kernel's __launch_bounds__ text or NULL */
    const char *annotated_block;    /* `// kerndiff: block=N` of the file, or NULL */
    int block_threads;              /* the launch's threads per block, 0 if not known */
    const char *block_origin;       /* where block_threads came from ("launch", "--block") */
    unsigned long long dynamic_smem; /* the launch's dynamic shared memory bytes (--smem; Triton's is all dynamic) */
    const kd_arch_limits *limits;   /* NULL: no table entry for the arch */
    const char *cuobjdump;          /* NULL: SASS skipped */
    bool launcher;                  /* `kernel` is a custom launcher: analyse every entry */
} kd_static_input;

/* Returns 0; -1 when the kernel has no (or several) entries in the PTX, with the reason
 * and what to do in `error`. A SASS failure is not an error: sass_present says it.
 * For a launcher, the histograms and checks sum over every kernel of the file, registers,
 * barriers, shared memory and stack are the largest of any kernel, spills are summed, and
 * no occupancy is computed (each kernel has its own launch). */
int kd_static_analyze_input(const kd_static_input *req, kd_static_result *out, kd_strbuf *error);
void kd_static_result_free(kd_static_result *r);

#endif
