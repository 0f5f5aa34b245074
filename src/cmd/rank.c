/* `kerndiff rank BASE CAND...` (issue 32; rank/rank.h): every candidate gated and raced against
 * the baseline, one report. With --slurm or --merge, cmd/rank_slurm.c's; with --shard I/N,
 * one heat, written with --json FILE for the merge. */
#include "cmd/cmd.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/outputs.h"
#include "cli/status.h"
#include "cmd/rank_slurm.h"
#include "rank/rank.h"
#include "rank/run.h"
#include "report/formats.h"
#include "report/rank_report.h"
#include "util/progress.h"
#include "util/strbuf.h"

static kd_rank_opts report_opts(const kd_options *opts)
{
    return (kd_rank_opts){.top = opts->app.top > 0 ? (size_t)opts->app.top : 3,
                          .confidence = KD_RACE_CONFIDENCE,
                          .min_effect_pct = opts->diff.timing.min_effect_pct};
}

int kd_cmd_rank_report(const kd_cmd_args *a, kd_rank_heat *const *heats, size_t n)
{
    const kd_options *opts = a->opts;
    kd_rank_opts ro = report_opts(opts);
    kd_rank_result *r = kd_rank_finish(heats, n, &ro);
    if (!r)
        return kd_exit_code(KD_FAIL_INPUT);
    kd_status_clear();
    kd_format_request requests[KD_OUTPUTS_MAX];
    size_t nreq = kd_outputs_requests(opts, requests, KD_OUTPUTS_MAX);
    kd_format_subject s = {.kind = KD_SUBJECT_RANK, .rank = r, .render = &opts->render};
    int failures = kd_formats_write(&s, kd_options_stdout_taken(opts) ? NULL : stdout, requests, nreq);
    kd_rank_result_free(r);
    return kd_outputs_status(failures);
}

static void free_heats(kd_rank_heat *heats, size_t n)
{
    for (size_t i = 0; i < n; i++)
        kd_rank_heat_free(&heats[i]);
    free(heats);
}

int kd_cmd_rank(const kd_cmd_args *a)
{
    int status = kd_cmd_rank_slurm_dispatch(a);
    if (status >= 0)
        return status;
    const kd_options *opts = a->opts;
    const kd_rank_cli_options *ro = &opts->rank;
    if (!ro->baseline || (ro->noperands == 0 && ro->refs.count == 0)) {
        kd_rank_say_usage(ro->baseline ? "no candidate given" : "no baseline and no candidate given");
        return kd_exit_code(KD_FAIL_USAGE);
    }
    const char *json_path = kd_options_output(opts, "--json");
    if (ro->shard >= 0 && (!json_path || !json_path[0] || !strcmp(json_path, "-"))) {
        kd_rank_say_usage("--shard I/N writes heat I's result to a file for --merge: give --json FILE");
        return kd_exit_code(KD_FAIL_USAGE);
    }
    kd_strlist candidates = {0};
    kd_rank_error e = {0};
    kd_outcome o = kd_rank_expand(ro->operands, ro->noperands, ro->baseline, &candidates, &e);
    if (o == KD_OK && !ro->follow_links)
        o = kd_rank_refuse_links(&candidates, &e);
    const kd_strlist *refs = &ro->refs; /* --refs REV,...: the baseline's file at each */
    for (size_t i = 0; o == KD_OK && i < refs->count; i++) {
        kd_strbuf sb = {0};
        kd_sb_printf(&sb, "%s:%s", refs->items[i], ro->baseline);
        kd_strlist_push(&candidates, kd_sb_take(&sb));
    }
    kd_rank_heat *heats = NULL;
    size_t n = 0;
    if (o == KD_OK) {
        kd_rank_request req = {.diff = &opts->diff, .baseline = ro->baseline, .candidates = &candidates,
                               .heats = ro->heats ? ro->heats : 1, .shard = ro->shard, .top = report_opts(opts).top,
                               .max_rounds = ro->max_rounds, .budget_ms = ro->budget_ms, .ngpus = ro->ngpus,
                               .gpus_all = ro->gpus_all, .mixed_gpus = ro->mixed_gpus, .jobs = ro->jobs};
        for (size_t i = 0; i < ro->ngpus && i < KD_RANK_MAX_GPUS; i++)
            req.gpus[i] = ro->gpus[i];
        o = kd_rank_run(&req, &heats, &n, &e);
    }
    if (o != KD_OK) {
        kd_status_clear();
        kd_rank_say_error(&e);
        status = kd_exit_code(o);
    } else if (ro->shard >= 0) {
        status = kd_exit_code(KD_OK);
        if (kd_rank_heat_write(&heats[0], json_path) != 0) {
            kd_rank_say_heat_not_written(json_path, errno);
            status = kd_outputs_status(1);
        }
    } else {
        kd_rank_heat **list = calloc(n + 1, sizeof *list);
        for (size_t i = 0; list && i < n; i++)
            list[i] = &heats[i];
        status = list ? kd_cmd_rank_report(a, list, n) : kd_exit_code(KD_FAIL_TOOL);
        free(list);
    }
    free_heats(heats, n);
    free(e.detail);
    for (size_t i = 0; i < candidates.count; i++)
        free(candidates.items[i]);
    free(candidates.items);
    return status;
}
