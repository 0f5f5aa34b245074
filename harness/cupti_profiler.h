/* cupti_profiler.h — hardware counters of one launch, collected inside the harness with the
 * CUPTI Range Profiler and Profiler Host APIs (CUDA 12.6+; cupti_range_profiler.h,
 * cupti_profiler_host.h): the metrics kerndiff's table asks Nsight Compute for, by the same
 * (perfworks) names, without starting ncu (ncu's own start-up is ~2 s a side, FACTS.md).
 *
 * Auto range (one range per kernel the launch runs), user replay: the caller's before_pass
 * restores the buffers and flushes L2 (what ncu's --cache-control all does), then launch runs
 * the launch once; that repeats once per pass the configuration needs. The configuration of
 * the last metric list is kept, so a repeat with the same metrics does not build it again.
 * Clocks are left as they are (the timing pass's policy; ncu runs with --clock-control none).
 * libcupti is loaded with dlopen (like cupti_timer.c), so the harness runs without it. */
#ifndef KD_HARNESS_CUPTI_PROFILER_H
#define KD_HARNESS_CUPTI_PROFILER_H

#include <stdbool.h>
#include <stddef.h>

enum { KD_CUPTI_MAX_RANGES = 16 }; /* kernels of one launch (a launcher's pipeline) */

typedef struct kd_cupti_pass_ops {
    void *ctx;
    /* Before pass `pass` (0, 1, ...): the buffers as the launch must find them, L2 flushed. */
    void (*before_pass)(void *ctx, size_t pass);
    void (*launch)(void *ctx);      /* one launch, waited for */
} kd_cupti_pass_ops;

typedef enum kd_cupti_status {
    KD_CUPTI_OK = 0,
    KD_CUPTI_UNAVAILABLE, /* no libcupti, one without the range profiler, a driver that refuses it */
    KD_CUPTI_UNKNOWN,     /* a metric CUPTI does not know on this GPU: why lists them, comma-separated */
    KD_CUPTI_FAILED,      /* anything else: why says which call */
} kd_cupti_status;

typedef struct kd_cupti_result {
    size_t ranges;                           /* kernels profiled */
    char names[KD_CUPTI_MAX_RANGES][256];    /* each range's name (CUPTI's; may be empty) */
    double *values;                          /* ranges x metrics, row-major; NAN: undefined */
    size_t passes;                           /* launches it took */
    bool kernel_replay;                      /* CUPTI replayed the kernel (cache control, asked, or user replay refused) */
    unsigned cupti_version;                  /* the loaded CUPTI's (130500: 13.5); 0: it did not say */
    const char *l2;                          /* who prepared L2 before each pass: "cupti" (its cache
                                              * control), "harness" (before_pass) or "none" */
    double setup_ms, passes_ms, evaluate_ms; /* where the time went (kd_counters_reply_phases) */
} kd_cupti_result;

/* How before_pass prepares L2 (a set of steps, in this order): KERNDIFF_COUNTER_PREP names the
 * set (touch, memset, read, discard, clean, none, pages, limit, reset, inside, icache, tlb; unset or
 * unknown: the default), so that an
 * experiment compares them without a rebuild (tests/gpu/counters_experiment.sh). */
enum {
    KD_CUPTI_PREP_MEMSET = 1,  /* write the flush buffer (twice L2): evicts what the last pass left */
    KD_CUPTI_PREP_TOUCH = 2,   /* read it through L2: evicts, and writes back dirty lines now */
    KD_CUPTI_PREP_DISCARD = 4, /* drop its lines from L2 unwritten (discard.global.L2, sm_80+) */
    KD_CUPTI_PREP_PAGES = 8,   /* then read one word per 64 KiB of each buffer (its translations warm) */
    KD_CUPTI_PREP_LIMIT = 16,  /* then set the persisting-L2 limit and back (the driver reconfigures L2) */
    KD_CUPTI_PREP_RESET = 32,  /* then cuCtxResetPersistingL2Cache */
    KD_CUPTI_PREP_INSIDE = 64, /* all of it after the profiler's start, so that the launch follows it on
                                * the GPU with no host gap (its kernels' ranges are dropped) */
    KD_CUPTI_PREP_ICACHE = 128, /* first, run straight-line code larger than an SM's instruction caches
                                 * on every SM: the kernel's instructions fetched cold, as ncu's
                                 * --cache-control all may leave them (CUPTI's resets L2 only) */
    KD_CUPTI_PREP_TLB = 256,    /* first, read one word per 64 KiB of a 4 GiB buffer of its own: the
                                 * address translations the last pass left evicted (an experiment) */
};
unsigned kd_cupti_l2_prep(void);

/* CUPTI's own L2 reset before each pass (cuptiRangeProfilerEnable's cacheControlMode, CUPTI
 * 13.4+), as KERNDIFF_CUPTI_CACHE_CONTROL asks: all (1), l2 (2), none (0), unset (-1: the
 * default, which is all where the loaded CUPTI has it, and then kernel replay unless
 * KERNDIFF_CUPTI_REPLAY says otherwise). Asked of an older CUPTI, the profile says it cannot. The
 * version that has it is wire/locate.h's KD_CUPTI_CACHE_CONTROL_VERSION, the one the front end
 * looks for in the CUPTI wheels. */
int kd_cupti_cache_control(void);

/* What kd_cupti_profile collects, and where: `metrics` (n names) over one launch on the CUDA
 * context ctx (a CUcontext) of device `device`, the passes run through `ops`. */
typedef struct {
    void *ctx;
    int device;
    const char *const *metrics;
    size_t n;
    const kd_cupti_pass_ops *ops;
} kd_cupti_request;

/* Collects what `req` asks for. The result's values are malloc'ed (free them); on failure
 * `why` (why_len bytes) says what failed. */
kd_cupti_status kd_cupti_profile(const kd_cupti_request *req, kd_cupti_result *out, char *why, size_t why_len);

/* The host work of a later kd_cupti_profile of the same metrics, done now: the configuration
 * image built and kept (req's ops are not used; nothing is launched, the range profiler is not
 * enabled), then the profiler taken down again, so that a timing after it runs as without it.
 * The timing pass has this done while the sides check their outputs (~0.3 s on an H100, off
 * the counter pass). *ms: how long it took. */
kd_cupti_status kd_cupti_prepare(const kd_cupti_request *req, double *ms, char *why, size_t why_len);

#endif
