/* The options of kerndiff rank (issue 32): --heats, --shard, --budget-ms, --max-rounds, --gpus,
 * --mixed-gpus, --jobs, --refs, --follow-links (cli/option_parse.h: one group per subsystem). --top is kerndiff app's option,
 * read by rank too; --slurm and --merge are cli/opts_slurm.c's. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/exit_codes.h"
#include "cli/option_parse.h"
#include "util/xalloc.h"

/* Codes of this group: apart from option_parse.h's list, below its ncu block (1000). */
enum { OPT_RANK_HEATS = 900, OPT_RANK_SHARD, OPT_RANK_BUDGET, OPT_RANK_MAX_ROUNDS, OPT_RANK_GPUS, OPT_RANK_MIXED_GPUS,
       OPT_RANK_JOBS, OPT_RANK_REFS, OPT_RANK_FOLLOW_LINKS };

static const struct option options[] = {
    {"heats", required_argument, NULL, OPT_RANK_HEATS},
    {"shard", required_argument, NULL, OPT_RANK_SHARD},
    {"budget-ms", required_argument, NULL, OPT_RANK_BUDGET},
    {"max-rounds", required_argument, NULL, OPT_RANK_MAX_ROUNDS},
    {"gpus", required_argument, NULL, OPT_RANK_GPUS},
    {"mixed-gpus", no_argument, NULL, OPT_RANK_MIXED_GPUS},
    {"jobs", required_argument, NULL, OPT_RANK_JOBS},
    {"refs", required_argument, NULL, OPT_RANK_REFS},
    {"follow-links", no_argument, NULL, OPT_RANK_FOLLOW_LINKS},
    {NULL, 0, NULL, 0},
};

/* "0,2,3" into gpus[]; "all". */
static int parse_gpus(const char *s, kd_rank_cli_options *r)
{
    if (strcmp(s, "all") == 0) {
        r->gpus_all = true;
        return 0;
    }
    r->ngpus = 0;
    for (const char *p = s; *p;) {
        char *end;
        long v = strtol(p, &end, 10);
        if (end == p || v < 0 || v > 255 || (*end && *end != ',') || r->ngpus >= sizeof r->gpus / sizeof *r->gpus)
            return -1;
        for (size_t i = 0; i < r->ngpus; i++)
            if (r->gpus[i] == (int)v)
                return -1;
        r->gpus[r->ngpus++] = (int)v;
        p = *end ? end + 1 : end;
        if (*end && !*p)
            return -1;
    }
    return r->ngpus ? 0 : -1;
}

/* "A,B,C" (repeatable): each a revision, the baseline's file at it a candidate. */
static int parse_refs(const char *text, kd_strlist *refs)
{
    char *s = kd_xstrdup(text);
    int rc = 0;
    for (char *save = NULL, *rev = strtok_r(s, ",", &save); rev && rc == 0; rev = strtok_r(NULL, ",", &save)) {
        if (rev[0] == '-' || strchr(rev, ':'))
            rc = -1;
        else
            kd_strlist_push(refs, kd_xstrdup(rev));
    }
    free(s);
    return rc == 0 && refs->count ? 0 : -1;
}

static int parse(int c, kd_options *opts, kd_opt_ctx *ctx)
{
    (void)ctx;
    kd_rank_cli_options *r = &opts->rank;
    double v;
    switch (c) {
    case OPT_RANK_HEATS:
        if (kd_opt_number(optarg, 1, 10000, false, &v) != 0 || v != (unsigned)v)
            return kd_usage_error("--heats wants a whole number from 1 to 10000, got '%s'", optarg);
        r->heats = (unsigned)v;
        break;
    case OPT_RANK_SHARD: {
        unsigned i, n;
        char tail;
        if (sscanf(optarg, "%u/%u%c", &i, &n, &tail) != 2 || n < 1 || n > 10000 || i >= n)
            return kd_usage_error("--shard wants I/N with 0 <= I < N (heat I of N), got '%s'", optarg);
        r->shard = (int)i;
        r->shard_of = n;
        break;
    }
    case OPT_RANK_BUDGET:
        if (kd_opt_number(optarg, 1, 1e9, false, &v) != 0)
            return kd_usage_error("--budget-ms wants milliseconds (at least 1), got '%s'", optarg);
        r->budget_ms = v;
        break;
    case OPT_RANK_MAX_ROUNDS:
        if (kd_opt_number(optarg, 5, 1e6, false, &v) != 0 || v != (unsigned)v)
            return kd_usage_error("--max-rounds wants a whole number of at least 5, got '%s'", optarg);
        r->max_rounds = (unsigned)v;
        break;
    case OPT_RANK_GPUS:
        if (parse_gpus(optarg, r) != 0)
            return kd_usage_error("--gpus wants 'all' or device indices without repeats, e.g. 0,2,3 (at most 16), "
                                  "got '%s'", optarg);
        break;
    case OPT_RANK_MIXED_GPUS: r->mixed_gpus = true; break;
    case OPT_RANK_FOLLOW_LINKS: r->follow_links = true; break;
    case OPT_RANK_JOBS:
        if (kd_opt_number(optarg, 1, 1024, false, &v) != 0 || v != (unsigned)v)
            return kd_usage_error("--jobs wants a whole number of builds at once, from 1 to 1024, got '%s'", optarg);
        r->jobs = (unsigned)v;
        break;
    case OPT_RANK_REFS:
        if (parse_refs(optarg, &r->refs) != 0)
            return kd_usage_error("--refs wants git revisions, comma-separated (HEAD~1,v1.2,3f2a1c9), got '%s'",
                                  optarg);
        break;
    default:
        return KD_OPT_NOT_MINE;
    }
    return 0;
}

const kd_option_group kd_opts_rank = {"rank", options, parse};
