/* The options of the timing: --target, --max-time, --min-runs/--max-runs, --timeout, --seed, --batch,
 * --load, the correctness check and its tolerances (cli/option_parse.h: one group per subsystem). */
#include <stdlib.h>
#include <string.h>

#include "cli/exit_codes.h"
#include "cli/option_parse.h"
#include "wire/protocol.h"

/* This group's own code, clear of option_parse.h's list (256..) and of the other groups' blocks
 * (900.., 1000.., 1010..). */
enum { OPT_LOAD = 950, OPT_ALLOW_MISMATCH, OPT_AUDITS };

static const struct option options[] = {
    {"target", required_argument, NULL, OPT_TARGET},
    {"max-time", required_argument, NULL, OPT_MAX_TIME},
    {"min-runs", required_argument, NULL, OPT_MIN_RUNS},
    {"max-runs", required_argument, NULL, OPT_MAX_RUNS},
    {"timeout", required_argument, NULL, OPT_TIMEOUT},
    {"seed", required_argument, NULL, OPT_SEED},
    {"no-check", no_argument, NULL, OPT_NO_CHECK},
    {"require-match", no_argument, NULL, OPT_REQUIRE_MATCH},
    {"allow-mismatch", no_argument, NULL, OPT_ALLOW_MISMATCH},
    {"audits", required_argument, NULL, OPT_AUDITS},
    {"rtol", required_argument, NULL, OPT_RTOL},
    {"atol", required_argument, NULL, OPT_ATOL},
    {"batch", required_argument, NULL, OPT_BATCH},
    {"lock-clocks", no_argument, NULL, OPT_LOCK_CLOCKS},
    {"min-effect", required_argument, NULL, OPT_MIN_EFFECT},
    {"load", required_argument, NULL, OPT_LOAD},
    {NULL, 0, NULL, 0},
};

static int parse(int c, kd_options *opts, kd_opt_ctx *ctx)
{
    (void)ctx;
    switch (c) {
    case OPT_MIN_EFFECT:
        if (kd_opt_number(optarg, 0, 100, true, &opts->diff.timing.min_effect_pct) != 0)
            return kd_usage_error("--min-effect wants a percentage from 0 to 100, got '%s'", optarg);
        break;
    case OPT_NO_CHECK: opts->diff.timing.check = false; break;
    case OPT_REQUIRE_MATCH: opts->diff.gate.require_match = true; break;
    case OPT_ALLOW_MISMATCH: opts->diff.gate.allow_mismatch = true; break;
    case OPT_AUDITS: {
        double v;
        if (kd_opt_number(optarg, 1, 1000, false, &v) != 0)
            return kd_usage_error("--audits wants the fewest audit launches a side, 1 to 1000 (default %d; --no-check "
                                  "turns them off with the check), got '%s'", KD_DEFAULT_AUDITS, optarg);
        opts->diff.timing.audits = (unsigned)v;
        break;
    }
    case OPT_LOCK_CLOCKS: opts->diff.lock_clocks = true; break;
    case OPT_TARGET:
        if (kd_opt_number(optarg, 0.01, 100, true, &opts->diff.timing.target_pct) != 0)
            return kd_usage_error("--target wants a percentage from 0.01 to 100 (e.g. 1 or 0.5%%), got '%s'", optarg);
        break;
    case OPT_MAX_TIME:
        if (kd_opt_number(optarg, 0.1, 86400, false, &opts->diff.timing.max_time_s) != 0)
            return kd_usage_error("--max-time wants seconds (0.1 to 86400), got '%s'", optarg);
        break;
    case OPT_TIMEOUT: {
        /* The watchdog's milliseconds are scaled for slower steps (the counter pass
         * waits 50 times as long), so the bound keeps every such product in an int. */
        double v;
        if (kd_opt_number(optarg, 0.1, MAX_TIMEOUT_S, false, &v) != 0)
            return kd_usage_error("--timeout wants seconds from 0.1 to %d (an hour), got '%s'", MAX_TIMEOUT_S, optarg);
        opts->diff.timing.timeout_ms = (int)(v * 1000 + 0.5);
        break;
    }
    case OPT_MIN_RUNS:
    case OPT_MAX_RUNS: {
        double v;
        if (kd_opt_number(optarg, 2, 1e7, false, &v) != 0)
            return kd_usage_error("%s wants a number from 2 to 10000000, got '%s'",
                               c == OPT_MIN_RUNS ? "--min-runs" : "--max-runs", optarg);
        *(c == OPT_MIN_RUNS ? &opts->diff.timing.min_runs : &opts->diff.timing.max_runs) = (int)v;
        break;
    }
    case OPT_SEED: {
        char *end;
        opts->diff.timing.seed = strtoull(optarg, &end, 0);
        if (*end || !*optarg)
            return kd_usage_error("--seed wants a whole number, got '%s'", optarg);
        break;
    }
    case OPT_RTOL:
    case OPT_ATOL:
        if (kd_opt_number(optarg, 0, 1e30, false,
                         c == OPT_RTOL ? &opts->diff.timing.tolerance.rtol : &opts->diff.timing.tolerance.atol) != 0)
            return kd_usage_error("%s wants a non-negative number, got '%s'", c == OPT_RTOL ? "--rtol" : "--atol", optarg);
        opts->diff.timing.tolerance_given = true;
        break;
    case OPT_LOAD: {
        /* single | sustained | sustained:MS (the load before each block, default do_bench's 100 ms) */
        double ms = KD_SUSTAINED_LOAD_MS;
        if (strcmp(optarg, "single") == 0)
            ms = 0;
        else if (strncmp(optarg, "sustained", 9) != 0 ||
                 (optarg[9] && (optarg[9] != ':' || kd_opt_number(optarg + 10, 1, KD_PROTO_MAX_SUSTAINED_MS, false, &ms) != 0)))
            return kd_usage_error("--load wants single, sustained or sustained:MS (1 to %d ms of load), got '%s'",
                                  KD_PROTO_MAX_SUSTAINED_MS, optarg);
        opts->diff.timing.sustained_ms = (unsigned)ms;
        break;
    }
    case OPT_BATCH: {
        double v;
        if (strcmp(optarg, "auto") == 0)
            opts->diff.timing.batch = 0;
        else if (strcmp(optarg, "off") == 0)
            opts->diff.timing.batch = -1;
        else if (kd_opt_number(optarg, 1, 100000, false, &v) == 0)
            opts->diff.timing.batch = (long)v;
        else
            return kd_usage_error("--batch wants auto, off or launches per sample, got '%s'", optarg);
        break;
    }
    default:
        return KD_OPT_NOT_MINE;
    }
    return 0;
}

const kd_option_group kd_opts_timing = {"timing", options, parse};
