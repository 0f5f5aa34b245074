/* The options of what is written and how: the terminal report, -q/-v, --help, --version,
 * --completion (cli/option_parse.h: one group per subsystem), and every output format's option
 * (--json, --save, --markdown, --html, --csv ...), whose rows are made from report/formats.h's
 * table: a format's option is its row there, nothing here. */
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "cli/exit_codes.h"
#include "cli/option_parse.h"

/* The rows of this group's own options, then (kd_opts_output_prepare) one per format option:
 * room for 24 own ones (a 25th is a compiler warning: excess elements), the rest zeros. */
static struct option options[24 + KD_FORMAT_OPTIONS_MAX + 1] = {
    {"metric-names", no_argument, NULL, OPT_METRIC_NAMES},
    {"all-metrics", no_argument, NULL, OPT_ALL_METRICS},
    {"per-kernel", no_argument, NULL, OPT_PER_KERNEL},
    {"no-advice", no_argument, NULL, OPT_NO_ADVICE},
    {"no-color", no_argument, NULL, OPT_NO_COLOR},
    {"all-instructions", no_argument, NULL, OPT_ALL_INSTRUCTIONS},
    {"brief", no_argument, NULL, OPT_BRIEF},
    {"quiet", no_argument, NULL, 'q'},
    {"verbose", no_argument, NULL, 'v'},
    {"completion", required_argument, NULL, OPT_COMPLETION},
    {"force", no_argument, NULL, OPT_FORCE},
    {"help", no_argument, NULL, 'h'},
    {"version", no_argument, NULL, OPT_VERSION},
};
/* Whether the format option in a slot is parsed here: one that another group declares too
 * (--trace: regions', which also turns regions on) is that group's. */
static bool parsed_here[KD_FORMAT_OPTIONS_MAX];
static int parse(int c, kd_options *opts, kd_opt_ctx *ctx);
const kd_option_group kd_opts_output = {"output", options, parse};

/* Whether another group has a long option of this name. */
static bool declared_elsewhere(const char *name)
{
    for (const kd_option_group *const *g = kd_option_groups; *g; g++)
        for (const struct option *o = (*g)->options; *g != &kd_opts_output && o->name; o++)
            if (strcmp(o->name, name) == 0)
                return true;
    return false;
}

void kd_opts_output_prepare(void)
{
    static bool prepared;
    if (prepared)
        return;
    prepared = true;
    size_t n = 0;
    while (options[n].name)
        n++;
    const kd_format_option *f;
    for (size_t slot = 0; (f = kd_format_option_at(slot)) != NULL; slot++) {
        if (slot >= KD_FORMAT_OPTIONS_MAX || n + 1 >= sizeof options / sizeof *options)
            abort(); /* more format options than kd_options holds: a build mistake, caught by every test */
        if (declared_elsewhere(f->name + 2))
            continue;
        parsed_here[slot] = true;
        options[n++] = (struct option){f->name + 2, f->file_optional ? optional_argument : required_argument, NULL,
                                       OPT_FORMAT + (int)slot};
    }
}

static int parse(int c, kd_options *opts, kd_opt_ctx *ctx)
{
    switch (c) {
    case 'h': opts->command = KD_CMD_HELP; return KD_OPT_STOP;
    case 'q': opts->verbosity = KD_QUIET; break;
    case 'v': opts->verbosity = KD_VERBOSE; opts->render.full = true; break;
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
    case OPT_FORCE: opts->force = true; break;
    case OPT_METRIC_NAMES: opts->render.metric_names = true; break;
    case OPT_ALL_METRICS: opts->render.all_metrics = true; break;
    case OPT_PER_KERNEL: opts->render.per_kernel = true; break;
    case OPT_NO_ADVICE: opts->render.advice = false; break;
    default:
        if (c < OPT_FORMAT || c >= OPT_FORMAT_END || !parsed_here[c - OPT_FORMAT])
            return KD_OPT_NOT_MINE;
        if (kd_format_option_at((size_t)(c - OPT_FORMAT))->file_optional)
            kd_opt_optional_output(ctx, &opts->output_path[c - OPT_FORMAT]);
        else
            opts->output_path[c - OPT_FORMAT] = optarg;
    }
    return 0;
}

