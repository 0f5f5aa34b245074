#include "diff/notes.h"
#include "util/xalloc.h"

#include <stdlib.h>
#include <string.h>

static const struct {
    kd_note_kind kind;
    const char *id;
} notes[KD_NOTE_ID_COUNT] = {
    [KD_NOTE_NONE] = {KD_NOTE_KINDS, NULL},
    [KD_SELECTION_ONE_KERNEL_EACH] = {KD_NOTE_SELECTION, "one_kernel_each"},
    [KD_SELECTION_RUNS_DIFFER] = {KD_NOTE_SELECTION, "runs_differ"},
    [KD_SELECTION_SAVED_KERNELS_DIFFER] = {KD_NOTE_SELECTION, "kernels_differ"},
    [KD_SASS_NO_CUOBJDUMP] = {KD_NOTE_SASS, "no_cuobjdump"},
    [KD_SASS_NOT_IN_BUILD] = {KD_NOTE_SASS, "not_in_build"},
    [KD_SASS_NO_FUNCTION] = {KD_NOTE_SASS, "no_function"},
    [KD_GIT_IDENTICAL] = {KD_NOTE_GIT, "identical"},
    [KD_RUNTIME_NO_RUN_FLAG] = {KD_NOTE_RUNTIME, "no_run_flag"},
    [KD_RUNTIME_NO_BACKEND] = {KD_NOTE_RUNTIME, "no_backend"},
    [KD_RUNTIME_NO_GPU] = {KD_NOTE_RUNTIME, "no_gpu"},
    [KD_RUNTIME_UNLAUNCHABLE] = {KD_NOTE_RUNTIME, "unlaunchable"},
    [KD_RUNTIME_NO_HARNESS] = {KD_NOTE_RUNTIME, "no_harness"},
    [KD_RUNTIME_CLOCKS_NOT_LOCKED] = {KD_NOTE_RUNTIME, "clocks_not_locked"},
    [KD_RUNTIME_NO_TMPDIR] = {KD_NOTE_RUNTIME, "no_tmpdir"},
    [KD_RUNTIME_NO_SANITIZER] = {KD_NOTE_RUNTIME, "no_sanitizer"},
    [KD_RUNTIME_SANITIZE_N_INVALID] = {KD_NOTE_RUNTIME, "sanitize_n_invalid"},
    [KD_RUNTIME_SANITIZER_FAILED] = {KD_NOTE_RUNTIME, "sanitizer_failed"},
    [KD_RUNTIME_SANITIZER_FINDINGS] = {KD_NOTE_RUNTIME, "sanitizer_findings"},
    [KD_RUNTIME_TIMING_FAILED] = {KD_NOTE_RUNTIME, "timing_failed"},
    [KD_RUNTIME_OUT_OF_BOUNDS] = {KD_NOTE_RUNTIME, "out_of_bounds"},
    [KD_RUNTIME_ASSUMED_LAUNCH_FINDINGS] = {KD_NOTE_RUNTIME, "assumed_launch_out_of_bounds"},
    [KD_RUNTIME_SAVED_NO_SAMPLES] = {KD_NOTE_RUNTIME, "saved_no_samples"},
    [KD_RUNTIME_GATE_NOT_EVALUATED] = {KD_NOTE_RUNTIME, "gate_not_evaluated"},
    [KD_COUNTERS_NO_NCU_FLAG] = {KD_NOTE_COUNTERS, "no_ncu_flag"},
    [KD_COUNTERS_SIMULATED] = {KD_NOTE_COUNTERS, "simulated"},
    [KD_COUNTERS_NCU_MISSING] = {KD_NOTE_COUNTERS, "ncu_missing"},
    [KD_COUNTERS_NCU_PERMISSION] = {KD_NOTE_COUNTERS, "ncu_permission"},
    [KD_COUNTERS_NCU_FAILED] = {KD_NOTE_COUNTERS, "ncu_failed"},
    [KD_REGIONS_NOT_CUDA] = {KD_NOTE_REGIONS, "not_cuda"},
    [KD_REGIONS_LAUNCHER] = {KD_NOTE_REGIONS, "launcher"},
    [KD_REGIONS_NO_MARKERS] = {KD_NOTE_REGIONS, "no_markers"},
    [KD_REGIONS_NO_SCOPES] = {KD_NOTE_REGIONS, "no_scopes"},
    [KD_REGIONS_NO_PROTON] = {KD_NOTE_REGIONS, "no_proton"},
    [KD_REGIONS_FAILED] = {KD_NOTE_REGIONS, "failed"},
    [KD_REGIONS_SAVED_ONE_RUN] = {KD_NOTE_REGIONS, "saved_one_run"},
    [KD_REGIONS_NOT_TIMED] = {KD_NOTE_REGIONS, "not_timed"},
};

kd_note_kind kd_note_kind_of(kd_note_id id)
{
    return (unsigned)id < KD_NOTE_ID_COUNT ? notes[id].kind : KD_NOTE_KINDS;
}

const char *kd_note_id_name(kd_note_id id)
{
    return (unsigned)id < KD_NOTE_ID_COUNT ? notes[id].id : NULL;
}

const char *kd_note_kind_name(kd_note_kind kind)
{
    static const char *const names[KD_NOTE_KINDS] = {"selection", "sass", "git", "runtime", "counters", "regions"};
    return (unsigned)kind < KD_NOTE_KINDS ? names[kind] : NULL;
}

static char *copy(const char *text)
{
    return text ? kd_xstrdup(text) : NULL;
}

void kd_note_set(kd_note *n, kd_note_id id, kd_note_sides sides, const char *value0, const char *value1,
                 const char *detail)
{
    kd_note_free(n);
    *n = (kd_note){.present = true, .id = id, .sides = sides, .value = {copy(value0), copy(value1)},
                   .detail = copy(detail)};
}

void kd_note_say(kd_note *n, kd_note_id id, kd_note_sides sides, const char *value0, const char *value1,
                 kd_diag *said)
{
    kd_note_set(n, id, sides, value0, value1, NULL);
    if (said) {
        n->said = *said;
        *said = (kd_diag){0};
    }
}

bool kd_note_has_detail(const kd_note *n)
{
    return n->detail || n->said.id;
}

void kd_note_free(kd_note *n)
{
    free(n->value[0]);
    free(n->value[1]);
    free(n->detail);
    kd_diag_free(&n->said);
    *n = (kd_note){0};
}
