/* timing.h — the timing pass. First each side alone in its own harness child (the
 * correctness run, so a faulting version is named); then both in ONE child, on the same
 * buffers, interleaved in randomised rounds, the buffers moved to a new placement in GPU
 * memory before every round, with an adaptive stop on the width of the speedup's
 * confidence interval (computed over rounds: a cluster bootstrap). Its result is part of
 * the comparison model. */
#ifndef KD_MEASURE_TIMING_H
#define KD_MEASURE_TIMING_H

#include <stdbool.h>
#include <stddef.h>
#include "check/output_compare.h"
#include "wire/client.h"
#include "launch/spec.h"
#include "measure/calib.h"
#include "measure/stats.h"
#include "util/strbuf.h"

#define KD_MAX_OUTPUTS 64

typedef struct kd_timing_options {
    double target_pct;        /* --target: stop once the speedup CI's half-width is below (1.0) */
    double max_time_s;        /* --max-time: stop after this much measuring (10 s) */
    int min_runs, max_runs;   /* samples per side (30, 3000) */
    int timeout_ms;           /* --timeout: the watchdog on every harness reply (10000) */
    unsigned long long seed;  /* --seed: inputs and interleaving order (1) */
    bool check;               /* correctness run and audits (on; --no-check) */
    unsigned audits;          /* --audits: the fewest audit launches per side (3; 0 with --no-check) */
    bool tolerance_given;     /* --rtol/--atol given: they replace the per-dtype defaults */
    kd_tolerance tolerance;
    long batch;               /* --batch: 0 auto, -1 never, N launches per sample */
    double min_effect_pct;    /* --min-effect: the noise floor of the verdict (0.5) */
    unsigned sustained_ms;    /* --load sustained: ms of back-to-back load before each block; 0: --load single */
    bool hand_over;           /* not an option: the diff's counter pass will take the shared child
                                 (measure/harness_pool.h's hand-over), so it is not stopped */
    /* Not options either: with hand_over, the names the counter pass will ask the shared child
     * for. It builds their CUPTI configuration (`prepare-counters`) while the sides check
     * their outputs, when it waits anyway: ~0.3 s of the counter pass, off the diff's wall. */
    const char *const *counter_names;
    size_t ncounter_names;
} kd_timing_options;

/* The fewest audits of a timing (--audits): with the misses of a kernel that works on one
 * launch in 8, (1/8)^3 = 0.2% go through. More come as the run goes on (timing.c). */
#define KD_DEFAULT_AUDITS 3

/* --load sustained's load before each block of samples: triton.testing.do_bench's default rep. */
#define KD_SUSTAINED_LOAD_MS 100

void kd_timing_options_default(kd_timing_options *o);

typedef struct kd_side_timing {
    double *samples;          /* every raw sample, ns per launch, in the order taken */
    bool *throttled;          /* per sample: taken in a block the GPU reported throttling */
    unsigned *round;          /* per sample: the round (placement) it was taken in */
    size_t n;
    double placement_spread_pct; /* p90-p10 of the per-round medians, % of their median */
    kd_summary summary;       /* after the outlier rule */
    unsigned clock_min_mhz, clock_max_mhz;
    size_t throttled_count;
    unsigned long long reasons_seen;
    double warmup_median_ns;
    unsigned warmup_launches;
    bool warmup_stable;
    unsigned long long device_bytes;
    /* Kernels one sample ran (CUPTI, every stream up to a device sync), fewest and most over
     * every block; 0 when not counted. Different values: the launch ran more or fewer kernels
     * from one sample to another (issue 39: what ran is counted), flagged in the report. */
    unsigned kernels_min, kernels_max;
} kd_side_timing;

typedef struct kd_output_check {
    char *name;               /* the parameter */
    kd_type_info type;
    kd_tolerance tolerance;   /* as applied: atol at least 4 x self_noise */
    double self_noise;        /* how far v1 differed from itself between the check's two runs
                                 (order-dependent float atomics); 0 deterministic */
    kd_buffer_check result;
} kd_output_check;

/* The audits of the timing (issue 39): untimed launches of both sides, in the shared child
 * between blocks of samples, at rounds and places drawn from a secret random source (never
 * --seed), each on inputs seeded from a secret of its own and outputs holding plausible
 * values; both sides' outputs compared as the correctness run's are. A kernel whose work
 * depends on earlier launches (skipped once warm, one launch in N, cached by address) leaves
 * outputs that differ. */
typedef struct kd_audit {
    unsigned done;            /* audits compared (each: both sides on one secret seed) */
    unsigned failed;          /* ... whose outputs differed */
    size_t first_round;       /* the first failed audit: the round it ran in (0 first) */
    size_t first_samples;     /* ... the samples each side had been timed before it */
    char *output;             /* ... the first output that differed (NULL: none failed) */
    size_t mismatches, count; /* ... its differing elements, of how many read back (an audit reads
                                 back a sample of a large output: wire/protocol.h kd_audit_sample) */
    size_t buffer_elements;   /* ... the elements of that output */
    int stale_side;           /* ... the side that left most of its elements as they were
                                 before the launch (0 v1, 1 v2), -1 neither or unknown */
    size_t stale;             /* ... how many it left so */
    int mutated_side;         /* the first side whose audit launch wrote into an input (0 v1,
                                 1 v2), -1 none: a failed audit even when the outputs match */
    char *mutated_input;      /* ... that input's name */
    double seconds;           /* the audits' wall time (the harness's and the comparison's):
                                 what they add to the timing (bench/audit_overhead.sh) */
} kd_audit;

/* Why sampling stopped. */
typedef enum kd_stop_reason {
    KD_STOP_TARGET_REACHED,   /* the CI is as narrow as --target asks */
    KD_STOP_MAX_TIME,         /* --max-time */
    KD_STOP_MAX_RUNS,         /* --max-runs */
    KD_STOP_SAVED_SAMPLES,    /* kerndiff compare: the saved runs' samples are all there is */
    KD_STOP_AUDIT_FAILED,     /* an audit's outputs differed: the timing would make no verdict */
    KD_STOP_REASON_COUNT
} kd_stop_reason;

/* Which side's harness failed a timing, as data (diff/passes.c re-runs that side under
 * memcheck when the device itself failed: a kernel's fault): side 0 v1, 1 v2, -1 none or not
 * one side; device_error: the harness answered `err cuda` (docs/PROTOCOL.md). */
typedef struct kd_timing_failure {
    int side;
    bool device_error;
} kd_timing_failure;

typedef struct kd_timing {
    char device[128];
    int sm, sms, driver;
    long l2_bytes;
    char timer[16];           /* "cupti" (kernel activity records) or "events" */
    char timer_note[128];     /* why events were used, if they were */
    bool batched;
    unsigned batch;           /* launches per sample when batched */
    char load[16];            /* "single" (one launch per sample, the GPU idle between) or "sustained"
                                 (back to back, as triton.testing.do_bench); "" in a saved run before it */
    unsigned sustained_ms;    /* sustained: the load before each block, ms */
    unsigned block_samples;   /* samples per side and round */
    kd_side_timing side[2];
    kd_speedup speedup;
    kd_verdict verdict;
    double target_pct;
    double min_effect_pct;    /* the verdict's noise floor */
    unsigned long long seed;  /* the bootstrap's seed (--seed): the interval is reproduced with it */
    bool target_reached;
    kd_stop_reason stop_reason;
    bool from_saved;          /* kerndiff compare: recomputed from two saved runs' samples */
    bool from_one_run;        /* ... of one run with itself: its v1 against its v2, as it was decided */
    /* How far the verdict can be trusted (issue 42): the A/A record read at run time, and the
     * smallest change this run's own interval would call with 95% power (has_mde false: none). */
    kd_calib calib;
    bool has_mde;
    double mde_pct;
    /* kerndiff compare of two separate runs: the interval above carries the between-process
     * spread (calib.between_pct) around the samples' own one, kept here; between_unknown:
     * the record has no spread, so the interval cannot carry it and no gate reads it. */
    bool between_applied;
    bool between_unknown;
    kd_speedup own_speedup;
    size_t rounds;
    size_t placements;        /* rounds on a fresh placement of the buffers (moved by `place`) */
    size_t shared_buffers;    /* buffers both versions used (the same allocation) */
    double measure_s;
    bool clocks_locked;       /* NVML reported applications/locked clocks in force */
    unsigned locked_by_kerndiff_mhz; /* --lock-clocks: the SM clock kerndiff locked, else 0 */
    bool checked;
    kd_output_check *outputs;
    size_t noutputs;
    bool outputs_match;       /* every compared pair matches */
    kd_audit audit;           /* the audits during the timing (done == 0: none ran) */
    char *unpaired;           /* outputs of one side only, not compared: "v1 tmp1, v1 tmp2" */
    kd_timing_failure failure; /* a run that failed (KD_TIMING_RUN_FAILED): which side, and how */
} kd_timing;

/* The timed computation was checked and found wrong (issue 39): an output pair that differs
 * (values, or a degenerate v2), one side's outputs with nothing of the other's to pair with
 * (a side that writes none of the buffers the other writes), or an audit during the timing
 * whose outputs differ. Such a timing gets no speed verdict in any report. */
bool kd_timing_incorrect(const kd_timing *t);
/* Some compared output pair differs in its values (or v2 is degenerate): the check's finding. */
bool kd_timing_values_differ(const kd_timing *t);
/* Checked, yet nothing was compared: neither side has an output, or neither wrote any element
 * of its outputs. No speed verdict either, but nothing was found wrong (--no-check, which
 * checks nothing, is neither). */
bool kd_timing_unchecked(const kd_timing *t);

typedef kd_harness_side kd_timing_side;

/* What the timing pass needs from a backend: the child for each side alone (in sides[]) and
 * the child that holds both sides (shared_argv). */

typedef enum kd_timing_status {
    KD_TIMING_OK = 0,
    KD_TIMING_SETUP_FAILED,   /* the harness could not start, load or allocate */
    KD_TIMING_RUN_FAILED,     /* a kernel faulted, hung, or the harness broke */
    KD_TIMING_OUT_OF_BOUNDS,  /* the correctness check's launch wrote past a buffer's end: not timed */
} kd_timing_status;

/* One audit of a child that holds both sides (slot 0 v1, slot 1 v2), set up: both slots
 * audited on one seed, their outputs compared, a failure kept in the kd_audit. The timing pass
 * and rank's race use it. */
typedef struct kd_audit_request {
    kd_child *child;
    const kd_timing_side *sides;  /* the two sides as described to the child */
    const int *share;             /* v2's argument j uses v1's buffer share[j] (-1: its own); may be NULL */
    const kd_timing_options *o;   /* tolerances, --timeout, --seed (the run's contents) */
    const char *workdir;          /* where the sides' audit outputs are written, then removed */
    size_t round, samples;        /* where in the run it falls, kept with a failure */
    kd_timing_failure *failure;   /* which side's harness failed, when one did (may be NULL) */
} kd_audit_request;
/* A side that failed its audit is kept in rq->failure when given. */
kd_timing_status kd_audit_once(const kd_audit_request *rq, unsigned long long seed, kd_audit *out, kd_strbuf *error);
/* The next secret number of `state` (0: seeded from getrandom): never --seed, never reported. */
unsigned long long kd_audit_secret(unsigned long long *state);
/* Rounds from one audit to the next after `done` audits: 0-1 for the first, then 1 to 2^done
 * (at most 64), drawn from the secret state. */
unsigned kd_audit_gap(unsigned long long *state, unsigned done);
void kd_audit_init(kd_audit *a); /* nothing done, no side named */
void kd_audit_free(kd_audit *a);


/* Runs the correctness run and the timing pass. On failure `error` says what failed and
 * on which side ("v1", "v2", or both when the shared child failed outside a side's work). */
kd_timing_status kd_measure(const kd_timing_side sides[2], const char *const *shared_argv,
                            const kd_timing_options *o, const char *workdir, kd_timing *out, kd_strbuf *error);

/* The most one side's buffers may hold together: more than any GPU's memory (the largest
 * lent has 141 GB), so a count beyond it is a typo or an overflow (--buf 'x=1<<52'). */
#define KD_MAX_SIDE_BYTES (1ull << 40)

/* Checks that every buffer's bytes (count x element size) fit, alone and together, within
 * KD_MAX_SIDE_BYTES without overflow. Returns 0, or -1 with a reason in `why` that names
 * the buffer and the limit, after "SIDE: " when `side` is not NULL. */
int kd_timing_check_sizes(const kd_launch_spec *spec, const char *side, kd_strbuf *why);

/* v2's buffer i shares v1's buffer share[i] (-1: its own): buffers pair by name, else by
 * position when no name is shared, and only when dtype, lanes, count and role agree.
 * Returns how many are shared. */
size_t kd_share_buffers(const kd_launch_spec *v1, const kd_launch_spec *v2, int share[]);
void kd_timing_free(kd_timing *t);

/* "214.1us", "4.05us", "1.234ms" */
void kd_format_ns(double ns, char *buf, size_t n);

#endif
