#include "diff/autotune.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "backend/backend.h"
#include "util/outcome.h"
#include "diff/runtime.h"
#include "report/note_text.h"
#include "measure/brief.h"
#include "util/trace.h"
#include "util/xalloc.h"

/* A side that borrows everything scanning made from `side` and builds config i. */
static kd_side trial_of(const kd_side *side, int i)
{
    return (kd_side){.label = side->label, .path = side->path, .origin = side->origin,
                     .include_dirs = side->include_dirs, .kernel = side->kernel, .kernels = side->kernels,
                     .annotations = side->annotations, .kernel_info = side->kernel_info,
                     .frontend = side->frontend, .config = i};
}

/* Times every config briefly; t->median_ns[i] is NAN where config i could not run, and
 * *failure says why the first such did. */
static int time_configs(const kd_diff_options *opts, kd_comparison *c, int s, const kd_backend *runner,
                        kd_side_maker make, char **failure)
{
    kd_side *side = &c->side[s];
    kd_autotune *t = &side->autotune;
    kd_argv harness;
    kd_strbuf why = {0};
    if (runner->harness(s, &harness, &why) != 0) {
        *failure = kd_sb_take(&why);
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
                kd_sb_printf(&why, "cannot launch it: %s", trial.launch_error);
            else if (kd_time_side_briefly(&timed, opts->timing.seed, opts->timing.timeout_ms, &t->median_ns[i],
                                          &why) != 0)
                t->median_ns[i] = NAN;
            if (why.len && !*failure) {
                kd_strbuf said = {0};
                kd_sb_printf(&said, "config %zu could not run: %s", i + 1, kd_sb_str(&why));
                *failure = kd_sb_take(&said);
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

/* "autotune: config 2 of 3 (BLOCK=256, num_warps=8) was fastest, 41.2us vs 55.0us/60.3us" */
static char *summarize(const kd_autotune *t, const char *untimed)
{
    kd_strbuf sb = {0};
    kd_sb_printf(&sb, "autotune: config %zu of %zu (%s) ", t->chosen + 1, t->count, t->configs[t->chosen]);
    if (t->how == KD_TUNE_GIVEN) {
        kd_sb_puts(&sb, "used, the one the values given (--arg, --call, annotations) select");
    } else if (t->how == KD_TUNE_FIRST) {
        kd_sb_printf(&sb, "used, the first: %s", untimed);
    } else {
        char text[32];
        kd_format_ns(t->median_ns[t->chosen], text, sizeof text);
        kd_sb_printf(&sb, "was fastest, %s vs ", text);
        int others = 0;
        for (size_t i = 0; i < t->count; i++) {
            if (i == t->chosen)
                continue;
            if (isnan(t->median_ns[i]))
                snprintf(text, sizeof text, "(did not run)");
            else
                kd_format_ns(t->median_ns[i], text, sizeof text);
            kd_sb_printf(&sb, "%s%s", others++ ? "/" : "", text);
        }
        kd_sb_puts(&sb, " (each timed briefly alone; --arg of its meta-parameters picks one)");
        if (untimed)
            kd_sb_printf(&sb, "; %s", untimed);
    }
    return kd_sb_take(&sb);
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
    char *untimed = NULL;
    kd_note why_not = {0};
    const kd_backend *runner = NULL;
    int rc = KD_OK;
    if (given >= 0)
        t->how = KD_TUNE_GIVEN;
    else if (opts->no_autotune)
        untimed = kd_xstrdup("--no-autotune");
    else if (!(runner = kd_runtime_backend(opts, c, &why_not))) {
        kd_strbuf sb = {0};
        kd_sb_puts(&sb, "nothing could be timed (");
        kd_note_text(&why_not, &sb);
        kd_sb_puts(&sb, ")");
        untimed = kd_sb_take(&sb);
    } else {
        rc = time_configs(opts, c, s, runner, make, &untimed);
    }
    int best = fastest(t);
    t->how = given >= 0 ? KD_TUNE_GIVEN : best >= 0 ? KD_TUNE_FASTEST : KD_TUNE_FIRST;
    t->chosen = given >= 0 ? (size_t)given : best >= 0 ? (size_t)best : 0;
    if (t->how == KD_TUNE_FIRST && !untimed)
        untimed = kd_xstrdup("no config could run");
    if (t->how != KD_TUNE_FASTEST) {
        free(t->median_ns);
        t->median_ns = NULL;
    }
    side->config = (int)t->chosen;
    if (rc == KD_OK)
        t->summary = summarize(t, untimed);
    free(untimed);
    kd_note_free(&why_not);
    return rc;
}
