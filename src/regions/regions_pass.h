/* pass.h — the region pass (`--regions`): after the plain timing, each side's instrumented
 * build runs alone in a harness child: LAUNCHES launches with the recording blocks' records
 * collected, decoded into a region profile, then its time per launch (for the overhead). */
#ifndef KD_REGIONS_PASS_H
#define KD_REGIONS_PASS_H

#include "regions/names.h"
#include "regions/region_profile.h"
#include "util/strbuf.h"
#include "wire/client.h"

typedef struct kd_regions_options {
    unsigned capacity;        /* --region-records: records kept per warp (a power of two, 256) */
    unsigned launches;        /* instrumented launches recorded (5) */
    unsigned block_stride;    /* --region-blocks: one block in this many records (a power of two); 0: choose */
    int timeout_ms;
    unsigned long long seed;
} kd_regions_options;

void kd_regions_options_default(kd_regions_options *o);

/* One block in how many records, for a grid of `blocks` on a GPU of `sms` SMs (0: unknown)
 * when `requested` (--region-blocks; 0: not given) does not say: the largest power of two up
 * to KD_REGION_AUTO_STRIDE that still leaves KD_REGION_AUTO_BLOCKS_PER_SM recording blocks per
 * SM. Only the recording blocks' markers store; the others' cost a predicated record or a
 * branch (diff/markers.h). */
enum { KD_REGION_AUTO_STRIDE = 8, KD_REGION_AUTO_BLOCKS_PER_SM = 2 };
unsigned kd_regions_block_stride(unsigned long long blocks, int sms, unsigned requested);

/* One side's region recording. side->load_path is the instrumented cubin; one block in
 * `stride` records (the caller's kd_regions_block_stride, which the build's marker form may
 * depend on: diff/markers.h). plain_ns is the side's median from the timing pass;
 * sm_clock_hz the SM clock seen there (cycles to ns). */
typedef struct kd_regions_request {
    const kd_harness_side *side;
    const kd_region_names *names;
    const kd_regions_options *o;
    unsigned stride;
    const char *workdir;
    double plain_ns;
    double sm_clock_hz;
} kd_regions_request;

/* Returns 0, or -1 with "what it was doing: what happened" in why. */
int kd_regions_run(const kd_regions_request *r, kd_region_profile *out, kd_strbuf *why);

#endif
