/* Running a rank's heats (rank/run.h). */
#include "rank/run.h"

#include <dirent.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "backend/backend.h"
#include "compile/cache.h"
#include "diff/comparison.h"
#include "diff/pipeline.h"
#include "diff/runtime.h"
#include "backend/backend_msgs.h"
#include "git/revision.h"
#include "rank/prebuild.h"
#include "source/kinds.h"
#include "util/diag.h"
#include "util/env.h"
#include "util/fs.h"
#include "util/progress.h"
#include "util/tmpdir.h"
#include "util/xalloc.h"
#include "wire/client.h"

enum {
    MAX_OPEN = 32,          /* harness children open at once (each a CUDA context on its GPU) */
    PREFETCH = 8,           /* blocks a child takes when it was (re)opened while more contend */
    WARMUP_MS = 500,
    GATE_SAMPLES = 10,      /* the gate's timing run: the check is what it is for */
};
#define BATCH_BELOW_NS 2000.0
#define BATCH_TARGET_NS 50000.0

static int by_name(const void *a, const void *b) { return strcmp(*(char *const *)a, *(char *const *)b); }

/* Whether two paths name one file (a folder of candidates that holds the baseline too). */
static bool same_file(const char *a, const char *b)
{
    char *x = realpath(a, NULL), *y = b ? realpath(b, NULL) : NULL;
    bool same = x && y && strcmp(x, y) == 0;
    free(x);
    free(y);
    return same;
}

kd_outcome kd_rank_expand(const char *const *operands, size_t n, const char *baseline, kd_strlist *out, kd_rank_error *e)
{
    for (size_t i = 0; i < n; i++) {
        if (!kd_is_dir(operands[i])) {
            kd_strlist_push(out, kd_xstrdup(operands[i]));
            continue;
        }
        DIR *d = opendir(operands[i]);
        size_t before = out->count;
        for (struct dirent *de; d && (de = readdir(d));)
            if (de->d_name[0] != '.' && kd_source_is_kernel(de->d_name)) {
                char *path = kd_path_join(operands[i], de->d_name);
                if (same_file(path, baseline))
                    free(path);
                else
                    kd_strlist_push(out, path);
            }
        if (d)
            closedir(d);
        if (out->count == before) {
            e->kind = KD_RANK_ERR_NO_CANDIDATES;
            e->detail = kd_xstrdup(operands[i]);
            return KD_FAIL_INPUT;
        }
        qsort(out->items + before, out->count - before, sizeof *out->items, by_name);
    }
    return KD_OK;
}

static double now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

static uint64_t mix(uint64_t z)
{
    z += 0x9E3779B97F4A7C15ull;
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

/* The simulated harness's specs (KERNDIFF_SIMULATE="BASE;C1;C2;..."): input i's, the last
 * one for every input after it. NULL when not simulated. */
typedef struct sim_specs {
    kd_strlist list;
    const char *saved;      /* the variable as the user set it */
} sim_specs;

static const char *spec_of(const sim_specs *s, size_t input)
{
    if (!s->list.count)
        return NULL;
    return s->list.items[input < s->list.count ? input : s->list.count - 1];
}

/* The diff pipeline's simulated backend reads "V1SPEC;V2SPEC": for a candidate's gate, the
 * baseline's and its own. */
static void simulate_pair(const sim_specs *s, size_t cand_input)
{
    if (!s->list.count)
        return;
    kd_strbuf sb = {0};
    kd_sb_printf(&sb, "%s;%s", spec_of(s, 0), spec_of(s, cand_input));
    setenv("KERNDIFF_SIMULATE", kd_sb_str(&sb), 1);
    kd_sb_free(&sb);
}

/* What the race needs of a gated side: kd_timing_side_of's inputs, taken out of it. A
 * comparison is 25 KB (most of it the passes' results), a kd_side 4.7 KB: at 1,000
 * candidates racing, tens of MB kept for a few paths and the launch. */
typedef struct race_side {
    const char *label;
    bool launcher;
    char *cubin_path, *launcher_path, *entry;
    kd_launch_spec launch;
    kd_strlist fill;
} race_side;

typedef struct cand_run {
    race_side side[2];      /* the built sides the race loads, unless ... */
    kd_comparison *c;       /* ... the comparison is kept whole: a side points into it (a
                               replayed launch's capture) */
    kd_child *child;        /* one per GPU used (not KD_RANK_MAX_GPUS each: 2 KB a candidate) */
    bool *open;
    unsigned long long *used;
    size_t input;           /* 1 + its index among the candidates (0 is the baseline) */
    /* Blocks taken ahead: with more contenders than children open at once, a child opened
     * again takes PREFETCH blocks (its next rounds, each on a new placement) so that the
     * start is paid once for them, not once a round. */
    double *ahead_base, *ahead_cand;
    unsigned ahead_n, ahead_at, ahead_k;
    bool failed_ahead;      /* a block taken ahead failed: the candidate is out (its gate says why) */
    unsigned char *gpu_at;  /* the GPU slot of each round's block (its samples are kept per GPU) */
    unsigned ngpu_at;
    /* The race's audits (issue 39), as the timing pass audits: the gate audited the candidate
     * in its own child, and one that cheats once its race has run long enough is caught here. */
    kd_audit audit;
    unsigned next_audit;    /* the race round after whose block the next audit runs (0: not planned) */
} cand_run;

typedef struct heat_run {
    const kd_rank_request *r;
    const sim_specs *sim;
    const kd_backend *backend;
    kd_rank_heat *heat;
    kd_rank_entry **raced;  /* the race's candidates */
    cand_run *cands;
    size_t nraced;
    int gpus[KD_RANK_MAX_GPUS];
    size_t ngpus;
    size_t open;
    size_t live;            /* candidates still in the race */
    unsigned long long clock;
    unsigned long long secret; /* the audits' secret state (kd_audit_secret): never --seed */
    double start_ms;
    kd_rank_error *error;
    const char *user_cvd;   /* CUDA_VISIBLE_DEVICES as the user set it, or NULL */
    bool refused;           /* mixed GPU models: the rank stops */
} heat_run;

static void close_child(heat_run *h, size_t i, size_t g)
{
    cand_run *cr = &h->cands[i];
    if (!cr->open[g])
        return;
    kd_child_stop(&cr->child[g]);
    cr->open[g] = false;
    h->open--;
}

static void evict_oldest(heat_run *h)
{
    size_t bi = 0, bg = 0;
    unsigned long long oldest = ~0ull;
    for (size_t i = 0; i < h->nraced; i++)
        for (size_t g = 0; g < h->ngpus; g++)
            if (h->cands[i].open[g] && h->cands[i].used[g] < oldest) {
                oldest = h->cands[i].used[g];
                bi = i, bg = g;
            }
    if (oldest != ~0ull)
        close_child(h, bi, bg);
}

static void fail_candidate(heat_run *h, size_t i, const char *doing, kd_child *c, kd_reply_status st, const kd_strbuf *why)
{
    kd_rank_entry *e = h->raced[i];
    kd_strbuf sb = {0};
    kd_sb_printf(&sb, "%s: ", doing);
    if (why)
        kd_sb_puts(&sb, kd_sb_str(why));
    else
        kd_child_failure_words(c, st, NULL, &sb);
    free(e->reason);
    e->reason = kd_sb_take(&sb);
    e->gate = KD_RANK_RUN_FAILED;
}

/* CUDA_VISIBLE_DEVICES for the child of device `index`: the index-th entry of the user's
 * list when one is set (the harness sees that one device as its device 0). */
static void select_device(heat_run *h, size_t g)
{
    if (!h->r->ngpus && !h->r->gpus_all)
        return;
    const char *user = h->user_cvd;
    char value[64];
    snprintf(value, sizeof value, "%d", h->gpus[g]);
    if (user && *user) {
        const char *p = user;
        for (int k = 0; k < h->gpus[g] && p; k++)
            p = strchr(p, ',') ? strchr(p, ',') + 1 : NULL;
        if (p)
            snprintf(value, sizeof value, "%.*s", (int)strcspn(p, ","), p);
    }
    setenv("CUDA_VISIBLE_DEVICES", value, 1);
}

/* The variable as the user set it, once the child has it (the gates run with the user's). */
static void restore_device(const heat_run *h)
{
    if (!h->r->ngpus && !h->r->gpus_all)
        return;
    if (h->user_cvd)
        setenv("CUDA_VISIBLE_DEVICES", h->user_cvd, 1);
    else
        unsetenv("CUDA_VISIBLE_DEVICES");
}

/* The device of slot g, from its first child's hello: the models must agree. */
static bool note_device(heat_run *h, size_t g, const kd_device_info *info)
{
    kd_rank_device *d = &h->heat->devices[g];
    if (!d->name[0])
        snprintf(d->name, sizeof d->name, "%s", info->name);
    for (size_t k = 0; k < h->ngpus && !h->r->mixed_gpus; k++)
        if (h->heat->devices[k].name[0] && strcmp(h->heat->devices[k].name, d->name) != 0) {
            h->refused = true;
            h->error->kind = KD_RANK_ERR_MIXED_GPUS;
            kd_strbuf sb = {0};
            kd_sb_printf(&sb, "%s (GPU %d) and %s (GPU %d)", h->heat->devices[k].name, h->heat->devices[k].index, d->name,
                         d->index);
            free(h->error->detail);
            h->error->detail = kd_sb_take(&sb);
            return false;
        }
    return true;
}

/* A kd_side holding only the race's part of a side (kd_timing_side_of's inputs), borrowed. */
static const kd_side *stub_of(const race_side *r, kd_side *stub)
{
    memset(stub, 0, sizeof *stub);
    stub->label = r->label;
    stub->stat.launcher = r->launcher;
    stub->stat.entry = r->entry;
    stub->build.cubin_path = r->cubin_path;
    stub->build.launcher_path = r->launcher_path;
    stub->launch = r->launch;
    stub->abi.fill = r->fill;
    return stub;
}

/* Starts candidate i's child on GPU slot g: the baseline in slot 0, the candidate in slot 1
 * on the baseline's buffers, warmed up, in the timing pass's mode. */
static int open_child(heat_run *h, size_t i, size_t g)
{
    cand_run *cr = &h->cands[i];
    const kd_timing_options *to = &h->r->diff->timing;
    while (h->open >= MAX_OPEN)
        evict_oldest(h);
    kd_argv argv = {{NULL}};
    kd_strbuf why = {0};
    if (h->backend->harness(-1, &argv, &why) != 0) {
        fail_candidate(h, i, "starting the harness", NULL, KD_REPLY_OK, &why);
        kd_sb_free(&why);
        return -1;
    }
    if (h->sim->list.count) { /* slot 0 the baseline's spec, slot 1 the candidate's */
        free(argv.items[1]);
        free(argv.items[2]);
        argv.items[1] = kd_xstrdup(spec_of(h->sim, 0));
        argv.items[2] = kd_xstrdup(spec_of(h->sim, cr->input));
    }
    kd_timing_side sides[2];
    kd_side stub[2]; /* kd_timing_side_of reads a kd_side: one holding the race's part */
    for (int s = 0; s < 2; s++) {
        const kd_side *built = cr->c ? &cr->c->side[s] : stub_of(&cr->side[s], &stub[s]);
        sides[s] = kd_timing_side_of(built, &argv);
    }
    select_device(h, g);
    kd_child *c = &cr->child[g];
    int rc = kd_child_start(c, h->raced[i]->name, (const char *const *)argv.items, &why);
    restore_device(h);
    kd_argv_free(&argv);
    if (rc != 0) {
        fail_candidate(h, i, "starting the harness", NULL, KD_REPLY_OK, &why);
        kd_sb_free(&why);
        return -1;
    }
    cr->open[g] = true;
    h->open++;
    h->heat->devices[g].harness_starts++;
    kd_device_info info;
    int share[256];
    const char *doing = "loading the baseline and the candidate";
    rc = kd_wire_hello(c, &info, &why);
    if (rc == 0 && !note_device(h, g, &info))
        rc = -1;
    if (rc == 0 && sides[1].spec->nargs <= 256) {
        kd_share_buffers(sides[0].spec, sides[1].spec, share);
        rc = kd_wire_describe(c, 0, &sides[0], NULL, to->timeout_ms, &why) == 0 &&
                     kd_wire_describe(c, 1, &sides[1], share, to->timeout_ms, &why) == 0
                 ? 0
                 : -1;
    }
    kd_reply_status st = KD_REPLY_OK;
    if (rc == 0 && (st = kd_wire_seed(c, to->seed, to->timeout_ms)) != KD_REPLY_OK)
        rc = -2;
    if (rc == 0) {
        doing = "allocating the buffers";
        kd_wire_send_setup(c);
        unsigned long long bytes;
        rc = kd_wire_setup_reply(c, kd_launch_spec_bytes(sides[0].spec) + kd_launch_spec_bytes(sides[1].spec), &bytes, &why);
    }
    double fastest = INFINITY;
    for (int s = 0; s < 2 && rc == 0; s++) {
        doing = "warming up";
        kd_warmup_result w;
        if ((st = kd_wire_side(c, s, to->timeout_ms)) != KD_REPLY_OK ||
            (st = kd_wire_warmup(c, WARMUP_MS, to->timeout_ms, &w)) != KD_REPLY_OK)
            rc = -2;
        else
            fastest = fmin(fastest, w.median_ns);
    }
    if (rc == 0) { /* both sides in one mode, as the timing pass (measure/timing.c) */
        long batch = to->batch;
        if (batch == 0 && fastest < BATCH_BELOW_NS)
            batch = (long)fmin(1000, fmax(2, ceil(BATCH_TARGET_NS / fmax(fastest, 1))));
        if ((st = kd_wire_mode(c, batch > 0 ? (unsigned)batch : 0, to->timeout_ms)) != KD_REPLY_OK)
            rc = -2;
    }
    if (rc != 0 && !h->refused)
        fail_candidate(h, i, doing, c, st, rc == -1 ? &why : NULL);
    kd_sb_free(&why);
    if (rc != 0)
        close_child(h, i, g);
    return rc == 0 ? 0 : -1;
}

/* Which block take_block takes: candidate i's, in its child on GPU slot g, for race round
 * `round`, k samples a side. */
typedef struct {
    size_t i, g;
    unsigned round, k;
} block_at;

static char *audit_reason(const kd_audit *a, const char *which);

/* After candidate i's block of `at->round`, the audit its secret schedule puts there (the
 * timing pass's, measure/timing.h): both slots on one secret seed, compared. A failed audit
 * takes the candidate out of the race as incorrect; an audit that could not run, as run_failed. */
static int audit_if_due(heat_run *h, const block_at *at)
{
    cand_run *cr = &h->cands[at->i];
    const kd_timing_options *to = &h->r->diff->timing;
    if (!cr->next_audit)
        cr->next_audit = 1 + kd_audit_gap(&h->secret, 0);
    const char *tmp = kd_tmpdir();
    if (!to->check || !to->audits || at->round + 1 < cr->next_audit || !tmp)
        return 0;
    kd_timing_side sides[2];
    kd_side stub[2];
    kd_argv none = {{NULL}};
    for (int s = 0; s < 2; s++)
        sides[s] = kd_timing_side_of(cr->c ? &cr->c->side[s] : stub_of(&cr->side[s], &stub[s]), &none);
    int share[256];
    if (sides[1].spec->nargs > 256)
        return 0;
    kd_share_buffers(sides[0].spec, sides[1].spec, share);
    kd_audit_request rq = {.child = &cr->child[at->g], .sides = sides, .share = share, .o = to, .workdir = tmp,
                           .round = at->round, .samples = (size_t)(at->round + 1) * at->k};
    kd_strbuf why = {0};
    kd_timing_status st = kd_audit_once(&rq, kd_audit_secret(&h->secret), &cr->audit, &why);
    cr->next_audit = at->round + 1 + kd_audit_gap(&h->secret, cr->audit.done);
    if (st == KD_TIMING_OK && !cr->audit.failed)
        return 0;
    kd_rank_entry *e = h->raced[at->i];
    if (st != KD_TIMING_OK) {
        fail_candidate(h, at->i, "auditing the candidate in the race", NULL, KD_REPLY_OK, &why);
    } else {
        free(e->reason);
        e->reason = audit_reason(&cr->audit, "race audit");
        e->gate = KD_RANK_INCORRECT;
    }
    kd_sb_free(&why);
    close_child(h, at->i, at->g);
    return -1;
}

/* One block (at->k samples a side into base and cand): a new placement, then the baseline and
 * the candidate in a random order. */
static int take_block(heat_run *h, const block_at *at, double *base, double *cand)
{
    size_t i = at->i, g = at->g;
    unsigned round = at->round, k = at->k;
    cand_run *cr = &h->cands[i];
    kd_child *c = &cr->child[g];
    const kd_timing_options *to = &h->r->diff->timing;
    uint64_t z = mix(to->seed ^ mix(cr->input * 1000003u + round));
    bool moved;
    kd_reply_status st = kd_wire_place(c, z, to->timeout_ms, &moved);
    const char *doing = "moving the buffers";
    int first = (int)(z >> 63);
    for (int j = 0; j < 2 && st == KD_REPLY_OK; j++) {
        int s = j == 0 ? first : 1 - first;
        kd_time_block b = {.samples = s == 0 ? base : cand};
        doing = s == 0 ? "timing the baseline" : "timing the candidate";
        if ((st = kd_wire_side(c, s, to->timeout_ms)) == KD_REPLY_OK)
            st = kd_wire_time(c, (int)k, to->timeout_ms * (int)k, &b);
    }
    if (st != KD_REPLY_OK) {
        fail_candidate(h, i, doing, c, st, NULL);
        close_child(h, i, g);
        return -1;
    }
    return audit_if_due(h, at);
}

/* A candidate that raced to the end is audited once more after its last block (a kernel
 * cannot tell that no sample follows), in a child still open: one that began to cheat after
 * its last audit is caught before it is ranked. */
static void audit_at_end(heat_run *h, size_t i, unsigned rounds)
{
    cand_run *cr = &h->cands[i];
    for (size_t g = 0; g < h->ngpus; g++)
        if (cr->open[g] && h->raced[i]->gate == KD_RANK_SAME) {
            cr->next_audit = rounds; /* due now */
            audit_if_due(h, &(block_at){.i = i, .g = g, .round = rounds ? rounds - 1 : 0, .k = 0});
            return;
        }
}

/* Notes that candidate i's block of `round` was taken on GPU slot g. */
static void note_gpu(cand_run *cr, unsigned round, size_t g)
{
    if (round >= cr->ngpu_at) {
        unsigned n = round + 1 > 2 * cr->ngpu_at ? round + 1 : 2 * cr->ngpu_at;
        cr->gpu_at = kd_xreallocarray(cr->gpu_at, n, sizeof *cr->gpu_at);
        memset(cr->gpu_at + cr->ngpu_at, 0, n - cr->ngpu_at);
        cr->ngpu_at = n;
    }
    cr->gpu_at[round] = (unsigned char)g;
}

/* Candidates pinned to one GPU each (slot i % ngpus) once a child per candidate and GPU would
 * not fit in MAX_OPEN: each child is then reused round after round instead of restarted (a
 * start is a process and two warm-ups). Below that, the rounds of each candidate alternate
 * between the GPUs (each GPU's ratios kept apart, so they can be compared). Either way a
 * block's ratio is made on one GPU. */
static bool pinned(const heat_run *h)
{
    return h->ngpus > 1 && h->nraced * h->ngpus > MAX_OPEN;
}

static int sample(void *ctx, size_t i, unsigned round, unsigned k, double *base, double *cand)
{
    heat_run *h = ctx;
    if (h->refused)
        return -1;
    cand_run *cr = &h->cands[i];
    if (cr->failed_ahead && cr->ahead_at >= cr->ahead_n)
        return -1; /* a block taken ahead failed (a crash, a failed audit): out, as it is */
    if (cr->ahead_at < cr->ahead_n && cr->ahead_k == k) { /* taken ahead, in this round's order */
        memcpy(base, cr->ahead_base + (size_t)cr->ahead_at * k, k * sizeof *base);
        memcpy(cand, cr->ahead_cand + (size_t)cr->ahead_at * k, k * sizeof *cand);
        cr->ahead_at++;
        return 0;
    }
    size_t g = pinned(h) ? i % h->ngpus : round % h->ngpus; /* a block on one GPU: its ratio is made there */
    bool reopened = !cr->open[g];
    if (reopened && open_child(h, i, g) != 0)
        return -1;
    cr->used[g] = ++h->clock;
    note_gpu(cr, round, g);
    if (take_block(h, &(block_at){.i = i, .g = g, .round = round, .k = k}, base, cand) != 0)
        return -1;
    /* Thrashing (more contenders than open children), a candidate on one GPU: the next rounds now. */
    if (reopened && h->live > MAX_OPEN && (h->ngpus == 1 || pinned(h)) && round > 0) {
        cr->ahead_base = kd_xreallocarray(cr->ahead_base, (size_t)PREFETCH * k, sizeof *cr->ahead_base);
        cr->ahead_cand = kd_xreallocarray(cr->ahead_cand, (size_t)PREFETCH * k, sizeof *cr->ahead_cand);
        cr->ahead_n = cr->ahead_at = 0;
        cr->ahead_k = k;
        for (unsigned j = 1; j < PREFETCH; j++, cr->ahead_n++) {
            note_gpu(cr, round + j, g);
            if (take_block(h, &(block_at){.i = i, .g = g, .round = round + j, .k = k},
                           cr->ahead_base + (size_t)cr->ahead_n * k, cr->ahead_cand + (size_t)cr->ahead_n * k) != 0) {
                cr->ahead_n = 0; /* failed: its gate says why, and the next block is refused */
                cr->failed_ahead = true;
                break;
            }
        }
    }
    return 0;
}

static bool out_of_budget(void *ctx)
{
    heat_run *h = ctx;
    return h->refused || (h->r->budget_ms > 0 && now_ms() - h->start_ms >= h->r->budget_ms);
}

static void left(void *ctx, size_t i)
{
    heat_run *h = ctx;
    h->live--;
    for (size_t g = 0; g < h->ngpus; g++)
        close_child(h, i, g);
}

static const char *outcome_name(int rc)
{
    static const char *const names[] = {"ok", "usage", "input", "build", "runtime", "tool", "sanitizer"};
    return rc >= 0 && (size_t)rc < sizeof names / sizeof *names ? names[rc] : "failed";
}

static kd_rank_static static_of(const kd_side *s)
{
    const kd_static_result *st = &s->stat;
    if (!st->resources.found) /* unknown: `?`, never 0 registers */
        return (kd_rank_static){-1, -1, st->occupancy_valid ? st->occupancy.occupancy : -1};
    return (kd_rank_static){st->resources.registers, st->resources.spill_stores + st->resources.spill_loads,
                            st->occupancy_valid ? st->occupancy.occupancy : -1};
}

/* A failed audit, as data: "audit: NAME: MISMATCHES of COUNT (STALE left as before by v2)"
 * or "audit: v2 wrote into input NAME" ("race audit" when the race's). */
static char *audit_reason(const kd_audit *a, const char *which)
{
    kd_strbuf sb = {0};
    if (!a->output && a->mutated_input) {
        kd_sb_printf(&sb, "%s: %s wrote into input %s", which, a->mutated_side ? "v2" : "v1", a->mutated_input);
        return kd_sb_take(&sb);
    }
    kd_sb_printf(&sb, "%s: %s: %zu of %zu", which, a->output ? a->output : "outputs", a->mismatches, a->count);
    if (a->stale_side >= 0)
        kd_sb_printf(&sb, " (%zu left as before by %s)", a->stale, a->stale_side ? "v2" : "v1");
    return kd_sb_take(&sb);
}

/* The first output that differs, as data: "NAME: MISMATCHES of COUNT", or a failed audit's. */
static char *mismatch_of(const kd_timing *t)
{
    bool values_differ = kd_timing_values_differ(t);
    if (t->noutputs && !values_differ && t->audit.failed)
        return audit_reason(&t->audit, "audit");
    for (size_t i = 0; i < t->noutputs; i++)
        if (!t->outputs[i].result.match) {
            kd_strbuf sb = {0};
            kd_sb_printf(&sb, "%s: %zu of %zu", t->outputs[i].name, (size_t)t->outputs[i].result.mismatches,
                         (size_t)t->outputs[i].result.count);
            return kd_sb_take(&sb);
        }
    return kd_xstrdup(t->noutputs ? "outputs" : "no output compared");
}

static char *note_reason(const kd_note *n, const char *fallback)
{
    if (!n->present)
        return kd_xstrdup(fallback);
    kd_strbuf sb = {0};
    kd_sb_printf(&sb, "%s%s%s", kd_note_id_name(n->id), n->detail ? ": " : "", n->detail ? n->detail : "");
    return kd_sb_take(&sb);
}

/* What the diff pipeline said while it gated a candidate (handed on to the sink as before): a
 * build_failed candidate's reason is nvcc's first error lines, or the failure's own words,
 * never "build" or "input" alone. */
typedef struct gate_watch {
    kd_diag_sink sink;
    void *ctx;
    kd_strbuf nvcc;      /* the first failed build's error lines */
    kd_strbuf last;      /* the first line of the last message said */
} gate_watch;

/* The first `want` lines of nvcc's output that say "error:" (else its first lines), joined by "; ". */
static void error_lines(const char *text, size_t want, kd_strbuf *out)
{
    for (int pass = 0; pass < 2 && !out->len; pass++) {
        size_t n = 0;
        for (const char *p = text; *p && n < want;) {
            size_t len = strcspn(p, "\n");
            bool blank = strspn(p, " \t") >= len;
            bool error = false;
            for (const char *q = p; q + 6 <= p + len && !error; q++)
                error = !strncmp(q, "error:", 6);
            if (!blank && (error || pass == 1)) {
                kd_sb_printf(out, "%s%.*s", n ? "; " : "", (int)(len > 300 ? 300 : len), p);
                n++;
            }
            p += len + (p[len] == '\n');
        }
    }
}

static void watch_gate(const kd_diag *d, void *ctx)
{
    gate_watch *w = ctx;
    if ((d->id == KD_MSG_BACKEND_BUILD_FAILED || d->id == KD_MSG_BACKEND_BUILD_FAILED_HINT) && !w->nvcc.len && d->nargs > 3 && d->args[3].kind == KD_DIAG_STR &&
        d->args[3].v.s)
        error_lines(d->args[3].v.s, 2, &w->nvcc);
    kd_strbuf words = {0};
    kd_diag_append_words(d, &words);
    const char *text = kd_sb_str(&words);
    if (!strncmp(text, "kerndiff: ", 10))
        text += 10;
    kd_sb_free(&w->last);
    kd_sb_printf(&w->last, "%.*s", (int)(strcspn(text, "\n") > 300 ? 300 : strcspn(text, "\n")), text);
    kd_sb_free(&words);
    if (w->sink)
        w->sink(d, w->ctx);
}

/* The gate: the candidate built, run and checked against the baseline by the diff pipeline,
 * with a timing run just long enough to check it. Returns its comparison when it may race. */
static kd_comparison *gate(const kd_rank_request *r, const sim_specs *sim, kd_rank_entry *e, const char *built,
                           size_t input, kd_rank_static *base_stat)
{
    kd_diff_options d = *r->diff;
    d.files[0] = r->baseline;
    d.files[1] = built;
    d.git_file = NULL;
    d.counters.off = true;
    d.regions_on = false;
    d.frontend.no_build_ahead = true; /* rank/prebuild.h built the candidates */
    d.timing.min_runs = d.timing.max_runs = GATE_SAMPLES;
    d.gate = (kd_gate_options){.fail_if_slower_pct = -1};
    simulate_pair(sim, input);
    kd_comparison *c = kd_xcalloc(1, sizeof *c);
    gate_watch watch = {0};
    kd_diag_get_sink(&watch.sink, &watch.ctx);
    kd_diag_set_sink(watch_gate, &watch);
    int rc = kd_compare_files(&d, c);
    kd_diag_set_sink(watch.sink, watch.ctx);
    if (c->analysed) {
        e->stat = static_of(&c->side[1]);
        if (base_stat->registers < 0)
            *base_stat = static_of(&c->side[0]);
    }
    e->gate = KD_RANK_SAME;
    if (rc == KD_FAIL_BUILD || rc == KD_FAIL_INPUT || rc == KD_FAIL_USAGE || !c->analysed) {
        e->gate = KD_RANK_BUILD_FAILED;
        e->reason = watch.nvcc.len ? kd_sb_take(&watch.nvcc)
                    : !c->runtime_note.present && watch.last.len ? kd_sb_take(&watch.last)
                                                                : note_reason(&c->runtime_note, outcome_name(rc));
    } else if (rc == KD_FAIL_SANITIZER || (c->sanitize_tools && kd_sanitize_findings(&c->sanitize[1]) > 0)) {
        e->gate = KD_RANK_SANITIZER;
        e->reason = note_reason(&c->runtime_note, "sanitizer");
    } else if (rc != KD_OK) {
        e->gate = KD_RANK_RUN_FAILED;
        e->reason = note_reason(&c->runtime_note, outcome_name(rc));
    } else if (!c->timed) {
        e->gate = KD_RANK_UNTIMED;
        e->reason = note_reason(&c->runtime_note, "untimed");
    } else if (kd_timing_incorrect(&c->timing)) { /* the check, or an audit during the gate's timing */
        e->gate = KD_RANK_INCORRECT;
        e->reason = mismatch_of(&c->timing);
    }
    kd_sb_free(&watch.nvcc);
    kd_sb_free(&watch.last);
    if (e->gate == KD_RANK_SAME) {
        /* The race loads the builds and runs the launches: the texts the analysis read (PTX,
         * SASS, ptxas's log) and the tables made of them are done with, so that memory stays
         * flat with the number of candidates racing. The builds stay where they are: a fresh
         * one has a folder of its own (compile/build.h), a cached one is its cache entry. */
        for (int s = 0; s < 2; s++) {
            kd_build *b = &c->side[s].build;
            free(b->ptx);
            free(b->sass);
            free(b->ptxas_log);
            b->ptx = b->sass = b->ptxas_log = NULL;
            kd_static_result *st = &c->side[s].stat; /* its facts are in e->stat */
            kd_histogram *hists[] = {&st->ptx_ops, &st->ptx_families, &st->sass_ops, &st->sass_families};
            for (size_t k = 0; k < sizeof hists / sizeof *hists; k++)
                kd_hist_free(hists[k]);
            kd_kernel_list_free(&c->side[s].kernels); /* the scan's: the launch is described */
            kd_annotations_free(&c->side[s].annotations);
            c->side[s].kernel_info = NULL;
        }
        kd_count_table *tables[] = {&c->ptx_ops, &c->ptx_families, &c->sass_ops, &c->sass_families};
        for (size_t t = 0; t < sizeof tables / sizeof *tables; t++)
            kd_count_table_free(tables[t]);
        kd_timing_free(&c->timing); /* the check's samples and outputs: judged above */
        free(c->findings);
        c->findings = NULL;
        c->finding_count = 0;
        return c;
    }
    kd_comparison_free(c);
    free(c);
    return NULL;
}

/* The race's part of a gated comparison into cr (cand_run.side), the rest freed; or the
 * comparison kept whole when a side points into it. */
static void keep_sides(kd_comparison *c, cand_run *cr)
{
    if (c->replay.capture) {
        cr->c = c;
        return;
    }
    for (int s = 0; s < 2; s++) {
        kd_side *from = &c->side[s];
        race_side *to = &cr->side[s];
        *to = (race_side){.label = from->label, .launcher = from->stat.launcher, .cubin_path = from->build.cubin_path,
                          .launcher_path = from->build.launcher_path, .entry = from->stat.entry,
                          .launch = from->launch, .fill = from->abi.fill};
        from->build.cubin_path = from->build.launcher_path = from->stat.entry = NULL;
        memset(&from->launch, 0, sizeof from->launch);
        memset(&from->abi.fill, 0, sizeof from->abi.fill);
    }
    kd_comparison_free(c);
    free(c);
}

static void free_sides(cand_run *cr)
{
    if (cr->c) {
        kd_comparison_free(cr->c);
        free(cr->c);
        cr->c = NULL;
    }
    for (int s = 0; s < 2; s++) {
        race_side *r = &cr->side[s];
        free(r->cubin_path);
        free(r->launcher_path);
        free(r->entry);
        kd_launch_spec_free(&r->launch);
        for (size_t i = 0; i < r->fill.count; i++)
            free(r->fill.items[i]);
        free(r->fill.items);
        memset(r, 0, sizeof *r);
    }
}

static void keep_samples(kd_rank_entry *e, const kd_race_entry *re, const heat_run *h, const cand_run *cr)
{
    e->ngpus = h->ngpus;
    e->gpus = kd_xcalloc(h->ngpus + 1, sizeof *e->gpus);
    for (size_t g = 0; g < h->ngpus; g++) {
        kd_rank_gpu_samples *s = &e->gpus[g];
        s->gpu = h->gpus[g];
        s->base = kd_xcalloc(re->n + 1, sizeof *s->base);
        s->cand = kd_xcalloc(re->n + 1, sizeof *s->cand);
        s->round = kd_xcalloc(re->n + 1, sizeof *s->round);
        for (size_t i = 0; i < re->n; i++)
            if (re->round[i] < cr->ngpu_at && cr->gpu_at[re->round[i]] == g) {
                s->base[s->n] = re->base[i];
                s->cand[s->n] = re->cand[i];
                s->round[s->n++] = re->round[i];
            }
    }
    e->dropped = re->state == KD_RACE_DROPPED;
    e->left_round = re->left_round;
}

typedef struct heat_devices {
    const int *gpus;
    size_t ngpus;
    const char *user_cvd;
} heat_devices;

/* What a candidate is built from: its file, or for one spelled REV:FILE (a git ref: `kerndiff
 * rank BASE HEAD~1:k.cu`, or --refs), FILE as it was at REV, written out with the files it
 * includes (git/revision.h) into the private folder. */
typedef struct cand_source {
    char *path;      /* the file to build; NULL: the ref could not be had (reason) */
    char *name;      /* a ref's name in the report, "REV:k.cu"; NULL: the file's name */
    char *reason;
} cand_source;

/* REV:FILE where no file of that name is there: the revision and the file, malloc'd. */
static bool git_spelling(const char *s, char **rev, char **file)
{
    const char *colon = strchr(s, ':');
    if (!colon || colon == s || !colon[1] || access(s, F_OK) == 0)
        return false;
    *rev = kd_xstrndup(s, (size_t)(colon - s));
    *file = kd_xstrdup(colon + 1);
    return true;
}

static void resolve_source(const kd_rank_request *r, const char *spelled, cand_source *out)
{
    char *rev, *file;
    if (!git_spelling(spelled, &rev, &file)) {
        out->path = kd_xstrdup(spelled);
        return;
    }
    const char *tmp = kd_tmpdir();
    char *workdir = tmp ? kd_path_join(tmp, "rank-git") : NULL;
    kd_git_request req = {.file = file, .at = rev, .workdir = workdir, .include_dirs = &r->diff->frontend.include_dirs};
    kd_git_result g = {0};
    kd_diag error = {0};
    int rc = workdir ? kd_git_resolve(&req, &g, &error) : -2;
    kd_strbuf sb = {0};
    char *base = kd_basename(file);
    kd_sb_printf(&sb, "%s:%s", rev, base);
    out->name = kd_sb_take(&sb);
    if (rc == 0) {
        out->path = kd_xstrdup(g.side[0].path);
    } else if (error.id) {
        kd_diag_append_words(&error, &sb);
        out->reason = kd_sb_take(&sb);
    } else {
        out->reason = kd_xstrdup("git cannot be run");
    }
    kd_git_result_free(&g);
    kd_diag_free(&error);
    free(base);
    free(workdir);
    free(rev);
    free(file);
}

/* One heat to run: request r's candidates drawn into heat `heat`, on the devices `dev`, their
 * sources resolved in src (one per candidate), sim the simulated GPUs' specs. */
typedef struct {
    const kd_rank_request *r;
    const sim_specs *sim;
    unsigned heat;
    const heat_devices *dev;
    const cand_source *src;
    const kd_rank_member *members; /* every candidate's path and content hash */
    const char *base_sha256;
} heat_job;

static void run_heat(const heat_job *job, kd_rank_heat *out, kd_rank_error *err)
{
    const kd_rank_request *r = job->r;
    const sim_specs *sim = job->sim;
    unsigned heat = job->heat;
    const heat_devices *dev = job->dev;
    const cand_source *src = job->src;
    *out = (kd_rank_heat){.heat = heat, .heats = r->heats, .seed = r->diff->timing.seed, .family = r->candidates->count,
                          .baseline = kd_xstrdup(r->baseline), .base_stat = {-1, -1, -1}};
    snprintf(out->base_sha256, sizeof out->base_sha256, "%s", job->base_sha256);
    out->members = kd_xcalloc(r->candidates->count + 1, sizeof *out->members);
    out->nmembers = r->candidates->count;
    for (size_t i = 0; i < out->nmembers; i++) {
        out->members[i].path = kd_xstrdup(job->members[i].path);
        memcpy(out->members[i].sha256, job->members[i].sha256, sizeof out->members[i].sha256);
    }
    out->entries = kd_xcalloc(r->candidates->count + 1, sizeof *out->entries);
    out->devices = kd_xcalloc(dev->ngpus + 1, sizeof *out->devices);
    out->ndevices = dev->ngpus;
    for (size_t g = 0; g < dev->ngpus; g++)
        out->devices[g].index = dev->gpus[g];
    heat_run h = {.r = r, .sim = sim, .heat = out, .error = err, .ngpus = dev->ngpus, .user_cvd = dev->user_cvd};
    memcpy(h.gpus, dev->gpus, dev->ngpus * sizeof *dev->gpus);
    h.raced = kd_xcalloc(r->candidates->count + 1, sizeof *h.raced);
    h.cands = kd_xcalloc(r->candidates->count + 1, sizeof *h.cands);
    for (size_t i = 0; i <= r->candidates->count; i++)
        kd_audit_init(&h.cands[i].audit);
    double gate_start = now_ms();
    for (size_t i = 0; i < r->candidates->count; i++) {
        const char *path = r->candidates->items[i];
        if (kd_rank_heat_of(out->seed, path, r->heats) != heat)
            continue;
        kd_rank_entry *e = &out->entries[out->count++];
        e->path = kd_xstrdup(path);
        e->name = src[i].name ? kd_xstrdup(src[i].name) : kd_basename(path);
        e->index = i;
        e->stat = (kd_rank_static){-1, -1, -1};
        if (!src[i].path) {
            e->gate = KD_RANK_BUILD_FAILED;
            e->reason = kd_xstrdup(src[i].reason);
            continue;
        }
        kd_status("rank: gating %s (%zu of %zu)", e->name, i + 1, r->candidates->count);
        kd_comparison *c = gate(r, sim, e, src[i].path, i + 1, &out->base_stat);
        if (!c)
            continue;
        if (!h.backend) {
            kd_note why = {0};
            h.backend = kd_runtime_backend(r->diff, c, &why);
            kd_note_free(&why);
        }
        h.cands[h.nraced] = (cand_run){.input = i + 1, .child = kd_xcalloc(dev->ngpus, sizeof(kd_child)),
                                       .open = kd_xcalloc(dev->ngpus, sizeof(bool)),
                                       .used = kd_xcalloc(dev->ngpus, sizeof(unsigned long long))};
        keep_sides(c, &h.cands[h.nraced]);
        h.raced[h.nraced++] = e;
    }
    out->gate_ms = now_ms() - gate_start;
    kd_race_config cfg;
    kd_race_config_default(&cfg);
    cfg.top = r->top ? r->top : 3;
    cfg.family = r->candidates->count;
    cfg.seed = out->seed;
    cfg.target_pct = r->diff->timing.target_pct;
    if (r->max_rounds)
        cfg.max_rounds = r->max_rounds;
    kd_race race = {0};
    if (h.nraced && h.backend) {
        h.start_ms = now_ms();
        h.live = h.nraced;
        kd_race_ops ops = {.sample = sample, .out_of_budget = out_of_budget, .left = left, .ctx = &h};
        kd_race_run(&cfg, h.nraced, &ops, &race);
        for (size_t i = 0; i < h.nraced; i++) {
            if (race.e[i].state == KD_RACE_CONTENDER)
                audit_at_end(&h, i, race.e[i].rounds);
            /* a candidate whose sampler failed is out, whatever set its gate: never ranked */
            kd_rank_entry *e = h.raced[i];
            if (race.e[i].state == KD_RACE_FAILED && kd_rank_status_timed(e->gate)) {
                e->gate = KD_RANK_RUN_FAILED;
                if (!e->reason)
                    e->reason = kd_xstrdup(h.refused ? "the rank stopped" : "its harness failed in the race");
            }
            keep_samples(h.raced[i], &race.e[i], &h, &h.cands[i]);
            for (size_t g = 0; g < h.ngpus; g++)
                close_child(&h, i, g);
        }
        out->race_ms = now_ms() - h.start_ms;
        out->rounds = race.rounds;
        out->samples = race.samples;
    }
    snprintf(out->stop, sizeof out->stop, "%s", kd_race_stop_name(h.nraced ? race.stop : KD_RACE_NOTHING));
    kd_race_free(&race);
    for (size_t i = 0; i < h.nraced; i++) {
        free_sides(&h.cands[i]);
        free(h.cands[i].child);
        free(h.cands[i].open);
        free(h.cands[i].used);
        free(h.cands[i].ahead_base);
        free(h.cands[i].ahead_cand);
        free(h.cands[i].gpu_at);
        kd_audit_free(&h.cands[i].audit);
    }
    free(h.raced);
    free(h.cands);
}

/* The baseline alone, statically: it must build before any candidate is judged by it. */
static kd_outcome check_baseline(const kd_rank_request *r, const sim_specs *sim)
{
    kd_diff_options d = *r->diff;
    d.files[0] = d.files[1] = r->baseline;
    d.git_file = NULL;
    d.no_run = true;
    simulate_pair(sim, 0);
    kd_comparison *c = kd_xcalloc(1, sizeof *c);
    int rc = kd_compare_files(&d, c);
    kd_comparison_free(c);
    free(c);
    return (kd_outcome)rc;
}

/* --gpus all: the entries of CUDA_VISIBLE_DEVICES when set; else every device a harness
 * started with CUDA_VISIBLE_DEVICES=i says hello on (i = 0, 1, ... until one does not). The
 * simulated harness has one device. */
static size_t count_devices(const char *baseline)
{
    const kd_backend *b = kd_backend_for(baseline, baseline);
    if (!b || b->simulated || !b->harness)
        return 1;
    const char *user = kd_env(KD_ENV_CUDA_VISIBLE_DEVICES);
    if (user && *user) {
        size_t n = 1;
        for (const char *p = user; *p; p++)
            n += *p == ',';
        return n < KD_RANK_MAX_GPUS ? n : KD_RANK_MAX_GPUS;
    }
    size_t n = 0;
    for (; n < KD_RANK_MAX_GPUS; n++) {
        kd_argv argv = {{NULL}};
        kd_strbuf why = {0};
        char value[16];
        snprintf(value, sizeof value, "%zu", n);
        setenv("CUDA_VISIBLE_DEVICES", value, 1);
        kd_child c;
        kd_device_info info;
        bool there = b->harness(0, &argv, &why) == 0 && kd_child_start(&c, "probe", (const char *const *)argv.items, &why) == 0;
        if (there) {
            there = kd_wire_hello(&c, &info, &why) == 0;
            kd_child_stop(&c);
        }
        kd_argv_free(&argv);
        kd_sb_free(&why);
        if (!there)
            break;
    }
    unsetenv("CUDA_VISIBLE_DEVICES");
    return n ? n : 1;
}

/* The candidates to be gated, built ahead on the host's cores (rank/prebuild.h): the gate's
 * builds then come from the cache. */
typedef struct prebuild_ctx {
    const sim_specs *sim;
    const size_t *inputs;
} prebuild_ctx;

static void prepare_build(void *ctx, size_t i)
{
    const prebuild_ctx *p = ctx;
    simulate_pair(p->sim, p->inputs[i]);
}

static void prebuild(const kd_rank_request *r, const sim_specs *sim, const cand_source *src, size_t n)
{
    const char **paths = kd_xcalloc(n + 1, sizeof *paths);
    size_t *inputs = kd_xcalloc(n + 1, sizeof *inputs), count = 0;
    for (size_t i = 0; i < n; i++)
        if (src[i].path) {
            paths[count] = src[i].path;
            inputs[count++] = i + 1;
        }
    unsigned jobs = r->jobs ? r->jobs : kd_rank_default_jobs();
    if (count > 1 && jobs > 1 && !r->diff->frontend.no_cache)
        kd_status("rank: building %zu candidates, %u at once", count, jobs < count ? jobs : (unsigned)count);
    prebuild_ctx ctx = {sim, inputs};
    kd_rank_prebuild p = {.diff = r->diff, .baseline = r->baseline, .paths = paths, .n = count, .jobs = jobs,
                          .prepare = prepare_build, .ctx = &ctx};
    kd_rank_prebuild_run(&p);
    free(paths);
    free(inputs);
}

kd_outcome kd_rank_run(const kd_rank_request *r, kd_rank_heat **heats, size_t *nheats, kd_rank_error *e)
{
    *heats = NULL;
    *nheats = 0;
    sim_specs sim = {.saved = kd_env(KD_ENV_SIMULATE)};
    if (sim.saved && *sim.saved) {
        char *all = kd_xstrdup(sim.saved);
        for (char *save = NULL, *s = strtok_r(all, ";", &save); s; s = strtok_r(NULL, ";", &save))
            kd_strlist_push(&sim.list, kd_xstrdup(s));
        free(all);
    }
    char *saved_sim = sim.saved ? kd_xstrdup(sim.saved) : NULL;
    const char *cvd = kd_env(KD_ENV_CUDA_VISIBLE_DEVICES);
    char *saved_cvd = cvd ? kd_xstrdup(cvd) : NULL; /* select_device and the probe set it for each child */
    kd_outcome rc = check_baseline(r, &sim);
    if (rc != KD_OK)
        e->kind = KD_RANK_ERR_BASELINE;
    int gpus[KD_RANK_MAX_GPUS] = {0};
    size_t ngpus = r->ngpus ? r->ngpus : 1;
    if (r->ngpus)
        memcpy(gpus, r->gpus, r->ngpus * sizeof *gpus);
    if (rc == KD_OK && r->gpus_all) {
        ngpus = count_devices(r->baseline);
        for (size_t g = 0; g < ngpus; g++)
            gpus[g] = (int)g;
    }
    unsigned first = r->shard >= 0 ? (unsigned)r->shard : 0, last = r->shard >= 0 ? (unsigned)r->shard + 1 : r->heats;
    size_t ncand = r->candidates->count;
    cand_source *src = kd_xcalloc(ncand + 1, sizeof *src);
    /* The rank's candidate set by content, in every heat: the merge matches the shards against
     * it and it against the files (a file spelled REV:FILE has no hash of its own here). */
    kd_rank_member *members = kd_xcalloc(ncand + 1, sizeof *members);
    char base_sha256[65] = "";
    if (kd_rank_file_sha256(r->baseline, base_sha256) != 0)
        base_sha256[0] = '\0';
    for (size_t i = 0; rc == KD_OK && i < ncand; i++) {
        char *rev = NULL, *file = NULL;
        members[i].path = r->candidates->items[i]; /* borrowed */
        if (git_spelling(members[i].path, &rev, &file) || kd_rank_file_sha256(members[i].path, members[i].sha256) != 0)
            members[i].sha256[0] = '\0';
        free(rev);
        free(file);
    }
    if (rc == KD_OK) {
        for (size_t i = 0; i < ncand; i++) {
            unsigned heat = kd_rank_heat_of(r->diff->timing.seed, r->candidates->items[i], r->heats);
            if (heat >= first && heat < last)
                resolve_source(r, r->candidates->items[i], &src[i]);
        }
        prebuild(r, &sim, src, ncand);
        *heats = kd_xcalloc(last - first + 1, sizeof **heats);
        for (unsigned heat = first; heat < last && e->kind == KD_RANK_ERR_NONE; heat++)
            run_heat(&(heat_job){.r = r, .sim = &sim, .heat = heat, .dev = &(heat_devices){gpus, ngpus, saved_cvd},
                                 .src = src, .members = members, .base_sha256 = base_sha256},
                     &(*heats)[(*nheats)++], e);
        if (e->kind == KD_RANK_ERR_MIXED_GPUS)
            rc = KD_FAIL_USAGE;
    }
    /* the variables as the user set them */
    if (saved_sim)
        setenv("KERNDIFF_SIMULATE", saved_sim, 1);
    if (saved_cvd)
        setenv("CUDA_VISIBLE_DEVICES", saved_cvd, 1);
    else
        unsetenv("CUDA_VISIBLE_DEVICES");
    free(saved_sim);
    free(saved_cvd);
    for (size_t i = 0; i < ncand; i++) {
        free(src[i].path);
        free(src[i].name);
        free(src[i].reason);
    }
    free(src);
    free(members);
    for (size_t i = 0; i < sim.list.count; i++)
        free(sim.list.items[i]);
    free(sim.list.items);
    return rc;
}
