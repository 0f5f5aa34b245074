/* The options of a launch replayed from a capture (issue 30): --launch FILE (a capture
 * kerndiff capture wrote) and --from 'CMD' (captured from CMD, then replayed), for both sides
 * of a diff (cli/option_parse.h: one group per subsystem; the commands that accept the group
 * say so in their rows, cli/command.h). */
#include <string.h>

#include "cli/exit_codes.h"
#include "cli/option_parse.h"

static const struct option options[] = {
    {"launch", required_argument, NULL, OPT_LAUNCH_FILE},
    {"from", required_argument, NULL, OPT_FROM},
    {NULL, 0, NULL, 0},
};

static int parse(int c, kd_options *opts, kd_opt_ctx *ctx)
{
    (void)ctx;
    switch (c) {
    case OPT_LAUNCH_FILE: /* a capture (kerndiff capture): its launch, replayed for both sides */
        if (!*optarg)
            return kd_usage_error("--launch wants a capture file (kerndiff capture ... -o FILE)");
        opts->diff.capture = optarg;
        break;
    case OPT_FROM: /* captured from this command, then replayed */
        if (strspn(optarg, " \t") == strlen(optarg))
            return kd_usage_error("--from wants the command that launches the kernel (e.g. './prog 3'), got '%s'",
                                  optarg);
        opts->diff.capture_from = optarg;
        break;
    default:
        return KD_OPT_NOT_MINE;
    }
    return 0;
}

const kd_option_group kd_opts_replay = {"replay", options, parse};
