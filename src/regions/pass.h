/* pass.h — the region pass (`--regions`): after the plain timing, each side's instrumented
 * build runs alone in a harness child: its time per launch (for the overhead), then
 * LAUNCHES launches with every warp's records collected, decoded into a region profile. */
#ifndef KD_REGIONS_PASS_H
#define KD_REGIONS_PASS_H

#include "regions/profile.h"
#include "util/strbuf.h"
#include "util/strlist.h"
#include "wire/client.h"

typedef struct kd_regions_options {
    unsigned capacity;        /* --region-records: records kept per warp (a power of two, 256) */
    unsigned launches;        /* instrumented launches recorded (5) */
    int timeout_ms;
    unsigned long long seed;
} kd_regions_options;

void kd_regions_options_default(kd_regions_options *o);

/* side->load_path is the instrumented cubin. plain_ns is the side's median from the timing
 * pass; sm_clock_hz the SM clock seen there (cycles to ns). Returns 0, or -1 with "what it
 * was doing: what happened" in why. */
int kd_regions_run(const kd_harness_side *side, const kd_strlist *names, const kd_regions_options *o,
                   const char *workdir, double plain_ns, double sm_clock_hz, kd_region_profile *out, kd_strbuf *why);

#endif
