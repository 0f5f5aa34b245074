/* The options of kerndiff app: --runs, -N, --range, --steps, --top, --prepare (cli/option_parse.h: one group
 * per subsystem). */
#include <stdlib.h>
#include <string.h>

#include "cli/exit_codes.h"
#include "cli/option_parse.h"

static const struct option options[] = {
    {"runs", required_argument, NULL, OPT_APP_RUNS},
    {"no-shell", no_argument, NULL, 'N'},
    {"range", required_argument, NULL, OPT_APP_RANGE},
    {"steps", required_argument, NULL, OPT_APP_STEPS},
    {"top", required_argument, NULL, OPT_APP_TOP},
    {"prepare", required_argument, NULL, OPT_APP_PREPARE},
    {NULL, 0, NULL, 0},
};

static int parse(int c, kd_options *opts, kd_opt_ctx *ctx)
{
    (void)ctx;
    switch (c) {
    case 'N': opts->app.no_shell = true; break;
    case OPT_APP_RANGE: opts->app.range = optarg; break;
    case OPT_APP_PREPARE: opts->app.prepare = optarg; break;
    case OPT_APP_RUNS:
    case OPT_APP_STEPS:
    case OPT_APP_TOP: {
        double v;
        const char *name = c == OPT_APP_RUNS ? "--runs" : c == OPT_APP_STEPS ? "--steps" : "--top";
        if (kd_opt_number(optarg, c == OPT_APP_TOP ? 0 : 1, 1e6, false, &v) != 0 || (c != OPT_APP_STEPS && v != (int)v))
            return kd_usage_error("%s wants a %snumber up to 1000000, got '%s'", name,
                               c == OPT_APP_STEPS ? "positive " : "whole ", optarg);
        if (c == OPT_APP_RUNS)
            opts->app.runs = (int)v;
        else if (c == OPT_APP_STEPS)
            opts->app.steps = v;
        else
            opts->app.top = (int)v;
        break;
    }
    default:
        return KD_OPT_NOT_MINE;
    }
    return 0;
}

const kd_option_group kd_opts_app = {"app", options, parse};
