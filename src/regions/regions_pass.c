#include "regions/regions_pass.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "measure/brief.h"
#include "util/fs.h"

void kd_regions_options_default(kd_regions_options *o)
{
    *o = (kd_regions_options){.capacity = 256, .launches = 5, .timeout_ms = 10000, .seed = 1};
}

unsigned kd_regions_block_stride(unsigned long long blocks, int sms, unsigned requested)
{
    if (requested)
        return requested;
    unsigned long long wanted = (unsigned long long)(sms > 0 ? sms : 1) * KD_REGION_AUTO_BLOCKS_PER_SM;
    unsigned stride = 1;
    while (stride < KD_REGION_AUTO_STRIDE && blocks / (2ull * stride) >= wanted)
        stride *= 2;
    return stride;
}

static int failed(kd_child *c, kd_reply_status st, const char *doing, kd_strbuf *why)
{
    kd_child_failure_words(c, st, doing, why);
    return -1;
}

int kd_regions_run(const kd_regions_request *r, kd_region_profile *out, kd_strbuf *why)
{
    const kd_harness_side *side = r->side;
    const kd_regions_options *o = r->o;
    memset(out, 0, sizeof *out);
    kd_child c;
    if (kd_child_start(&c, side->label, side->harness_argv, why) != 0)
        return -1;
    char name[32];
    snprintf(name, sizeof name, "%s.regions", side->label);
    char *path = kd_path_join(r->workdir, name);
    double instrumented_ns = 0, record_cycles = 0;
    unsigned long long bytes;
    int rc = kd_harness_describe(&c, side, o->seed, o->timeout_ms, NULL, why);
    if (rc == 0) {
        kd_wire_send_setup(&c);
        rc = kd_wire_setup_reply(&c, kd_launch_spec_bytes(side->spec), &bytes, why);
    }
    if (rc == 0) {
        /* Reading every warp's ring back after each launch takes longer than the launch. */
        kd_wire_regions_request req = {.capacity = o->capacity, .launches = o->launches, .block_stride = r->stride,
                                       .path = path, .timeout_ms = o->timeout_ms * 10};
        kd_reply_status st = kd_wire_regions_run(&c, &req, &record_cycles);
        if (st != KD_REPLY_OK)
            rc = failed(&c, st, "recording regions", why);
    }
    /* After the recording, which leaves the harness sampling blocks as it recorded them. */
    if (rc == 0)
        rc = kd_time_briefly(&c, "the instrumented kernel", o->timeout_ms, &instrumented_ns, why);
    kd_child_stop(&c);
    if (rc == 0)
        rc = kd_region_profile_read(path, r->names, record_cycles, r->sm_clock_hz, out, why);
    out->plain_ns = r->plain_ns;
    out->instrumented_ns = instrumented_ns;
    unlink(path);
    free(path);
    return rc;
}
