/* kerndiff rank --slurm and --merge (cmd/rank_slurm.h). */
#include "cmd/rank_slurm.h"

#include <stdio.h>
#include <stdlib.h>

#include "cli/opts_slurm.h"
#include "cli/status.h"
#include "rank/merge.h"
#include "report/slurm_text.h"

int kd_cmd_rank_slurm(const kd_cmd_args *a, const kd_slurm_options *so)
{
    kd_slurm_job job = {0};
    kd_slurm_error e = {0};
    kd_slurm_submit_request req = {.o = so, .argc = a->argc, .argv = a->argv};
    kd_outcome o = kd_slurm_submit(&req, &job, &e);
    if (o != KD_OK) {
        kd_slurm_say_error(&e);
        kd_slurm_error_free(&e);
        return kd_exit_code(o);
    }
    /* With --wait the merged report is the output, and with --json - the submission's JSON:
     * what was submitted is then said on stderr. */
    FILE *say = so->wait || kd_options_stdout_taken(a->opts) ? stderr : stdout;
    kd_slurm_say_submitted(say, &job);
    fflush(say);
    int status = kd_exit_code(KD_OK);
    /* without --wait, --json FILE is the submission (the merge writes the report) */
    if (!so->wait && kd_options_output(a->opts, "--json") && kd_slurm_submitted_json(&job, kd_options_output(a->opts, "--json")) != 0)
        status = kd_outputs_status(1);
    if (so->wait) {
        o = kd_slurm_wait(job.id, so->poll_ms, &e);
        if (o != KD_OK) {
            kd_slurm_say_error(&e);
            kd_slurm_error_free(&e);
            status = kd_exit_code(o);
        } else {
            status = kd_cmd_rank_merge(a, job.dir);
        }
    }
    kd_slurm_job_free(&job);
    return status;
}

int kd_cmd_rank_merge(const kd_cmd_args *a, const char *dir)
{
    kd_merge m = {0};
    kd_slurm_error e = {0};
    kd_outcome o = kd_merge_read(dir, &m, &e);
    if (o != KD_OK) {
        kd_slurm_say_error(&e);
        kd_slurm_error_free(&e);
        return kd_exit_code(o);
    }
    kd_strbuf problems = {0};
    kd_slurm_merge_problems(&m, &problems);
    int status = kd_exit_code(KD_OK);
    kd_rank_heat **heats = kd_merge_heats(&m);
    if (problems.len || !heats) {
        fputs(kd_sb_str(&problems), stderr);
        status = kd_exit_code(KD_FAIL_RUNTIME);
        /* an agent that asked for JSON gets the shards to re-run as data (a failed write is
         * said; the status stays the missing shards': the outcome comes first) */
        if (kd_options_output(a->opts, "--json"))
            kd_slurm_merge_json(&m, kd_options_output(a->opts, "--json"));
    } else {
        /* every shard done: the report, as the one-process rank makes it from its heats */
        status = kd_cmd_rank_report(a, heats, m.manifest.shards);
    }
    free(heats);
    kd_sb_free(&problems);
    kd_merge_free(&m);
    return status;
}

int kd_cmd_rank_slurm_dispatch(const kd_cmd_args *a)
{
    const kd_slurm_options *so = &a->opts->rank.slurm;
    if (!so->sbatch && !so->merge && !so->wait && so->only_shard < 0 && !so->dir && !so->shards)
        return -1;
    int usage = kd_opts_slurm_check(so);
    if (usage)
        return usage;
    return so->merge ? kd_cmd_rank_merge(a, so->merge) : kd_cmd_rank_slurm(a, so);
}
