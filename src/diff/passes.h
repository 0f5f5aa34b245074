/* passes.h — the runtime passes as one table (like the backends, backend/backend.h): each
 * entry says its name, when it runs relative to the timing, whether the options ask for it,
 * and how it runs on the comparison's two harness sides. diff/runtime.c starts the harness
 * children and walks the table; it never names a pass. The passes themselves live in their
 * folders (sanitizer/, measure/, ncu/, regions/); an entry here is the glue that feeds a
 * pass from the comparison and stores its result, or its note, back into it. */
#ifndef KD_DIFF_PASSES_H
#define KD_DIFF_PASSES_H

#include <stdbool.h>
#include "diff/options.h"
#include "diff/comparison.h"
#include "util/outcome.h"

struct kd_backend;

/* When a pass runs: the stages run in this order, the entries of a stage in table order. */
typedef enum kd_pass_stage { KD_PASS_BEFORE_TIMING, KD_PASS_TIMING, KD_PASS_AFTER_TIMING, KD_PASS_STAGES } kd_pass_stage;

typedef enum kd_pass_status {
    KD_PASS_RAN,      /* its result is in the comparison */
    KD_PASS_SKIPPED,  /* it did not run: `reason` is the note it left; the comparison goes on */
    KD_PASS_FAILED,   /* the comparison stops: `reason` is the note, `outcome` the failure */
} kd_pass_status;

typedef struct kd_pass_result {
    kd_pass_status status;
    kd_note_id reason;
    kd_outcome outcome;
} kd_pass_result;

/* What every pass runs on. */
typedef struct kd_pass_context {
    const kd_diff_options *opts;
    const struct kd_backend *backend;
    const kd_timing_side *sides;      /* [2]: each side's harness argv, what it loads, its launch */
    const char *const *shared_argv;   /* the harness child that holds both sides (the timing) */
    const char *workdir;
} kd_pass_context;

typedef struct kd_pass {
    const char *name;
    kd_pass_stage stage;
    /* Whether the options ask for it; NULL: always. */
    bool (*wanted)(const kd_diff_options *opts);
    /* The note left when they do not (KD_NOTE_NONE: nothing said). */
    kd_note_id unwanted_note;
    kd_pass_result (*run)(const kd_pass_context *ctx, kd_comparison *c);
} kd_pass;

extern const kd_pass *const kd_passes[];
extern const size_t kd_pass_count;

#endif
