#include "measure/timing.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "wire/child.h"
#include "wire/session.h"
#include "util/fs.h"
#include "util/trace.h"

enum {
    SAMPLES_PER_BLOCK = 10,
    WARMUP_BUDGET_MS = 1000,
    CHECK_EXTRA_MS = 60000,        /* the correctness run copies every buffer twice */
};

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
    o->min_effect_pct = 0.5;
}

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec + ts.tv_nsec / 1e9;
}

typedef struct run_state {
    kd_child child[2];
    const kd_timing_side *sides;
    const kd_timing_options *o;
    kd_timing *out;
    kd_strbuf *error;
    int *failed_side;
    size_t cap;
} run_state;

/* Records why side s failed; returns the status to hand back. */
static kd_timing_status fail(run_state *r, int s, kd_reply_status st, const char *doing,
                             kd_timing_status status)
{
    *r->failed_side = s;
    kd_sb_printf(r->error, "%s: %s: ", r->sides[s].label, doing);
    kd_child_describe_failure(&r->child[s], st, r->error);
    return status;
}

/* Records a failure of side s whose message is already in `why`. */
static kd_timing_status fail_with(run_state *r, int s, kd_strbuf *why, kd_timing_status status)
{
    *r->failed_side = s;
    kd_sb_printf(r->error, "%s: %s", r->sides[s].label, kd_sb_str(why));
    kd_sb_free(why);
    return status;
}

static kd_timing_status describe(run_state *r, int s)
{
    kd_strbuf why = {0};
    kd_device_info info;
    if (kd_harness_describe(&r->child[s], &r->sides[s], r->o->seed, r->o->timeout_ms, &info, &why) != 0)
        return fail_with(r, s, &why, KD_TIMING_SETUP_FAILED);
    if (s == 0) {
        snprintf(r->out->device, sizeof r->out->device, "%s", info.name);
        r->out->sm = info.sm;
        r->out->sms = info.sms;
        r->out->l2_bytes = info.l2_bytes;
        r->out->driver = info.driver;
    }
    return KD_TIMING_OK;
}

/* Both sides allocate and fill their inputs at the same time. */
static kd_timing_status set_up(run_state *r)
{
    for (int s = 0; s < 2; s++)
        kd_child_send(&r->child[s], "setup");
    kd_timing_status result = KD_TIMING_OK;
    for (int s = 0; s < 2; s++) {
        kd_strbuf why = {0};
        if (kd_harness_setup_reply(&r->child[s], r->sides[s].spec, &r->out->side[s].device_bytes, &why) != 0 &&
            result == KD_TIMING_OK)
            result = fail_with(r, s, &why, KD_TIMING_SETUP_FAILED);
        kd_sb_free(&why);
    }
    return result;
}

static kd_timing_status warm_up(run_state *r)
{
    double fastest = INFINITY;
    for (int s = 0; s < 2; s++) {
        kd_child *c = &r->child[s];
        kd_reply_status st = kd_child_call(c, r->o->timeout_ms + WARMUP_BUDGET_MS, "warmup %d", WARMUP_BUDGET_MS);
        if (st != KD_REPLY_OK)
            return fail(r, s, st, "warming up", KD_TIMING_RUN_FAILED);
        const char *v;
        kd_side_timing *t = &r->out->side[s];
        t->warmup_median_ns = (v = kd_proto_value(&c->words, 1, "median_ns")) ? atof(v) : 0;
        t->warmup_launches = (v = kd_proto_value(&c->words, 1, "launches")) ? (unsigned)atoi(v) : 0;
        t->warmup_stable = (v = kd_proto_value(&c->words, 1, "stable")) && atoi(v) == 1;
        /* Both sides must use the same timer; the first one's is reported. */
        if ((v = kd_proto_value(&c->words, 1, "timer")) && (s == 0 || strcmp(v, r->out->timer) != 0)) {
            if (s == 1 && *r->out->timer) {
                *r->failed_side = 1;
                kd_sb_printf(r->error, "v1 is timed with %s but v2 with %s: set KERNDIFF_TIMER=events for both",
                             r->out->timer, v);
                return KD_TIMING_RUN_FAILED;
            }
            snprintf(r->out->timer, sizeof r->out->timer, "%s", v);
            const char *note = kd_proto_value(&c->words, 1, "timer_note");
            snprintf(r->out->timer_note, sizeof r->out->timer_note, "%s", note && strcmp(note, "-") ? note : "");
            kd_proto_decode(r->out->timer_note);
        }
        fastest = fmin(fastest, t->warmup_median_ns);
    }
    /* Both sides always run in the same mode: comparing a batched (warm L2) time with a
     * single-launch (flushed L2) time would compare different things. */
    long batch = r->o->batch;
    if (batch == 0 && fastest < BATCH_BELOW_NS)
        batch = (long)fmin(1000, fmax(2, ceil(BATCH_TARGET_NS / fmax(fastest, 1))));
    r->out->batched = batch > 0;
    r->out->batch = batch > 0 ? (unsigned)batch : 1;
    for (int s = 0; s < 2; s++) {
        kd_reply_status st = r->out->batched ? kd_child_call(&r->child[s], r->o->timeout_ms, "mode batched %u", r->out->batch)
                                             : kd_child_call(&r->child[s], r->o->timeout_ms, "mode single");
        if (st != KD_REPLY_OK)
            return fail(r, s, st, "choosing the timing mode", KD_TIMING_RUN_FAILED);
    }
    return KD_TIMING_OK;
}

static bool grow(run_state *r, size_t need)
{
    if (need <= r->cap)
        return true;
    size_t cap = r->cap ? r->cap * 2 : 256;
    while (cap < need)
        cap *= 2;
    for (int s = 0; s < 2; s++) {
        double *samples = realloc(r->out->side[s].samples, cap * sizeof *samples);
        if (samples)
            r->out->side[s].samples = samples;
        bool *throttled = realloc(r->out->side[s].throttled, cap * sizeof *throttled);
        if (throttled)
            r->out->side[s].throttled = throttled;
        if (!samples || !throttled)
            return false;
    }
    r->cap = cap;
    return true;
}

/* Parses "ok time clock0=.. clock1=.. reasons=.. throttled=.. samples=a,b,c" into side s. */
static bool take_block(run_state *r, int s, int k)
{
    kd_child *c = &r->child[s];
    kd_side_timing *t = &r->out->side[s];
    const char *samples = kd_proto_value(&c->words, 1, "samples");
    const char *clock0 = kd_proto_value(&c->words, 1, "clock0"), *clock1 = kd_proto_value(&c->words, 1, "clock1");
    const char *reasons = kd_proto_value(&c->words, 1, "reasons"), *thr = kd_proto_value(&c->words, 1, "throttled");
    if (!samples || !clock0 || !clock1 || !reasons || !thr || !grow(r, t->n + (size_t)k))
        return false;
    size_t first = t->n;
    for (const char *p = samples; *p;) {
        char *end;
        double v = strtod(p, &end);
        if (end == p || !(v > 0) || !isfinite(v) || t->n - first >= (size_t)k)
            return false;
        t->samples[t->n] = v;
        t->throttled[t->n] = atoi(thr) != 0;
        t->n++;
        p = *end == ',' ? end + 1 : end;
        if (*end && *end != ',')
            return false;
    }
    if (t->n - first != (size_t)k)
        return false;
    unsigned c0 = (unsigned)atoi(clock0), c1 = (unsigned)atoi(clock1);
    unsigned lo = c0 < c1 ? c0 : c1, hi = c0 < c1 ? c1 : c0;
    if (lo && (!t->clock_min_mhz || lo < t->clock_min_mhz))
        t->clock_min_mhz = lo;
    if (hi > t->clock_max_mhz)
        t->clock_max_mhz = hi;
    t->reasons_seen |= strtoull(reasons, NULL, 16);
    if (atoi(thr))
        t->throttled_count += (size_t)k;
    return true;
}

static kd_timing_status time_block(run_state *r, int s)
{
    kd_child *c = &r->child[s];
    /* The watchdog allows every sample of the block a full --timeout. */
    kd_reply_status st = kd_child_call(c, r->o->timeout_ms + (int)(SAMPLES_PER_BLOCK * r->out->batch), "time %d",
                                       SAMPLES_PER_BLOCK);
    if (st != KD_REPLY_OK)
        return fail(r, s, st, "timing the kernel", KD_TIMING_RUN_FAILED);
    if (!take_block(r, s, SAMPLES_PER_BLOCK))
        return fail(r, s, KD_REPLY_GARBLED, "timing the kernel", KD_TIMING_RUN_FAILED);
    return KD_TIMING_OK;
}

/* splitmix64: the interleaving order comes from --seed, so a run can be replayed. */
static unsigned long long next_random(unsigned long long *state)
{
    unsigned long long z = (*state += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

static int compute_speedup(run_state *r, int resamples)
{
    double *kept[2] = {NULL, NULL};
    size_t n[2] = {0, 0};
    int rc = -1;
    for (int s = 0; s < 2; s++) {
        kept[s] = malloc(r->out->side[s].n * sizeof *kept[s] + 1);
        if (!kept[s])
            goto out;
        n[s] = kd_remove_outliers(r->out->side[s].samples, r->out->side[s].n, kept[s]);
    }
    rc = kd_speedup_ci(kept[0], n[0], kept[1], n[1], KD_SPEEDUP_CONFIDENCE, resamples, r->o->seed, &r->out->speedup);
out:
    free(kept[0]);
    free(kept[1]);
    return rc;
}

static kd_timing_status measure_rounds(run_state *r)
{
    unsigned long long order_state = r->o->seed ^ 0xA5A5A5A5ull;
    double start = now_s();
    size_t next_check = (size_t)r->o->min_runs;
    for (;;) {
        int first = (int)(next_random(&order_state) & 1);
        for (int i = 0; i < 2; i++) {
            kd_timing_status st = time_block(r, i == 0 ? first : 1 - first);
            if (st != KD_TIMING_OK)
                return st;
        }
        r->out->rounds++;
        size_t n = r->out->side[0].n;
        double elapsed = now_s() - start;
        if (n >= next_check) {
            /* Checking every round would cost a bootstrap each time; every 25% more samples
             * is enough to stop close to where the target is met. */
            next_check = n + (n / 4 > SAMPLES_PER_BLOCK ? n / 4 : SAMPLES_PER_BLOCK);
            if (compute_speedup(r, KD_CHECK_RESAMPLES) == 0 &&
                kd_speedup_ci_halfwidth_pct(&r->out->speedup) <= r->o->target_pct) {
                r->out->stop_reason = KD_STOP_TARGET_REACHED;
                break;
            }
        }
        if (elapsed >= r->o->max_time_s && n >= 2) {
            r->out->stop_reason = KD_STOP_MAX_TIME;
            break;
        }
        if (n >= (size_t)r->o->max_runs) {
            r->out->stop_reason = KD_STOP_MAX_RUNS;
            break;
        }
    }
    r->out->measure_s = now_s() - start;
    if (compute_speedup(r, KD_FINAL_RESAMPLES) != 0) {
        kd_sb_puts(r->error, "too few samples to compare");
        return KD_TIMING_RUN_FAILED;
    }
    r->out->target_pct = r->o->target_pct;
    /* The decision to stop was taken on the cheaper bootstrap; the reported interval comes
     * from the larger one and may be a hair wider. */
    r->out->target_reached = r->out->stop_reason == KD_STOP_TARGET_REACHED;
    r->out->verdict = kd_verdict_with_floor(&r->out->speedup, r->o->min_effect_pct);
    r->out->min_effect_pct = r->o->min_effect_pct;
    for (int s = 0; s < 2; s++) {
        kd_summarize(r->out->side[s].samples, r->out->side[s].n, &r->out->side[s].summary);
        r->out->clocks_locked |= (r->out->side[s].reasons_seen & 0x2) != 0;
    }
    return KD_TIMING_OK;
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
        if (a->role != KD_ROLE_OUTPUT)
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

/* The seeded run decides the values; the poisoned run says which were never written. */
static void compare_pair(const output_ref *x, const output_ref *y, const char *v1_data, const char *v2_data,
                         const size_t total[2], const kd_timing_options *o, kd_output_check *oc)
{
    oc->name = strdup(x->arg->name);
    oc->type = x->arg->type;
    kd_dtype t = x->arg->type.base;
    oc->tolerance = o->tolerance_given ? o->tolerance : kd_default_tolerance(t);
    size_t elements = x->elements < y->elements ? x->elements : y->elements;
    if (t != y->arg->type.base || x->elements != y->elements) {
        oc->result.count = elements;
        oc->result.mismatches = t != y->arg->type.base ? elements
                                : x->elements > y->elements ? x->elements - y->elements
                                                            : y->elements - x->elements;
        return;
    }
    kd_compare_buffers(t, v1_data + x->offset, v2_data + y->offset, elements, oc->tolerance, &oc->result);
    oc->result.unwritten[0] = kd_count_poison(t, v1_data + total[0] + x->offset, elements);
    oc->result.unwritten[1] = kd_count_poison(t, v2_data + total[1] + y->offset, elements);
    if (oc->result.unwritten[0] != oc->result.unwritten[1])
        oc->result.match = false;
}

/* The check file holds every output buffer of the seeded run, then every output buffer of
 * the poisoned run. */
static kd_timing_status check_outputs(run_state *r, const char *workdir)
{
    char *data[2] = {NULL, NULL};
    size_t len[2] = {0, 0};
    kd_timing_status status = KD_TIMING_OK;
    char *paths[2];
    for (int s = 0; s < 2; s++) { /* both sides run their check at once */
        char name[32];
        snprintf(name, sizeof name, "%s.outputs", r->sides[s].label);
        paths[s] = kd_path_join(workdir, name);
        char *encoded = kd_proto_encode(paths[s]);
        kd_child_send(&r->child[s], "check %s", encoded);
        free(encoded);
    }
    for (int s = 0; s < 2; s++) {
        kd_reply_status st = kd_child_receive(&r->child[s], r->o->timeout_ms * 3 + CHECK_EXTRA_MS);
        if (st == KD_REPLY_OK)
            data[s] = kd_read_file(paths[s], &len[s]);
        else if (status == KD_TIMING_OK)
            status = fail(r, s, st, "running the correctness check", KD_TIMING_RUN_FAILED);
    }
    free(paths[0]);
    free(paths[1]);
    if (status != KD_TIMING_OK)
        goto out;
    output_ref refs[2][KD_MAX_OUTPUTS];
    size_t nrefs[2], total[2];
    for (int s = 0; s < 2; s++) {
        nrefs[s] = list_outputs(r->sides[s].spec, refs[s], &total[s]);
        if (!data[s] || len[s] != 2 * total[s]) {
            *r->failed_side = s;
            kd_sb_printf(r->error, "%s: the correctness run wrote %zu bytes, expected %zu", r->sides[s].label,
                         data[s] ? len[s] : 0, 2 * total[s]);
            status = KD_TIMING_RUN_FAILED;
            goto out;
        }
    }
    int partner[KD_MAX_OUTPUTS];
    pair_outputs(refs, nrefs, partner);
    r->out->outputs = calloc(nrefs[0] + 1, sizeof *r->out->outputs);
    r->out->outputs_match = true;
    for (size_t i = 0; i < nrefs[0]; i++) {
        if (partner[i] < 0) {
            note_unpaired(r->out, "v1", refs[0][i].arg->name);
            continue;
        }
        const output_ref *x = &refs[0][i], *y = &refs[1][partner[i]];
        kd_output_check *oc = &r->out->outputs[r->out->noutputs++];
        compare_pair(x, y, data[0], data[1], total, r->o, oc);
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
    r->out->checked = true;
out:
    free(data[0]);
    free(data[1]);
    return status;
}

kd_timing_status kd_measure(const kd_timing_side sides[2], const kd_timing_options *o,
                            const char *workdir, kd_timing *out, kd_strbuf *error, int *failed_side)
{
    memset(out, 0, sizeof *out);
    run_state r = {.sides = sides, .o = o, .out = out, .error = error, .failed_side = failed_side};
    kd_timing_status st = KD_TIMING_OK;
    int started = 0;
    for (; started < 2 && st == KD_TIMING_OK; started++) {
        kd_strbuf why = {0};
        if (kd_child_start(&r.child[started], sides[started].label, sides[started].harness_argv, &why) != 0) {
            *failed_side = started;
            kd_sb_printf(error, "%s: cannot start the harness %s: %s", sides[started].label,
                         sides[started].harness_argv[0], kd_sb_str(&why));
            st = KD_TIMING_SETUP_FAILED;
        }
        kd_sb_free(&why);
    }
    for (int s = 0; s < 2 && st == KD_TIMING_OK; s++)
        st = describe(&r, s);
    kd_trace("harnesses started, kernels loaded");
    if (st == KD_TIMING_OK)
        st = set_up(&r);
    kd_trace("buffers allocated and filled");
    if (st == KD_TIMING_OK)
        st = warm_up(&r);
    kd_trace("warmed up");
    if (st == KD_TIMING_OK)
        st = measure_rounds(&r);
    kd_trace("measured: %zu rounds", out->rounds);
    if (st == KD_TIMING_OK && o->check)
        st = check_outputs(&r, workdir);
    kd_trace("outputs checked");
    for (int s = 0; s < started; s++)
        kd_child_stop(&r.child[s]);
    return st;
}

void kd_timing_free(kd_timing *t)
{
    for (int s = 0; s < 2; s++) {
        free(t->side[s].samples);
        free(t->side[s].throttled);
    }
    for (size_t i = 0; i < t->noutputs; i++)
        free(t->outputs[i].name);
    free(t->outputs);
    free(t->unpaired);
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
