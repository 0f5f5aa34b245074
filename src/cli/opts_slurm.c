/* The options of kerndiff rank on Slurm (cli/opts_slurm.h). */
#include "cli/opts_slurm.h"

#include <stdlib.h>
#include <string.h>

#include "cli/exit_codes.h"
#include "cli/outputs.h"
#include "util/xalloc.h"

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

/* getopt's code of a group's long option, by name (-1: none). */
static int code_of(const kd_option_group *g, const char *name)
{
    for (const struct option *o = g->options; o->name; o++)
        if (!strcmp(o->name, name))
            return o->val;
    return -1;
}

extern const kd_option_group kd_opts_rank;

/* Whether an option is not the shard's to see. */
static bool dropped(int code)
{
    for (const struct option *o = options; o->name; o++)
        if (o->val == code)
            return true; /* Slurm's own */
    return (code >= OPT_FORMAT && code < OPT_FORMAT_END) || code == OPT_FORCE ||
           code == code_of(&kd_opts_rank, "shard") || code == code_of(&kd_opts_rank, "heats");
}

void kd_slurm_shard_request_free(kd_slurm_shard_request *r)
{
    for (size_t i = 0; i < r->words.count; i++)
        free(r->words.items[i]);
    free(r->words.items);
    *r = (kd_slurm_shard_request){0};
}

int kd_opts_slurm_shard_request(int argc, char *const argv[], const kd_options *opts, kd_slurm_shard_request *out)
{
    *out = (kd_slurm_shard_request){0};
    /* getopt moves words about: a copy of its own */
    char **words = kd_xcalloc((size_t)argc + 1, sizeof *words);
    memcpy(words, argv, (size_t)argc * sizeof *words);
    const struct option *table = kd_opt_long_options();
    int heats_code = code_of(&kd_opts_rank, "heats");
    int rc = 0, c;
    optind = 0; /* GNU getopt: start over */
    opterr = 0;
    for (;;) {
        int li = -1;
        if ((c = getopt_long(argc, words, kd_short_options, table, &li)) == -1)
            break;
        if (c == '?' || c == ':') {
            rc = -1;
            break;
        }
        const struct option *o = li >= 0 ? &table[li] : NULL;
        bool optional = o && o->has_arg == optional_argument;
        if (optional && !optarg && c >= OPT_FORMAT && c < OPT_FORMAT_END && optind < argc) {
            /* --json [FILE]: the word after it was its file as cli/options.c took it */
            if (kd_opt_takes_word(opts->rows, words[optind]))
                optind++;
        }
        if (c == heats_code) {
            out->heats_given = true;
            out->heats = opts->rank.heats;
        }
        if (dropped(c))
            continue;
        bool counted = c != 'q' && c != 'v';
        char *word = o ? (optarg ? kd_xasprintf("--%s=%s", o->name, optarg) : kd_xasprintf("--%s", o->name))
                       : (optarg ? kd_xasprintf("-%c%s", c, optarg) : kd_xasprintf("-%c", c));
        kd_strlist_push(&out->words, word);
        if (counted && out->options++ == 0)
            out->first = word;
    }
    free(words);
    if (rc != 0) {
        kd_slurm_shard_request_free(out);
        return rc;
    }
    /* the operands as parsed: after "--", so that none is read as an option */
    kd_strlist_push(&out->words, kd_xstrdup("--"));
    if (opts->rank.baseline)
        kd_strlist_push(&out->words, kd_xstrdup(opts->rank.baseline));
    for (size_t i = 0; i < opts->rank.noperands; i++)
        kd_strlist_push(&out->words, kd_xstrdup(opts->rank.operands[i]));
    return 0;
}
