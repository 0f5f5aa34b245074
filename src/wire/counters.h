/* counters.h — the harness's `counters` command (docs/PROTOCOL.md): one side's launch profiled
 * inside its harness child with the CUPTI Range Profiler, no Nsight Compute process. */
#ifndef KD_WIRE_COUNTERS_H
#define KD_WIRE_COUNTERS_H

#include <stddef.h>

#include "wire/child.h"
#include "util/strbuf.h"

typedef enum kd_wire_counters_status {
    KD_WIRE_COUNTERS_OK = 0,
    KD_WIRE_COUNTERS_UNAVAILABLE, /* `err counters unavailable`: no CUPTI profiler there; why says why */
    KD_WIRE_COUNTERS_UNKNOWN,     /* `err counters unknown`: why lists the metrics, "a,b" */
    KD_WIRE_COUNTERS_FAILED,      /* anything else (the child's failure described in why) */
} kd_wire_counters_status;

typedef struct kd_wire_counters_reply {
    size_t ranges;       /* kernels the launch ran */
    size_t passes;       /* launches the profiler took */
    char replay[16];     /* "user", "kernel" or "simulated" */
    char **kernels;      /* [ranges]: each kernel's name ("" when the harness had none) */
    double *values;      /* [ranges x n], in the order asked; NAN where undefined */
    double setup_ms, passes_ms, evaluate_ms; /* where the harness's time went; -1: not said */
    unsigned cupti_version; /* the harness's CUPTI (130500: 13.5); 0: not said */
    char l2[16];            /* who prepared L2 before each pass: "cupti", "harness", "none"; "": not said */
} kd_wire_counters_reply;

/* Sends `counters` with the n names (one comma-separated word) and reads the values.
 * On anything but OK, *out is empty. */
kd_wire_counters_status kd_wire_counters(kd_child *c, const char *const *names, size_t n, int timeout_ms,
                                         kd_wire_counters_reply *out, kd_strbuf *why);
void kd_wire_counters_free(kd_wire_counters_reply *r);

/* `prepare-counters` with the n names: the harness does the host work of a later `counters`
 * with the same names (CUPTI's configuration built) while the caller waits on other children.
 * Sent first, the reply read later: OK (*ms: the harness's time), ERR (refused; the counter
 * pass asks again and says why), or what became of the child. */
void kd_wire_send_prepare_counters(kd_child *c, const char *const *names, size_t n);
kd_reply_status kd_wire_prepare_counters_reply(kd_child *c, int timeout_ms, double *ms);

#endif
