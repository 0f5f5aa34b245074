/* The options of the hot-spot diff (issue 31 item 2): --hotspots, --hotspots-period
 * (cli/option_parse.h: one group per subsystem). */
#include "cli/exit_codes.h"
#include "cli/option_parse.h"

static const struct option options[] = {
    {"hotspots", no_argument, NULL, OPT_HOTSPOTS},
    {"hotspots-period", required_argument, NULL, OPT_HOTSPOTS_PERIOD},
    {NULL, 0, NULL, 0},
};

static int parse(int c, kd_options *opts, kd_opt_ctx *ctx)
{
    (void)ctx;
    switch (c) {
    case OPT_HOTSPOTS: opts->diff.hotspots_on = true; break;
    case OPT_HOTSPOTS_PERIOD: {
        double v;
        if (kd_opt_number(optarg, 5, 31, false, &v) != 0 || v != (unsigned)v)
            return kd_usage_error("--hotspots-period wants a whole number from 5 to 31 (2^N cycles), got '%s'", optarg);
        opts->diff.hotspots_on = true;
        opts->diff.hotspots_period = (unsigned)v;
        break;
    }
    default:
        return KD_OPT_NOT_MINE;
    }
    return 0;
}

const kd_option_group kd_opts_hotspots = {"hotspots", options, parse};
