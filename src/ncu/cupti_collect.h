/* cupti_collect.h — the counter pass without Nsight Compute (issue 31 item 1): one side's
 * harness child, alone, describes and sets up its launch as for ncu, then answers `counters`
 * (wire/counters.h) with the metric table's values collected in-process by the CUPTI Range
 * Profiler, once per repeat. The result has the shape of ncu's (kd_ncu_result: one row per
 * kernel per repeat, a column per metric), so diff/counters.c builds the diff the same way.
 *
 * The table's launch facts (launch__*, theoretical occupancy) are not hardware counters:
 * CUPTI has no such metrics, ncu computes them from the function's attributes. The caller
 * gives those it knows (from the static analysis of the same cubin) and they fill those
 * columns; one it does not give is absent, not an error. */
#ifndef KD_NCU_CUPTI_COLLECT_H
#define KD_NCU_CUPTI_COLLECT_H

#include <stdbool.h>

#include "ncu/ncu_run.h"

typedef struct kd_launch_fact {
    const char *metric;   /* the ncu name ("launch__registers_per_thread") */
    double value;
} kd_launch_fact;

typedef struct kd_cupti_options {
    bool full;                  /* --ncu-set full */
    int repeats;                /* launches profiled per side */
    int timeout_ms;
    double launch_ns;           /* the side's measured time per launch (0: unknown) */
    const kd_strlist *extra;    /* --metrics (may be NULL) */
    const kd_launch_fact *facts; /* launch facts of a one-kernel launch (may be NULL) */
    size_t nfacts;
} kd_cupti_options;

typedef enum kd_cupti_collect_status {
    KD_CUPTI_COLLECT_OK = 0,
    KD_CUPTI_COLLECT_UNAVAILABLE, /* the harness has no CUPTI profiler (why says why): ncu may */
    KD_CUPTI_COLLECT_UNKNOWN,     /* CUPTI does not know a metric of the table on this GPU */
    KD_CUPTI_COLLECT_FAILED,      /* the harness failed (started, set up, crashed ...) */
} kd_cupti_collect_status;

/* Whether the table's metric `ncu_name` is a launch fact rather than a counter. */
bool kd_cupti_is_launch_fact(const char *ncu_name);

/* The counters kd_cupti_collect asks a side's harness for, in that order (o's full and extra
 * matter; the launch facts are left out): for the timing pass to have them prepared. The
 * strings are not copied. */
void kd_cupti_counter_names(const kd_cupti_options *o, kd_strlist *out);

kd_cupti_collect_status kd_cupti_collect(const kd_cupti_options *o, const kd_harness_side *side,
                                         unsigned long long seed, kd_ncu_result *out, kd_strbuf *why);

/* What kd_cupti_collect_both runs: each side's options o[s] and description sides[s], argv the
 * harness that holds both (as the timing pass's), seed the inputs' seed. */
typedef struct {
    const kd_cupti_options *o;     /* [2] */
    const kd_harness_side *sides;  /* [2] */
    const char *const *argv;
    unsigned long long seed;
} kd_cupti_both_request;

/* Both sides in one child, each in its own slot with its own buffers: one start-up and one
 * CUPTI set-up instead of two. *side is the side a failure concerns (0 or 1). */
kd_cupti_collect_status kd_cupti_collect_both(const kd_cupti_both_request *req, kd_ncu_result out[2], kd_strbuf *why,
                                              int *side);

#endif
