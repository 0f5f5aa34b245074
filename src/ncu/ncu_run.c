#include "ncu/ncu_run.h"

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ncu/metrics.h"
#include "util/env.h"
#include "util/fs.h"
#include "util/spawn.h"
#include "util/strlist.h"

const char *kd_ncu_find(const char *requested)
{
    if (requested)
        return kd_program_exists(requested) ? requested : NULL;
    if (kd_program_exists("ncu"))
        return "ncu";
    return kd_program_exists("/usr/local/cuda/bin/ncu") ? "/usr/local/cuda/bin/ncu" : NULL;
}

bool kd_ncu_metric_name_ok(const char *name)
{
    size_t n = strlen(name);
    return n > 0 && n <= 200 && strspn(name, "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_.") == n;
}

static bool requested(const kd_ncu_options *o, const char *name)
{
    for (const char *const *m = kd_ncu_request_list(o->full); *m; m++)
        if (strcmp(*m, name) == 0)
            return true;
    return false;
}

/* "a,b,c" from the request list, then the --metrics names it lacks. */
static char *joined_metrics(const kd_ncu_options *o)
{
    kd_strbuf sb = {0};
    for (const char *const *m = kd_ncu_request_list(o->full); *m; m++)
        kd_sb_printf(&sb, "%s%s", sb.len ? "," : "", *m);
    for (size_t i = 0; o->extra && i < o->extra->count; i++)
        if (!requested(o, o->extra->items[i]))
            kd_sb_printf(&sb, ",%s", o->extra->items[i]);
    return kd_sb_take(&sb);
}

/* ncu, its options, then the harness's own argv. */
static const char **profile_argv(const kd_ncu_options *o, const char *ncu, const kd_harness_side *side,
                                 const char *metrics, const char *log, const char *report)
{
    kd_strlist argv = {0};
    const char *fixed[] = {ncu, "--profile-from-start", "off", "--clock-control", o->clock_control,
                           "--cache-control", "all", "--metrics", metrics, "--log-file", log, "-f", "-o", report};
    for (size_t i = 0; i < sizeof fixed / sizeof *fixed; i++)
        kd_strlist_push(&argv, fixed[i]);
    for (const char *const *a = side->harness_argv; *a; a++)
        kd_strlist_push(&argv, *a);
    kd_strlist_push(&argv, NULL);
    return (const char **)argv.items;
}

/* ncu replays a profiled launch once per counter pass (about 40 for the fast set, more for
 * the full one), restoring memory between passes: a 275 ms kernel needs tens of seconds.
 * The bound is generous in passes and time per pass, on top of the ordinary watchdog and
 * ncu's start-up; the timing pass measured the launch. */
int kd_ncu_once_timeout_ms(const kd_ncu_options *o)
{
    double passes = o->full ? 256 : 64;
    double ms = KD_HARNESS_START_MS + (double)o->timeout_ms + passes * 2 * o->launch_ns / 1e6;
    return ms < INT_MAX ? (int)ms : INT_MAX;
}

int kd_ncu_auto_repeats(int requested, double shortest_launch_ns)
{
    if (requested > 0)
        return requested;
    return shortest_launch_ns > 0 && shortest_launch_ns < KD_NCU_SHORT_NS ? KD_NCU_SHORT_REPEATS : 1;
}

/* Drives the harness under ncu: prepare, set up, `once` per repeat, quit. */
static int run_harness(const kd_ncu_options *o, const char *const *argv, const kd_harness_side *side,
                       unsigned long long seed, kd_strbuf *why)
{
    kd_child c;
    if (kd_child_start(&c, side->label, argv, why) != 0)
        return -1;
    unsigned long long bytes;
    int rc = kd_harness_describe(&c, side, seed, o->timeout_ms, NULL, why);
    if (rc == 0) {
        kd_wire_send_setup(&c);
        rc = kd_wire_setup_reply(&c, kd_launch_spec_bytes(side->spec), &bytes, why);
    }
    for (int i = 0; i < o->repeats && rc == 0; i++) {
        kd_reply_status st = kd_wire_once(&c, kd_ncu_once_timeout_ms(o));
        if (st != KD_REPLY_OK) {
            kd_child_failure_words(&c, st, "profiling the kernel", why);
            rc = -1;
        }
    }
    kd_child_stop(&c);
    return rc;
}

static kd_ncu_status check_log(const char *log_path, kd_strbuf *why)
{
    char *log = kd_read_output(log_path, NULL);
    if (!log)
        return KD_NCU_OK;
    kd_ncu_status st = KD_NCU_OK;
    char *error = strstr(log, "==ERROR==");
    if (error) {
        error[strcspn(error, "\n")] = '\0';
        st = strstr(error, "ERR_NVGPUCTRPERM") ? KD_NCU_PERMISSION : KD_NCU_FAILED;
        kd_sb_printf(why, "%s", error);
    }
    free(log);
    return st;
}

/* KERNDIFF_NCU_SAVE_DIR=DIR keeps ncu's raw export of each side as DIR/<side>.csv: the
 * test fixtures under tests/fixtures/ncu were recorded this way. */
static void save_export(const char *label, const kd_strbuf *csv)
{
    const char *dir = kd_env_nonempty(KD_ENV_NCU_SAVE_DIR);
    if (!dir)
        return;
    char name[64];
    snprintf(name, sizeof name, "%s.csv", label);
    char *path = kd_path_join(dir, name);
    kd_write_file(path, kd_sb_str(csv), csv->len);
    free(path);
}

static kd_ncu_status read_report(const char *ncu, const char *label, const char *report, kd_ncu_result *out,
                                 kd_strbuf *why)
{
    const char *argv[] = {ncu, "-i", report, "--csv", "--page", "raw", "--print-units", "base", NULL};
    kd_spawn_result r;
    if (kd_spawn(argv, NULL, 300000, &r) != 0) {
        kd_sb_printf(why, "cannot run %s to read the report", ncu);
        return KD_NCU_FAILED;
    }
    save_export(label, &r.out);
    kd_ncu_status st = KD_NCU_OK;
    /* A permission failure prints its ==ERROR== line and no table: look at the line first. */
    int parsed = kd_ncu_parse_csv(kd_sb_str(&r.out), r.out.len, &out->table);
    if (out->table.error_line) {
        kd_sb_puts(why, out->table.error_line);
        st = strstr(out->table.error_line, "ERR_NVGPUCTRPERM") ? KD_NCU_PERMISSION : KD_NCU_FAILED;
    } else if (r.exit_code != 0 || r.signal || parsed != 0) {
        kd_sb_printf(why, "ncu could not export the report (exit %d): %.300s", r.exit_code, kd_sb_str(&r.err));
        st = KD_NCU_FAILED;
    }
    kd_spawn_result_free(&r);
    return st;
}

/* ncu drops an unknown metric without a word: every requested one must have a column. */
static kd_ncu_status check_columns(const kd_ncu_options *o, kd_ncu_result *out, kd_strbuf *why)
{
    size_t missing = 0;
    for (const char *const *m = kd_ncu_request_list(o->full); *m; m++) {
        if (kd_ncu_column(&out->table, *m) >= 0)
            continue;
        kd_sb_printf(why, "%s%s", missing++ ? ", " : "ncu returned no values for: ", *m);
    }
    if (missing)
        kd_sb_puts(why, " (not supported on this GPU or ncu version?)");
    /* --metrics names are the user's guesses: one without a column is reported, not fatal. */
    kd_strbuf extra = {0};
    for (size_t i = 0; o->extra && i < o->extra->count; i++)
        if (kd_ncu_column(&out->table, o->extra->items[i]) < 0)
            kd_sb_printf(&extra, "%s%s", extra.len ? ", " : "", o->extra->items[i]);
    out->missing_extra = extra.len ? kd_sb_take(&extra) : NULL;
    kd_sb_free(&extra);
    return missing ? KD_NCU_FAILED : KD_NCU_OK;
}

/* --ncu-report DIR: the report as DIR/<side>.ncu-rep, for Nsight Compute's UI. */
static kd_ncu_status keep_report(const kd_ncu_options *o, const char *label, const char *report, kd_strbuf *why)
{
    char name[64];
    snprintf(name, sizeof name, "%s.ncu-rep", label);
    char *to = kd_path_join(o->report_dir, name);
    size_t len;
    char *data = kd_read_output(report, &len);
    int read_errno = errno;
    kd_ncu_status st = KD_NCU_OK;
    if (!data || kd_mkdir_p(o->report_dir) != 0 || kd_write_file(to, data, len) != 0) {
        kd_sb_printf(why, "cannot keep ncu's report as %s: %s (check --ncu-report)", to,
                     data ? strerror(errno) : read_errno == ENOENT ? "ncu wrote no report" : kd_read_error(read_errno));
        st = KD_NCU_FAILED;
    }
    free(data);
    free(to);
    return st;
}

kd_ncu_status kd_ncu_profile(const kd_ncu_options *o, const kd_harness_side *side, unsigned long long seed,
                             const char *workdir, kd_ncu_result *out, kd_strbuf *why)
{
    memset(out, 0, sizeof *out);
    out->repeats = o->repeats;
    const char *ncu = kd_ncu_find(o->ncu);
    if (!ncu) {
        kd_sb_printf(why, "ncu not found%s%s (install Nsight Compute or pass --ncu PATH)", o->ncu ? ": " : "",
                     o->ncu ? o->ncu : "");
        return KD_NCU_MISSING;
    }
    char name[64];
    snprintf(name, sizeof name, "%s.ncu", side->label);
    char *base = kd_path_join(workdir, name);
    kd_strbuf log = {0}, report = {0};
    kd_sb_printf(&log, "%s.log", base);
    kd_sb_printf(&report, "%s.ncu-rep", base);
    char *metrics = joined_metrics(o);
    const char **argv = profile_argv(o, ncu, side, metrics, log.data, base);
    kd_ncu_status st = KD_NCU_OK;
    kd_strbuf harness_why = {0};
    if (run_harness(o, argv, side, seed, &harness_why) != 0) {
        /* ncu's own error says more than the harness dying under it. */
        st = check_log(log.data, why);
        if (st == KD_NCU_OK) {
            kd_sb_puts(why, kd_sb_str(&harness_why));
            st = KD_NCU_FAILED;
        }
    }
    if (st == KD_NCU_OK)
        st = check_log(log.data, why);
    if (st == KD_NCU_OK)
        st = read_report(ncu, side->label, report.data, out, why);
    if (st == KD_NCU_OK && out->table.nrows == 0) {
        kd_sb_puts(why, "ncu profiled no kernel launch");
        st = KD_NCU_FAILED;
    }
    if (st == KD_NCU_OK)
        st = check_columns(o, out, why);
    if (st == KD_NCU_OK && o->report_dir)
        st = keep_report(o, side->label, report.data, why);
    if (st == KD_NCU_OK) {
        out->kernels_per_launch = out->table.nrows / (size_t)o->repeats;
        if (out->table.nrows % (size_t)o->repeats) {
            kd_sb_printf(why, "ncu profiled %zu launches for %d repeats", out->table.nrows, o->repeats);
            st = KD_NCU_FAILED;
        }
    }
    free(argv);
    free(metrics);
    free(base);
    kd_sb_free(&log);
    kd_sb_free(&report);
    kd_sb_free(&harness_why);
    return st;
}

void kd_ncu_result_free(kd_ncu_result *r)
{
    kd_ncu_table_free(&r->table);
    free(r->missing_extra);
    memset(r, 0, sizeof *r);
}
