#include "measure/timing.h"

#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/random.h>
#include <sys/statvfs.h>
#include <time.h>
#include <unistd.h>

#include "wire/client.h"
#include "wire/counters.h"
#include "wire/protocol.h"
#include "measure/harness_pool.h"
#include "measure/verdict.h"
#include "util/fs.h"
#include "util/progress.h"
#include "util/xalloc.h"

enum {
    SAMPLES_PER_BLOCK = 5,         /* per side and round: many rounds, so many placements */
    /* --load sustained: each block pays a load (100 ms) first, so it takes more samples */
    SUSTAINED_SAMPLES_PER_BLOCK = 20,
    MAX_BLOCK = SUSTAINED_SAMPLES_PER_BLOCK,
    /* Rounds before --target may stop the run. The interval resamples rounds; with fewer it
     * has too little to resample: an A/A of a power-bound matmul under --load sustained (20
     * samples a block, so --min-runs 30 was met after 2 rounds) stopped there with "v2 is
     * 1.012x slower, 95% CI 1.006-1.016x" (tests/gpu/results-triton-jit.txt, H100). 6 is what
     * the default single load reaches at --min-runs 30, the policy the A/A campaign validated. */
    MIN_ROUNDS_FOR_TARGET = 6,
    WARMUP_BUDGET_MS = 1000,
    CHECK_EXTRA_MS = 2000,         /* the correctness run: start-up, then ... */
    CHECK_MS_PER_GIB = 4000,       /* ... every buffer restored and read back, twice */
    PREPARE_MS = 30000,            /* prepare-counters: host work, ~0.3 s on an H100; CUPTI's own start-up */
};

/* An audit compares at this many times the check's tolerance: it looks for work not done (a
 * stale output differs everywhere, by the whole value), not for rounding, which the check
 * judged; a kernel whose float atomics sum in another order each run stays within it. */
#define AUDIT_TOLERANCE_FACTOR 100.0
/* A v2 within this many times v1's own run-to-run difference (self_noise) matches. */
#define SELF_NOISE_FACTOR 4.0

/* Below this time per launch, one launch per event pair is too short to time well
 * (event resolution is about 0.5 us): such kernels are timed in batches. */
#define BATCH_BELOW_NS 2000.0
#define BATCH_TARGET_NS 50000.0

void kd_timing_options_default(kd_timing_options *o)
{
    memset(o, 0, sizeof *o);
    o->target_pct = 1.0;
    o->max_time_s = 10.0;
    o->min_runs = 30;
    o->max_runs = 3000;
    o->timeout_ms = 10000;
    o->seed = 1;
    o->check = true;
    o->audits = KD_DEFAULT_AUDITS;
    o->min_effect_pct = 0;
}

/* A watchdog in ms: `base` plus `extra_ms`, saturated at INT_MAX instead of converted out of
 * range (a huge buffer or --batch would otherwise wrap it negative: an instant "hang"). */
static int watchdog_ms(int base, double extra_ms)
{
    double total = (double)base + extra_ms;
    if (!(total < (double)INT_MAX))
        return INT_MAX;
    return total > base ? (int)total : base;
}

int kd_timing_check_sizes(const kd_launch_spec *spec, const char *side, kd_strbuf *why)
{
    unsigned long long total = 0;
    for (size_t i = 0; i < spec->nargs; i++) {
        const kd_launch_arg *a = &spec->args[i];
        if (!kd_param_role_is_buffer(a->role))
            continue;
        unsigned long long element = kd_dtype_size(a->type.base) * (unsigned long long)(a->type.lanes ? a->type.lanes : 1);
        bool too_big = element && a->count > KD_MAX_SIDE_BYTES / element;
        unsigned long long bytes = too_big ? 0 : a->count * element;
        if (too_big || bytes > KD_MAX_SIDE_BYTES - total) {
            kd_sb_printf(why, "%s%sbuffer '%s' (%llu %s elements, %.4g GiB%s) is more than the %llu GiB kerndiff allows "
                              "one side's buffers (more memory than any GPU has): give a smaller --buf %s=COUNT or --n",
                         side ? side : "", side ? ": " : "", a->name, a->count, kd_dtype_name(a->type.base), (double)a->count * element / (1ull << 30),
                         too_big ? "" : " with the buffers before it", KD_MAX_SIDE_BYTES >> 30, a->name);
            return -1;
        }
        total += bytes;
    }
    return 0;
}


/* The children: each side alone (the correctness run), then both in one (the timing). */
enum { SHARED = 2 };

typedef struct run_state {
    kd_child child[3];         /* v1 alone, v2 alone, both (SHARED) */
    bool started[3];
    const kd_timing_side *sides;
    const kd_timing_options *o;
    kd_timing *out;
    kd_strbuf *error;
    size_t cap;
    double *block;             /* room for one block of samples */
    double slowest_ns;         /* the slower side's warm-up median */
    const char *workdir;       /* where the audits' outputs are written */
    int *share;                /* v2's argument j uses v1's buffer share[j] (-1: its own) in the shared child */
    unsigned long long secret; /* the audits' own random state: never --seed, never reported */
    size_t next_audit_round;   /* the round whose block boundary `audit_place` audits next */
    int audit_place;           /* 0 before its first block, 1 between, 2 after the second */
    bool audited_last_block;   /* an audit came after the last block timed */
} run_state;

static const char *who(const run_state *r, int s)
{
    return s == SHARED ? "v1 and v2 (timed together)" : r->sides[s].label;
}

/* The first failure's side and kind, as data: c's reply `err cuda ...` is the device's own. */
static void note_failure(kd_timing_failure *f, int s, const kd_child *c, kd_reply_status st)
{
    if (f->side >= 0 || s < 0 || s > 1)
        return;
    f->side = s;
    f->device_error = st == KD_REPLY_ERR && c->words.count >= 2 && strcmp(c->words.word[1], "cuda") == 0;
}

/* Records why child s (or side s of the shared child) failed; returns the status. */
static kd_timing_status fail(run_state *r, int s, kd_child *c, kd_reply_status st, const char *doing,
                             kd_timing_status status)
{
    note_failure(&r->out->failure, s, c, st);
    kd_sb_printf(r->error, "%s: ", who(r, s));
    kd_child_failure_words(c, st, doing, r->error);
    return status;
}

/* Records a failure whose message is already in `why`. */
static kd_timing_status fail_with(run_state *r, int s, kd_strbuf *why, kd_timing_status status)
{
    kd_sb_printf(r->error, "%s: %s", who(r, s), kd_sb_str(why));
    kd_sb_free(why);
    return status;
}

static kd_timing_status start_children(run_state *r, const char *const *shared_argv)
{
    for (int s = 0; s < 3; s++) {
        if (s < SHARED && !r->o->check)
            continue;
        const char *const *argv = s == SHARED ? shared_argv : r->sides[s].harness_argv;
        kd_strbuf why = {0};
        if (kd_harness_pool_take(s, &r->child[s], who(r, s), argv, &why) != 0) {
            kd_sb_printf(r->error, "%s: cannot start the harness %s: %s", who(r, s), argv[0], kd_sb_str(&why));
            kd_sb_free(&why);
            return KD_TIMING_SETUP_FAILED;
        }
        r->started[s] = true;
    }
    return KD_TIMING_OK;
}

static void record_device(kd_timing *out, const kd_device_info *info)
{
    snprintf(out->device, sizeof out->device, "%s", info->name);
    out->sm = info->sm;
    out->sms = info->sms;
    out->l2_bytes = info->l2_bytes;
    out->driver = info->driver;
}

/* Whether two captured-data files hold the same bytes: read a chunk at a time (a captured
 * allocation can be gigabytes), stopping at the first difference; a file that cannot be read
 * is not the same. */
static bool same_contents(const char *a, const char *b)
{
    if (strcmp(a, b) == 0)
        return true;
    enum { SAME_CHUNK = 1 << 16 };
    FILE *f[2] = {fopen(a, "rb"), fopen(b, "rb")};
    struct stat st[2];
    bool same = f[0] && f[1] && fstat(fileno(f[0]), &st[0]) == 0 && fstat(fileno(f[1]), &st[1]) == 0 &&
                st[0].st_size == st[1].st_size;
    char *buf[2] = {same ? kd_xmalloc(SAME_CHUNK) : NULL, same ? kd_xmalloc(SAME_CHUNK) : NULL};
    while (same) {
        size_t n0 = fread(buf[0], 1, SAME_CHUNK, f[0]), n1 = fread(buf[1], 1, SAME_CHUNK, f[1]);
        same = n0 == n1 && memcmp(buf[0], buf[1], n0) == 0 && !ferror(f[0]) && !ferror(f[1]);
        if (n0 < SAME_CHUNK)
            break;
    }
    for (int i = 0; i < 2; i++) {
        free(buf[i]);
        if (f[i])
            fclose(f[i]);
    }
    return same;
}

/* A buffer shared between the slots holds slot 0's contents (wire/client.h): a pair whose
 * sides start from different captured data (one filled and the other not, or two files that
 * differ) is not shared, or v2 would run on v1's data. Returns how many were unshared. */
static size_t unshare_filled(const kd_timing_side *v1, const kd_timing_side *v2, int share[])
{
    size_t unshared = 0;
    for (size_t j = 0; j < v2->spec->nargs; j++) {
        if (share[j] < 0)
            continue;
        const char *f1 = v1->fill ? v1->fill[share[j]] : NULL, *f2 = v2->fill ? v2->fill[j] : NULL;
        if ((f1 || f2) && !(f1 && f2 && same_contents(f1, f2))) {
            share[j] = -1;
            unshared++;
        }
    }
    return unshared;
}

/* The shared child: hello, v1 in slot 0, v2 in slot 1 on v1's buffers where they pair. */
static kd_timing_status describe_shared(run_state *r)
{
    kd_child *c = &r->child[SHARED];
    kd_strbuf why = {0};
    kd_device_info info;
    if (kd_wire_hello(c, &info, &why) != 0)
        return fail_with(r, SHARED, &why, KD_TIMING_SETUP_FAILED);
    record_device(r->out, &info);
    int *share = kd_xmalloc((r->sides[1].spec->nargs + 1) * sizeof *share);
    r->out->shared_buffers = kd_share_buffers(r->sides[0].spec, r->sides[1].spec, share);
    r->out->shared_buffers -= unshare_filled(&r->sides[0], &r->sides[1], share);
    r->share = share; /* freed by kd_measure */
    for (int s = 0; s < 2; s++)
        if (kd_wire_describe(c, s, &r->sides[s], share, r->o->timeout_ms, &why) != 0)
            return fail_with(r, s, &why, KD_TIMING_SETUP_FAILED);
    kd_reply_status st = kd_wire_seed(c, r->o->seed, r->o->timeout_ms);
    return st == KD_REPLY_OK ? KD_TIMING_OK : fail(r, SHARED, c, st, "describing the launch", KD_TIMING_SETUP_FAILED);
}

/* Reads child s's reply to `setup` (sent with kd_wire_send_setup, so that several children
 * set up at once). */
static kd_timing_status setup_reply(run_state *r, int s)
{
    unsigned long long need = s == SHARED ? kd_launch_spec_bytes(r->sides[0].spec) + kd_launch_spec_bytes(r->sides[1].spec)
                                          : kd_launch_spec_bytes(r->sides[s].spec);
    unsigned long long bytes = 0;
    kd_strbuf why = {0};
    if (kd_wire_setup_reply(&r->child[s], need, &bytes, &why) != 0)
        return fail_with(r, s, &why, KD_TIMING_SETUP_FAILED);
    if (s < SHARED)
        r->out->side[s].device_bytes = bytes;
    return KD_TIMING_OK;
}

static kd_timing_status set_up_shared(run_state *r)
{
    kd_wire_send_setup(&r->child[SHARED]);
    return setup_reply(r, SHARED);
}

static kd_timing_status select_side(run_state *r, int s)
{
    kd_reply_status st = kd_wire_side(&r->child[SHARED], s, r->o->timeout_ms);
    return st == KD_REPLY_OK ? KD_TIMING_OK
                             : fail(r, s, &r->child[SHARED], st, "choosing the side", KD_TIMING_RUN_FAILED);
}

/* The audits' device copies made before the first round, not by the first audit inside it. */
static kd_timing_status prepare_audits(run_state *r)
{
    kd_child *c = &r->child[SHARED];
    for (int s = 0; s < 2; s++) {
        kd_timing_status ts = select_side(r, s);
        if (ts != KD_TIMING_OK)
            return ts;
        double gib = (double)kd_launch_spec_bytes(r->sides[s].spec) / (1u << 30);
        kd_reply_status st = kd_wire_audit_prepare(c, watchdog_ms(r->o->timeout_ms, CHECK_EXTRA_MS + CHECK_MS_PER_GIB * gib));
        if (st != KD_REPLY_OK)
            return fail(r, s, c, st, "preparing the audits", KD_TIMING_RUN_FAILED);
    }
    return KD_TIMING_OK;
}

static kd_timing_status warm_up(run_state *r)
{
    double fastest = INFINITY;
    kd_child *c = &r->child[SHARED];
    for (int s = 0; s < 2; s++) {
        kd_timing_status ts = select_side(r, s);
        if (ts != KD_TIMING_OK)
            return ts;
        kd_warmup_result w;
        kd_reply_status st = kd_wire_warmup(c, WARMUP_BUDGET_MS, r->o->timeout_ms, &w);
        if (st != KD_REPLY_OK)
            return fail(r, s, c, st, "warming up", KD_TIMING_RUN_FAILED);
        kd_side_timing *t = &r->out->side[s];
        t->warmup_median_ns = w.median_ns;
        t->warmup_launches = w.launches;
        t->warmup_stable = w.stable;
        if (s == 0) { /* one process, one timer: the first warm-up chose it */
            snprintf(r->out->timer, sizeof r->out->timer, "%s", w.timer);
            snprintf(r->out->timer_note, sizeof r->out->timer_note, "%s", w.timer_note);
        }
        fastest = fmin(fastest, t->warmup_median_ns);
        r->slowest_ns = fmax(r->slowest_ns, t->warmup_median_ns);
    }
    if (r->o->sustained_ms) { /* one launch per sample, back to back: never batched */
        r->out->batched = false;
        r->out->batch = 1;
        kd_reply_status st = kd_wire_mode_sustained(c, r->o->sustained_ms, r->o->timeout_ms);
        return st == KD_REPLY_OK ? KD_TIMING_OK
                                 : fail(r, SHARED, c, st, "choosing the timing mode (sustained load)", KD_TIMING_RUN_FAILED);
    }
    /* Both sides always run in the same mode: comparing a batched (warm L2) time with a
     * single-launch (flushed L2) time would compare different things. */
    long batch = r->o->batch;
    if (batch == 0 && fastest < BATCH_BELOW_NS)
        batch = (long)fmin(1000, fmax(2, ceil(BATCH_TARGET_NS / fmax(fastest, 1))));
    r->out->batched = batch > 0;
    r->out->batch = batch > 0 ? (unsigned)batch : 1;
    kd_reply_status st = kd_wire_mode(c, r->out->batched ? r->out->batch : 0, r->o->timeout_ms);
    return st == KD_REPLY_OK ? KD_TIMING_OK : fail(r, SHARED, c, st, "choosing the timing mode", KD_TIMING_RUN_FAILED);
}

static void grow(run_state *r, size_t need)
{
    if (need <= r->cap)
        return;
    size_t cap = r->cap ? r->cap * 2 : 256;
    while (cap < need)
        cap *= 2;
    for (int s = 0; s < 2; s++) {
        kd_side_timing *t = &r->out->side[s];
        t->samples = kd_xreallocarray(t->samples, cap, sizeof *t->samples);
        t->throttled = kd_xreallocarray(t->throttled, cap, sizeof *t->throttled);
        t->round = kd_xreallocarray(t->round, cap, sizeof *t->round);
    }
    r->cap = cap;
}

/* Appends one block of side s, taken in the current round. */
static void take_block(run_state *r, int s, const kd_time_block *b, int k)
{
    kd_side_timing *t = &r->out->side[s];
    for (int i = 0; i < k; i++) {
        t->samples[t->n] = b->samples[i];
        t->throttled[t->n] = b->throttled;
        t->round[t->n] = (unsigned)r->out->rounds;
        t->n++;
    }
    unsigned lo = b->clock0_mhz < b->clock1_mhz ? b->clock0_mhz : b->clock1_mhz;
    unsigned hi = b->clock0_mhz < b->clock1_mhz ? b->clock1_mhz : b->clock0_mhz;
    if (lo && (!t->clock_min_mhz || lo < t->clock_min_mhz))
        t->clock_min_mhz = lo;
    if (hi > t->clock_max_mhz)
        t->clock_max_mhz = hi;
    t->reasons_seen |= b->reasons;
    if (b->kernels_max) {
        if (!t->kernels_max || b->kernels_min < t->kernels_min)
            t->kernels_min = b->kernels_min;
        if (b->kernels_max > t->kernels_max)
            t->kernels_max = b->kernels_max;
    }
    if (b->throttled)
        t->throttled_count += (size_t)k;
}

static kd_timing_status time_block(run_state *r, int s)
{
    kd_timing_status ts = select_side(r, s);
    if (ts != KD_TIMING_OK)
        return ts;
    int k = (int)r->out->block_samples;
    grow(r, r->out->side[s].n + (size_t)k);
    kd_time_block b = {.samples = r->block};
    /* The watchdog allows every sample of the block a full --timeout; a sustained block its
     * load too, and its launches at ten times the warm-up's median (the slower side's). */
    double extra = (double)k * r->out->batch;
    if (r->o->sustained_ms)
        extra += 2.0 * r->o->sustained_ms + 10.0 * k * r->slowest_ns / 1e6;
    kd_reply_status st = kd_wire_time(&r->child[SHARED], k, watchdog_ms(r->o->timeout_ms, extra), &b);
    if (st != KD_REPLY_OK)
        return fail(r, s, &r->child[SHARED], st, "timing the kernel", KD_TIMING_RUN_FAILED);
    take_block(r, s, &b, k);
    return KD_TIMING_OK;
}

/* splitmix64: the interleaving order and the placements come from --seed, so a run can be
 * replayed. */
static unsigned long long next_random(unsigned long long *state)
{
    unsigned long long z = (*state += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

/* Both sides' samples with their rounds, as the interval and the verdict read them. */
static void sample_sets(const kd_timing *t, kd_sample_set sets[2])
{
    for (int s = 0; s < 2; s++)
        sets[s] = (kd_sample_set){t->side[s].samples, t->side[s].round, t->side[s].n};
}

/* The adaptive stop's interval: a cheaper bootstrap, to decide whether to keep measuring
 * (the verdict is decided once, after the loop: decide()). */
static int check_speedup(run_state *r, kd_speedup *out)
{
    kd_speedup_request rq = {
        .confidence = KD_SPEEDUP_CONFIDENCE, .resamples = KD_CHECK_RESAMPLES, .seed = r->o->seed};
    sample_sets(r->out, rq.side);
    return kd_speedup_ci_rounds(&rq, out);
}

/* A fresh placement of the buffers for the round about to start. */
static kd_timing_status move_buffers(run_state *r, unsigned long long *state)
{
    bool moved = false;
    kd_reply_status st = kd_wire_place(&r->child[SHARED], next_random(state), r->o->timeout_ms, &moved);
    if (st != KD_REPLY_OK)
        return fail(r, SHARED, &r->child[SHARED], st, "moving the buffers", KD_TIMING_RUN_FAILED);
    r->out->placements += moved;
    return KD_TIMING_OK;
}

static kd_timing_status audit_if_due(run_state *r, int place);
static kd_timing_status audit_both(run_state *r);

static kd_timing_status measure_rounds(run_state *r)
{
    unsigned long long order_state = r->o->seed ^ 0xA5A5A5A5ull;
    double start = kd_clock_s();
    size_t next_check = (size_t)r->o->min_runs;
    for (;;) {
        kd_timing_status st = move_buffers(r, &order_state);
        int first = (int)(next_random(&order_state) & 1);
        for (int i = 0; i < 2 && st == KD_TIMING_OK; i++) {
            st = audit_if_due(r, i);
            if (st == KD_TIMING_OK)
                st = time_block(r, i == 0 ? first : 1 - first);
            r->audited_last_block = false;
        }
        if (st == KD_TIMING_OK)
            st = audit_if_due(r, 2);
        if (st != KD_TIMING_OK)
            return st;
        r->out->rounds++;
        if (r->out->audit.failed) { /* incorrect: no verdict will be made of more samples */
            r->out->stop_reason = KD_STOP_AUDIT_FAILED;
            break;
        }
        size_t n = r->out->side[0].n;
        double elapsed = kd_clock_s() - start;
        if (n >= next_check) {
            /* Checking every round would cost a bootstrap each time; every 25% more samples
             * is enough to stop close to where the target is met. */
            next_check = n + (n / 4 > r->out->block_samples ? n / 4 : r->out->block_samples);
            kd_speedup check;
            bool computed = check_speedup(r, &check) == 0;
            double half = computed ? kd_speedup_ci_halfwidth_pct(&check) : 0;
            if (computed)
                kd_status("timing: %zu + %zu samples in %zu rounds, CI half-width %.2f%% (target %.2f%%)", n,
                          r->out->side[1].n, r->out->rounds, half, r->o->target_pct);
            if (computed && half <= r->o->target_pct && r->out->rounds >= MIN_ROUNDS_FOR_TARGET) {
                r->out->stop_reason = KD_STOP_TARGET_REACHED;
                break;
            }
        }
        if (elapsed >= r->o->max_time_s && n >= 2 * r->out->block_samples) {
            r->out->stop_reason = KD_STOP_MAX_TIME;
            break;
        }
        if (n >= (size_t)r->o->max_runs) {
            r->out->stop_reason = KD_STOP_MAX_RUNS;
            break;
        }
    }
    /* A run shorter than the audits' schedule still has its fewest, after its last block
     * (a kernel cannot tell that no sample follows). */
    while (r->o->check && r->out->audit.done < r->o->audits && !r->out->audit.failed) {
        kd_timing_status st = audit_both(r);
        if (st != KD_TIMING_OK)
            return st;
    }
    /* And one after the last block whatever the schedule said: a kernel that stops working
     * after its N-th launch is caught whenever N falls inside the run, not only when a secret
     * gap happened to land after it (the gaps grow to 64 rounds; the e2e audit_late saw a
     * run of 40 rounds end inside one). */
    if (r->o->check && r->o->audits && !r->out->audit.failed && !r->audited_last_block) {
        kd_timing_status st = audit_both(r);
        if (st != KD_TIMING_OK)
            return st;
    }
    r->out->measure_s = kd_clock_s() - start;
    r->out->target_pct = r->o->target_pct;
    /* The decision to stop was taken on the cheaper bootstrap; the reported interval comes
     * from the larger one (decide()) and may be a hair wider. */
    r->out->target_reached = r->out->stop_reason == KD_STOP_TARGET_REACHED;
    for (int s = 0; s < 2; s++) {
        kd_side_timing *t = &r->out->side[s];
        kd_summarize(t->samples, t->n, &t->summary);
        t->placement_spread_pct = kd_round_spread_pct(t->samples, t->round, t->n);
        r->out->clocks_locked |= (t->reasons_seen & 0x2) != 0;
    }
    return KD_TIMING_OK;
}

/* The verdict, decided once on what the loop measured (measure/verdict.h: the same function
 * decides for saved runs, sweeps and app). */
static kd_timing_status decide(run_state *r)
{
    kd_sample_set sets[2];
    sample_sets(r->out, sets);
    kd_verdict_options vo = {.min_effect_pct = r->o->min_effect_pct, .seed = r->o->seed};
    kd_decision d;
    if (kd_decide(sets, &vo, &d) != 0) {
        kd_sb_puts(r->error, "too few samples to compare");
        return KD_TIMING_RUN_FAILED;
    }
    r->out->speedup = d.speedup;
    r->out->verdict = d.verdict;
    r->out->min_effect_pct = r->o->min_effect_pct;
    r->out->seed = r->o->seed;
    kd_calib_attach(r->out);
    return KD_TIMING_OK;
}

static bool is_buffer(const kd_launch_arg *a) { return kd_param_role_is_buffer(a->role); }

size_t kd_share_buffers(const kd_launch_spec *v1, const kd_launch_spec *v2, int share[])
{
    size_t named = 0, shared = 0;
    for (size_t j = 0; j < v2->nargs; j++)
        share[j] = -1;
    for (size_t j = 0; j < v2->nargs; j++)
        for (size_t i = 0; i < v1->nargs && share[j] < 0; i++)
            if (strcmp(v1->args[i].name, v2->args[j].name) == 0 && is_buffer(&v2->args[j]))
                named++, share[j] = (int)i;
    if (named == 0) { /* a renamed parameter: pair the buffers by position */
        size_t i = 0;
        for (size_t j = 0; j < v2->nargs; j++) {
            while (i < v1->nargs && !is_buffer(&v1->args[i]))
                i++;
            if (is_buffer(&v2->args[j]) && i < v1->nargs)
                share[j] = (int)i++;
        }
    }
    for (size_t j = 0; j < v2->nargs; j++) {
        if (share[j] < 0)
            continue;
        const kd_launch_arg *a = &v1->args[share[j]], *b = &v2->args[j];
        if (!is_buffer(a) || a->role != b->role || a->type.base != b->type.base ||
            a->type.lanes != b->type.lanes || a->count != b->count)
            share[j] = -1;
        else
            shared++;
    }
    return shared;
}

/* An output buffer of one side and where its bytes start in that side's check file. */
typedef struct output_ref {
    const kd_launch_arg *arg;
    size_t offset, elements;
} output_ref;

static size_t list_outputs(const kd_launch_spec *spec, output_ref *refs, size_t *total_bytes)
{
    size_t n = 0;
    *total_bytes = 0;
    for (size_t i = 0; i < spec->nargs && n < KD_MAX_OUTPUTS; i++) {
        const kd_launch_arg *a = &spec->args[i];
        if (a->role != KD_ROLE_OUTPUT && a->role != KD_ROLE_INOUT) /* both are compared */
            continue;
        refs[n] = (output_ref){a, *total_bytes, a->count * (size_t)a->type.lanes};
        *total_bytes += refs[n].elements * kd_dtype_size(a->type.base);
        n++;
    }
    return n;
}

/* v1's output i is compared with v2's output partner[i] (-1: none). Outputs pair by name;
 * when no name is shared but both sides have as many outputs, by position (a renamed
 * parameter). A pipeline's temporaries have no partner and are not compared. */
static void pair_outputs(output_ref refs[2][KD_MAX_OUTPUTS], const size_t n[2], int partner[KD_MAX_OUTPUTS])
{
    size_t by_name = 0;
    for (size_t i = 0; i < n[0]; i++) {
        partner[i] = -1;
        for (size_t j = 0; j < n[1] && partner[i] < 0; j++)
            if (strcmp(refs[0][i].arg->name, refs[1][j].arg->name) == 0)
                partner[i] = (int)j;
        by_name += partner[i] >= 0;
    }
    if (by_name == 0 && n[0] == n[1])
        for (size_t i = 0; i < n[0]; i++)
            partner[i] = (int)i;
}

static void note_unpaired(kd_timing *t, const char *side, const char *name)
{
    kd_strbuf sb = {0};
    kd_sb_printf(&sb, "%s%s%s %s", t->unpaired ? t->unpaired : "", t->unpaired ? ", " : "", side, name);
    free(t->unpaired);
    t->unpaired = kd_sb_take(&sb);
}

/* Elements compared at a time: the check files are read in chunks, so a 256M-element
 * output costs kerndiff a few MiB of memory, not gigabytes. */
#define CHECK_CHUNK_BYTES (8u << 20)

/* Reads `bytes` at `offset` of f into buf. */
static bool read_at(FILE *f, size_t offset, void *buf, size_t bytes)
{
    return fseeko(f, (off_t)offset, SEEK_SET) == 0 && fread(buf, 1, bytes, f) == bytes;
}

/* The seeded run decides the values; the poisoned run says which were never written (total
 * NULL: an audit's files, which hold one run). Returns false when a file cannot be read back. */
static bool compare_pair(const output_ref *x, const output_ref *y, FILE *files[2], const size_t total[2],
                         const kd_timing_options *o, kd_output_check *oc)
{
    oc->name = kd_xstrdup(x->arg->name);
    oc->type = x->arg->type;
    kd_dtype t = x->arg->type.base;
    oc->tolerance = o->tolerance_given ? o->tolerance : kd_default_tolerance(t);
    if (!total) { /* an audit looks for work not done, not for rounding: the check was strict */
        oc->tolerance.rtol *= AUDIT_TOLERANCE_FACTOR;
        oc->tolerance.atol *= AUDIT_TOLERANCE_FACTOR;
    }
    /* v2 within what v1 differs from itself (oc->self_noise, set by the caller) is no difference */
    oc->tolerance.atol = fmax(oc->tolerance.atol, SELF_NOISE_FACTOR * oc->self_noise);
    size_t elements = x->elements < y->elements ? x->elements : y->elements;
    if (t != y->arg->type.base || x->elements != y->elements) {
        oc->result.count = elements;
        oc->result.mismatches = t != y->arg->type.base ? elements
                                : x->elements > y->elements ? x->elements - y->elements
                                                            : y->elements - x->elements;
        return true;
    }
    size_t size = kd_dtype_size(t), step = CHECK_CHUNK_BYTES / (size ? size : 1);
    /* no larger than what is compared: an audit's 256 KiB sample, compared at every audit,
       would otherwise fault in two fresh 8 MiB blocks each time */
    size_t block = elements < step ? (elements ? elements : 1) * (size ? size : 1) : CHECK_CHUNK_BYTES;
    char *chunk[2] = {kd_xmalloc(block), kd_xmalloc(block)};
    bool ok = true;
    for (size_t at = 0; ok && at < elements; at += step) {
        size_t n = elements - at < step ? elements - at : step;
        ok = read_at(files[0], x->offset + at * size, chunk[0], n * size) &&
             read_at(files[1], y->offset + at * size, chunk[1], n * size);
        if (ok)
            kd_compare_chunk(&(kd_values_chunk){.type = t, .v1 = chunk[0], .v2 = chunk[1], .count = n, .first = at},
                             oc->tolerance, &oc->result);
        if (!total) /* an audit's file: one run, no poisoned one */
            continue;
        ok = ok && read_at(files[0], total[0] + x->offset + at * size, chunk[0], n * size) &&
             read_at(files[1], total[1] + y->offset + at * size, chunk[1], n * size);
        /* which elements each side left holding the poison: a difference there alone is said
         * as such, not as differing values (check/output_compare.h) */
        if (ok)
            kd_compare_written_chunk(t, chunk[0], chunk[1], n, at, &oc->result);
    }
    free(chunk[0]);
    free(chunk[1]);
    return ok;
}

/* How far v1 differs from itself between the check's two runs: every element written in both
 * (not left holding the second run's poison) is v1 computing the same thing twice from the same
 * inputs. A kernel whose result depends on the order of its float atomics differs from itself
 * (tests/realfiles/dot_product.cu: one atomicAdd per block into one float), and a v2 within that
 * much of v1 is no difference. 0: v1 is deterministic; -1 the file cannot be read back. */
static double self_noise(const output_ref *x, FILE *f, size_t total)
{
    kd_dtype t = x->arg->type.base;
    size_t size = kd_dtype_size(t), step = CHECK_CHUNK_BYTES / (size ? size : 1);
    char *chunk[2] = {kd_xmalloc(CHECK_CHUNK_BYTES), kd_xmalloc(CHECK_CHUNK_BYTES)};
    double noise = 0;
    for (size_t at = 0; at < x->elements && noise >= 0; at += step) {
        size_t n = x->elements - at < step ? x->elements - at : step;
        if (!read_at(f, x->offset + at * size, chunk[0], n * size) ||
            !read_at(f, total + x->offset + at * size, chunk[1], n * size)) {
            noise = -1;
            break;
        }
        for (size_t i = 0; i < n; i++) {
            if (kd_is_poison(t, chunk[1], i) || kd_is_poison(t, chunk[0], i))
                continue;
            double a = kd_dtype_load(t, chunk[0], i), b = kd_dtype_load(t, chunk[1], i);
            if (isfinite(a) && isfinite(b))
                noise = fmax(noise, fabs(a - b));
        }
    }
    free(chunk[0]);
    free(chunk[1]);
    return noise;
}

/* The check files hold 2 x the outputs of each side: say so before the harness fills the
 * disk and fails in a way that looks like its own fault. */
static bool room_for_outputs(run_state *r, const char *workdir, const size_t total[2])
{
    struct statvfs fs;
    unsigned long long need = 2ull * (total[0] + total[1]);
    if (statvfs(workdir, &fs) != 0 || (unsigned long long)fs.f_bavail * fs.f_frsize >= need)
        return true;
    kd_sb_printf(r->error, "the correctness check writes %.2f GiB of outputs to %s, which has %.2f GiB free: point "
                           "TMPDIR at a larger disk, use a smaller --n, or pass --no-check",
                 (double)need / (1u << 30), workdir, (double)fs.f_bavail * fs.f_frsize / (1u << 30));
    return false;
}

/* `check`'s bounds guard (docs/PROTOCOL.md): a launch that wrote past the end of a buffer
 * is not timed. Its sizes were guessed (or given) smaller than the kernel's: its outputs are
 * not the kernel's work and its time is not the kernel's at the size it is written for.
 * Says which buffer, how far, and what sets its size. False for an overrun, or a reply
 * that cannot say (a check that cannot tell fails closed). */
static bool within_bounds(run_state *r, int s)
{
    kd_overrun over[8];
    long n = kd_wire_check_overruns(&r->child[s], over, sizeof over / sizeof *over);
    const kd_launch_spec *spec = r->sides[s].spec;
    if (n < 0) {
        kd_sb_printf(r->error, "%s: the harness's correctness check did not say whether the launch stayed within "
                               "its buffers (no overrun= in its reply): rebuild kerndiff's harness (make)",
                     r->sides[s].label);
        return false;
    }
    for (long k = 0; k < n && k < (long)(sizeof over / sizeof *over); k++) {
        const kd_launch_arg *a = over[k].arg < spec->nargs ? &spec->args[over[k].arg] : NULL;
        unsigned long long element = a ? kd_dtype_size(a->type.base) * (unsigned long long)a->type.lanes : 0;
        kd_sb_printf(r->error, "%s%s: the launch writes past the end of buffer %s (%llu elements, %llu bytes, "
                               "its size from %s): the kernel wrote %llu bytes beyond it%s, into memory no "
                               "argument owns; not timed. Give its real size with --buf %s=COUNT (or "
                               "`// kerndiff: %s=COUNT`), or the sizes it is computed from (--n, --arg NAME=VALUE)%s%s",
                     k ? "\n" : "", r->sides[s].label, a ? a->name : "?", a ? a->count : 0ULL,
                     a ? a->count * element : 0ULL, a && a->origin ? a->origin : "?", over[k].reach,
                     over[k].reach >= kd_bounds_guard_bytes(a ? (size_t)(a->count * element) : 0) ? " or more" : "",
                     a ? a->name : "NAME", a ? a->name : "NAME", spec->assumed[0] ? "; kerndiff assumed: " : "",
                     spec->assumed);
    }
    return n == 0;
}

/* The check file holds every output buffer of the seeded run, then every output buffer of
 * the poisoned run. */
static kd_timing_status check_outputs(run_state *r, const char *workdir)
{
    output_ref refs[2][KD_MAX_OUTPUTS];
    size_t nrefs[2], total[2];
    for (int s = 0; s < 2; s++)
        nrefs[s] = list_outputs(r->sides[s].spec, refs[s], &total[s]);
    if (!room_for_outputs(r, workdir, total))
        return KD_TIMING_RUN_FAILED;
    FILE *files[2] = {NULL, NULL};
    kd_timing_status status = KD_TIMING_OK;
    char *paths[2];
    for (int s = 0; s < 2; s++) { /* both sides run their check at once */
        char name[32];
        snprintf(name, sizeof name, "%s.outputs", r->sides[s].label);
        paths[s] = kd_path_join(workdir, name);
        kd_wire_send_check(&r->child[s], paths[s]);
    }
    for (int s = 0; s < 2; s++) {
        /* A hung kernel is reported within a few --timeouts, a large one given time to copy. */
        double gib = (double)(kd_launch_spec_bytes(r->sides[s].spec) + total[s]) / (1u << 30);
        kd_reply_status st = kd_wire_check_reply(&r->child[s], watchdog_ms(r->o->timeout_ms,
                                                                           2.0 * r->o->timeout_ms + CHECK_EXTRA_MS +
                                                                               CHECK_MS_PER_GIB * 2 * gib));
        struct stat info;
        if (st != KD_REPLY_OK) {
            if (status == KD_TIMING_OK)
                status = fail(r, s, &r->child[s], st, "running the correctness check", KD_TIMING_RUN_FAILED);
        } else if (status == KD_TIMING_OK && !within_bounds(r, s)) {
            status = KD_TIMING_OUT_OF_BOUNDS;
        } else if (!(files[s] = fopen(paths[s], "rb")) || fstat(fileno(files[s]), &info) != 0 ||
                   (size_t)info.st_size != 2 * total[s]) {
            if (status == KD_TIMING_OK)
                kd_sb_printf(r->error, "%s: the correctness run wrote %lld bytes, expected %zu", r->sides[s].label,
                             files[s] ? (long long)info.st_size : 0LL, 2 * total[s]);
            status = KD_TIMING_RUN_FAILED;
        }
    }
    if (status != KD_TIMING_OK)
        goto out;
    kd_trace("check files written (%.0f MiB)", 2.0 * (double)(total[0] + total[1]) / (1u << 20));
    int partner[KD_MAX_OUTPUTS];
    pair_outputs(refs, nrefs, partner);
    r->out->outputs = kd_xcalloc(nrefs[0] + 1, sizeof *r->out->outputs);
    r->out->outputs_match = true;
    for (size_t i = 0; i < nrefs[0] && status == KD_TIMING_OK; i++) {
        if (partner[i] < 0) {
            note_unpaired(r->out, "v1", refs[0][i].arg->name);
            continue;
        }
        kd_output_check *oc = &r->out->outputs[r->out->noutputs++];
        oc->self_noise = r->o->tolerance_given ? 0 : fmax(0, self_noise(&refs[0][i], files[0], total[0]));
        if (!compare_pair(&refs[0][i], &refs[1][partner[i]], files, total, r->o, oc)) {
            kd_sb_printf(r->error, "cannot read back the outputs in %s (the disk failed, or the files changed while read)", workdir);
            status = KD_TIMING_RUN_FAILED;
        }
        r->out->outputs_match &= oc->result.match;
    }
    for (size_t j = 0; j < nrefs[1]; j++) {
        bool paired = false;
        for (size_t i = 0; i < nrefs[0]; i++)
            paired |= partner[i] == (int)j;
        if (!paired)
            note_unpaired(r->out, "v2", refs[1][j].arg->name);
    }
    r->out->outputs_match &= r->out->noutputs > 0; /* nothing compared is no evidence */
    r->out->checked = status == KD_TIMING_OK;
out:
    for (int s = 0; s < 2; s++) {
        if (files[s])
            fclose(files[s]);
        unlink(paths[s]); /* gigabytes, for large --n: gone as soon as they are compared */
        free(paths[s]);
    }
    return status;
}

unsigned long long kd_audit_secret(unsigned long long *state)
{
    if (!*state) {
        if (getrandom(state, sizeof *state, 0) != (ssize_t)sizeof *state) {
            struct timespec ts;
            clock_gettime(CLOCK_REALTIME, &ts);
            *state = (unsigned long long)ts.tv_nsec * 0x9E3779B97F4A7C15ull ^ (unsigned long long)getpid() << 32;
        }
        *state |= 1;
    }
    return next_random(state);
}

unsigned kd_audit_gap(unsigned long long *state, unsigned done)
{
    unsigned long long span = 1ull << (done < 6 ? (done ? done : 1) : 6);
    return (done == 0 ? 0 : 1) + (unsigned)(kd_audit_secret(state) % span);
}

void kd_audit_init(kd_audit *a)
{
    memset(a, 0, sizeof *a);
    a->stale_side = a->mutated_side = -1;
}

void kd_audit_free(kd_audit *a)
{
    free(a->output);
    free(a->mutated_input);
    kd_audit_init(a);
}

/* Where the next audit goes: its round a secret gap after the last (kd_audit_gap), and its
 * place in that round (before, between or after the two sides' blocks). */
static void plan_next_audit(run_state *r)
{
    r->next_audit_round = r->out->rounds + kd_audit_gap(&r->secret, r->out->audit.done);
    r->audit_place = (int)(kd_audit_secret(&r->secret) % 3);
}

/* How many of the elements the audit read back of side s's output x (its sample smp, at
 * x->offset of f) it left as it had set them before its launch (the run's seeded
 * contents, docs/PROTOCOL.md "Inputs" k = 1000, rotated as `audit` does): a side that did no
 * work leaves them all. -1 when that cannot be said (captured data, too large to make here). */
static long long stale_elements(const kd_audit_request *rq, int s, const output_ref *x, const kd_audit_sample *smp,
                                FILE *f, unsigned long long seed)
{
    size_t arg = (size_t)(x->arg - rq->sides[s].spec->args);
    size_t size = kd_dtype_size(x->arg->type.base), lanes = x->arg->type.lanes ? x->arg->type.lanes : 1;
    size_t bytes = x->elements * size, count = x->elements / lanes;
    if ((rq->sides[s].fill && rq->sides[s].fill[arg]) || !size || bytes > CHECK_CHUNK_BYTES * 8 ||
        bytes > KD_AUDIT_MAX_BYTES)
        return -1;
    /* a shared buffer is slot 0's: rotated as v1's argument */
    size_t owner = s == 1 && rq->share && rq->share[arg] >= 0 ? (size_t)rq->share[arg] : arg;
    /* what the audit set element p to: the run's contents at p + rot (a whole number of
       elements, so no element wraps), or for a buffer that cannot rotate, the audit's own */
    size_t rot = kd_audit_rotation(seed, owner, count) * lanes * size;
    unsigned char *set = kd_xmalloc(bytes ? bytes : 1);
    kd_fill_random(x->arg->type.base, set, x->elements,
                   rot ? rq->o->seed + 0x9E3779B97F4A7C15ull * (1000 + 1) : kd_audit_seed(seed, 1000));
    size_t read = kd_audit_sample_bytes(smp);
    unsigned char *after = kd_xmalloc(read ? read : 1);
    long long same = -1;
    if (read_at(f, x->offset, after, read)) {
        same = 0;
        for (size_t j = 0; j < smp->count; j++)
            for (size_t e = 0; e + size <= smp->chunk; e += size)
                same += memcmp(set + (smp->first + j * smp->pitch + e + rot) % bytes, after + j * smp->chunk + e, size) == 0;
    }
    free(set);
    free(after);
    return same;
}

/* Output x as an audit's file holds it: its sample for seed (kd_audit_sample: all of it up
 * to 256 KiB) at *offset, which moves past it. */
static output_ref audit_ref(const output_ref *x, unsigned long long seed, size_t *offset, kd_audit_sample *smp)
{
    size_t size = kd_dtype_size(x->arg->type.base), lanes = x->arg->type.lanes ? x->arg->type.lanes : 1;
    *smp = kd_audit_sample_of(seed, x->elements * size, size * lanes);
    output_ref r = {x->arg, *offset, size ? kd_audit_sample_bytes(smp) / size : 0};
    *offset += kd_audit_sample_bytes(smp);
    return r;
}

/* Compares both sides' audit files as the correctness run's seeded run is compared, over the
 * elements each holds (the outputs' samples, in argument order); the first failed audit is
 * kept with the side that left its outputs as they were. Returns whether the outputs
 * differed, -1 when the files cannot be read back. */
static int compare_audit(const kd_audit_request *rq, char *paths[2], unsigned long long seed, kd_audit *a)
{
    output_ref refs[2][KD_MAX_OUTPUTS], read[2][KD_MAX_OUTPUTS];
    kd_audit_sample smp[2][KD_MAX_OUTPUTS];
    size_t nrefs[2], total[2];
    for (int s = 0; s < 2; s++) {
        nrefs[s] = list_outputs(rq->sides[s].spec, refs[s], &total[s]);
        size_t offset = 0;
        for (size_t i = 0; i < nrefs[s]; i++)
            read[s][i] = audit_ref(&refs[s][i], seed, &offset, &smp[s][i]);
    }
    int partner[KD_MAX_OUTPUTS];
    pair_outputs(refs, nrefs, partner);
    FILE *files[2] = {fopen(paths[0], "rb"), fopen(paths[1], "rb")};
    int failed = files[0] && files[1] ? 0 : -1;
    for (size_t i = 0; i < nrefs[0] && failed == 0; i++) {
        if (partner[i] < 0)
            continue;
        size_t j = (size_t)partner[i];
        kd_output_check oc = {0};
        /* outputs of other sizes differ whatever their samples hold: compare_pair says so from
           the whole outputs' sizes, reading nothing */
        bool same_size = refs[0][i].elements == refs[1][j].elements;
        if (!compare_pair(same_size ? &read[0][i] : &refs[0][i], same_size ? &read[1][j] : &refs[1][j], files, NULL,
                          rq->o, &oc))
            failed = -1;
        else if (!oc.result.match) {
            failed = 1;
            if (a->failed == 0) {
                a->first_round = rq->round;
                a->first_samples = rq->samples;
                a->output = kd_xstrdup(oc.name);
                a->mismatches = oc.result.mismatches ? oc.result.mismatches : oc.result.count;
                a->count = oc.result.count;
                a->buffer_elements = refs[0][i].elements;
                a->stale_side = -1;
                for (int s = 0; s < 2 && same_size; s++) {
                    size_t k = s == 0 ? i : j;
                    output_ref x = refs[s][k];
                    x.offset = read[s][k].offset;
                    long long stale = stale_elements(rq, s, &x, &smp[s][k], files[s], seed);
                    if (stale > 0 && (size_t)stale * 2 > read[s][k].elements && (size_t)stale > a->stale) {
                        a->stale_side = s;
                        a->stale = (size_t)stale;
                    }
                }
            }
        }
        free(oc.name);
    }
    for (int s = 0; s < 2; s++)
        if (files[s])
            fclose(files[s]);
    return failed;
}

kd_timing_status kd_audit_once(const kd_audit_request *rq, unsigned long long seed, kd_audit *au, kd_strbuf *error)
{
    char *paths[2];
    kd_timing_status st = KD_TIMING_OK;
    for (int s = 0; s < 2; s++) {
        char name[32];
        snprintf(name, sizeof name, "audit.%d", s); /* a label may be a file name (rank) */
        paths[s] = kd_path_join(rq->workdir, name);
    }
    bool mutated = false;
    double began = kd_clock_s(), side_ms[2] = {0, 0};
    kd_audit_reply said[2] = {{0}, {0}};
    for (int s = 0; s < 2 && st == KD_TIMING_OK; s++) {
        double side_began = kd_clock_s();
        kd_audit_reply reply = {0};
        double gib = (double)kd_launch_spec_bytes(rq->sides[s].spec) / (1u << 30);
        int timeout = watchdog_ms(rq->o->timeout_ms, CHECK_EXTRA_MS + CHECK_MS_PER_GIB * 2 * gib);
        kd_reply_status rs = kd_wire_side(rq->child, s, rq->o->timeout_ms);
        if (rs == KD_REPLY_OK)
            rs = kd_wire_audit(rq->child, seed, paths[s], timeout, &reply);
        if (rs != KD_REPLY_OK) {
            if (rq->failure)
                note_failure(rq->failure, s, rq->child, rs);
            kd_sb_printf(error, "%s: ", rq->sides[s].label);
            kd_child_failure_words(rq->child, rs, "auditing the kernel between samples", error);
            st = KD_TIMING_RUN_FAILED;
            break;
        }
        side_ms[s] = 1e3 * (kd_clock_s() - side_began);
        said[s] = reply;
        const kd_launch_spec *spec = rq->sides[s].spec;
        if (reply.changed_input >= 0 && (size_t)reply.changed_input < spec->nargs && !mutated) {
            mutated = true;
            if (au->mutated_side < 0) {
                au->mutated_side = s;
                au->mutated_input = kd_xstrdup(spec->args[reply.changed_input].name);
            }
        }
    }
    double compare_began = kd_clock_s();
    int differ = st == KD_TIMING_OK ? compare_audit(rq, paths, seed, au) : 0;
    /* where an audit's time goes (bench/audit_overhead.sh): each side's `audit` in the harness,
       then the comparison here */
    kd_trace("audit: v1 %.2f ms, v2 %.2f ms in the harness, compared in %.2f ms (%.2f ms in all)", side_ms[0],
             side_ms[1], 1e3 * (kd_clock_s() - compare_began), 1e3 * (kd_clock_s() - began));
    for (int s = 0; s < 2; s++)
        kd_trace("audit: %s in the harness: contents %.0f us, launch %.0f us, read back %.0f us", s ? "v2" : "v1",
                 said[s].put_us, said[s].launch_us, said[s].read_us);
    if (differ < 0) {
        kd_sb_printf(error, "cannot read back the audit's outputs in %s (the disk failed, or the files changed "
                            "while read)", rq->workdir);
        st = KD_TIMING_RUN_FAILED;
    }
    au->seconds += kd_clock_s() - began;
    if (st == KD_TIMING_OK) {
        if (mutated && !differ && au->failed == 0) { /* outputs matched, an input did not */
            au->first_round = rq->round;
            au->first_samples = rq->samples;
        }
        au->done++;
        au->failed += differ || mutated;
    }
    for (int s = 0; s < 2; s++) {
        unlink(paths[s]);
        free(paths[s]);
    }
    return st;
}

/* One audit of the shared child, the next one planned. */
static kd_timing_status audit_both(run_state *r)
{
    kd_audit_request rq = {.child = &r->child[SHARED], .sides = r->sides, .share = r->share, .o = r->o,
                           .failure = &r->out->failure,
                           .workdir = r->workdir, .round = r->out->rounds, .samples = r->out->side[0].n};
    kd_timing_status st = kd_audit_once(&rq, kd_audit_secret(&r->secret), &r->out->audit, r->error);
    plan_next_audit(r);
    r->audited_last_block = true;
    kd_trace("audit %u: %s", r->out->audit.done, r->out->audit.failed ? "outputs differ" : "outputs match");
    return st;
}

/* The audit planned for this round and place, if any (--no-check: none). */
static kd_timing_status audit_if_due(run_state *r, int place)
{
    if (!r->o->check || !r->o->audits || r->out->rounds != r->next_audit_round || place != r->audit_place)
        return KD_TIMING_OK;
    return audit_both(r);
}

/* Ends the children that held one side each, all at once (a CUDA context takes a moment
 * to tear down), so that the GPU is quiet and their memory free before the timing. In a
 * sweep whose points follow, a child whose check went well is reset instead (its buffers
 * freed) and kept for the next point (measure/harness_pool.h). */
static void stop_alone(run_state *r, bool went_well)
{
    for (int s = 0; s < 2; s++)
        if (r->started[s] && went_well &&
            kd_harness_pool_keep(s, &r->child[s], r->sides[s].harness_argv, r->o->timeout_ms))
            r->started[s] = false;
    for (int s = 0; s < 2; s++)
        if (r->started[s])
            kd_child_send(&r->child[s], "quit");
    for (int s = 0; s < 2; s++)
        if (r->started[s]) {
            kd_child_stop(&r->child[s]);
            r->started[s] = false;
        }
}

/* The reply to `prepare-counters`, read whatever became of the check (the stream stays in
 * step). A refusal is the counter pass's to report, when it asks again; a child that died or
 * hung is this pass's failure, as in any other command. */
static kd_timing_status prepared_counters(run_state *r, kd_timing_status st)
{
    double ms;
    kd_reply_status rs = kd_wire_prepare_counters_reply(&r->child[SHARED], watchdog_ms(r->o->timeout_ms, PREPARE_MS), &ms);
    if (rs == KD_REPLY_OK)
        kd_trace("counter configuration built while the sides checked (%.0f ms in the harness)", ms);
    else if (rs == KD_REPLY_ERR)
        kd_trace("counter configuration not built ahead: the harness refused (the counter pass asks again)");
    else if (st == KD_TIMING_OK)
        return fail(r, SHARED, &r->child[SHARED], rs, "building the counters' configuration", KD_TIMING_RUN_FAILED);
    return st;
}

/* Each side alone first: its first launches and the correctness run happen where a fault
 * names the side. The shared child sets up at the same time (filling inputs is host work);
 * if the GPU has no room for all three, it tries again once the others are gone. */
static kd_timing_status check_then_set_up(run_state *r, const char *workdir)
{
    kd_timing_status st = KD_TIMING_OK;
    for (int s = 0; s < 2 && st == KD_TIMING_OK; s++) {
        kd_strbuf why = {0};
        if (kd_harness_describe(&r->child[s], &r->sides[s], r->o->seed, r->o->timeout_ms, NULL, &why) != 0)
            st = fail_with(r, s, &why, KD_TIMING_SETUP_FAILED);
        kd_sb_free(&why);
    }
    for (int c = 0; c < 3 && st == KD_TIMING_OK; c++)
        kd_wire_send_setup(&r->child[c]);
    for (int s = 0; s < 2 && st == KD_TIMING_OK; s++) /* the sides' own failures come first */
        st = setup_reply(r, s);
    bool shared_ready = false;
    if (st == KD_TIMING_OK) {
        kd_strbuf *error = r->error, ignored = {0};
        r->error = &ignored;
        shared_ready = setup_reply(r, SHARED) == KD_TIMING_OK;
        r->error = error;
        kd_sb_free(&ignored);
    }
    kd_trace("buffers allocated and filled (each side alone%s)", shared_ready ? ", and together" : "");
    /* The shared child waits while the sides check: it builds the counter pass's configuration
     * meanwhile. No kernel runs for it, and it is done before any timing. */
    bool preparing = st == KD_TIMING_OK && shared_ready && r->o->hand_over && r->o->ncounter_names;
    if (preparing)
        kd_wire_send_prepare_counters(&r->child[SHARED], r->o->counter_names, r->o->ncounter_names);
    if (st == KD_TIMING_OK)
        st = check_outputs(r, workdir);
    kd_trace("outputs checked");
    if (preparing)
        st = prepared_counters(r, st);
    stop_alone(r, st == KD_TIMING_OK);
    if (st == KD_TIMING_OK && !shared_ready)
        st = set_up_shared(r);
    return st;
}

kd_timing_status kd_measure(const kd_timing_side sides[2], const char *const *shared_argv,
                            const kd_timing_options *o, const char *workdir, kd_timing *out, kd_strbuf *error)
{
    memset(out, 0, sizeof *out);
    out->failure.side = -1;
    for (int s = 0; s < 2; s++) /* the caller checked; a request that skipped it stops here */
        if (kd_timing_check_sizes(sides[s].spec, sides[s].label, error) != 0)
            return KD_TIMING_SETUP_FAILED;
    double block[MAX_BLOCK];
    kd_audit_init(&out->audit);
    run_state r = {.sides = sides, .o = o, .out = out, .error = error, .block = block, .workdir = workdir};
    plan_next_audit(&r);
    snprintf(out->load, sizeof out->load, "%s", o->sustained_ms ? "sustained" : "single");
    out->sustained_ms = o->sustained_ms;
    out->block_samples = o->sustained_ms ? SUSTAINED_SAMPLES_PER_BLOCK : SAMPLES_PER_BLOCK;
    /* All children start at once: CUDA's start-up in the shared one overlaps the checks. */
    kd_timing_status st = start_children(&r, shared_argv);
    if (st == KD_TIMING_OK)
        st = describe_shared(&r);
    kd_harness_pool_reap(); /* a sweep's previous point's children: gone before any setup */
    kd_trace("harnesses started, kernels loaded");
    if (st == KD_TIMING_OK)
        st = o->check ? check_then_set_up(&r, workdir) : set_up_shared(&r);
    kd_trace("both sides together: buffers allocated and filled");
    if (st == KD_TIMING_OK)
        st = warm_up(&r);
    kd_trace("warmed up");
    if (st == KD_TIMING_OK && o->check && o->audits)
        st = prepare_audits(&r);
    if (st == KD_TIMING_OK)
        st = measure_rounds(&r);
    kd_trace("measured: %zu rounds", out->rounds);
    if (st == KD_TIMING_OK)
        st = decide(&r);
    /* A sweep's next point: the shared child kept (reset) when all went well, else its
     * children started now, while these end (measure/harness_pool.h). */
    if (st == KD_TIMING_OK && r.started[SHARED] &&
        kd_harness_pool_keep(SHARED, &r.child[SHARED], shared_argv, o->timeout_ms))
        r.started[SHARED] = false;
    /* A single diff's counter pass: the same two sides, set up and warm, in this child. */
    if (st == KD_TIMING_OK && r.started[SHARED] && o->hand_over &&
        kd_harness_pool_hand_over(&r.child[SHARED], shared_argv))
        r.started[SHARED] = false;
    const char *const *const ahead[KD_POOL_ROLES] = {o->check ? sides[0].harness_argv : NULL,
                                                     o->check ? sides[1].harness_argv : NULL, shared_argv};
    free(r.share);
    kd_harness_pool_start_ahead(ahead);
    for (int s = 0; s < 3; s++)
        if (r.started[s] && !kd_harness_pool_retire(&r.child[s]))
            kd_child_stop(&r.child[s]);
    return st;
}

bool kd_timing_values_differ(const kd_timing *t)
{
    for (size_t i = 0; i < t->noutputs; i++)
        if (t->outputs[i].result.mismatches || t->outputs[i].result.degenerate != KD_DEGENERATE_NONE)
            return true;
    return false;
}

/* A saved run that says its outputs differ while each pair it lists matched (edited, or from a
 * writer that knew more): no output explains it, so it is taken at its word. A live run never
 * says so: its outputs_match is every pair's match. */
static bool differ_unexplained(const kd_timing *t)
{
    if (t->outputs_match || t->noutputs == 0)
        return false;
    for (size_t i = 0; i < t->noutputs; i++)
        if (!t->outputs[i].result.match)
            return false;
    return true;
}

bool kd_timing_incorrect(const kd_timing *t)
{
    return t->checked && (t->audit.failed || (t->noutputs == 0 && t->unpaired) || kd_timing_values_differ(t) ||
                          differ_unexplained(t));
}

bool kd_timing_unchecked(const kd_timing *t)
{
    if (!t->checked || kd_timing_incorrect(t))
        return false;
    for (size_t i = 0; i < t->noutputs; i++)
        if (t->outputs[i].result.match)
            return false;
    return true; /* no output, or none any side wrote */
}

void kd_timing_free(kd_timing *t)
{
    for (int s = 0; s < 2; s++) {
        free(t->side[s].samples);
        free(t->side[s].throttled);
        free(t->side[s].round);
    }
    for (size_t i = 0; i < t->noutputs; i++)
        free(t->outputs[i].name);
    free(t->outputs);
    free(t->unpaired);
    kd_audit_free(&t->audit);
    memset(t, 0, sizeof *t);
}

void kd_format_ns(double ns, char *buf, size_t n)
{
    if (ns >= 1e6)
        snprintf(buf, n, "%.3fms", ns / 1e6);
    else if (ns >= 1e5)
        snprintf(buf, n, "%.1fus", ns / 1e3);
    else if (ns >= 1e3)
        snprintf(buf, n, "%.2fus", ns / 1e3);
    else
        snprintf(buf, n, "%.0fns", ns);
}
