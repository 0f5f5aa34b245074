/* cupti_sass.h — how often each SASS instruction ran (issue 31 item 2): one launch with CUPTI's
 * SASS metrics on (cupti_sass_metrics.h: smsp__sass_inst_executed per instruction, summed over
 * the GPU, lazy patching), written as `exec FUNCTION OFFSET COUNT` lines of a hot-spot record
 * (docs/HOTSPOTS.md): warp-level instructions executed at that offset. Run after PC sampling
 * is off (the two patch the code differently). libcupti is loaded with dlopen; this header
 * names no CUDA type. */
#ifndef KD_HARNESS_CUPTI_SASS_H
#define KD_HARNESS_CUPTI_SASS_H

#include <stddef.h>
#include <stdio.h>

/* What is counted: one call of launch(arg) (a launch and a wait) on ctx (a CUcontext) of
 * device `device`. */
typedef struct kd_sass_request {
    void *ctx;
    int device;
    int (*launch)(void *arg);
    void *arg;
} kd_sass_request;

/* Counts r's launch and appends its exec lines to out; *records says how many. 0, or -1 with
 * the reason in why (launch's own non-zero result is returned as is). */
int kd_sass_count(const kd_sass_request *r, FILE *out, size_t *records, char *why, size_t why_len);

#endif
