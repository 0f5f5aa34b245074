/* The options of region timing: --regions, --trace, --region-records, --region-blocks (cli/option_parse.h:
 * one group per subsystem). */
#include <stdlib.h>
#include <string.h>

#include "cli/exit_codes.h"
#include "cli/option_parse.h"

static const struct option options[] = {
    {"regions", no_argument, NULL, OPT_REGIONS},
    {"region-records", required_argument, NULL, OPT_REGION_RECORDS},
    {"region-blocks", required_argument, NULL, OPT_REGION_BLOCKS},
    {"trace", required_argument, NULL, OPT_TRACE},
    {NULL, 0, NULL, 0},
};

static int parse(int c, kd_options *opts, kd_opt_ctx *ctx)
{
    (void)ctx;
    switch (c) {
    case OPT_REGIONS: opts->diff.regions_on = true; break;
    case OPT_TRACE: opts->diff.regions_on = true; opts->output_path[OPT_TRACE - OPT_FORMAT] = optarg; break;
    case OPT_REGION_RECORDS: {
        double v;
        if (kd_opt_number(optarg, 1, 1 << 20, false, &v) != 0 || v != (unsigned)v || ((unsigned)v & ((unsigned)v - 1)))
            return kd_usage_error("--region-records wants a power of two from 1 to 1048576, got '%s'", optarg);
        opts->diff.regions.capacity = (unsigned)v;
        break;
    }
    case OPT_REGION_BLOCKS: {
        double v;
        if (strcmp(optarg, "all") == 0)
            v = 1;
        else if (strcmp(optarg, "auto") == 0)
            v = 0;
        else if (kd_opt_number(optarg, 1, 1 << 30, false, &v) != 0 || v != (unsigned)v || ((unsigned)v & ((unsigned)v - 1)))
            return kd_usage_error("--region-blocks wants a power of two (record one block in N), 'all' or 'auto', got '%s'",
                               optarg);
        opts->diff.regions.block_stride = (unsigned)v;
        opts->diff.frontend.regions_every_block = v == 1;
        break;
    }
    default:
        return KD_OPT_NOT_MINE;
    }
    return 0;
}

const kd_option_group kd_opts_regions = {"regions", options, parse};
