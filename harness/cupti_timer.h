/* cupti_timer.h — kernel durations from CUPTI's activity records: the GPU's own start and
 * end timestamps of each kernel, the same clock as Nsight Compute's gpu__time_duration.
 * Events around a launch also count the launch's front-end work (about 1.2 us measured on
 * an H200, tests/gpu/results.txt), too much for a 4 us kernel. CUPTI is loaded with dlopen
 * (harness/cupti_library.h); without it the harness falls back to events. */
#ifndef KD_HARNESS_CUPTI_TIMER_H
#define KD_HARNESS_CUPTI_TIMER_H

#include <stddef.h>
#include <stdint.h>

typedef struct kd_kernel_span {
    unsigned kernels;       /* kernels completed since the last collect (the spin kernel excluded) */
    uint64_t first_start;   /* ns, GPU timestamp */
    uint64_t last_end;
} kd_kernel_span;

/* One kernel's record: its GPU start and end (ns). */
typedef struct kd_kernel_record {
    uint64_t start, end;
} kd_kernel_record;

/* Starts recording kernel activity. 0, or -1 with the reason in why. */
int kd_cupti_start(char *why, size_t why_len);
/* Stops recording (the records so far are dropped): the counter pass's range profiler, in a
 * harness that timed first, must not share the launches with the activity API. A later
 * kd_cupti_start records again. */
void kd_cupti_stop(void);
/* Flushes CUPTI's buffers and returns the kernels recorded since the last call. */
int kd_cupti_collect(kd_kernel_span *span);
/* Flushes CUPTI's buffers and gives every kernel recorded since the last call (collect or
 * this), ordered by start, in *records (the caller frees it); *n their count. The sustained
 * load's samples (`mode sustained`): one duration per launch of a back-to-back queue. 0, or -1
 * when the flush failed or memory ran out. */
int kd_cupti_collect_each(kd_kernel_record **records, size_t *n);

#endif
