/* The options of the counter pass: --counters, --ncu, --no-ncu, --ncu-set, --metrics ... (cli/option_parse.h: one group
 * per subsystem). */
#include <stdlib.h>
#include <string.h>

#include "cli/exit_codes.h"
#include "cli/option_parse.h"
#include "ncu/ncu_run.h"
#include "util/xalloc.h"

static const struct option options[] = {
    {"counters", required_argument, NULL, OPT_COUNTERS},
    {"ncu-report", required_argument, NULL, OPT_NCU_REPORT},
    {"metrics", required_argument, NULL, OPT_METRICS},
    {"ncu", required_argument, NULL, OPT_NCU},
    {"no-ncu", no_argument, NULL, OPT_NO_NCU},
    {"ncu-set", required_argument, NULL, OPT_NCU_SET},
    {"ncu-repeats", required_argument, NULL, OPT_NCU_REPEATS},
    {"ncu-clock-control", required_argument, NULL, OPT_NCU_CLOCK},
    {NULL, 0, NULL, 0},
};

/* --metrics a,b,...: appends each name (repeated flags add up). */
static int parse_metrics(const char *arg, kd_options *opts)
{
    char *text = kd_xstrdup(arg);
    kd_strlist_push(&opts->diff.counters.extra_metrics_text, text);
    char *save = NULL;
    int names = 0;
    for (char *name = strtok_r(text, ",", &save); name; name = strtok_r(NULL, ",", &save), names++) {
        if (!kd_ncu_metric_name_ok(name) || opts->diff.counters.extra_metrics.count >= KD_NCU_MAX_EXTRA)
            return -1;
        kd_strlist_push(&opts->diff.counters.extra_metrics, name);
    }
    return names > 0 && !strstr(arg, ",,") && arg[strlen(arg) - 1] != ',' ? 0 : -1;
}

static int parse(int c, kd_options *opts, kd_opt_ctx *ctx)
{
    (void)ctx;
    switch (c) {
    case OPT_NCU: opts->diff.counters.ncu = optarg; break;
    case OPT_NCU_REPORT: opts->diff.counters.report_dir = optarg; break;
    case OPT_METRICS:
        if (parse_metrics(optarg, opts) != 0)
            return kd_usage_error("--metrics wants ncu metric names separated by commas (letters, digits, _ and .), "
                               "at most %d in all, got '%s'", KD_NCU_MAX_EXTRA, optarg);
        break;
    case OPT_NO_NCU: opts->diff.counters.off = true; break;
    case OPT_COUNTERS:
        if (strcmp(optarg, "cupti") && strcmp(optarg, "ncu") && strcmp(optarg, "auto"))
            return kd_usage_error("--counters wants cupti, ncu or auto, got '%s'", optarg);
        opts->diff.counters.collector = optarg;
        break;
    case OPT_NCU_SET:
        if (strcmp(optarg, "fast") && strcmp(optarg, "full"))
            return kd_usage_error("--ncu-set wants fast or full, got '%s'", optarg);
        opts->diff.counters.full = !strcmp(optarg, "full");
        break;
    case OPT_NCU_CLOCK:
        if (strcmp(optarg, "none") && strcmp(optarg, "base"))
            return kd_usage_error("--ncu-clock-control wants none or base, got '%s'", optarg);
        opts->diff.counters.clock_control = optarg;
        break;
    case OPT_NCU_REPEATS: {
        double v;
        if (kd_opt_number(optarg, 1, 100, false, &v) != 0 || v != (int)v)
            return kd_usage_error("--ncu-repeats wants a whole number from 1 to 100, got '%s'", optarg);
        opts->diff.counters.repeats = (int)v;
        break;
    }
    default:
        return KD_OPT_NOT_MINE;
    }
    return 0;
}

const kd_option_group kd_opts_counters = {"counters", options, parse};
