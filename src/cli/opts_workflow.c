/* The options of runs around the diff: --sweep, --at, --watch, compare --side, the gate --fail-if-slower
 * (cli/option_parse.h: one group per subsystem). */
#include <stdlib.h>
#include <string.h>

#include "cli/exit_codes.h"
#include "cli/option_parse.h"

static const struct option options[] = {
    {"fail-if-slower", required_argument, NULL, OPT_FAIL_IF_SLOWER},
    {"sweep", required_argument, NULL, OPT_SWEEP},
    {"at", required_argument, NULL, OPT_AT},
    {"watch", no_argument, NULL, OPT_WATCH},
    {"side", required_argument, NULL, OPT_SIDE},
    {NULL, 0, NULL, 0},
};

static int parse(int c, kd_options *opts, kd_opt_ctx *ctx)
{
    (void)ctx;
    switch (c) {
    case OPT_SWEEP: opts->sweep = optarg; break;
    case OPT_AT:
        if (opts->at_second)
            return kd_usage_error("--at is given at most twice (kerndiff app --at REF1 --at REF2 CMD)");
        *(opts->diff.at ? &opts->at_second : &opts->diff.at) = optarg;
        break;
    case OPT_WATCH: opts->watch = true; break;
    case OPT_SIDE:
        if (strcmp(optarg, "v1") && strcmp(optarg, "v2"))
            return kd_usage_error("--side wants v1 or v2, got '%s'", optarg);
        opts->compare_side = optarg;
        break;
    case OPT_FAIL_IF_SLOWER:
        if (kd_opt_number(optarg, 0, 1000, true, &opts->diff.gate.fail_if_slower_pct) != 0)
            return kd_usage_error("--fail-if-slower wants a percentage (e.g. 2 or 2%%), got '%s'", optarg);
        break;
    default:
        return KD_OPT_NOT_MINE;
    }
    return 0;
}

const kd_option_group kd_opts_workflow = {"workflow", options, parse};
