#include "diff/markers.h"

#include <stdio.h>

#include "backend/backend.h"
#include "diff/build_target.h"
#include "util/outcome.h"
#include "util/progress.h"

/* The side's instrumented build again, with markers that branch around the record in the
 * blocks that do not record, into *out (its own folder and cache entry). */
static int build_branched(const kd_diff_options *opts, const kd_comparison *c, kd_side *side, kd_build *out)
{
    char folder[48];
    snprintf(folder, sizeof folder, "%s-regions-branched", side->label);
    bool was = side->regions_branched; /* what the front end builds */
    side->regions_branched = true;
    kd_note skip = {0};
    kd_build_target target = kd_build_target_of(c);
    kd_instrumented_build b = {.opts = &opts->frontend, .launch = &opts->launch, .target = &target, .side = side,
                               .regions = &side->region_names, .folder = folder, .out = out, .skip = &skip};
    int rc = side->frontend->build_instrumented(&b);
    side->regions_branched = was;
    return rc;
}

/* Puts the branched build in place of the predicated one. */
static void keep_branched(kd_side *side, kd_build *branched, kd_region_branch_reason why)
{
    kd_build_free(&side->regions_build);
    side->regions_build = *branched;
    side->regions_branched = true;
    side->regions_branch_reason = why;
}

/* Whether side's instrumented build has our markers predicated, the form either rule may
 * replace: only markers that sample blocks have a form to choose (--region-blocks all
 * records in every block; a Proton side has no markers of ours). */
static bool predicated(const kd_diff_options *opts, const kd_side *side)
{
    return side->frontend->region_markers && !opts->frontend.regions_every_block && !side->regions_branched;
}

int kd_markers_keep_occupancy(const kd_diff_options *opts, const kd_comparison *c, kd_side *side)
{
    int plain = side->stat.occupancy_valid ? side->stat.occupancy.blocks_per_sm : 0, registers, with_predicate,
        with_branch = -1; /* -1: no branched build, or its occupancy unknown */
    if (!predicated(opts, side) || !plain ||
        kd_build_occupancy(c, side, &side->regions_build, &registers, &with_predicate) != 0 || with_predicate >= plain)
        return KD_OK;
    kd_build branched = {0};
    int rc = build_branched(opts, c, side, &branched);
    bool better = rc == KD_OK && kd_build_occupancy(c, side, &branched, &registers, &with_branch) == 0 &&
                  with_branch > with_predicate;
    kd_trace("%s instrumented build: %d blocks per SM against the plain build's %d; with branching markers %d%s",
             side->label, with_predicate, plain, with_branch, better ? ", kept" : "");
    if (better)
        keep_branched(side, &branched, KD_BRANCH_KEEPS_BLOCKS_PER_SM);
    else
        kd_build_free(&branched);
    return rc;
}

void kd_markers_branch_for_waves(const kd_diff_options *opts, const kd_comparison *c, kd_side *side, unsigned stride,
                                 int sms)
{
    int registers, per_sm;
    if (!predicated(opts, side) || stride < 2 || sms <= 0 ||
        kd_build_occupancy(c, side, &side->regions_build, &registers, &per_sm) != 0 || per_sm <= 0)
        return;
    unsigned long long blocks = kd_launch_spec_blocks(&side->launch), wave = (unsigned long long)sms * per_sm;
    if (blocks <= wave)
        return;
    kd_build branched = {0};
    int rc = build_branched(opts, c, side, &branched);
    kd_trace("%s instrumented build: %llu blocks, 1 in %u recording, more than a wave (%d SMs x %d blocks); with "
             "branching markers%s",
             side->label, blocks, stride, sms, per_sm, rc == KD_OK ? ", kept" : ": the build failed, kept predicated");
    if (rc == KD_OK)
        keep_branched(side, &branched, KD_BRANCH_MANY_WAVES);
    else
        kd_build_free(&branched);
}
