/* The options of the sanitizer pass: --sanitize and its settings (cli/option_parse.h: one group per subsystem). */
#include <stdlib.h>
#include <string.h>

#include "cli/exit_codes.h"
#include "cli/option_parse.h"
#include "launch/expr.h"

static const struct option options[] = {
    {"sanitize", optional_argument, NULL, OPT_SANITIZE},
    {"sanitize-warn", no_argument, NULL, OPT_SANITIZE_WARN},
    {"compute-sanitizer", required_argument, NULL, OPT_SANITIZER},
    {"sanitize-n", required_argument, NULL, OPT_SANITIZE_N},
    {"no-launch-memcheck", no_argument, NULL, OPT_NO_LAUNCH_MEMCHECK},
    {NULL, 0, NULL, 0},
};

static int parse(int c, kd_options *opts, kd_opt_ctx *ctx)
{
    (void)ctx;
    switch (c) {
    case OPT_SANITIZE:
        opts->diff.sanitize.tools = optarg ? kd_san_tools_parse(optarg) : 1u << KD_SAN_MEMCHECK;
        if (!opts->diff.sanitize.tools)
            return kd_usage_error("--sanitize wants tools among memcheck,racecheck,initcheck,synccheck, got '%s'", optarg);
        break;
    case OPT_SANITIZE_WARN: opts->diff.sanitize.warn = true; break;
    case OPT_SANITIZER: opts->diff.sanitize.program = optarg; break;
    case OPT_NO_LAUNCH_MEMCHECK: opts->diff.sanitize.no_launch_memcheck = true; break;
    case OPT_SANITIZE_N: {
        unsigned long long count;
        char why[128];
        if (kd_parse_count(optarg, &count, why, sizeof why) != 0 || count == 0)
            return kd_usage_error("--sanitize-n wants an element count of at least 1 (e.g. 4096, 64K), got '%s'", optarg);
        opts->diff.sanitize.n = optarg;
        break;
    }
    default:
        return KD_OPT_NOT_MINE;
    }
    return 0;
}

const kd_option_group kd_opts_sanitize = {"sanitize", options, parse};
