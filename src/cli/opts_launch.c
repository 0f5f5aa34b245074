/* The options of how each side is launched: --n, --grid, --block, --smem, --buf, --arg, --call
 * (cli/option_parse.h: one group per subsystem; a launch replayed from a capture, --launch and
 * --from, is cli/opts_replay.c's group). */
#include <stdlib.h>
#include <string.h>

#include "cli/exit_codes.h"
#include "cli/option_parse.h"
#include "launch/call.h"

static const struct option options[] = {
    {"block", required_argument, NULL, OPT_BLOCK},
    {"n", required_argument, NULL, OPT_N},
    {"grid", required_argument, NULL, OPT_GRID},
    {"smem", required_argument, NULL, OPT_SMEM},
    {"buf", required_argument, NULL, OPT_BUF},
    {"arg", required_argument, NULL, OPT_ARG},
    {"call", required_argument, NULL, OPT_CALL},
    {NULL, 0, NULL, 0},
};

/* --call vN:SETTINGS, merged into that side's earlier --call settings. */
static int parse_call(const char *arg, kd_options *opts)
{
    if (strncmp(arg, "v1:", 3) != 0 && strncmp(arg, "v2:", 3) != 0)
        return kd_usage_error("--call wants v1:SETTINGS or v2:SETTINGS, got '%s'", arg);
    kd_strbuf why = {0};
    int rc = kd_call_parse(arg + 3, &opts->diff.launch.call[arg[1] - '1'], &why);
    if (rc != 0)
        kd_usage_error("--call %s: %s", arg, kd_sb_str(&why));
    kd_sb_free(&why);
    return rc;
}

static int parse(int c, kd_options *opts, kd_opt_ctx *ctx)
{
    (void)ctx;
    switch (c) {
    case OPT_BLOCK: opts->diff.launch.block = optarg; break;
    case OPT_N: opts->diff.launch.n = optarg; break;
    case OPT_GRID: opts->diff.launch.grid = optarg; break;
    case OPT_SMEM: opts->diff.launch.smem = optarg; break;
    case OPT_BUF: kd_strlist_push(&opts->diff.launch.buffers, optarg); break;
    case OPT_ARG: kd_strlist_push(&opts->diff.launch.scalars, optarg); break;
    case OPT_CALL:
        if (parse_call(optarg, opts) != 0)
            return KD_EXIT_USAGE;
        break;
    default:
        return KD_OPT_NOT_MINE;
    }
    return 0;
}

const kd_option_group kd_opts_launch = {"launch", options, parse};
