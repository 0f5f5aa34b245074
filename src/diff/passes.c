#include "diff/passes.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "backend/backend.h"
#include "util/outcome.h"
#include "diff/markers.h"
#include "diff/replay_pass.h"
#include "diff/runtime.h"
#include "gpu/nvml.h"
#include "measure/harness_pool.h"
#include "ncu/advice.h"
#include "ncu/cupti_collect.h"
#include "ncu/ncu_msgs.h"
#include "util/progress.h"
#include "util/xalloc.h"

static kd_pass_result ran(void) { return (kd_pass_result){.status = KD_PASS_RAN}; }

/* Sets the note (when `id` is not already there) and says why the pass did not run. */
static kd_pass_result skipped(kd_note *slot, kd_note_id id)
{
    if (!slot->present || slot->id != id)
        kd_note_set(slot, id, KD_NOTE_NO_SIDE, NULL, NULL, NULL);
    return (kd_pass_result){.status = KD_PASS_SKIPPED, .reason = id};
}

static kd_pass_result failed(const kd_note *note, kd_outcome outcome)
{
    return (kd_pass_result){.status = KD_PASS_FAILED, .reason = note->id, .outcome = outcome};
}

/* ---- the sanitizer (sanitizer/): each side under compute-sanitizer, before the timing ---- */

/* The compute-sanitizer to run: --compute-sanitizer, else (not for the simulated backend,
 * whose children a real one cannot run) the one on PATH. */
static const char *sanitizer_for(const kd_diff_options *opts, const kd_backend *backend)
{
    if (opts->sanitize.program || !backend->simulated)
        return kd_find_sanitizer(opts->sanitize.program);
    return NULL;
}

/* --sanitize-n: the side's launch described again with n = COUNT on both sides (a --call n
 * gives way to it), so that a slow sanitizer runs on a smaller problem. */
static int sanitized_launch(const kd_diff_options *opts, const kd_side *side, int s, kd_launch_spec *out, kd_strbuf *why)
{
    kd_launch_request req = kd_side_launch_request(&opts->launch, side, s);
    kd_call_settings call = opts->launch.call[s];
    call.n = NULL;
    req.call = &call;
    req.n = opts->sanitize.n;
    if (kd_launch_spec_build(&req, out, why) != 0)
        return -1;
    return kd_timing_check_sizes(out, NULL, why);
}

/* The sanitizer's settings for a run: --sanitize's, with the timing's timeout and seed. */
static kd_sanitize_options sanitize_options(const kd_diff_options *opts)
{
    kd_sanitize_options o = opts->sanitize;
    o.timeout_ms = opts->timing.timeout_ms;
    o.seed = opts->timing.seed;
    return o;
}

static bool sanitizer_wanted(const kd_diff_options *opts) { return opts->sanitize.tools != 0; }

/* Ran: clean, or findings with --sanitize-warn. Fails with KD_FAIL_SANITIZER on findings,
 * KD_FAIL_TOOL without a compute-sanitizer, KD_FAIL_INPUT when --sanitize-n describes no
 * launch, KD_FAIL_RUNTIME when it could not run. */
static kd_pass_result run_sanitizer(const kd_pass_context *ctx, kd_comparison *c)
{
    const kd_diff_options *opts = ctx->opts;
    const char *sanitizer = sanitizer_for(opts, ctx->backend);
    if (!sanitizer) {
        kd_note_set(&c->runtime_note, KD_RUNTIME_NO_SANITIZER, KD_NOTE_NO_SIDE, opts->sanitize.program, NULL, NULL);
        return failed(&c->runtime_note, KD_FAIL_TOOL);
    }
    kd_sanitize_options o = sanitize_options(opts);
    size_t findings[2] = {0, 0};
    for (int s = 0; s < 2; s++) {
        kd_strbuf why = {0};
        kd_timing_side side = ctx->sides[s];
        /* The findings name this launch's buffers: it lives as long as they do. */
        if (o.n && sanitized_launch(opts, &c->side[s], s, &c->sanitize[s].launch, &why) != 0) {
            kd_note_set(&c->runtime_note, KD_RUNTIME_SANITIZE_N_INVALID, KD_NOTE_SIDE(s), o.n, NULL, kd_sb_str(&why));
            kd_sb_free(&why);
            return failed(&c->runtime_note, KD_FAIL_INPUT);
        }
        if (o.n)
            side.spec = &c->sanitize[s].launch;
        kd_trace("sanitizer %s", side.label);
        kd_sanitize_request req = {.sanitizer = sanitizer, .side = &side, .tools = o.tools, .o = &o,
                                   .workdir = ctx->workdir};
        int rc = kd_sanitize_side_run(&req, &c->sanitize[s], &why);
        if (rc != 0) {
            kd_note_set(&c->runtime_note, KD_RUNTIME_SANITIZER_FAILED, KD_NOTE_SIDE(s), NULL, NULL, kd_sb_str(&why));
            kd_sb_free(&why);
            return failed(&c->runtime_note, KD_FAIL_RUNTIME);
        }
        kd_sb_free(&why);
        findings[s] = kd_sanitize_findings(&c->sanitize[s]);
    }
    c->sanitize_tools = o.tools;
    if ((findings[0] || findings[1]) && !o.warn) {
        kd_note_set(&c->runtime_note, KD_RUNTIME_SANITIZER_FINDINGS,
                    (kd_note_sides)((findings[0] ? KD_NOTE_V1 : 0) | (findings[1] ? KD_NOTE_V2 : 0)), NULL, NULL,
                    NULL);
        return failed(&c->runtime_note, KD_FAIL_SANITIZER);
    }
    return ran();
}

/* ---- the launch check: a launch kerndiff assumed runs once under memcheck first ------------ */

/* --sanitize runs every side under its tools already; otherwise the check is wanted (each side
 * whose launch has nothing assumed is skipped in the run). */
static bool launch_check_wanted(const kd_diff_options *opts) { return !opts->sanitize.tools; }

static bool launch_assumed(const kd_timing_side *side) { return side->spec && kd_launch_spec_guessed(side->spec); }

/* Issue 39: a launch built from assumptions (a guessed size, grid or shared memory) may read
 * past its buffers, which the bounds guard (writes only) cannot see. Each such side runs once
 * under memcheck; findings stop the run before the timing (exit 5, as the guard's), a missing
 * or failing compute-sanitizer leaves the side unchecked and says so. The simulated harness
 * is checked only with --compute-sanitizer (its stand-in). */
static kd_pass_result run_launch_check(const kd_pass_context *ctx, kd_comparison *c)
{
    const kd_diff_options *opts = ctx->opts;
    bool assumed[2] = {launch_assumed(&ctx->sides[0]), launch_assumed(&ctx->sides[1])};
    if (!assumed[0] && !assumed[1])
        return ran();
    if (opts->sanitize.no_launch_memcheck) {
        for (int s = 0; s < 2; s++)
            c->launch_check[s] = assumed[s] ? KD_LAUNCH_CHECK_SKIPPED : KD_LAUNCH_CHECK_NONE;
        return ran();
    }
    const char *sanitizer = sanitizer_for(opts, ctx->backend);
    if (!sanitizer) {
        if (ctx->backend->simulated && !opts->sanitize.program)
            return ran();
        for (int s = 0; s < 2; s++)
            c->launch_check[s] = assumed[s] ? KD_LAUNCH_CHECK_NO_SANITIZER : KD_LAUNCH_CHECK_NONE;
        return ran();
    }
    kd_sanitize_options o = sanitize_options(opts);
    int faulted = 0;
    for (int s = 0; s < 2; s++) {
        if (!assumed[s])
            continue;
        kd_strbuf why = {0};
        kd_trace("launch check %s under memcheck", ctx->sides[s].label);
        kd_sanitize_request req = {.sanitizer = sanitizer, .side = &ctx->sides[s], .tools = 1u << KD_SAN_MEMCHECK,
                                   .o = &o, .workdir = ctx->workdir};
        if (kd_sanitize_side_run(&req, &c->sanitize[s], &why) != 0) {
            c->launch_check[s] = KD_LAUNCH_CHECK_UNCHECKED;
            if (!c->launch_check_why)
                c->launch_check_why = kd_sb_take(&why);
        } else if (c->sanitize[s].report[KD_SAN_MEMCHECK].count) {
            c->launch_check[s] = KD_LAUNCH_CHECK_FINDINGS;
            faulted |= s ? KD_NOTE_V2 : KD_NOTE_V1;
        } else {
            c->launch_check[s] = KD_LAUNCH_CHECK_CLEAN;
        }
        kd_sb_free(&why);
    }
    if (!faulted)
        return ran();
    c->sanitize_tools = 1u << KD_SAN_MEMCHECK; /* the report lists the findings as --sanitize's */
    kd_note_set(&c->runtime_note, KD_RUNTIME_ASSUMED_LAUNCH_FINDINGS, (kd_note_sides)faulted, NULL, NULL, NULL);
    return failed(&c->runtime_note, KD_FAIL_RUNTIME);
}

/* A kernel faulted: re-run that side once under memcheck, so that the report can say which
 * buffer and element it touched. Best effort: without a compute-sanitizer, say how to get one. */
static void explain_fault(const kd_pass_context *ctx, kd_comparison *c)
{
    const kd_diff_options *opts = ctx->opts;
    const kd_backend *backend = ctx->backend;
    const kd_timing_side *sides = ctx->sides;
    const kd_timing_failure *f = &c->timing.failure;
    if (f->side < 0 || !f->device_error) /* a hang, a crash, a refusal: nothing memcheck explains */
        return;
    int s = f->side;
    const char *sanitizer = sanitizer_for(opts, backend);
    if (!sanitizer) {
        c->fault_no_sanitizer = !backend->simulated;
        return;
    }
    kd_sanitize_options o = sanitize_options(opts);
    kd_strbuf why = {0};
    kd_trace("explaining the fault of %s under memcheck", sides[s].label);
    kd_sanitize_request req = {.sanitizer = sanitizer, .side = &sides[s], .tools = 1u << KD_SAN_MEMCHECK, .o = &o,
                               .workdir = ctx->workdir};
    c->fault_side = s;
    if (kd_sanitize_side_run(&req, &c->fault_found, &why) != 0)
        kd_sanitize_side_free(&c->fault_found); /* nothing to explain with: the fault's own line stands */
    kd_sb_free(&why);
}

/* ---- which counters run (the timing pass asks too: it hands its child to CUPTI's) ------------ */

static bool counters_wanted(const kd_diff_options *opts) { return !opts->counters.off; }

/* Which collector --counters asks for; auto is ncu when an ncu-only option is given. On the
 * simulated harness an unasked-for auto keeps
 * the behaviour from before CUPTI (ncu's stand-in with --ncu, else none), so that the
 * simulated runs' reports stay as they were; `--counters cupti|auto` asks its `counters`. */
static const char *collector_of(const kd_diff_options *opts, const kd_comparison *c)
{
    const kd_counters_options *o = &opts->counters;
    if (!o->collector && c->simulated)
        return o->ncu ? "ncu" : NULL;
    /* What only ncu does: keep its reports (--ncu-report), lock the clocks (base). */
    bool ncu_only = o->report_dir || (o->clock_control && !strcmp(o->clock_control, "base"));
    if (!o->collector || !strcmp(o->collector, "auto"))
        return ncu_only ? "ncu" : "auto";
    return o->collector;
}

/* ---- the timing (measure/): the correctness check, then both sides in one child ---------- */

static kd_pass_result run_timing(const kd_pass_context *ctx, kd_comparison *c)
{
    kd_strbuf error = {0};
    kd_timing_options o = ctx->opts->timing;
    /* The counter pass in CUPTI takes the timing's child as it is (measure/harness_pool.h). */
    const char *collector = counters_wanted(ctx->opts) ? collector_of(ctx->opts, c) : NULL;
    o.hand_over = ctx->shared_argv && collector && strcmp(collector, "ncu") != 0;
    kd_strlist names = {0};
    if (o.hand_over) { /* built by that child while the sides check their outputs */
        kd_cupti_options co = {.full = ctx->opts->counters.full, .extra = &ctx->opts->counters.extra_metrics};
        kd_cupti_counter_names(&co, &names);
        o.counter_names = (const char *const *)names.items;
        o.ncounter_names = names.count;
    }
    kd_timing_status st = kd_measure(ctx->sides, ctx->shared_argv, &o, ctx->workdir, &c->timing, &error);
    free(names.items);
    if (st != KD_TIMING_OK) {
        kd_note_set(&c->runtime_note, st == KD_TIMING_OUT_OF_BOUNDS ? KD_RUNTIME_OUT_OF_BOUNDS : KD_RUNTIME_TIMING_FAILED,
                    KD_NOTE_NO_SIDE, NULL, NULL, kd_sb_str(&error));
        kd_sb_free(&error);
        explain_fault(ctx, c);
        return failed(&c->runtime_note, KD_FAIL_RUNTIME);
    }
    kd_sb_free(&error);
    c->timed = true;
    return ran();
}

/* Peak DRAM bandwidth (FACTS.md: 2 x max memory clock x bus width / 8) and the highest SM
 * clock, from NVML; zeros when NVML cannot tell. */
static void read_peaks(kd_counter_context *ctx)
{
    char why[128];
    kd_nvml *n = kd_nvml_open(NULL, why, sizeof why);
    if (!n)
        return;
    unsigned mem_mhz, bus_bits, sm_mhz;
    if (kd_nvml_memory(n, &mem_mhz, &bus_bits) == 0)
        ctx->peak_dram_bytes_per_s = 2.0 * mem_mhz * 1e6 * bus_bits / 8;
    if (kd_nvml_max_sm_clock(n, &sm_mhz) == 0)
        ctx->max_sm_clock_hz = sm_mhz * 1e6;
    kd_nvml_close(n);
}

/* ---- counters (ncu/): each side in its harness (CUPTI) or under Nsight Compute ---------- */

/* The table's launch facts (ncu's launch__* and theoretical occupancy) of a side, from the
 * static analysis of the cubin it runs: CUPTI has no such metrics. Absent when unknown. The
 * shared-memory limit is left out: ncu's counts the blocks the carveout the driver chose for
 * that launch holds (8, 20, 32 for kernels the static one gives 228 or 45: measured on an H100),
 * which only the driver knows. */
static size_t launch_facts(const kd_comparison *c, int s, const kd_timing_side *side, kd_launch_fact *out)
{
    const kd_static_result *st = &c->side[s].stat;
    const kd_launch_spec *spec = side->spec;
    size_t n = 0;
    if (!spec || !spec->nargs)
        return 0;
    out[n++] = (kd_launch_fact){"launch__grid_size", (double)kd_launch_spec_blocks(spec)};
    out[n++] = (kd_launch_fact){"launch__block_size", (double)spec->block[0] * spec->block[1] * spec->block[2]};
    out[n++] = (kd_launch_fact){"launch__shared_mem_per_block_dynamic", (double)spec->dynamic_smem};
    if (st->resources.registers > 0) {
        /* The hardware allocates 16 registers a thread at least: ncu says 16 for a kernel
         * ptxas built with 10 (tests/gpu/results-counters.txt), as the occupancy does. */
        int allocated = st->resources.registers < 16 ? 16 : st->resources.registers;
        out[n++] = (kd_launch_fact){"launch__registers_per_thread", allocated};
        out[n++] = (kd_launch_fact){"launch__shared_mem_per_block_static", (double)st->resources.shared_static};
    }
    if (st->occupancy_valid) {
        const kd_occupancy *o = &st->occupancy;
        out[n++] = (kd_launch_fact){"sm__maximum_warps_per_active_cycle_pct", o->occupancy * 100};
        out[n++] = (kd_launch_fact){"launch__occupancy_limit_registers", o->by_registers};
        out[n++] = (kd_launch_fact){"launch__occupancy_limit_warps", o->by_warps};
        out[n++] = (kd_launch_fact){"launch__occupancy_limit_blocks", o->by_blocks};
    }
    return n;
}

typedef enum { COLLECT_OK, COLLECT_REFUSED, COLLECT_FAILED } collect_result;

/* Both sides with `counters`, in the child that holds both (one start-up, one CUPTI set-up):
 * ok, refused (no CUPTI profiler, or a metric it does not know: ncu may do it) or failed
 * (why, side). */
static collect_result collect_cupti(const kd_pass_context *ctx, kd_comparison *c, int repeats,
                                    kd_ncu_result results[2], kd_strbuf *why, int *side)
{
    const kd_diff_options *opts = ctx->opts;
    kd_launch_fact facts[2][16];
    kd_cupti_options o[2];
    for (int s = 0; s < 2; s++)
        o[s] = (kd_cupti_options){.full = opts->counters.full, .repeats = repeats,
                                  .timeout_ms = opts->timing.timeout_ms,
                                  .launch_ns = c->timing.side[s].summary.median, .extra = &opts->counters.extra_metrics,
                                  .facts = facts[s], .nfacts = launch_facts(c, s, &ctx->sides[s], facts[s])};
    kd_cupti_collect_status st = KD_CUPTI_COLLECT_OK;
    if (!ctx->shared_argv)
        kd_trace("counter pass v1, v2 (CUPTI, a harness per side)");
    if (ctx->shared_argv)
        st = kd_cupti_collect_both(&(kd_cupti_both_request){.o = o, .sides = ctx->sides, .argv = ctx->shared_argv,
                                                            .seed = opts->timing.seed},
                                   results, why, side);
    for (int s = 0; !ctx->shared_argv && s < 2 && st == KD_CUPTI_COLLECT_OK; s++) {
        *side = s;
        st = kd_cupti_collect(&o[s], &ctx->sides[s], opts->timing.seed, &results[s], why);
    }
    if (st == KD_CUPTI_COLLECT_OK)
        return COLLECT_OK;
    return st == KD_CUPTI_COLLECT_FAILED ? COLLECT_FAILED : COLLECT_REFUSED;
}

static kd_ncu_status collect_ncu(const kd_pass_context *ctx, kd_comparison *c, int repeats, kd_ncu_result results[2],
                                 kd_strbuf *why, int *side)
{
    const kd_diff_options *opts = ctx->opts;
    const kd_counters_options *asked = &opts->counters;
    kd_ncu_options o = {.ncu = asked->ncu, .full = asked->full, .repeats = repeats,
                        .clock_control = asked->clock_control, .timeout_ms = opts->timing.timeout_ms,
                        .report_dir = asked->report_dir, .extra = &asked->extra_metrics};
    kd_ncu_status st = KD_NCU_OK;
    for (int s = 0; s < 2 && st == KD_NCU_OK; s++) {
        kd_trace("counter pass %s", ctx->sides[s].label);
        o.launch_ns = c->timing.side[s].summary.median;
        st = kd_ncu_profile(&o, &ctx->sides[s], opts->timing.seed, ctx->workdir, &results[s], why);
        *side = s;
    }
    return st;
}

static void build_counters(const kd_pass_context *ctx, kd_comparison *c, const kd_ncu_result results[2])
{
    const kd_diff_options *opts = ctx->opts;
    kd_counter_context k = {
        .sm = c->timing.sm,
        .sms = c->timing.sms,
        .timing_noise_pct = kd_speedup_ci_halfwidth_pct(&c->timing.speedup),
        .verdict = c->timing.verdict,
        .extra_metrics = &opts->counters.extra_metrics,
    };
    for (int s = 0; s < 2; s++)
        k.spill_bytes[s] = c->side[s].stat.resources.spill_stores + c->side[s].stat.resources.spill_loads;
    read_peaks(&k);
    kd_counters_build(results, opts->counters.full, &k, &c->counters);
}

/* Counters explain a timing; without them the timing still stands, so every failure here
 * becomes a note, never an error. --counters auto (the default) collects them in each side's
 * harness with CUPTI, and falls back to ncu, saying why once, where CUPTI cannot. */
static kd_pass_result run_counters(const kd_pass_context *ctx, kd_comparison *c)
{
    const kd_diff_options *opts = ctx->opts;
    const char *collector = collector_of(opts, c);
    if (!collector)
        return skipped(&c->counters_note, KD_COUNTERS_SIMULATED);
    double shortest = fmin(c->timing.side[0].summary.median, c->timing.side[1].summary.median);
    int repeats = kd_ncu_auto_repeats(opts->counters.repeats, shortest);
    kd_ncu_result results[2];
    memset(results, 0, sizeof results);
    kd_strbuf why = {0};
    int side = 0;
    char *refused = NULL;
    const char *ran_by = NULL;
    if (strcmp(collector, "ncu")) {
        collect_result r = collect_cupti(ctx, c, repeats, results, &why, &side);
        kd_harness_pool_drop_handed(); /* not taken: its GPU memory is not ncu's to share */
        if (r == COLLECT_OK)
            ran_by = "cupti";
        else if (!strcmp(collector, "cupti") || r == COLLECT_FAILED) {
            kd_strbuf detail = {0};
            kd_sb_printf(&detail, "in-process CUPTI profiler: %s", kd_sb_str(&why));
            kd_note_set(&c->counters_note, KD_COUNTERS_NCU_FAILED, KD_NOTE_SIDE(side), NULL, NULL, kd_sb_str(&detail));
            kd_sb_free(&detail);
        } else {
            refused = kd_sb_take(&why);
            kd_say(KD_MSG_NCU_CUPTI_FALLBACK, KD_DIAG_NO_SIDE, KD_S(refused));
        }
        if (!ran_by) {
            kd_ncu_result_free(&results[0]);
            kd_ncu_result_free(&results[1]);
        }
        kd_sb_free(&why);
    }
    if (!ran_by && !c->counters_note.present) {
        kd_ncu_status st = collect_ncu(ctx, c, repeats, results, &why, &side);
        if (st == KD_NCU_OK)
            ran_by = "ncu";
        else {
            kd_note_id id = st == KD_NCU_MISSING      ? KD_COUNTERS_NCU_MISSING
                            : st == KD_NCU_PERMISSION ? KD_COUNTERS_NCU_PERMISSION
                                                      : KD_COUNTERS_NCU_FAILED;
            kd_note_set(&c->counters_note, id, KD_NOTE_SIDE(side), NULL, NULL, kd_sb_str(&why));
        }
    }
    if (ran_by) {
        build_counters(ctx, c, results);
        c->counters.collector = ran_by;
        if (!strcmp(ran_by, "cupti")) {
            c->counters.cupti_version = results[0].cupti_version;
            memcpy(c->counters.replay, results[0].replay, sizeof c->counters.replay);
            memcpy(c->counters.l2, results[0].l2, sizeof c->counters.l2);
        }
        c->counters.cupti_refused = refused;
        refused = NULL;
    }
    free(refused);
    kd_sb_free(&why);
    kd_ncu_result_free(&results[0]);
    kd_ncu_result_free(&results[1]);
    return c->counters_note.present ? skipped(&c->counters_note, c->counters_note.id) : ran();
}

/* ---- regions (regions/): each side's instrumented build, after the timing --------------- */

static bool regions_wanted(const kd_diff_options *opts) { return opts->regions_on; }

/* The instrumented build's registers and blocks per SM beside the plain build's: the
 * markers' registers can cost a block per SM, which is then much of the overhead. */
static void instrumented_resources(const kd_comparison *c, kd_side *side)
{
    kd_region_profile *p = &side->regions;
    p->branched_markers = side->regions_branched;
    p->branched_because = side->regions_branch_reason;
    if (kd_build_occupancy(c, side, &side->regions_build, &p->registers[1], &p->blocks_per_sm[1]) != 0)
        return;
    p->registers[0] = side->stat.resources.registers;
    p->blocks_per_sm[0] = side->stat.occupancy.blocks_per_sm;
}

/* Each side's instrumented build alone in a harness child. Like the counters, regions
 * explain a timing; a failure here is a note, never an error. */
static kd_pass_result run_regions(const kd_pass_context *ctx, kd_comparison *c)
{
    const kd_diff_options *opts = ctx->opts;
    if (c->regions_note.present) /* the build left the pass out (no markers, a launcher ...) */
        return skipped(&c->regions_note, c->regions_note.id);
    unsigned mhz = c->timing.side[0].clock_max_mhz > c->timing.side[1].clock_max_mhz ? c->timing.side[0].clock_max_mhz
                                                                                      : c->timing.side[1].clock_max_mhz;
    kd_regions_options o = opts->regions;
    o.timeout_ms = opts->timing.timeout_ms;
    o.seed = opts->timing.seed;
    for (int s = 0; s < 2; s++) {
        kd_timing_side side = ctx->sides[s];
        if (c->side[s].regions_launch.nargs) /* Triton: Proton's shared memory and profile scratch */
            side.spec = &c->side[s].regions_launch;
        /* The block sample, from the SM count the timing's harness reported: the marker form
         * may depend on it, and the recording then uses the same one. */
        unsigned stride = kd_regions_block_stride(kd_launch_spec_blocks(side.spec), c->timing.sms, o.block_stride);
        kd_markers_branch_for_waves(opts, c, &c->side[s], stride, c->timing.sms);
        side.load_path = c->side[s].regions_build.cubin_path;
        kd_strbuf why = {0};
        kd_trace("region pass %s", side.label);
        kd_regions_request req = {.side = &side, .names = &c->side[s].region_names, .o = &o, .stride = stride,
                                  .workdir = ctx->workdir, .plain_ns = c->timing.side[s].summary.median,
                                  .sm_clock_hz = mhz * 1e6};
        if (kd_regions_run(&req, &c->side[s].regions, &why) != 0) {
            kd_note_set(&c->regions_note, KD_REGIONS_FAILED, KD_NOTE_SIDE(s), NULL, NULL, kd_sb_str(&why));
            kd_sb_free(&why);
            return skipped(&c->regions_note, KD_REGIONS_FAILED);
        }
        kd_sb_free(&why);
        instrumented_resources(c, &c->side[s]);
    }
    c->regions_run = true;
    return ran();
}

/* ---- hot spots (hotspots/): each side's PC samples by source line, after the timing ------ */

static bool hotspots_wanted(const kd_diff_options *opts) { return opts->hotspots_on; }

/* Each side's timed cubin alone in a harness child, one launch sampled. Like the regions,
 * hot spots explain a timing: a failure is said in the report, never an error. */
static kd_pass_result run_hotspots(const kd_pass_context *ctx, kd_comparison *c)
{
    const kd_diff_options *opts = ctx->opts;
    c->hotspots.asked = true;
    for (int s = 0; s < 2; s++) {
        kd_hotspots_request r = {.side = &ctx->sides[s], .source_path = c->side[s].path, .workdir = ctx->workdir,
                                 .period = opts->hotspots_period, .seed = opts->timing.seed,
                                 .timeout_ms = opts->timing.timeout_ms};
        kd_hotspots_failure f = {0};
        kd_trace("hot-spot pass %s", ctx->sides[s].label);
        int rc = kd_hotspots_record(&r, &c->hotspots.side[s], &f);
        if (f.step != KD_HS_STEP_NONE) {
            kd_sb_free(&c->hotspots.failure.why);
            c->hotspots.failure = f;
            c->hotspots.failed_side = s;
        } else {
            kd_sb_free(&f.why);
        }
        if (rc != 0)
            return ran();
    }
    kd_hs_diff_build(&c->hotspots.side[0], &c->hotspots.side[1], &c->hotspots.diff);
    c->hotspots.run = true;
    /* The counters' advice again (the counter pass ran first), each note with its hot line. */
    if (c->counters.present) {
        for (size_t k = 0; k < c->counters.nadvice; k++)
            free(c->counters.advice[k]);
        free(c->counters.advice);
        c->counters.advice = NULL;
        c->counters.nadvice = 0;
        kd_advice_input in = {.side = {&c->counters.side[0].total, &c->counters.side[1].total}};
        for (int s = 0; s < 2; s++)
            in.spill_bytes[s] = c->side[s].stat.resources.spill_stores + c->side[s].stat.resources.spill_loads;
        kd_advice_hot(&in, &c->hotspots.diff, &c->counters.advice, &c->counters.nadvice);
    }
    return ran();
}

/* ---- the table ---------------------------------------------------------------------- */

static const kd_pass sanitizer_pass = {
    .name = "sanitizer", .stage = KD_PASS_BEFORE_TIMING, .wanted = sanitizer_wanted, .run = run_sanitizer};
static const kd_pass launch_check_pass = {
    .name = "launch check", .stage = KD_PASS_BEFORE_TIMING, .wanted = launch_check_wanted, .run = run_launch_check};
static const kd_pass timing_pass = {.name = "timing", .stage = KD_PASS_TIMING, .run = run_timing};
static const kd_pass counters_pass = {.name = "counters", .stage = KD_PASS_AFTER_TIMING, .wanted = counters_wanted,
                                      .unwanted_note = KD_COUNTERS_NO_NCU_FLAG, .run = run_counters};
static const kd_pass regions_pass = {
    .name = "regions", .stage = KD_PASS_AFTER_TIMING, .wanted = regions_wanted, .run = run_regions};

static const kd_pass hotspots_pass = {
    .name = "hotspots", .stage = KD_PASS_AFTER_TIMING, .wanted = hotspots_wanted, .run = run_hotspots};

const kd_pass *const kd_passes[] = {&sanitizer_pass, &launch_check_pass, &timing_pass, &kd_replay_pass, &counters_pass, &regions_pass,
                                    &hotspots_pass};
const size_t kd_pass_count = sizeof kd_passes / sizeof *kd_passes;
