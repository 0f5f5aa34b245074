/* backend.h — the table of backends: what kind of input each takes and which harness
 * child runs it. One file per backend (cuda.c, sim.c), one entry in backend.c's table; the
 * pipeline asks the table and never names a backend. (Next: triton, ptx/cubin inputs.) */
#ifndef KD_BACKEND_BACKEND_H
#define KD_BACKEND_BACKEND_H

#include <stdbool.h>
#include "util/strbuf.h"

/* A harness command line: argv[0] the program, NULL-terminated, every string owned. */
typedef struct kd_argv {
    char *items[4];
} kd_argv;
void kd_argv_free(kd_argv *a);

typedef struct kd_backend {
    const char *name;        /* "cuda", "sim" */
    bool simulated;          /* its timings are synthetic: the reports say so */
    bool needs_gpu;          /* without a GPU the diff is static only */
    /* Whether the backend takes this input file. */
    bool (*claims)(const char *path);
    /* The harness child for one side (side 0 or 1) or for both at once (side -1), whose
     * program is found beside kerndiff. Returns 0, or -1 with what is missing in why. */
    int (*harness)(int side, kd_argv *argv, kd_strbuf *why);
} kd_backend;

/* The first backend in the table that claims both inputs; NULL if none does. */
const kd_backend *kd_backend_for(const char *v1_path, const char *v2_path);

/* Shared by backends: `program` found beside kerndiff (or in KERNDIFF_HARNESS_DIR). */
int kd_backend_find_harness(const char *program, kd_argv *argv, kd_strbuf *why);

#endif
