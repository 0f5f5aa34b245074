/* The options of `kerndiff capture` (issue 30 item 1): -o FILE and --continue; --fn and --nth
 * are the build group's (the same words as for a Triton --run capture), the command follows
 * `--` (cli/option_parse.h: one group per subsystem). */
#include "cli/exit_codes.h"
#include "cli/option_parse.h"

static const struct option options[] = {
    {"continue", no_argument, NULL, OPT_CAPTURE_CONTINUE},
    {NULL, 0, NULL, 0},
};

static int parse(int c, kd_options *opts, kd_opt_ctx *ctx)
{
    (void)ctx;
    switch (c) {
    case 'o':
        if (!*optarg)
            return kd_usage_error("-o wants the capture file to write");
        opts->capture.out = optarg;
        break;
    case OPT_CAPTURE_CONTINUE: opts->capture.keep_going = true; break;
    default:
        return KD_OPT_NOT_MINE;
    }
    return 0;
}

const kd_option_group kd_opts_capture = {"capture", options, parse};
