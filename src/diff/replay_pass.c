/* Each side's result against the program's (diff/replay_pass.h). */
#include "diff/replay_pass.h"

#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "launch/replay.h"
#include "util/fs.h"
#include "util/progress.h"
#include "util/xalloc.h"
#include "wire/client.h"

/* One side alone: described, set up, `check` once; the first run's outputs (the seeded one:
 * the captured contents) against the program's result. 0, or -1 with why. */
static int check_side(const kd_pass_context *ctx, const kd_timing_side *side, kd_replay_match *m, kd_strbuf *why)
{
    kd_child child;
    if (kd_child_start(&child, side->label, side->harness_argv, why) != 0)
        return -1;
    int timeout_ms = ctx->opts->timing.timeout_ms;
    unsigned long long bytes = 0;
    int rc = kd_harness_describe(&child, side, ctx->opts->timing.seed, timeout_ms, NULL, why);
    if (rc == 0) {
        kd_wire_send_setup(&child);
        rc = kd_wire_setup_reply(&child, kd_launch_spec_bytes(side->spec), &bytes, why);
    }
    char name[48];
    snprintf(name, sizeof name, "%s.program-check", side->label);
    char *path = kd_path_join(ctx->workdir, name);
    if (rc == 0) {
        kd_wire_send_check(&child, path);
        kd_reply_status st = kd_wire_check_reply(&child, 4 * timeout_ms);
        if (st != KD_REPLY_OK) {
            kd_child_failure_words(&child, st, "running the captured launch once", why);
            rc = -1;
        }
    }
    kd_child_stop(&child);
    size_t len = 0;
    unsigned char *outputs = rc == 0 ? (unsigned char *)kd_read_output(path, &len) : NULL;
    if (rc == 0 && !outputs) {
        kd_sb_printf(why, "cannot read back %s", path);
        rc = -1;
    }
    if (rc == 0) {
        kd_diag err = {0};
        /* the file holds the seeded run, then the poisoned one: the first half is compared */
        if (kd_replay_match_outputs(side->replay, side->spec, outputs, len / 2, m, &err) != 0) {
            kd_sb_puts(why, "the outputs do not have the captured allocations' sizes");
            rc = -1;
        }
        kd_diag_free(&err);
    }
    free(outputs);
    unlink(path);
    free(path);
    return rc;
}

static kd_pass_result run(const kd_pass_context *ctx, kd_comparison *c)
{
    for (int s = 0; s < 2; s++) {
        if (!ctx->sides[s].replay)
            continue;
        kd_trace("%s against the program's result", ctx->sides[s].label);
        kd_strbuf why = {0};
        if (check_side(ctx, &ctx->sides[s], &c->replay.match[s], &why) == 0) {
            c->replay.checked[s] = true;
        } else if (!c->replay.problem) {
            c->replay.problem = kd_xasprintf("%s: %s", ctx->sides[s].label, kd_sb_str(&why));
        }
        kd_sb_free(&why);
    }
    return (kd_pass_result){.status = KD_PASS_RAN};
}

const kd_pass kd_replay_pass = {
    .name = "program result",
    .stage = KD_PASS_TIMING,
    /* wanted whenever a side replays a capture: --launch, --from, or the caller kerndiff found
     * itself (no flag then: a test of opts would miss it), so `run` looks at the sides */
    .wanted = NULL,
    .unwanted_note = KD_NOTE_NONE,
    .run = run,
};
