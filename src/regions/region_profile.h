/* profile.h — what a `regions` record file says: per region, instances and cycles per
 * instance (median, p10, p90) with the cost of a record subtracted, its share of the
 * warps' time, its spread across SMs and its median in each launch (the launch-to-launch
 * noise); and one launch's slices for a timeline. */
#ifndef KD_REGIONS_PROFILE_H
#define KD_REGIONS_PROFILE_H

#include <stdbool.h>
#include <stddef.h>
#include "regions/names.h"
#include "util/strbuf.h"

#define KD_REGION_MAX_LAUNCHES 64

typedef struct kd_region_stat {
    char *name;
    char *group;                 /* the warp groups whose warps recorded it ("consumer", or
                                    "consumer, producer"); NULL: warps of no group */
    size_t instances;
    double median, p10, p90;     /* cycles per instance, the record cost subtracted */
    double share_pct;            /* its cycles over all warps' recorded spans */
    double sm_spread_pct;        /* p90 - p10 of the per-SM medians, % of the median */
    double launch_median[KD_REGION_MAX_LAUNCHES];
    size_t launches;
} kd_region_stat;

/* One region instance of the traced launch, on one time axis. */
typedef struct kd_region_slice {
    unsigned sm, block, warp, region; /* region: index into the profile's regions */
    unsigned group;                   /* index into the profile's groups + 1; 0: none */
    double start_ns, duration_ns;     /* start relative to the launch's first record */
    unsigned depth;                   /* nesting level */
} kd_region_slice;

/* A KD_REGION_GROUP: warps of the block in aligned runs of `warps`, the first of each
 * recording for the run. */
typedef struct kd_region_group {
    char *name;
    unsigned warps;                  /* warps in a run, as the kernel said (0: none recorded) */
    size_t recording_warps;          /* warps that recorded for the group, in one launch */
} kd_region_group;

/* Why a sampled build's markers branch around the record in the blocks that do not record
 * (diff/markers.h says when each applies). */
typedef enum kd_region_branch_reason {
    KD_BRANCH_KEEPS_BLOCKS_PER_SM, /* predicated, they cost the build blocks per SM */
    KD_BRANCH_MANY_WAVES,          /* the grid runs more than one wave of mostly silent blocks */
    KD_BRANCH_REASON_COUNT
} kd_region_branch_reason;

typedef struct kd_region_profile {
    kd_region_stat *regions;
    size_t count;
    kd_region_group *groups;         /* one per group name of the side, id = index + 1 */
    size_t ngroups;
    size_t warps, launches;          /* warps: those of the recording blocks */
    size_t recording_warps;          /* those that recorded, in the first launch (fewer under
                                        KD_REGION_GROUP, or when warps exit before a marker) */
    unsigned block_stride;           /* one block in this many recorded (1: every block) */
    size_t blocks_recorded, blocks;  /* of the grid's blocks */
    unsigned long long records, dropped, unmatched;
    unsigned long long divergent_warps; /* warps left out: their lanes reached markers apart */
    double record_cycles;            /* measured by the calibration kernel */
    double sm_clock_hz;              /* the SM clock in the traced launch, from the warps' start and
                                        end %globaltimer and %clock; 0: not measured (Proton, short
                                        spans), the slices then use the clock the caller gave */
    double plain_ns, instrumented_ns;/* time per launch without and with the markers */
    int registers[2];                /* per thread, plain and instrumented build (0: unknown) */
    int blocks_per_sm[2];            /* theoretical, plain and instrumented build (0: unknown) */
    bool branched_markers;           /* the markers branch around records in the blocks that do
                                        not record (KD_REGION_BRANCHED), because: */
    kd_region_branch_reason branched_because;
    kd_region_slice *slices;         /* the last launch */
    size_t nslices;
    bool slices_truncated;           /* more than the trace keeps */
    bool saved;                      /* from a saved run: its table, not its instances (no slices) */
} kd_region_profile;

/* Reads the record file at path. names->regions.items[i] is region id i + 1, and
 * names->groups' likewise group id i + 1. The slices' cycles become ns at the SM clock the
 * launch's headers measure, else at sm_clock_hz (0: 1 GHz). Returns 0, or -1 with what is
 * wrong in why. */
int kd_region_profile_read(const char *path, const kd_region_names *names, double record_cycles, double sm_clock_hz,
                           kd_region_profile *out, kd_strbuf *why);
void kd_region_profile_free(kd_region_profile *p);

/* Whether the change of a region between two profiles is beyond the launch-to-launch
 * noise: every launch median of one side is below every launch median of the other
 * (with 5 launches each, chance alone does that 0.8% of the time). */
bool kd_region_change_is_real(const kd_region_stat *a, const kd_region_stat *b);

#endif
