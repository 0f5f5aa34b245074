#include "diff/runtime.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "compile/shim.h"
#include "cli/exit_codes.h"
#include "gpu/clocks.h"
#include "gpu/nvml.h"
#include "util/trace.h"
#include "backend/backend.h"
#include "report/model_text.h"
#include "util/tmpdir.h"

/* One side's launch request: the global flags, then that side's --call settings on top
 * (already merged by the option parser, launch/call.h). */
static kd_launch_request build_request(const kd_options *opts, const kd_side *side, int s)
{
    return (kd_launch_request){
        .kernel = side->kernel_info,
        .annotations = &side->annotations,
        .n = opts->n, .grid = opts->grid, .block = opts->block, .smem = opts->smem,
        .buffers = &opts->buffers, .scalars = &opts->scalars,
        .call = &opts->call[s], .call_origin = s ? "--call v2" : "--call v1",
        .abi = side->abi.fixed ? &side->abi : NULL,
        .comment = kd_annotation_comment(side->path),
    };
}

void kd_describe_launch(const kd_options *opts, kd_side *side, int s)
{
    if (!side->kernel_info) {
        side->launch_error = strdup("the kernel's signature is unknown (not found in the source; a .cubin needs "
                                     "`# kerndiff: signature=NAME:DTYPE*,...` in FILE.cubin.kerndiff)");
        return;
    }
    kd_launch_request req = build_request(opts, side, s);
    kd_strbuf error = {0};
    if (kd_launch_spec_build(&req, &side->launch, &error) != 0)
        side->launch_error = kd_sb_take(&error);
    kd_sb_free(&error);
}

void kd_describe_launches(const kd_options *opts, kd_comparison *c)
{
    for (int s = 0; s < 2; s++)
        kd_describe_launch(opts, &c->side[s], s);
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
    };
}

__attribute__((format(printf, 1, 2))) static char *note(const char *fmt, ...)
{
    char *text = NULL;
    va_list ap;
    va_start(ap, fmt);
    if (vasprintf(&text, fmt, ap) < 0)
        text = NULL;
    va_end(ap);
    return text;
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

static const char *counter_advice(kd_ncu_status st)
{
    switch (st) {
    case KD_NCU_MISSING: return "install Nsight Compute (ncu) or pass --ncu PATH";
    case KD_NCU_PERMISSION:
        return "run as root, or allow profiling for all users (NVreg_RestrictProfilingToAdminUsers=0, "
               "https://developer.nvidia.com/ERR_NVGPUCTRPERM)";
    default: return "see the message above; --no-ncu skips the counter pass";
    }
}

/* Profiles both sides with ncu. Counters explain a timing; without them the timing still
 * stands, so every failure here becomes a note, never an error. */
static void run_counters(const kd_options *opts, kd_comparison *c, const kd_timing_side sides[2], bool simulated,
                         const char *workdir)
{
    if (opts->no_ncu) {
        c->counters_note = strdup("counters not collected: --no-ncu");
        return;
    }
    if (simulated && !opts->ncu) {
        c->counters_note = strdup("counters not collected: the simulated harness has none (pass --ncu to use a stand-in)");
        return;
    }
    double shortest = fmin(c->timing.side[0].summary.median, c->timing.side[1].summary.median);
    kd_ncu_options o = {.ncu = opts->ncu, .full = opts->ncu_full, .repeats = kd_ncu_auto_repeats(opts->ncu_repeats, shortest),
                        .clock_control = opts->ncu_clock_control, .timeout_ms = opts->timing.timeout_ms,
                        .report_dir = opts->ncu_report_dir, .extra = &opts->extra_metrics};
    kd_ncu_result results[2];
    memset(results, 0, sizeof results);
    kd_ncu_status st = KD_NCU_OK;
    kd_strbuf why = {0};
    int s = 0;
    for (; s < 2 && st == KD_NCU_OK; s++) {
        kd_trace("counter pass %s", sides[s].label);
        o.launch_ns = c->timing.side[s].summary.median;
        st = kd_ncu_profile(&o, &sides[s], opts->timing.seed, workdir, &results[s], &why);
    }
    if (st != KD_NCU_OK) {
        c->counters_note = note("counters not collected (%s): %s; %s", s == 1 ? "v1" : "v2", kd_sb_str(&why),
                                counter_advice(st));
    } else {
        kd_counter_context ctx = {
            .sm = c->timing.sm,
            .sms = c->timing.sms,
            .timing_noise_pct = kd_speedup_ci_halfwidth_pct(&c->timing.speedup),
            .verdict = c->timing.verdict,
            .extra_metrics = &opts->extra_metrics,
        };
        for (int k = 0; k < 2; k++)
            ctx.spill_bytes[k] = c->side[k].stat.resources.spill_stores + c->side[k].stat.resources.spill_loads;
        read_peaks(&ctx);
        if (kd_counters_build(results, opts->ncu_full, &ctx, &c->counters) != 0)
            c->counters_note = strdup("counters not shown: out of memory");
    }
    kd_sb_free(&why);
    kd_ncu_result_free(&results[0]);
    kd_ncu_result_free(&results[1]);
}

/* --regions: each side's instrumented build alone in a harness child. Like the counters,
 * regions explain a timing; a failure here is a note, never an error. */
static void run_regions(const kd_options *opts, kd_comparison *c, const kd_timing_side sides[2], const char *workdir)
{
    if (!opts->regions_on || c->regions_note)
        return;
    unsigned mhz = c->timing.side[0].clock_max_mhz > c->timing.side[1].clock_max_mhz ? c->timing.side[0].clock_max_mhz
                                                                                      : c->timing.side[1].clock_max_mhz;
    kd_regions_options o = opts->regions;
    o.timeout_ms = opts->timing.timeout_ms;
    o.seed = opts->timing.seed;
    for (int s = 0; s < 2; s++) {
        kd_timing_side side = sides[s];
        side.load_path = c->side[s].regions_build.cubin_path;
        kd_strbuf why = {0};
        kd_trace("region pass %s", side.label);
        if (kd_regions_run(&side, &c->side[s].region_names, &o, workdir, c->timing.side[s].summary.median,
                           mhz * 1e6, &c->side[s].regions, &why) != 0) {
            c->regions_note = note("regions not recorded (%s): %s", side.label, kd_sb_str(&why));
            kd_sb_free(&why);
            return;
        }
        kd_sb_free(&why);
    }
    c->regions_run = true;
}

/* The compute-sanitizer to run: --compute-sanitizer, else (not for the simulated backend,
 * whose children a real one cannot run) the one on PATH. */
static const char *sanitizer_for(const kd_options *opts, const kd_backend *backend)
{
    if (opts->sanitize.program || !backend->simulated)
        return kd_find_sanitizer(opts->sanitize.program);
    return NULL;
}

/* --sanitize-n: the side's launch described again with n = COUNT on both sides (a --call n
 * gives way to it), so that a slow sanitizer runs on a smaller problem. */
static int sanitized_launch(const kd_options *opts, const kd_side *side, int s, kd_launch_spec *out, kd_strbuf *why)
{
    kd_launch_request req = build_request(opts, side, s);
    kd_call_settings call = opts->call[s];
    call.n = NULL;
    req.call = &call;
    req.n = opts->sanitize.n;
    return kd_launch_spec_build(&req, out, why);
}

/* --sanitize: each side once under compute-sanitizer before timing. Returns KD_EXIT_OK to go
 * on (clean, or --sanitize-warn), KD_EXIT_SANITIZER on findings, KD_EXIT_TOOL without a
 * compute-sanitizer, KD_EXIT_RUNTIME when it could not run. */
static int run_sanitizer(const kd_options *opts, kd_comparison *c, const kd_backend *backend,
                         const kd_timing_side sides[2], const char *workdir)
{
    if (!opts->sanitize.tools)
        return KD_EXIT_OK;
    const char *sanitizer = sanitizer_for(opts, backend);
    if (!sanitizer) {
        c->runtime_note = note("--sanitize: no compute-sanitizer found%s%s (it comes with the CUDA toolkit; or pass "
                               "--compute-sanitizer PATH)",
                               opts->sanitize.program ? " at " : "", opts->sanitize.program ? opts->sanitize.program : "");
        return KD_EXIT_TOOL;
    }
    kd_sanitize_options o = opts->sanitize;
    o.timeout_ms = opts->timing.timeout_ms;
    o.seed = opts->timing.seed;
    size_t findings[2] = {0, 0};
    for (int s = 0; s < 2; s++) {
        kd_strbuf why = {0};
        kd_timing_side side = sides[s];
        /* The findings name this launch's buffers: it lives as long as they do. */
        if (o.n && sanitized_launch(opts, &c->side[s], s, &c->sanitize[s].launch, &why) != 0) {
            c->runtime_note = note("%s: --sanitize-n %s: %s", side.label, o.n, kd_sb_str(&why));
            kd_sb_free(&why);
            return KD_EXIT_INPUT;
        }
        if (o.n)
            side.spec = &c->sanitize[s].launch;
        kd_trace("sanitizer %s", side.label);
        int rc = kd_sanitize_side_run(sanitizer, &side, o.tools, &o, workdir, &c->sanitize[s], &why);
        if (rc != 0) {
            c->runtime_note = note("%s: compute-sanitizer: %s", side.label, kd_sb_str(&why));
            kd_sb_free(&why);
            return KD_EXIT_RUNTIME;
        }
        kd_sb_free(&why);
        findings[s] = kd_sanitize_findings(&c->sanitize[s]);
    }
    c->sanitize_tools = o.tools;
    if ((findings[0] || findings[1]) && !o.warn) {
        c->runtime_note = note("nothing timed: compute-sanitizer found problems in %s (above); fix them, or pass "
                               "--sanitize-warn to time anyway",
                               findings[0] && findings[1] ? "v1 and v2" : findings[0] ? "v1" : "v2");
        return KD_EXIT_SANITIZER;
    }
    return KD_EXIT_OK;
}

/* A kernel faulted: re-run that side once under memcheck, so that the report can say which
 * buffer and element it touched. Best effort: without a compute-sanitizer, say how to get one. */
static void explain_fault(const kd_options *opts, kd_comparison *c, const kd_backend *backend,
                          const kd_timing_side sides[2], const char *workdir)
{
    const char *error = c->runtime_note;
    if (!error || !strstr(error, "CUDA_ERROR_") || error[0] != 'v' || (error[1] != '1' && error[1] != '2'))
        return;
    int s = error[1] - '1';
    const char *sanitizer = sanitizer_for(opts, backend);
    if (!sanitizer) {
        if (!backend->simulated)
            c->fault_explained = strdup("install compute-sanitizer (part of the CUDA toolkit) and kerndiff will say "
                                        "which buffer and element the faulting access hit");
        return;
    }
    kd_sanitize_options o = opts->sanitize;
    o.timeout_ms = opts->timing.timeout_ms;
    o.seed = opts->timing.seed;
    kd_sanitize_side found;
    memset(&found, 0, sizeof found);
    kd_strbuf why = {0}, text = {0};
    kd_trace("explaining the fault of %s under memcheck", sides[s].label);
    if (kd_sanitize_side_run(sanitizer, &sides[s], 1u << KD_SAN_MEMCHECK, &o, workdir, &found, &why) == 0 &&
        found.report[KD_SAN_MEMCHECK].count) {
        kd_sb_printf(&text, "%s, under compute-sanitizer memcheck: ", sides[s].label);
        kd_san_explain(&found.report[KD_SAN_MEMCHECK].findings[0], found.buffers, found.nbuffers, &text);
        c->fault_explained = kd_sb_take(&text);
    }
    kd_sb_free(&why);
    kd_sb_free(&text);
    kd_sanitize_side_free(&found);
}

/* Timing (with the correctness check), then the passes that explain it. */
static int run_passes(const kd_options *opts, kd_comparison *c, const kd_backend *backend,
                      const kd_timing_side sides[2], const char *const *shared_argv, const char *workdir)
{
    kd_strbuf error = {0};
    kd_timing_status st = kd_measure(sides, shared_argv, &opts->timing, workdir, &c->timing, &error);
    if (st != KD_TIMING_OK) {
        c->runtime_note = kd_sb_take(&error);
        explain_fault(opts, c, backend, sides, workdir);
        return KD_EXIT_RUNTIME;
    }
    kd_sb_free(&error);
    c->timed = true;
    /* The verdict is known now: say it before the slower passes that explain it. */
    if (!opts->no_ncu || opts->regions_on) {
        kd_timing_headline(&c->timing, &error);
        kd_announce("%s", kd_sb_str(&error));
        kd_sb_free(&error);
    }
    run_counters(opts, c, sides, c->simulated, workdir);
    run_regions(opts, c, sides, workdir);
    return KD_EXIT_OK;
}

const kd_backend *kd_runtime_backend(const kd_options *opts, const kd_comparison *c, char **why)
{
    const kd_backend *backend = kd_backend_for(c->side[0].path, c->side[1].path);
    *why = opts->no_run ? strdup("runtime measurement not run: --no-run; static diff only")
           : !backend   ? strdup("runtime measurement skipped: no backend runs these inputs; static diff only")
           : backend->needs_gpu && !c->gpu.present
               ? note("runtime measurement skipped: %s; static diff only", c->gpu.reason)
               : NULL;
    return *why ? NULL : backend;
}

int kd_compare_runtime(const kd_options *opts, kd_comparison *c)
{
    const kd_backend *backend = kd_runtime_backend(opts, c, &c->runtime_note);
    if (!backend)
        return KD_EXIT_OK;
    for (int s = 0; s < 2; s++) {
        if (c->side[s].launch_error) {
            kd_strbuf sb = {0};
            kd_sb_printf(&sb, "%s: cannot launch %s: %s (or pass --no-run for the static diff only)",
                         c->side[s].label, c->side[s].kernel, c->side[s].launch_error);
            c->runtime_note = kd_sb_take(&sb);
            return KD_EXIT_INPUT;
        }
    }
    /* argv[0], argv[1]: each side alone; argv[2]: both together (the timing). */
    kd_argv argv[3] = {{{NULL}}};
    int rc = KD_EXIT_OK;
    for (int s = 0; s < 3 && rc == KD_EXIT_OK; s++) {
        kd_strbuf why = {0};
        if (backend->harness(s < 2 ? s : -1, &argv[s], &why) != 0) {
            c->runtime_note = kd_sb_take(&why);
            rc = KD_EXIT_TOOL;
        }
        kd_sb_free(&why);
    }
    unsigned locked_mhz = 0;
    if (rc == KD_EXIT_OK && opts->lock_clocks) {
        kd_strbuf why = {0};
        if (kd_clocks_lock(&locked_mhz, &why) != 0) {
            c->runtime_note = kd_sb_take(&why);
            rc = KD_EXIT_TOOL;
        }
        kd_sb_free(&why);
    }
    const char *workdir = kd_tmpdir();
    if (rc == KD_EXIT_OK && !workdir) {
        c->runtime_note = strdup("cannot create a private temporary folder");
        rc = KD_EXIT_TOOL;
    }
    if (rc == KD_EXIT_OK) {
        kd_timing_side sides[2];
        for (int s = 0; s < 2; s++)
            sides[s] = kd_timing_side_of(&c->side[s], &argv[s]);
        c->simulated = backend->simulated;
        rc = run_sanitizer(opts, c, backend, sides, workdir);
        if (rc == KD_EXIT_OK)
            rc = run_passes(opts, c, backend, sides, (const char *const *)argv[2].items, workdir);
        c->timing.locked_by_kerndiff_mhz = locked_mhz;
    }
    for (int s = 0; s < 3; s++)
        kd_argv_free(&argv[s]);
    return rc;
}
