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
#include "wire/locate.h"
#include "util/tmpdir.h"

/* One side's launch request: the global flags, then that side's --call settings on top. */
typedef struct side_request {
    kd_launch_request req;
    kd_strlist buffers, scalars;
    char *call_text;   /* a copy of "--call vN:..." that the settings point into */
} side_request;

static bool is_pointer_param(const kd_kernel *k, const char *name)
{
    for (size_t i = 0; k && i < k->nparams; i++)
        if (strcmp(k->params[i].name, name) == 0)
            return k->params[i].is_pointer;
    return false;
}

static void apply_call(side_request *sr, const kd_kernel *k, const char *settings)
{
    free(sr->call_text);
    sr->call_text = strdup(settings);
    for (char *save = NULL, *kv = strtok_r(sr->call_text, ",", &save); kv; kv = strtok_r(NULL, ",", &save)) {
        char *eq = strchr(kv, '=');
        if (!eq)
            continue;
        size_t klen = (size_t)(eq - kv);
        const char *value = eq + 1;
        if (klen == 1 && kv[0] == 'n')
            sr->req.n = value;
        else if (klen == 4 && !strncmp(kv, "grid", 4))
            sr->req.grid = value;
        else if (klen == 5 && !strncmp(kv, "block", 5))
            sr->req.block = value;
        else if (klen == 4 && !strncmp(kv, "smem", 4))
            sr->req.smem = value;
        else {
            *eq = '\0';
            bool pointer = is_pointer_param(k, kv);
            *eq = '=';
            kd_strlist_push(pointer ? &sr->buffers : &sr->scalars, kv);
        }
    }
}

static void build_request(const kd_options *opts, const kd_side *side, side_request *sr)
{
    memset(sr, 0, sizeof *sr);
    for (size_t i = 0; i < opts->buffers.count; i++)
        kd_strlist_push(&sr->buffers, opts->buffers.items[i]);
    for (size_t i = 0; i < opts->scalars.count; i++)
        kd_strlist_push(&sr->scalars, opts->scalars.items[i]);
    sr->req = (kd_launch_request){
        .kernel = side->kernel_info,
        .annotations = &side->annotations,
        .n = opts->n, .grid = opts->grid, .block = opts->block, .smem = opts->smem,
        .buffers = &sr->buffers, .scalars = &sr->scalars,
    };
    for (size_t i = 0; i < opts->calls.count; i++)
        if (strncmp(opts->calls.items[i], side->label, 2) == 0 && opts->calls.items[i][2] == ':')
            apply_call(sr, side->kernel_info, opts->calls.items[i] + 3);
}

static void free_request(side_request *sr)
{
    free(sr->buffers.items);
    free(sr->scalars.items);
    free(sr->call_text);
}

void kd_describe_launches(const kd_options *opts, kd_comparison *c)
{
    for (int s = 0; s < 2; s++) {
        kd_side *side = &c->side[s];
        if (!side->kernel_info) {
            side->launch_error = strdup("the kernel's signature was not found in the source");
            continue;
        }
        side_request sr;
        build_request(opts, side, &sr);
        kd_strbuf error = {0};
        if (kd_launch_spec_build(&sr.req, &side->launch, &error) != 0)
            side->launch_error = kd_sb_take(&error);
        kd_sb_free(&error);
        free_request(&sr);
    }
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

/* KERNDIFF_SIMULATE="V1SPEC;V2SPEC" replaces the CUDA harness by the simulated one (the
 * documented test seam: docs/ARCHITECTURE.md). */
static int harness_argv(const char *simulate, int side, char *argv_storage[3])
{
    if (!simulate) {
        argv_storage[0] = kd_harness_path("kerndiff-harness");
        argv_storage[1] = NULL;
        return argv_storage[0] ? 0 : -1;
    }
    const char *sep = strchr(simulate, ';');
    argv_storage[0] = kd_harness_path("kerndiff-sim-harness");
    argv_storage[1] = side == 0 ? strndup(simulate, sep ? (size_t)(sep - simulate) : strlen(simulate))
                                : strdup(sep ? sep + 1 : simulate);
    argv_storage[2] = NULL;
    return argv_storage[0] ? 0 : -1;
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

int kd_compare_runtime(const kd_options *opts, kd_comparison *c)
{
    const char *simulate = getenv("KERNDIFF_SIMULATE");
    if (simulate && !*simulate)
        simulate = NULL;
    if (opts->no_run) {
        c->runtime_note = strdup("runtime measurement not run: --no-run; static diff only");
        return KD_EXIT_OK;
    }
    if (!simulate && !c->gpu.present) {
        c->runtime_note = note("runtime measurement skipped: %s; static diff only", c->gpu.reason);
        return KD_EXIT_OK;
    }
    for (int s = 0; s < 2; s++) {
        if (c->side[s].launch_error) {
            kd_strbuf sb = {0};
            kd_sb_printf(&sb, "%s: cannot launch %s: %s (or pass --no-run for the static diff only)",
                         c->side[s].label, c->side[s].kernel, c->side[s].launch_error);
            c->runtime_note = kd_sb_take(&sb);
            return KD_EXIT_INPUT;
        }
    }
    char *argv[2][3] = {{NULL}};
    int rc = KD_EXIT_OK;
    for (int s = 0; s < 2 && rc == KD_EXIT_OK; s++) {
        if (harness_argv(simulate, s, argv[s]) != 0) {
            c->runtime_note = note("cannot find the %s program beside kerndiff (set KERNDIFF_HARNESS_DIR)",
                                   simulate ? "kerndiff-sim-harness" : "kerndiff-harness");
            rc = KD_EXIT_TOOL;
        }
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
            sides[s] = (kd_timing_side){
                .label = c->side[s].label,
                .harness_argv = (const char *const *)argv[s],
                .load_kind = c->side[s].stat.launcher ? "launcher" : "cubin",
                .load_path = c->side[s].stat.launcher ? c->side[s].build.launcher_path : c->side[s].build.cubin_path,
                .load_symbol = c->side[s].stat.launcher ? KD_SHIM_SYMBOL : c->side[s].stat.entry,
                .spec = &c->side[s].launch,
            };
        kd_strbuf error = {0};
        int failed_side = 0;
        kd_timing_status st = kd_measure(sides, &opts->timing, workdir, &c->timing, &error, &failed_side);
        c->simulated = simulate != NULL;
        c->timing.locked_by_kerndiff_mhz = locked_mhz;
        if (st == KD_TIMING_OK) {
            c->timed = true;
            run_counters(opts, c, sides, c->simulated, workdir);
        } else {
            c->runtime_note = kd_sb_take(&error);
            rc = KD_EXIT_RUNTIME;
        }
        kd_sb_free(&error);
    }
    for (int s = 0; s < 2; s++) {
        free(argv[s][0]);
        free(argv[s][1]);
    }
    return rc;
}
