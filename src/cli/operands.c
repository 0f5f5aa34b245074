/* Each built-in command's own check of its operands (cli/command.h: a row's `operands`), which
 * also stores them where the command reads them. The parse (cli/options.c) has found the row
 * by its word and handed it the words after it; the checks every command shares (the option
 * groups it accepts, its outputs) are the parse's, from the rows. */
#include "cli/command.h"

#include <string.h>

#include "cli/option_parse.h"

/* kerndiff [options] V1 V2, or FILE (git mode: the committed version against the working copy). */
int kd_operands_diff(kd_options *opts, const kd_operands *in)
{
    if (opts->at_second)
        return kd_usage_error("--at is given once outside kerndiff app (--at A..B for two revisions)");
    if (in->n == 1) {
        opts->diff.git_file = in->words[0];
        return 0;
    }
    if (opts->diff.at)
        return kd_usage_error("--at compares revisions of one file: kerndiff --at REF FILE.cu");
    if (in->n != 2)
        return kd_usage_error(in->n < 2 ? "need two kernel files: kerndiff [options] V1.cu V2.cu"
                                        : "need exactly two kernel files");
    opts->diff.files[0] = in->words[0];
    opts->diff.files[1] = in->words[1];
    return 0;
}

int kd_operands_list(kd_options *opts, const kd_operands *in)
{
    if (in->n != 1)
        return kd_usage_error("usage: kerndiff list FILE.cu");
    opts->diff.files[0] = in->words[0];
    return 0;
}

int kd_operands_compare(kd_options *opts, const kd_operands *in)
{
    if (in->n != 2)
        return kd_usage_error("usage: kerndiff compare OLD.json NEW.json");
    if (kd_options_output(opts, "--trace"))
        return kd_usage_error("--trace draws a run's region instances, which a saved run does not keep: pass "
                              "--trace FILE to the run that records them (kerndiff --regions --trace FILE V1 V2)");
    opts->diff.files[0] = in->words[0];
    opts->diff.files[1] = in->words[1];
    return 0;
}

/* kerndiff app CMD1 CMD2 (or two exports), or app --at REF [--at REF2] CMD: one or two. */
int kd_operands_app_wanted(const kd_options *opts)
{
    return opts->diff.at ? 1 : 2;
}

int kd_operands_app(kd_options *opts, const kd_operands *in)
{
    if (opts->diff.at && in->n != 1)
        return kd_usage_error("usage: kerndiff app --at REF [--at REF2] [--prepare BUILD] CMD (one command, "
                              "run at both revisions)");
    if (!opts->diff.at && in->n != 2)
        return kd_usage_error("usage: kerndiff app [options] CMD1 CMD2 (each command one argument: quote it), "
                              "or kerndiff app --at REF CMD");
    if (opts->app.prepare && !opts->diff.at)
        return kd_usage_error("--prepare builds each side's checkout: it goes with --at REF");
    const char *at = opts->diff.at;
    if (at && strstr(at, ".."))
        return kd_usage_error("kerndiff app takes two revisions as --at %.*s --at %s, not --at %s",
                              (int)(strstr(at, "..") - at), at, strstr(at, "..") + 2, at);
    opts->app.at[0] = opts->diff.at;
    opts->app.at[1] = opts->at_second;
    opts->diff.files[0] = in->words[0];
    opts->diff.files[1] = in->words[in->n - 1];
    return 0;
}

/* kerndiff capture --fn NAME [--nth K] [--continue] -o FILE -- CMD ARGS...: the words are the program's. */
int kd_operands_capture(kd_options *opts, const kd_operands *in)
{
    opts->capture.argv = in->words;
    if (in->n < 1)
        return kd_usage_error("usage: kerndiff capture --fn NAME [--nth K] [--continue] -o FILE -- CMD ARGS...");
    if (!opts->diff.fn[0])
        return kd_usage_error("kerndiff capture needs --fn NAME: the kernel whose launch is recorded");
    if (opts->diff.fn[1] && strcmp(opts->diff.fn[0], opts->diff.fn[1]) != 0)
        return kd_usage_error("kerndiff capture records one kernel: --fn NAME, not NAME1:NAME2");
    if (!opts->capture.out)
        return kd_usage_error("kerndiff capture needs -o FILE: where the capture is written");
    return 0;
}

/* kerndiff rank BASE CAND... (none with --merge or --only-shard: cmd/rank.c says what is missing). */
int kd_operands_rank(kd_options *opts, const kd_operands *in)
{
    kd_rank_cli_options *r = &opts->rank;
    if (!in->st->seen[OPT_APP_TOP])
        opts->app.top = 3; /* rank's K (app's --top has its own default) */
    r->baseline = in->n > 0 ? in->words[0] : NULL;
    r->operands = in->words + (in->n > 0);
    r->noperands = in->n > 1 ? (size_t)(in->n - 1) : 0;
    if (r->shard >= 0 && r->heats && r->heats != r->shard_of)
        return kd_usage_error("--shard %d/%u runs heat %d of %u: --heats %u says otherwise", r->shard, r->shard_of,
                              r->shard, r->shard_of, r->heats);
    if (r->shard >= 0)
        r->heats = r->shard_of;
    if (!r->heats)
        r->heats = 1;
    return 0;
}
