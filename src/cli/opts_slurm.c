/* The options of kerndiff rank on Slurm (cli/opts_slurm.h). */
#include "cli/opts_slurm.h"

#include "cli/exit_codes.h"

/* getopt codes of their own block (below kd_parse_state's 1024). */
enum { OPT_SLURM = 1010, OPT_SHARDS, OPT_SLURM_WAIT, OPT_ONLY_SHARD, OPT_SLURM_DIR, OPT_MERGE };

static const struct option options[] = {
    {"slurm", required_argument, NULL, OPT_SLURM},
    {"shards", required_argument, NULL, OPT_SHARDS},
    {"wait", no_argument, NULL, OPT_SLURM_WAIT},
    {"only-shard", required_argument, NULL, OPT_ONLY_SHARD},
    {"slurm-dir", required_argument, NULL, OPT_SLURM_DIR},
    {"merge", required_argument, NULL, OPT_MERGE},
    {NULL, 0, NULL, 0},
};

static int parse(int c, kd_options *opts, kd_opt_ctx *ctx)
{
    (void)ctx;
    kd_slurm_options *values = &opts->rank.slurm;
    switch (c) {
    case OPT_SLURM: values->sbatch = optarg; break;
    case OPT_SLURM_WAIT: values->wait = true; break;
    case OPT_SLURM_DIR: values->dir = optarg; break;
    case OPT_MERGE: values->merge = optarg; break;
    case OPT_SHARDS:
    case OPT_ONLY_SHARD: {
        double v;
        double lo = c == OPT_SHARDS ? 1 : 0, hi = KD_SLURM_MAX_SHARDS - (c == OPT_SHARDS ? 0 : 1);
        if (kd_opt_number(optarg, lo, hi, false, &v) != 0 || v != (unsigned)v)
            return kd_usage_error("%s wants a whole number from %.0f to %.0f, got '%s'",
                                  c == OPT_SHARDS ? "--shards" : "--only-shard", lo, hi, optarg);
        if (c == OPT_SHARDS)
            values->shards = (unsigned)v;
        else
            values->only_shard = (int)v;
        break;
    }
    default:
        return KD_OPT_NOT_MINE;
    }
    return 0;
}

int kd_opts_slurm_check(const kd_slurm_options *o)
{
    if (o->merge && (o->sbatch || o->wait || o->only_shard >= 0 || o->shards))
        return kd_usage_error("--merge DIR makes the report from DIR's shards: it takes no --slurm, --shards, --wait "
                              "or --only-shard");
    if (!o->sbatch && (o->wait || o->only_shard >= 0 || o->dir || o->shards))
        return kd_usage_error("--wait, --shards, --only-shard and --slurm-dir go with --slurm 'SBATCH OPTIONS'");
    if (o->only_shard >= 0 && !o->dir)
        return kd_usage_error("--only-shard %d re-runs one shard of an earlier rank: say its folder with --slurm-dir DIR",
                              o->only_shard);
    return 0;
}

const kd_option_group kd_opts_slurm = {"slurm", options, parse};
