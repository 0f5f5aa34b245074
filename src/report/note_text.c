#include "report/note_text.h"

#include "report/untrusted.h"
#include "report/diag_text.h"

#include <string.h>

static const char *sides_text(kd_note_sides s)
{
    return s == KD_NOTE_V1 ? "v1" : s == KD_NOTE_V2 ? "v2" : s == KD_NOTE_BOTH ? "v1 and v2" : "";
}

static const char *or_empty(const char *text) { return text ? text : ""; }

/* What to do when ncu could not profile. */
static const char *counter_advice(kd_note_id id)
{
    switch (id) {
    case KD_COUNTERS_NCU_MISSING: return "install Nsight Compute (ncu) or pass --ncu PATH";
    case KD_COUNTERS_NCU_PERMISSION:
        return "run as root, or allow profiling for all users (NVreg_RestrictProfilingToAdminUsers=0, "
               "https://developer.nvidia.com/ERR_NVGPUCTRPERM)";
    default: return "see the message above; --no-ncu skips the counter pass";
    }
}

/* The run a compare note is about: v1 is OLD's, v2 NEW's. */
static const char *run_text(kd_note_sides s)
{
    return s == KD_NOTE_V1 ? "OLD's run" : s == KD_NOTE_V2 ? "NEW's run" : "either saved run";
}

/* Why nothing ran, for a note that carries another runtime note's JSON id (`why`, e.g.
 * "no_gpu") and its detail: that note's own sentence. An id that is not a runtime note's, or
 * is this kind of note itself, is not followed. */
static void nested_reason(const char *why, const char *detail, kd_strbuf *out)
{
    for (int id = 1; why && id < KD_NOTE_ID_COUNT; id++) {
        const char *name = kd_note_id_name((kd_note_id)id);
        if (id == KD_RUNTIME_GATE_NOT_EVALUATED || kd_note_kind_of((kd_note_id)id) != KD_NOTE_RUNTIME || !name ||
            strcmp(name, why) != 0)
            continue;
        kd_note inner = {.present = true, .id = (kd_note_id)id, .detail = (char *)detail};
        if (kd_note_text(&inner, out))
            return;
    }
    kd_sb_puts(out, "nothing was run");
}

static void saved_no_samples(const kd_note *n, kd_strbuf *out)
{
    if (n->number[1] <= 0) { /* a note without its numbers (an older saved result) */
        kd_sb_puts(out, "no timing compared: a saved run has no runtime samples");
        return;
    }
    if (n->sides == KD_NOTE_BOTH || n->number[0] == 0)
        kd_sb_printf(out, "no timing compared: %s has no runtime samples (a comparison needs at least %ld per run)",
                     run_text(n->sides), n->number[1]);
    else
        kd_sb_printf(out, "no timing compared: %s has %ld usable runtime sample%s; a comparison needs at least %ld "
                          "per run", run_text(n->sides), n->number[0], n->number[0] == 1 ? "" : "s", n->number[1]);
}

static bool note_text(const kd_note *n, const char *detail, kd_strbuf *out);

bool kd_note_text(const kd_note *n, kd_strbuf *out)
{
    if (!n->present)
        return false;
    if (n->detail || !n->said.id)
        return note_text(n, or_empty(n->detail), out);
    kd_strbuf said = {0}; /* a message in place of the detail: its words are the detail */
    kd_diag_text(&n->said, &said);
    bool worded = note_text(n, kd_sb_str(&said), out);
    kd_sb_free(&said);
    return worded;
}

/* n's sentence, with `detail` the words of its detail or message ("" for none). */
static bool note_text(const kd_note *n, const char *detail, kd_strbuf *out)
{
    const char *side = sides_text(n->sides), *v0 = or_empty(n->value[0]), *v1 = or_empty(n->value[1]);
    switch (n->id) {
    case KD_NOTE_NONE: case KD_NOTE_ID_COUNT: return false;
    case KD_SELECTION_ONE_KERNEL_EACH:
        kd_sb_printf(out, "comparing %s (v1) with %s (v2): each file has one kernel", v0, v1);
        break;
    case KD_SELECTION_RUNS_DIFFER:
        kd_sb_printf(out, "WARNING: the runs differ: OLD ran on %s (driver %ld), NEW on %s (driver %ld): timings are not "
                          "like for like", v0, n->number[0], v1, n->number[1]);
        break;
    case KD_SELECTION_SAVED_KERNELS_DIFFER:
        kd_sb_printf(out, "WARNING: the saved runs timed different kernels, %s (OLD) and %s (NEW): this compares two "
                          "kernels, not two versions of one", v0, v1);
        break;
    case KD_SASS_NO_CUOBJDUMP:
        kd_sb_puts(out, "SASS skipped: cuobjdump not found (install the CUDA toolkit's cuobjdump, "
                        "or pip install nvidia-cuda-cuobjdump and put it on PATH)");
        break;
    case KD_SASS_NOT_IN_BUILD:
        kd_sb_printf(out, "%s: SASS skipped: %s", side, kd_note_has_detail(n) ? detail : "the build has no disassembly");
        break;
    case KD_SASS_NO_FUNCTION:
        kd_sb_printf(out, "%s: SASS skipped: %s gave no disassembly of %s", side, v0, v1);
        break;
    case KD_GIT_IDENTICAL:
        kd_sb_printf(out, "%s and %s are identical (file and includes): any difference below is noise", v0, v1);
        break;
    case KD_RUNTIME_NO_RUN_FLAG: kd_sb_puts(out, "runtime measurement not run: --no-run; static diff only"); break;
    case KD_RUNTIME_NO_BACKEND:
        kd_sb_puts(out, "runtime measurement skipped: no backend runs these inputs; static diff only");
        break;
    case KD_RUNTIME_NO_GPU: kd_sb_printf(out, "runtime measurement skipped: %s; static diff only", detail); break;
    case KD_RUNTIME_UNLAUNCHABLE:
        /* the detail echoes --arg/--call/--buf values: one line, so a newline in one cannot fake a line */
        kd_sb_printf(out, "%s: cannot launch %s: ", side, v0);
        kd_sb_untrusted(out, detail);
        kd_sb_puts(out, " (or pass --no-run for the static diff only)");
        break;
    case KD_RUNTIME_NO_HARNESS: case KD_RUNTIME_CLOCKS_NOT_LOCKED: case KD_RUNTIME_TIMING_FAILED:
    case KD_RUNTIME_OUT_OF_BOUNDS:
        kd_sb_puts(out, detail); /* each says what failed, on which side, and what to do */
        break;
    case KD_RUNTIME_NO_TMPDIR: kd_sb_puts(out, "cannot create a private temporary folder"); break;
    case KD_RUNTIME_NO_SANITIZER:
        kd_sb_printf(out, "--sanitize: no compute-sanitizer found%s%s (it comes with the CUDA toolkit; or pass "
                          "--compute-sanitizer PATH)", n->value[0] ? " at " : "", v0);
        break;
    case KD_RUNTIME_SANITIZE_N_INVALID: kd_sb_printf(out, "%s: --sanitize-n %s: %s", side, v0, detail); break;
    case KD_RUNTIME_SANITIZER_FAILED: kd_sb_printf(out, "%s: compute-sanitizer: %s", side, detail); break;
    case KD_RUNTIME_ASSUMED_LAUNCH_FINDINGS:
        /* the finding itself is in the sanitizer's section above (and the note's JSON detail) */
        kd_sb_printf(out, "nothing timed: under compute-sanitizer memcheck, the launch kerndiff assumed for %s "
                          "accesses memory outside its buffers (above): give the real sizes (--n, --buf NAME=COUNT, "
                          "--grid/--block, or a `// kerndiff:` annotation), or pass --no-launch-memcheck to time it "
                          "anyway",
                     side);
        break;
    case KD_RUNTIME_SANITIZER_FINDINGS:
        kd_sb_printf(out, "nothing timed: compute-sanitizer found problems in %s (above); fix them, or pass "
                          "--sanitize-warn to time anyway", side);
        break;
    case KD_RUNTIME_SAVED_NO_SAMPLES: saved_no_samples(n, out); break;
    case KD_RUNTIME_GATE_NOT_EVALUATED:
        kd_sb_printf(out, "gate %s: NOT EVALUATED, nothing was run: ", v0);
        nested_reason(n->value[1], kd_note_has_detail(n) ? detail : NULL, out);
        break;
    case KD_COUNTERS_NO_NCU_FLAG: kd_sb_puts(out, "counters not collected: --no-ncu"); break;
    case KD_COUNTERS_SIMULATED:
        kd_sb_puts(out, "counters not collected: the simulated harness has none (pass --ncu to use a stand-in)");
        break;
    case KD_COUNTERS_NCU_MISSING: case KD_COUNTERS_NCU_PERMISSION: case KD_COUNTERS_NCU_FAILED:
        kd_sb_printf(out, "counters not collected (%s): %s; %s", side, detail, counter_advice(n->id));
        break;
    case KD_REGIONS_NOT_CUDA:
        kd_sb_printf(out, "regions not recorded: %s is neither CUDA C nor Triton (regions are CUDA C's KD_REGION "
                          "markers and Triton's Proton scopes)", side);
        break;
    case KD_REGIONS_LAUNCHER:
        kd_sb_printf(out, "regions not recorded: %s is a custom launcher (regions need one kernel)", side);
        break;
    case KD_REGIONS_NO_MARKERS:
        kd_sb_printf(out, "regions not recorded: %s has no region markers (#include <kerndiff/regions.h>, then "
                          "KD_REGION_BEGIN(name) ... KD_REGION_END(name))", side);
        break;
    case KD_REGIONS_NO_SCOPES:
        kd_sb_printf(out, "regions not recorded: %s's kernel has no Proton scopes (import triton.profiler.language "
                          "as pl, then pl.enter_scope(\"name\") ... pl.exit_scope(\"name\"), or with pl.scope(\"name\"):)",
                     side);
        break;
    case KD_REGIONS_NO_PROTON:
        kd_sb_printf(out, "regions not recorded: %s's Triton %s has no Proton instrumentation, which Triton regions "
                          "need (triton.profiler.language, Triton 3.5 or later)", side, v0);
        break;
    case KD_REGIONS_FAILED: kd_sb_printf(out, "regions not recorded (%s): %s", side, detail); break;
    case KD_REGIONS_NOT_TIMED:
        kd_sb_puts(out, "regions not recorded: nothing was run, so no region was timed (");
        nested_reason(n->value[0], kd_note_has_detail(n) ? detail : NULL, out);
        kd_sb_puts(out, ")");
        break;
    case KD_REGIONS_SAVED_ONE_RUN:
        kd_sb_printf(out, "regions not compared: %s's run has none (record both runs with --regions)",
                     n->sides == KD_NOTE_V1 ? "OLD" : "NEW");
        break;
    }
    return true;
}
