/* kerndiff rank --slurm and --merge (cmd/rank_slurm.h). */
#include "cmd/rank_slurm.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli/opts_slurm.h"
#include "cli/outputs.h"
#include "cli/status.h"
#include "rank/merge.h"
#include "rank/run.h"
#include "report/rank_report.h"
#include "report/slurm_text.h"
#include "util/fs.h"
#include "util/strbuf.h"
#include "util/text.h"
#include "util/xalloc.h"

/* A refusal before anything is submitted: the sentence (what was typed escaped), the status. */
__attribute__((format(printf, 2, 3))) static int refuse(kd_outcome o, const char *fmt, ...)
{
    char text[2048];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(text, sizeof text, fmt, ap);
    va_end(ap);
    kd_strbuf safe = {0};
    fprintf(stderr, "kerndiff rank: %s\n", kd_text_safe(text, &safe));
    kd_sb_free(&safe);
    return kd_exit_code(o);
}

/* path as the tasks will find it: relative ones from cwd (NULL: this process's folder). */
static char *from(const char *cwd, const char *path)
{
    return cwd && path[0] != '/' ? kd_path_join(cwd, path) : kd_xstrdup(path);
}

/* The checks a local rank makes of its inputs before it runs, made before sbatch: the
 * baseline reads, each candidate (and each folder's) is there. cwd: where the tasks run
 * (--only-shard: the manifest's), NULL for here. 0, or the exit status after the reason. */
static int check_inputs(const char *cwd, const char *baseline, const char *const *operands, size_t n)
{
    char *base = from(cwd, baseline);
    int rc = 0;
    if (kd_check_input(base) != 0)
        rc = refuse(KD_FAIL_INPUT, "the baseline '%s' cannot be read: %s; nothing was submitted", baseline,
                    kd_read_error(errno));
    char **paths = kd_xcalloc(n + 1, sizeof *paths);
    for (size_t i = 0; i < n; i++)
        paths[i] = from(cwd, operands[i]);
    kd_strlist cands = {0};
    kd_rank_error e = {0};
    kd_outcome o = rc ? KD_OK : kd_rank_expand((const char *const *)paths, n, base, &cands, &e);
    if (o != KD_OK) {
        kd_rank_say_error(&e);
        rc = kd_exit_code(o);
    }
    for (size_t i = 0; rc == 0 && i < cands.count; i++) {
        const char *c = cands.items[i];
        if (kd_check_input(c) == 0)
            continue;
        int err = errno;
        if (err == ENOENT && strchr(c, ':'))
            continue; /* REV:FILE, the file at a git revision (rank/run.h) */
        rc = refuse(KD_FAIL_INPUT, "the candidate '%s' cannot be read: %s; nothing was submitted (each task would "
                    "only report it failed): fix it or leave it out", c, kd_read_error(err));
    }
    for (size_t i = 0; i < cands.count; i++)
        free(cands.items[i]);
    free(cands.items);
    for (size_t i = 0; i < n; i++)
        free(paths[i]);
    free(paths);
    free(base);
    free(e.detail);
    return rc;
}

/* The checks of a new rank's request, with the shards' words made from it. 0, or the exit
 * status after the reason. */
static int check_new(const kd_cmd_args *a, const kd_slurm_shard_request *sr, kd_slurm_options *o)
{
    const kd_options *opts = a->opts;
    const kd_rank_cli_options *ro = &opts->rank;
    if (sr->heats_given && o->shards && sr->heats != o->shards)
        return refuse(KD_FAIL_USAGE, "--heats %u and --shards %u: each shard runs one heat, so the two are one "
                      "number: give one of them", sr->heats, o->shards);
    if (sr->heats_given)
        o->shards = sr->heats;
    if (!ro->baseline || (ro->noperands == 0 && ro->refs.count == 0)) {
        kd_rank_say_usage(ro->baseline ? "no candidate given" : "no baseline and no candidate given");
        return kd_exit_code(KD_FAIL_USAGE);
    }
    /* Without --wait the report is --merge's: an output asked of the submission would be lost. */
    kd_format_request req[KD_OUTPUTS_MAX];
    size_t nreq = kd_outputs_requests(opts, req, KD_OUTPUTS_MAX);
    for (size_t i = 0; !o->wait && i < nreq; i++)
        if (req[i].path && strcmp(req[i].option, "--json") != 0)
            return refuse(KD_FAIL_USAGE, "%s writes the report, which the merge makes once every shard is done: add "
                          "--wait, or give %s to `kerndiff rank --merge DIR` after the job (--json without --wait "
                          "writes what was submitted)", req[i].option, req[i].option);
    char *cwd = getcwd(NULL, 0);
    char *dir = o->dir ? from(cwd, o->dir) : kd_xstrdup(cwd ? cwd : "");
    int rc = 0;
    if (strchr(dir, '\\'))
        rc = refuse(KD_FAIL_USAGE, "the folder of the shards' results '%s' has a backslash, which makes sbatch read "
                    "no pattern in the tasks' log names (shard-%%a.log): give --slurm-dir a folder without one", dir);
    free(dir);
    free(cwd);
    return rc ? rc : check_inputs(NULL, ro->baseline, ro->operands, ro->noperands);
}

/* The checks of --only-shard I: the shard runs the manifest's words, so the command line
 * brings none; the manifest's inputs are still there. 0, or the exit status. */
static int check_rerun(const kd_cmd_args *a, const kd_slurm_shard_request *sr, const kd_slurm_options *o)
{
    const kd_rank_cli_options *ro = &a->opts->rank;
    if (sr->options || ro->baseline)
        return refuse(KD_FAIL_USAGE, "--only-shard %d re-runs shard %d with the rank's own options and candidates, "
                      "kept in its folder (slurm.json): give no others (here '%s'); re-run the whole rank to change "
                      "them", o->only_shard, o->only_shard, ro->baseline && !sr->options ? ro->baseline : sr->first);
    kd_slurm_manifest m;
    kd_slurm_error e = {0};
    kd_outcome out = kd_slurm_manifest_read(o->dir, &m, &e);
    if (out != KD_OK) {
        kd_slurm_say_error(&e);
        kd_slurm_error_free(&e);
        return kd_exit_code(out);
    }
    int rc = 0;
    size_t at = kd_slurm_operands_at(&m.shard_command);
    if (at < m.shard_command.count)
        rc = check_inputs(m.cwd && *m.cwd ? m.cwd : NULL, m.shard_command.items[at],
                          (const char *const *)m.shard_command.items + at + 1, m.shard_command.count - at - 1);
    kd_slurm_manifest_free(&m);
    return rc;
}

int kd_cmd_rank_slurm(const kd_cmd_args *a, const kd_slurm_options *so)
{
    kd_slurm_shard_request sr;
    if (kd_opts_slurm_shard_request(a->argc, a->argv, a->opts, &sr) != 0)
        return refuse(KD_FAIL_TOOL, "--slurm: the command line did not parse again for the shards");
    kd_slurm_options o = *so;
    int status = o.only_shard >= 0 ? check_rerun(a, &sr, &o) : check_new(a, &sr, &o);
    if (status) {
        kd_slurm_shard_request_free(&sr);
        return status;
    }
    kd_slurm_job job = {0};
    kd_slurm_error e = {0};
    kd_slurm_submit_request req = {.o = &o, .words = o.only_shard >= 0 ? NULL : &sr.words, .argc = a->argc,
                                   .argv = a->argv};
    kd_outcome out = kd_slurm_submit(&req, &job, &e);
    kd_slurm_shard_request_free(&sr);
    if (out != KD_OK) {
        kd_slurm_say_error(&e);
        kd_slurm_error_free(&e);
        return kd_exit_code(out);
    }
    /* With --wait the merged report is the output, and with --json - the submission's JSON:
     * what was submitted is then said on stderr. */
    FILE *say = o.wait || kd_options_stdout_taken(a->opts) ? stderr : stdout;
    kd_slurm_say_submitted(say, &job);
    fflush(say);
    status = kd_exit_code(KD_OK);
    /* without --wait, --json FILE is the submission (the merge writes the report) */
    const char *json = kd_options_output(a->opts, "--json");
    if (!o.wait && json && kd_slurm_submitted_json(&job, json) != 0)
        status = kd_outputs_status(1);
    if (o.wait) {
        out = kd_slurm_wait(job.id, o.poll_ms, &e);
        if (out != KD_OK) {
            kd_slurm_say_error(&e);
            kd_slurm_error_free(&e);
            status = kd_exit_code(out);
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
    if (a->opts->rank.shard >= 0)
        return refuse(KD_FAIL_USAGE, "--shard I/N runs one heat in this process; %s: drop --shard",
                      so->merge ? "--merge DIR gathers the heats the shards wrote"
                                : "--slurm gives each task its own --shard");
    if (so->merge && (a->opts->rank.baseline || a->opts->rank.refs.count))
        return refuse(KD_FAIL_USAGE, "--merge DIR makes the report from DIR's shards, which name the baseline and "
                      "the candidates: give no others (here '%s')",
                      a->opts->rank.baseline ? a->opts->rank.baseline : "--refs");
    return so->merge ? kd_cmd_rank_merge(a, so->merge) : kd_cmd_rank_slurm(a, so);
}
