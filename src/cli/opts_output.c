/* The options of what is written and how: the terminal report, --json/--markdown/--html/--csv/--save, -q/-v,
 * --help, --version, --completion (cli/option_parse.h: one group per subsystem). */
#include <stdlib.h>
#include <string.h>

#include "cli/exit_codes.h"
#include "cli/option_parse.h"

static const struct option options[] = {
    {"metric-names", no_argument, NULL, OPT_METRIC_NAMES},
    {"all-metrics", no_argument, NULL, OPT_ALL_METRICS},
    {"per-kernel", no_argument, NULL, OPT_PER_KERNEL},
    {"no-advice", no_argument, NULL, OPT_NO_ADVICE},
    {"save", required_argument, NULL, OPT_SAVE},
    {"no-color", no_argument, NULL, OPT_NO_COLOR},
    {"all-instructions", no_argument, NULL, OPT_ALL_INSTRUCTIONS},
    {"json", optional_argument, NULL, OPT_JSON},
    {"markdown", optional_argument, NULL, OPT_MARKDOWN},
    {"brief", no_argument, NULL, OPT_BRIEF},
    {"quiet", no_argument, NULL, 'q'},
    {"verbose", no_argument, NULL, 'v'},
    {"completion", required_argument, NULL, OPT_COMPLETION},
    {"html", required_argument, NULL, OPT_HTML},
    {"csv", required_argument, NULL, OPT_CSV},
    {"force", no_argument, NULL, OPT_FORCE},
    {"help", no_argument, NULL, 'h'},
    {"version", no_argument, NULL, OPT_VERSION},
    {NULL, 0, NULL, 0},
};

static int parse(int c, kd_options *opts, kd_opt_ctx *ctx)
{
    switch (c) {
    case 'h': opts->command = KD_CMD_HELP; return KD_OPT_STOP;
    case 'q': opts->verbosity = KD_QUIET; break;
    case 'v': opts->verbosity = KD_VERBOSE; break;
    case OPT_BRIEF: opts->render.brief = true; break;
    case OPT_COMPLETION:
        if (strcmp(optarg, "bash") && strcmp(optarg, "zsh") && strcmp(optarg, "fish"))
            return kd_usage_error("--completion wants bash, zsh or fish, got '%s'", optarg);
        opts->command = KD_CMD_COMPLETION;
        opts->completion_shell = optarg;
        return KD_OPT_STOP;
    case OPT_VERSION: opts->command = KD_CMD_VERSION; return KD_OPT_STOP;
    case OPT_NO_COLOR: opts->render.color = false; break;
    case OPT_ALL_INSTRUCTIONS: opts->render.all_rows = true; break;
    case OPT_JSON: kd_opt_optional_output(ctx, &opts->json_path); break;
    case OPT_MARKDOWN: kd_opt_optional_output(ctx, &opts->markdown_path); break;
    case OPT_HTML: opts->html_path = optarg; break;
    case OPT_CSV: opts->csv_path = optarg; break;
    case OPT_FORCE: opts->force = true; break;
    case OPT_METRIC_NAMES: opts->render.metric_names = true; break;
    case OPT_ALL_METRICS: opts->render.all_metrics = true; break;
    case OPT_PER_KERNEL: opts->render.per_kernel = true; break;
    case OPT_NO_ADVICE: opts->render.advice = false; break;
    case OPT_SAVE: opts->save_path = optarg; break;
    default:
        return KD_OPT_NOT_MINE;
    }
    return 0;
}

const kd_option_group kd_opts_output = {"output", options, parse};
