/* notes.h — the comparison's remarks (how the kernel was chosen, why SASS, the timing, the
 * counters or the regions are missing) as codes with the values their sentences need. The
 * model holds no prose: report/note_text.c words every note, for every renderer and the
 * JSON's `text`, and the ids below are the stable JSON ids (docs/json-schema.json). */
#ifndef KD_DIFF_NOTES_H
#define KD_DIFF_NOTES_H

#include <stdbool.h>

#include "util/diag.h"

/* Which slot of the comparison a note belongs in (one JSON key of `notes` each). */
typedef enum kd_note_kind {
    KD_NOTE_SELECTION, KD_NOTE_SASS, KD_NOTE_GIT, KD_NOTE_RUNTIME, KD_NOTE_COUNTERS, KD_NOTE_REGIONS,
    KD_NOTE_KINDS
} kd_note_kind;

/* Every note; the comment says which values it carries. `detail` is always text from
 * outside kerndiff's words (a tool's or the driver's message, another module's error); a
 * note whose reason is one of kerndiff's own messages carries it as `said` instead (an id
 * and its values, worded by report/), and is worded as if that were its detail. */
typedef enum kd_note_id {
    KD_NOTE_NONE,
    KD_SELECTION_ONE_KERNEL_EACH,   /* value: the v1 and v2 kernels */
    KD_SELECTION_RUNS_DIFFER,       /* value: OLD's and NEW's GPU; number: their drivers */
    KD_SELECTION_SAVED_KERNELS_DIFFER, /* kerndiff compare: value: OLD's and NEW's kernel */
    KD_SASS_NO_CUOBJDUMP,
    KD_SASS_NOT_IN_BUILD,           /* side; detail: the build's problem, or NULL */
    KD_SASS_NO_FUNCTION,            /* side; value: the cuobjdump run, the function */
    KD_GIT_IDENTICAL,               /* value: the two revisions */
    KD_RUNTIME_NO_RUN_FLAG,         /* --no-run */
    KD_RUNTIME_NO_BACKEND,
    KD_RUNTIME_NO_GPU,              /* detail: why the probe found none */
    KD_RUNTIME_UNLAUNCHABLE,        /* side; value: the kernel; detail: why no launch */
    KD_RUNTIME_NO_HARNESS,          /* detail: why the backend has no harness child */
    KD_RUNTIME_CLOCKS_NOT_LOCKED,   /* detail: NVML's answer */
    KD_RUNTIME_NO_TMPDIR,
    KD_RUNTIME_NO_SANITIZER,        /* value: --compute-sanitizer's path, or NULL */
    KD_RUNTIME_SANITIZE_N_INVALID,  /* side; value: --sanitize-n; detail: why */
    KD_RUNTIME_SANITIZER_FAILED,    /* side; detail: what went wrong */
    KD_RUNTIME_SANITIZER_FINDINGS,  /* side: the sides with findings */
    KD_RUNTIME_TIMING_FAILED,       /* side; detail: the harness's failure ("v1: ...: ...") */
    KD_RUNTIME_OUT_OF_BOUNDS,       /* detail: the buffer a launch wrote past the end of ("v1: ...") */
    KD_RUNTIME_ASSUMED_LAUNCH_FINDINGS, /* side: the sides whose assumed launch memcheck found accesses
                                       outside its buffers (the findings: sanitize[]) */
    KD_RUNTIME_SAVED_NO_SAMPLES,    /* kerndiff compare: side: the run(s) (v1: OLD, v2: NEW) with too few
                                       samples; number: its usable samples, the minimum */
    KD_RUNTIME_GATE_NOT_EVALUATED,  /* value: the gate's option (--sanitize), the JSON id of the runtime
                                       note that says why nothing ran ("no_gpu"); detail: that note's detail */
    KD_COUNTERS_NO_NCU_FLAG,        /* --no-ncu */
    KD_COUNTERS_SIMULATED,
    KD_COUNTERS_NCU_MISSING,        /* side; detail: why */
    KD_COUNTERS_NCU_PERMISSION,     /* side; detail: ncu's message */
    KD_COUNTERS_NCU_FAILED,         /* side; detail: ncu's message */
    KD_REGIONS_NOT_CUDA,            /* side: neither CUDA C nor Triton */
    KD_REGIONS_LAUNCHER,            /* side */
    KD_REGIONS_NO_MARKERS,          /* side */
    KD_REGIONS_NO_SCOPES,           /* side: a Triton kernel without Proton scopes */
    KD_REGIONS_NO_PROTON,           /* side; value: its Triton version */
    KD_REGIONS_FAILED,              /* side; detail: what went wrong */
    KD_REGIONS_SAVED_ONE_RUN,       /* kerndiff compare: side: the run without regions */
    KD_REGIONS_NOT_TIMED,           /* --regions, nothing run: value: the JSON id of the runtime note that
                                       says why ("no_gpu"); detail: that note's detail */
    KD_NOTE_ID_COUNT
} kd_note_id;

/* The sides a note is about, as a set. */
typedef enum kd_note_sides { KD_NOTE_NO_SIDE, KD_NOTE_V1, KD_NOTE_V2, KD_NOTE_BOTH } kd_note_sides;
#define KD_NOTE_SIDE(s) ((s) == 0 ? KD_NOTE_V1 : KD_NOTE_V2)

typedef struct kd_note {
    bool present;
    kd_note_id id;
    kd_note_sides sides;
    char *value[2];   /* values the sentence quotes (owned), or NULL */
    long number[2];   /* numbers it quotes */
    char *detail;     /* text from outside (owned), or NULL */
    kd_diag said;     /* or a message in its place (owned; id 0: none): worded where detail is */
} kd_note;

/* The slot `id` belongs in. */
kd_note_kind kd_note_kind_of(kd_note_id id);
/* Its stable JSON id ("no_gpu"); NULL for KD_NOTE_NONE. */
const char *kd_note_id_name(kd_note_id id);
/* The JSON key of a slot ("runtime"). */
const char *kd_note_kind_name(kd_note_kind kind);

/* Sets *n (freeing what it held) to `id` with copies of the strings (each may be NULL). */
void kd_note_set(kd_note *n, kd_note_id id, kd_note_sides sides, const char *value0, const char *value1,
                 const char *detail);
/* The same with a message in place of the detail: *said moves into the note (left empty). */
void kd_note_say(kd_note *n, kd_note_id id, kd_note_sides sides, const char *value0, const char *value1,
                 kd_diag *said);
/* Whether the note has a reason to quote (a detail or a message). */
bool kd_note_has_detail(const kd_note *n);
void kd_note_free(kd_note *n);

#endif
