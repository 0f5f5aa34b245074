#include "diff/autotune.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "backend/backend.h"
#include "util/outcome.h"
#include "diff/runtime.h"
#include "measure/brief.h"
#include "util/progress.h"
#include "util/xalloc.h"

/* A side that borrows everything scanning made from `side` and builds config i. */
static kd_side trial_of(const kd_side *side, int i)
{
    return (kd_side){.label = side->label, .path = side->path, .origin = side->origin,
                     .include_dirs = side->include_dirs, .kernel = side->kernel, .kernels = side->kernels,
                     .annotations = side->annotations, .kernel_info = side->kernel_info,
                     .frontend = side->frontend, .config = i};
}

/* The first reason a config went untimed is kept (t->untimed, its config and detail). */
static void untimed(kd_autotune *t, kd_tune_untimed why, size_t config, const char *detail)
{
    if (t->untimed != KD_UNTIMED_NONE)
        return;
    t->untimed = why;
    t->untimed_config = config;
    t->untimed_detail = detail ? kd_xstrdup(detail) : NULL;
}

/* Times every config briefly; t->median_ns[i] is NAN where config i could not run, and
 * t->untimed says why the first such did. */
static int time_configs(const kd_diff_options *opts, kd_comparison *c, int s, const kd_backend *runner,
                        kd_side_maker make)
{
    kd_side *side = &c->side[s];
    kd_autotune *t = &side->autotune;
    kd_argv harness;
    kd_strbuf why = {0};
    if (runner->harness(s, &harness, &why) != 0) {
        untimed(t, KD_UNTIMED_NO_HARNESS, 0, kd_sb_str(&why));
        kd_sb_free(&why);
        return KD_OK;
    }
    t->median_ns = kd_xmalloc(t->count * sizeof *t->median_ns);
    int rc = KD_OK;
    for (size_t i = 0; rc == KD_OK && i < t->count; i++) {
        kd_side trial = trial_of(side, (int)i);
        t->median_ns[i] = NAN;
        kd_trace("%s autotune: config %zu of %zu (%s)", side->label, i + 1, t->count, t->configs[i]);
        if ((rc = make(opts, c, &trial, s)) == KD_OK) {
            kd_timing_side timed = kd_timing_side_of(&trial, &harness);
            if (trial.launch_error)
                untimed(t, KD_UNTIMED_LAUNCH_FAILED, i, trial.launch_error);
            else if (kd_time_side_briefly(&timed, opts->timing.seed, opts->timing.timeout_ms, &t->median_ns[i],
                                          &why) != 0) {
                t->median_ns[i] = NAN;
                untimed(t, KD_UNTIMED_TIMING_FAILED, i, kd_sb_str(&why));
            }
            kd_sb_free(&why);
        }
        kd_side_release_built(&trial);
    }
    kd_argv_free(&harness);
    return rc;
}

/* The fastest config that ran; -1 when none did. */
static int fastest(const kd_autotune *t)
{
    int best = -1;
    for (size_t i = 0; t->median_ns && i < t->count; i++)
        if (!isnan(t->median_ns[i]) && (best < 0 || t->median_ns[i] < t->median_ns[best]))
            best = (int)i;
    return best;
}

int kd_autotune_side(const kd_diff_options *opts, kd_comparison *c, int s, kd_side_maker make)
{
    kd_side *side = &c->side[s];
    kd_autotune *t = &side->autotune;
    side->config = -1;
    if (!side->frontend->configs || !side->kernel_info)
        return KD_OK;
    kd_strlist configs = {0};
    int given = -1;
    side->frontend->configs(&opts->frontend, &opts->launch, side, &configs, &given);
    if (configs.count < 2) {
        for (size_t i = 0; i < configs.count; i++)
            free(configs.items[i]);
        free(configs.items);
        return KD_OK;
    }
    t->count = configs.count;
    t->configs = configs.items;
    const kd_backend *runner = NULL;
    int rc = KD_OK;
    if (given >= 0)
        t->how = KD_TUNE_GIVEN;
    else if (opts->no_autotune)
        untimed(t, KD_UNTIMED_NO_AUTOTUNE, 0, NULL);
    else if (!(runner = kd_runtime_backend(opts, c, &t->untimed_note)))
        untimed(t, KD_UNTIMED_NOTHING_TIMED, 0, NULL);
    else
        rc = time_configs(opts, c, s, runner, make);
    int best = fastest(t);
    t->how = given >= 0 ? KD_TUNE_GIVEN : best >= 0 ? KD_TUNE_FASTEST : KD_TUNE_FIRST;
    t->chosen = given >= 0 ? (size_t)given : best >= 0 ? (size_t)best : 0;
    if (t->how == KD_TUNE_FIRST)
        untimed(t, KD_UNTIMED_NONE_RAN, 0, NULL);
    if (t->how != KD_TUNE_FASTEST) {
        free(t->median_ns);
        t->median_ns = NULL;
    }
    side->config = (int)t->chosen;
    t->decided = rc == KD_OK;
    return rc;
}
