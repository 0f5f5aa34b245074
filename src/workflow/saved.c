#include "workflow/saved.h"

#include <errno.h>
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "measure/calib.h"
#include "util/diag.h"
#include "util/fs.h"
#include "util/outcome.h"
#include "util/xalloc.h"
#include "diff/counters.h"
#include "measure/verdict.h"
#include "ncu/advice.h"
#include "report/report.h"
#include "workflow/workflow_msgs.h"

/* One saved run: the document, and the model read from it (which borrows its strings). */
typedef struct saved_run {
    json_t *root;
    kd_comparison c;
} saved_run;

static int load_run(const char *path, const char *name, saved_run *run)
{
    /* Read like every input (a regular file under the cap): jansson's own reader would wait
     * on a FIFO for ever and hold whatever a device gives. */
    size_t len = 0;
    char *text = kd_read_file(path, &len);
    if (!text) {
        kd_say(KD_MSG_SAVED_CANNOT_READ, KD_DIAG_NO_SIDE, KD_S(name), KD_S(path), KD_S(kd_read_error(errno)));
        return KD_FAIL_INPUT;
    }
    json_error_t jerr;
    kd_strbuf why = {0};
    run->root = json_loadb(text, len, 0, &jerr);
    free(text);
    if (!run->root)
        kd_sb_puts(&why, jerr.text);
    else if (kd_comparison_read(run->root, &run->c, &why) == 0)
        return KD_OK;
    kd_say(KD_MSG_SAVED_NOT_A_RESULT, KD_DIAG_NO_SIDE, KD_S(name), KD_S(path), KD_S(kd_sb_str(&why)));
    kd_sb_free(&why);
    return KD_FAIL_INPUT;
}

static void free_run(saved_run *run)
{
    kd_comparison_free(&run->c);
    json_decref(run->root);
}

/* The model outlives the documents: origins are re-pointed at the analysis' own constants. */
static const char *known_origin(const char *origin)
{
    static const char *const origins[] = {"launch", "--block", "annotation", "__launch_bounds__", "default", "launcher"};
    for (size_t i = 0; origin && i < sizeof origins / sizeof *origins; i++)
        if (!strcmp(origin, origins[i]))
            return origins[i];
    return "default";
}

/* The physical bounds of one kernel sample (ns per launch): below a nanosecond no launch
 * completes (a launch alone costs microseconds), and above an hour the watchdog of the run
 * that saved it would have stopped it. Outside them a sample is damage, not a measurement. */
#define SAMPLE_MIN_NS 1.0
#define SAMPLE_MAX_NS 3.6e12
/* kd_speedup_ci's minimum: a median and an interval need two samples per side. */
enum { MIN_SAMPLES = 2 };

/* Every sample of the side taken from a run is a plausible kernel time. Returns 0, or -1
 * with the file, the field and the value on stderr (the file is not used). */
static int plausible_samples(const saved_run *run, int index, const char *name, const char *path)
{
    const kd_side_timing *t = &run->c.timing.side[index];
    for (size_t i = 0; i < t->n; i++) {
        double v = t->samples[i];
        if (v >= SAMPLE_MIN_NS && v <= SAMPLE_MAX_NS)
            continue;
        kd_say(KD_MSG_SAVED_IMPLAUSIBLE_SAMPLE, KD_DIAG_NO_SIDE, KD_S(name), KD_S(path), KD_I(index), KD_U(i), KD_D(v));
        return -1;
    }
    return 0;
}

/* Takes side `index` of a run as side `s` of the comparison (moving what it owns). */
static int take_side(saved_run *run, int index, const char *column, const char *path, int s, kd_comparison *c)
{
    static const char *const labels[2] = {"v1", "v2"};
    kd_side *from = &run->c.side[index], *d = &c->side[s];
    d->label = labels[s];
    d->path = path;
    if (!from->kernel || !from->kernel[0])
        return -1;
    d->kernel = from->kernel;
    from->kernel = NULL;
    d->origin = kd_xasprintf("%s (%s %s of that run)", path, column, from->path);
    d->stat = from->stat;
    memset(&from->stat, 0, sizeof from->stat);
    d->stat.block_origin = known_origin(d->stat.block_origin);
    d->stat.launcher = !strcmp(d->stat.block_origin, "launcher");
    memcpy(d->build.key, from->build.key, sizeof d->build.key);
    d->build.from_cache = from->build.from_cache;
    d->launch_error = kd_xstrdup("compared from a saved run: its launch is in that file");
    return 0;
}

/* Each run's region profile of its side, when both runs recorded regions; a note names the
 * run that did not. A saved profile keeps the table, not the instances of a timeline. */
static void take_regions(saved_run run[2], const int index[2], kd_comparison *c)
{
    if (!run[0].c.regions_run && !run[1].c.regions_run)
        return;
    if (!run[0].c.regions_run || !run[1].c.regions_run) {
        kd_note_set(&c->regions_note, KD_REGIONS_SAVED_ONE_RUN, run[0].c.regions_run ? KD_NOTE_V2 : KD_NOTE_V1, NULL,
                    NULL, NULL);
        return;
    }
    for (int s = 0; s < 2; s++) {
        c->side[s].regions = run[s].c.side[index[s]].regions;
        memset(&run[s].c.side[index[s]].regions, 0, sizeof c->side[s].regions);
        c->side[s].regions.saved = true;
        /* A run saved before recording_warps existed has records but no count: its warps all recorded. */
        if (!c->side[s].regions.recording_warps && c->side[s].regions.records)
            c->side[s].regions.recording_warps = c->side[s].regions.warps;
    }
    c->regions_run = true;
}

static const char *const run_names[2] = {"OLD", "NEW"};

/* The interval a run was saved with, as written (17 digits: the same double read back). */
static bool same_interval(const kd_speedup *a, const kd_speedup *b)
{
    return a->ratio == b->ratio && a->lo == b->lo && a->hi == b->hi;
}

/* Speedup and verdict from both runs' raw samples, decided as the timing pass decides them
 * (measure/verdict.h: the rounds bootstrap, one function). Two runs share no round: each
 * side's rounds are drawn on their own. One run re-compared (the same document twice, its
 * v1 against its v2) is decided as it was when it ran: its rounds shared, its noise floor,
 * so it gets the verdict and interval it was saved with; a run saved without its rounds
 * keeps its saved ones rather than a different interval. */
static int take_timing(saved_run run[2], const int index[2], const kd_diff_options *opts, bool one_run, kd_timing *t,
                       kd_note *why_not)
{
    const kd_timing *newest = &run[1].c.timing;
    memcpy(t->device, newest->device, sizeof t->device);
    t->sm = newest->sm;
    t->sms = newest->sms;
    t->driver = newest->driver;
    t->l2_bytes = newest->l2_bytes;
    t->batched = newest->batched;
    t->batch = newest->batch;
    /* A run saved before --load existed was timed one launch per sample. */
    snprintf(t->load, sizeof t->load, "%s", newest->load[0] ? newest->load : "single");
    t->sustained_ms = newest->sustained_ms;
    t->block_samples = newest->block_samples;
    memcpy(t->timer, newest->timer, sizeof t->timer);
    const kd_speedup saved = newest->speedup;
    const kd_verdict saved_verdict = newest->verdict;
    int rc = 0;
    for (int s = 0; s < 2; s++) {
        t->side[s] = run[s].c.timing.side[index[s]];
        memset(&run[s].c.timing.side[index[s]], 0, sizeof t->side[s]);
        if (kd_summarize(t->side[s].samples, t->side[s].n, &t->side[s].summary) != 0)
            t->side[s].summary.n = 0;
    }
    /* Too few samples: the note says which run, how many it has and how many it needs. */
    for (int s = 0; s < 2 && rc == 0; s++)
        if (t->side[s].summary.n < MIN_SAMPLES) {
            kd_note_set(why_not, KD_RUNTIME_SAVED_NO_SAMPLES, KD_NOTE_SIDE(s), NULL, NULL, NULL);
            why_not->number[0] = (long)t->side[s].summary.n;
            why_not->number[1] = MIN_SAMPLES;
            rc = -1;
        }
    t->min_effect_pct = one_run ? newest->min_effect_pct : opts->timing.min_effect_pct;
    bool have_rounds = t->side[0].round && t->side[1].round;
    if (rc == 0 && one_run && !have_rounds) {
        kd_say(KD_MSG_SAVED_NO_ROUNDS_KEPT, KD_DIAG_NO_SIDE, KD_S(opts->files[1]));
        t->speedup = saved;
        t->verdict = saved_verdict;
    } else if (rc == 0) {
        for (int s = 0; s < 2; s++)
            if (!t->side[s].round)
                kd_say(KD_MSG_SAVED_NO_ROUNDS_SAMPLES, KD_DIAG_NO_SIDE, KD_S(run_names[s]), KD_S(opts->files[s]));
        kd_sample_set sets[2];
        for (int s = 0; s < 2; s++)
            sets[s] = (kd_sample_set){t->side[s].samples, t->side[s].round, t->side[s].n};
        /* One run: its own seed where the file has it (0: a file without it, or --seed 0). */
        t->seed = one_run && newest->seed ? newest->seed : opts->timing.seed;
        kd_verdict_options vo = {.min_effect_pct = t->min_effect_pct, .seed = t->seed, .independent = !one_run};
        kd_decision d;
        rc = kd_decide(sets, &vo, &d);
        t->speedup = d.speedup;
        t->verdict = d.verdict;
        if (rc == 0 && one_run && !same_interval(&d.speedup, &saved))
            kd_say(newest->seed ? KD_MSG_SAVED_INTERVAL_CHANGED : KD_MSG_SAVED_INTERVAL_DIFFERS, KD_DIAG_NO_SIDE,
                   KD_S(opts->files[1]), KD_D(d.speedup.lo), KD_D(d.speedup.hi), KD_D(saved.lo), KD_D(saved.hi),
                   KD_U(t->seed));
    }
    if (rc == 0) {
        kd_calib_attach(t);
        /* Two runs are two processes: the interval carries the spread between them, or
         * says it cannot (issue 42 item 3). One run with itself stays as it was decided. */
        if (!one_run)
            kd_calib_between_runs(t);
    }
    t->target_pct = opts->timing.target_pct;
    t->target_reached = rc == 0 && kd_speedup_ci_halfwidth_pct(&t->speedup) <= t->target_pct;
    t->stop_reason = KD_STOP_SAVED_SAMPLES;
    t->from_saved = true;
    t->from_one_run = one_run;
    return rc;
}

/* Counters of each run's side, diffed; deltas, roofline and advice are recomputed. */
static void take_counters(saved_run run[2], const int index[2], const kd_comparison *c, kd_counters *k)
{
    const kd_counters *newest = &run[1].c.counters;
    k->full = newest->full;
    k->repeats = newest->repeats;
    for (int s = 0; s < 2; s++) {
        k->side[s] = run[s].c.counters.side[index[s]];
        memset(&run[s].c.counters.side[index[s]], 0, sizeof k->side[s]);
        k->side[s].roofline_valid = false;
    }
    /* Counter noise across runs is unknown; time-derived metrics share the recomputed CI. */
    double timing_noise = c->timed ? kd_speedup_ci_halfwidth_pct(&c->timing.speedup) : 0;
    for (size_t m = 0; m < kd_metric_def_count; m++)
        if (k->side[0].total.present[m] && k->side[1].total.present[m])
            kd_metric_diff(&kd_metric_defs[m], k->side[0].total.value[m], k->side[1].total.value[m],
                           kd_metric_time_derived(&kd_metric_defs[m]) ? timing_noise : 0, &k->delta[m]);
    if (newest->peaks_valid) {
        k->peaks = newest->peaks;
        k->peaks_valid = true;
        for (int s = 0; s < 2; s++) {
            kd_roofline_compute(&k->side[s].total, &k->peaks, &k->side[s].roofline);
            k->side[s].roofline_valid = true;
        }
    }
    kd_advice_input in = {.side = {&k->side[0].total, &k->side[1].total}};
    kd_advice(&in, &k->advice, &k->nadvice);
    k->present = true;
}

/* A warning when the two runs cannot be compared as like for like. */
static void comparability(const kd_timing *old, const kd_timing *new, kd_note *note)
{
    if (!strcmp(old->device, new->device) && old->driver == new->driver)
        return;
    kd_note_set(note, KD_SELECTION_RUNS_DIFFER, KD_NOTE_NO_SIDE, old->device, new->device, NULL);
    note->number[0] = old->driver;
    note->number[1] = new->driver;
}

/* A warning when the runs timed different kernels: their times are not two versions of one. */
static bool same_kernels(const kd_comparison *c, kd_note *note)
{
    if (!strcmp(c->side[0].kernel, c->side[1].kernel))
        return true;
    kd_note_set(note, KD_SELECTION_SAVED_KERNELS_DIFFER, KD_NOTE_NO_SIDE, c->side[0].kernel, c->side[1].kernel, NULL);
    return false;
}

/* --require-match: each run compared its own v1 and v2 outputs; any difference counts. */
static kd_outputs_state outputs_of(const saved_run run[2])
{
    kd_outputs_state a = kd_outputs_of(&run[0].c.timing, run[0].c.timed);
    kd_outputs_state b = kd_outputs_of(&run[1].c.timing, run[1].c.timed);
    if (a == KD_OUTPUTS_DIFFER || b == KD_OUTPUTS_DIFFER)
        return KD_OUTPUTS_DIFFER;
    return a == KD_OUTPUTS_MATCH && b == KD_OUTPUTS_MATCH ? KD_OUTPUTS_MATCH : KD_OUTPUTS_NOT_CHECKED;
}

int kd_compare_saved(const kd_diff_options *opts, const char *side_column, kd_comparison *c)
{
    memset(c, 0, sizeof *c);
    static const char *const columns[2] = {"v1", "v2"};
    const char *column = side_column ? side_column : "v2";
    int index[2];
    saved_run run[2];
    memset(run, 0, sizeof run);
    int rc = KD_OK;
    for (int s = 0; s < 2 && rc == KD_OK; s++)
        rc = load_run(opts->files[s], run_names[s], &run[s]);
    /* The same run twice (one file, or a copy of it): there is nothing to compare a side of
     * it with but itself, so the run is re-compared, its v1 against its v2. */
    bool one_run = rc == KD_OK && json_equal(run[0].root, run[1].root);
    for (int s = 0; s < 2 && rc == KD_OK; s++) {
        index[s] = one_run ? s : !strcmp(column, "v1") ? 0 : 1;
        if (run[s].c.timed && plausible_samples(&run[s], index[s], run_names[s], opts->files[s]) != 0)
            rc = KD_FAIL_INPUT;
        if (rc == KD_OK && take_side(&run[s], index[s], columns[index[s]], opts->files[s], s, c) != 0) {
            kd_say(KD_MSG_SAVED_NO_KERNEL, KD_DIAG_NO_SIDE, KD_S(run_names[s]), KD_S(opts->files[s]), KD_I(index[s]));
            rc = KD_FAIL_INPUT;
        }
    }
    if (rc == KD_OK) {
        memcpy(c->arch, run[1].c.arch, sizeof c->arch);
        c->arch_origin = "NEW's run";
        c->limits = kd_arch_limits_for(kd_arch_parse(c->arch));
        /* One run's two versions are meant to differ: the warning is for two runs. */
        bool same = one_run || same_kernels(c, &c->selection_note);
        if (run[0].c.timed && run[1].c.timed) {
            c->timed = take_timing(run, index, opts, one_run, &c->timing, &c->runtime_note) == 0;
            c->simulated = run[1].c.simulated;
            if (same) /* different kernels is the stronger warning; the slot holds one */
                comparability(&run[0].c.timing, &run[1].c.timing, &c->selection_note);
        }
        if (!c->timed && !c->runtime_note.present) {
            /* A run without a timing: the note names it (both: no side). */
            kd_note_sides untimed = run[0].c.timed ? KD_NOTE_V2 : run[1].c.timed ? KD_NOTE_V1 : KD_NOTE_BOTH;
            kd_note_set(&c->runtime_note, KD_RUNTIME_SAVED_NO_SAMPLES, untimed, NULL, NULL, NULL);
            c->runtime_note.number[1] = MIN_SAMPLES;
        }
        if (run[0].c.counters.present && run[1].c.counters.present)
            take_counters(run, index, c, &c->counters);
        take_regions(run, index, c);
        kd_gate_evaluate(&c->timing, c->timed, outputs_of(run), &opts->gate, &c->gate);
        kd_comparison_tabulate(c);
        c->analysed = true;
    }
    free_run(&run[0]);
    free_run(&run[1]);
    return rc;
}
