#include "diff/runtime.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "compile/shim.h"
#include "diff/diff_msgs.h"
#include "diff/passes.h"
#include "util/outcome.h"
#include "gpu/clocks.h"
#include "measure/harness_pool.h"
#include "util/progress.h"
#include "backend/backend.h"
#include "util/tmpdir.h"
#include "util/xalloc.h"

kd_launch_request kd_side_launch_request(const kd_launch_options *given, const kd_side *side, int s)
{
    return (kd_launch_request){
        .kernel = side->kernel_info,
        .annotations = &side->annotations,
        .n = given->n, .grid = given->grid, .block = given->block, .smem = given->smem,
        .buffers = &given->buffers, .scalars = &given->scalars,
        .call = &given->call[s], .call_origin = s ? "--call v2" : "--call v1",
        .abi = side->abi.fixed ? &side->abi : NULL,
        .comment = kd_annotation_comment(side->path),
    };
}

void kd_describe_launch(const kd_launch_options *given, kd_side *side, int s)
{
    if (!side->kernel_info) {
        side->launch_error = kd_xstrdup("the kernel's signature is unknown (not found in the source; a .cubin needs "
                                     "`# kerndiff: signature=NAME:DTYPE*,...` in FILE.cubin.kerndiff)");
        return;
    }
    if (side->replay) { /* --launch FILE: the capture's launch, on this side's parameter layout */
        kd_diag why = {0}; /* said by diff/pipeline.c's check before the build: not again */
        if (kd_replay_spec(side->replay, side->kernel_info, s + 1, &side->launch, &why) != 0)
            side->launch_error = kd_xstrdup("the captured launch does not fit this kernel's parameters");
        kd_diag_free(&why);
        return;
    }
    kd_launch_request req = kd_side_launch_request(given, side, s);
    kd_strbuf error = {0};
    if (kd_launch_spec_build(&req, &side->launch, &error) != 0)
        side->launch_error = kd_sb_take(&error);
    kd_sb_free(&error);
}

int kd_resolve_launch(const kd_frontend_options *fopts, const kd_launch_options *launch, kd_side *side, int s)
{
    const kd_backend *fe = side->frontend;
    int rc = fe && fe->prepare ? fe->prepare(fopts, launch, side) : KD_OK;
    if (rc == KD_OK)
        kd_describe_launch(launch, side, s);
    return rc;
}

kd_timing_side kd_timing_side_of(const kd_side *side, const kd_argv *harness)
{
    bool launcher = side->stat.launcher;
    return (kd_timing_side){
        .label = side->label,
        .harness_argv = (const char *const *)harness->items,
        .load_kind = launcher ? "launcher" : "cubin",
        .load_path = launcher ? side->build.launcher_path : side->build.cubin_path,
        .load_symbol = launcher ? KD_SHIM_SYMBOL : side->stat.entry,
        .spec = &side->launch,
        /* Captured data (a Triton side taken from the program, issue 26): one file per
         * argument, or none; any other count is not the launch's and is not used. */
        .fill = side->abi.fill.count == side->launch.nargs ? (const char *const *)side->abi.fill.items : NULL,
        .replay = side->replay,
    };
}

const kd_backend *kd_runtime_backend(const kd_diff_options *opts, const kd_comparison *c, kd_note *why)
{
    const kd_backend *backend = kd_backend_for(c->side[0].path, c->side[1].path);
    if (opts->no_run)
        kd_note_set(why, KD_RUNTIME_NO_RUN_FLAG, KD_NOTE_NO_SIDE, NULL, NULL, NULL);
    else if (!backend)
        kd_note_set(why, KD_RUNTIME_NO_BACKEND, KD_NOTE_NO_SIDE, NULL, NULL, NULL);
    else if (backend->needs_gpu && !c->gpu.present)
        kd_note_set(why, KD_RUNTIME_NO_GPU, KD_NOTE_NO_SIDE, NULL, NULL, c->gpu.reason);
    return why->present ? NULL : backend;
}

static kd_verdict_hook verdict_hook;

void kd_runtime_on_verdict(kd_verdict_hook hook)
{
    verdict_hook = hook;
}

/* The passes of the table (diff/passes.h), stage by stage. Before the first pass after the
 * timing, the verdict is handed to the hook (which announces it): it is known, and those
 * passes are slower. */
static int run_passes(const kd_pass_context *ctx, kd_comparison *c)
{
    kd_comparison_stage(c, "runtime setup"); /* the launches' sizes checked, the harnesses found */
    for (int stage = 0; stage < KD_PASS_STAGES; stage++) {
        bool announced = false;
        for (size_t i = 0; i < kd_pass_count; i++) {
            const kd_pass *p = kd_passes[i];
            if (p->stage != (kd_pass_stage)stage)
                continue;
            if (p->wanted && !p->wanted(ctx->opts)) {
                if (p->unwanted_note != KD_NOTE_NONE)
                    kd_note_set(kd_comparison_note(c, kd_note_kind_of(p->unwanted_note)), p->unwanted_note,
                                KD_NOTE_NO_SIDE, NULL, NULL, NULL);
                continue;
            }
            if (stage == KD_PASS_AFTER_TIMING && !announced) {
                if (verdict_hook)
                    verdict_hook(c);
                announced = true;
            }
            kd_trace("%s pass", p->name);
            kd_pass_result r = p->run(ctx, c);
            kd_comparison_stage(c, p->name);
            if (r.status == KD_PASS_FAILED)
                return r.outcome;
        }
    }
    return KD_OK;
}

/* Nothing runs (no GPU, --no-run, no backend: c->runtime_note says why). What the options
 * asked of the run says that it did not happen: --regions in its note; --sanitize, a gate,
 * fails closed as --fail-if-slower and --require-match do (diff/gate.c), naming the gate and
 * carrying the reason. */
/* A pass the command line asked for by name that cannot run, in one line on stderr (issue 41
 * item 6: --hotspots, --counters ncu, --metrics and --ncu-report went unmentioned without a
 * GPU). The report's own line says why nothing runs; this one names what was asked. */
static void say_not_run(const char *asked, const kd_comparison *c)
{
    if (c->runtime_note.detail)
        kd_say(KD_MSG_DIFF_PASS_NOT_RUN, KD_DIAG_NO_SIDE, KD_S(asked), KD_S(c->runtime_note.detail));
    else
        kd_say(KD_MSG_DIFF_PASS_NOT_RUN_BARE, KD_DIAG_NO_SIDE, KD_S(asked));
}

/* Each pass asked for by name (not those on by default: the counters with no flag). */
static void say_passes_not_run(const kd_diff_options *opts, const kd_comparison *c)
{
    if (opts->hotspots_on)
        say_not_run("--hotspots", c);
    const kd_counters_options *k = &opts->counters;
    if (!k->off && k->collector && strcmp(k->collector, "auto") != 0) {
        char *asked = kd_xasprintf("--counters %s", k->collector);
        say_not_run(asked, c);
        free(asked);
    }
    if (!k->off && k->extra_metrics.count)
        say_not_run("--metrics", c);
    if (!k->off && k->report_dir) {
        char *asked = kd_xasprintf("--ncu-report %s", k->report_dir);
        say_not_run(asked, c);
        free(asked);
    }
}

static int nothing_run(const kd_diff_options *opts, kd_comparison *c)
{
    const char *why = kd_note_id_name(c->runtime_note.id); /* a static string: it outlives the note */
    char *detail = c->runtime_note.detail ? kd_xstrdup(c->runtime_note.detail) : NULL;
    say_passes_not_run(opts, c);
    if (opts->regions_on && !c->regions_note.present)
        kd_note_set(&c->regions_note, KD_REGIONS_NOT_TIMED, KD_NOTE_NO_SIDE, why, NULL, detail);
    int rc = KD_OK;
    if (opts->sanitize.tools) {
        kd_note_set(&c->runtime_note, KD_RUNTIME_GATE_NOT_EVALUATED, KD_NOTE_NO_SIDE, "--sanitize", why, detail);
        rc = KD_FAIL_NOT_EVALUATED;
    }
    free(detail);
    return rc;
}

/* Whether a side's launch was refused for naming what the kernel lacks (kd_launch_spec's
 * misnamed): a mistake in the request, refused even where nothing can run (no GPU). */
static bool launch_misnamed(const kd_comparison *c)
{
    return (c->side[0].launch_error && c->side[0].launch.misnamed) ||
           (c->side[1].launch_error && c->side[1].launch.misnamed);
}

int kd_compare_runtime(const kd_diff_options *opts, kd_comparison *c)
{
    const kd_backend *backend = kd_runtime_backend(opts, c, &c->runtime_note);
    /* No GPU: nothing runs, but a launch that names what the kernel lacks is the same mistake
     * as with a GPU, refused the same way (CPU-only CI catches it); --no-run asks for none. */
    bool refuse_anyway = !backend && !opts->no_run && c->runtime_note.id == KD_RUNTIME_NO_GPU && launch_misnamed(c);
    if (!backend && !refuse_anyway)
        return nothing_run(opts, c);
    /* Each side's launch, then its buffers' size; both sides refused for the same reason
     * are named in one note. */
    kd_strbuf reason[2] = {{0}, {0}};
    const char *error[2];
    for (int s = 0; s < 2; s++) {
        error[s] = c->side[s].launch_error;
        if (refuse_anyway && error[s] && !c->side[s].launch.misnamed)
            error[s] = NULL; /* only the request's mistakes where nothing could run */
        if (!error[s] && !refuse_anyway && kd_timing_check_sizes(&c->side[s].launch, NULL, &reason[s]) != 0)
            error[s] = kd_sb_str(&reason[s]);
    }
    int refused = error[0] ? 0 : error[1] ? 1 : -1;
    if (refused >= 0) {
        bool both = error[0] && error[1] && !strcmp(error[0], error[1]) && !strcmp(c->side[0].kernel, c->side[1].kernel);
        kd_note_set(&c->runtime_note, KD_RUNTIME_UNLAUNCHABLE, both ? KD_NOTE_BOTH : KD_NOTE_SIDE(refused),
                    c->side[refused].kernel, NULL, error[refused]);
    }
    kd_sb_free(&reason[0]);
    kd_sb_free(&reason[1]);
    if (refused >= 0)
        return KD_FAIL_INPUT;
    /* argv[0], argv[1]: each side alone; argv[2]: both together (the timing). */
    kd_argv argv[3] = {{{NULL}}};
    int rc = KD_OK;
    for (int s = 0; s < 3 && rc == KD_OK; s++) {
        kd_strbuf why = {0};
        if (backend->harness(s < 2 ? s : -1, &argv[s], &why) != 0) {
            kd_note_set(&c->runtime_note, KD_RUNTIME_NO_HARNESS, KD_NOTE_NO_SIDE, NULL, NULL, kd_sb_str(&why));
            rc = KD_FAIL_TOOL;
        }
        kd_sb_free(&why);
    }
    unsigned locked_mhz = 0;
    if (rc == KD_OK && opts->lock_clocks) {
        kd_strbuf why = {0};
        if (kd_clocks_lock(&locked_mhz, &why) != 0) {
            kd_note_set(&c->runtime_note, KD_RUNTIME_CLOCKS_NOT_LOCKED, KD_NOTE_NO_SIDE, NULL, NULL, kd_sb_str(&why));
            rc = KD_FAIL_TOOL;
        }
        kd_sb_free(&why);
    }
    const char *workdir = kd_tmpdir();
    if (rc == KD_OK && !workdir) {
        kd_note_set(&c->runtime_note, KD_RUNTIME_NO_TMPDIR, KD_NOTE_NO_SIDE, NULL, NULL, NULL);
        rc = KD_FAIL_TOOL;
    }
    if (rc == KD_OK) {
        kd_timing_side sides[2];
        for (int s = 0; s < 2; s++)
            sides[s] = kd_timing_side_of(&c->side[s], &argv[s]);
        c->simulated = backend->simulated;
        kd_pass_context ctx = {.opts = opts, .backend = backend, .sides = sides,
                               .shared_argv = (const char *const *)argv[2].items, .workdir = workdir};
        rc = run_passes(&ctx, c);
        kd_harness_pool_drop_handed(); /* the timing's child, when no counter pass took it */
        c->timing.locked_by_kerndiff_mhz = locked_mhz;
    }
    for (int s = 0; s < 3; s++)
        kd_argv_free(&argv[s]);
    return rc;
}
