/* resources.h — per-kernel resource usage as reported by `ptxas -v` (nvcc -Xptxas -v) or
 * by cuobjdump for a finished cubin. */
#ifndef KD_STATIC_RESOURCES_H
#define KD_STATIC_RESOURCES_H

#include <stdbool.h>

typedef struct kd_resources {
    bool found;
    int registers;
    int barriers;
    long shared_static;  /* bytes of static shared memory ("smem") */
    long stack_frame;    /* bytes */
    long spill_stores;   /* bytes */
    long spill_loads;    /* bytes */
    long constant0;      /* bytes of cmem[0], 0 when not printed */
} kd_resources;

/* Fills `out` from the ptxas -v log for entry `function` (mangled name as ptxas prints it),
 * or from `cuobjdump --dump-resource-usage` output (recognised by its "Resource usage:"
 * header; a cubin that kerndiff did not compile: no barrier count, LOCAL bytes as spill stores).
 * Returns 0 when found, -1 when the log has no such entry, or an entry whose registers it
 * does not say (a reworded report: unknown, never 0 registers; out->found stays false).
 * `out` is cleared first; a log of several targets gives the first target's figures. */
int kd_resources_parse(const char *ptxas_log, const char *function, kd_resources *out);

#endif
