/* The harness's `hotspots` command (harness/cupti_pcsampling.h): apart from the recorder so
 * that a program without the harness's server (tests/gpu/hotspots_record.c) can use it. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include "cupti_pcsampling.h"
#include "cupti_sass.h"
#include "server.h"
#include "vendor.h"

typedef struct command_launch {
    struct kd_server *s;
    void (*launch_and_wait)(struct kd_server *s, int check_run);
} command_launch;

/* The harness's launch ends the process on a CUDA error (after its err reply). */
static int run_launch(void *arg)
{
    command_launch *c = arg;
    c->launch_and_wait(c->s, 0);
    return 0;
}

void kd_pcs_command(struct kd_server *s, struct kd_words *w, void *ctx, int device, const char *kernel,
                    void (*launch_and_wait)(struct kd_server *s, int check_run))
{
    char why[512] = "";
    if (!kd_server_hotspots_path(s, w))
        return;
    const char *period_text = kd_proto_value(w, 2, "period");
    unsigned period = period_text ? (unsigned)strtoul(period_text, NULL, 10) : 0;
    FILE *out = fopen(w->word[1], "w");
    if (!out) {
        kd_proto_reply("err hotspots cannot write %s", w->word[1]);
        return;
    }
    kd_pcs *p = kd_pcs_open(ctx, period, why, sizeof why);
    command_launch c = {s, launch_and_wait};
    int rc = p ? kd_pcs_sample(p, run_launch, &c, why, sizeof why) : -1;
    kd_pcs_totals t = {0};
    if (p) {
        char ignored[64];
        if (rc == 0)
            rc = kd_pcs_finish(p, kernel, out, &t, why, sizeof why);
        else
            kd_pcs_finish(p, kernel, NULL, NULL, ignored, sizeof ignored);
    }
    /* How often each instruction ran, in one more launch: an addition to the samples, so a
     * CUPTI without SASS metrics leaves a comment in the record and the samples stand. */
    size_t executed = 0;
    if (rc == 0) {
        char sass_why[512] = "";
        kd_sass_request r = {ctx, device, run_launch, &c};
        if (kd_sass_count(&r, out, &executed, sass_why, sizeof sass_why) != 0)
            fprintf(out, "# SASS metrics: %s\n", sass_why);
    }
    if (fclose(out) != 0 && rc == 0) {
        rc = -1;
        snprintf(why, sizeof why, "writing %s failed", w->word[1]);
    }
    if (rc != 0)
        kd_proto_reply("err hotspots %s", why);
    else
        kd_proto_reply("ok hotspots pcs=%zu samples=%llu dropped=%llu executed=%zu", t.pcs,
                       (unsigned long long)t.samples, (unsigned long long)t.dropped, executed);
}
