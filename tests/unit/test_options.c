#include "kd_test.h"

#include <stdlib.h>
#include <string.h>

#include "cli/exit_codes.h"
#include "cli/options.h"
#include "cli/outputs.h"
#include "util/suggest.h"

static int parse(kd_options *o, int argc, const char **argv)
{
    return kd_options_parse(argc, (char **)argv, o);
}

static void two_files_and_flags(void **state)
{
    (void)state;
    const char *argv[] = {"kerndiff", "--arch", "sm_80", "-I", "inc", "-DX=1", "--nvcc-flag", "-O3",
                          "--nvcc-flag=-maxrregcount=32", "a.cu", "b.cu", NULL};
    kd_options o;
    assert_int_equal(parse(&o, 11, argv), 0);
    assert_int_equal(o.command, KD_CMD_DIFF);
    assert_string_equal(o.diff.files[0], "a.cu");
    assert_string_equal(o.diff.files[1], "b.cu");
    assert_string_equal(o.diff.arch, "sm_80");
    assert_int_equal(o.diff.frontend.include_dirs.count, 1);
    assert_string_equal(o.diff.frontend.include_dirs.items[0], "inc");
    assert_string_equal(o.diff.frontend.defines.items[0], "X=1");
    assert_int_equal(o.diff.frontend.nvcc_flags.count, 2);
    assert_string_equal(o.diff.frontend.nvcc_flags.items[1], "-maxrregcount=32");
    assert_null(o.diff.fn[0]);
    kd_options_free(&o);
}

static void options_after_files(void **state)
{
    (void)state;
    const char *argv[] = {"kerndiff", "a.cu", "b.cu", "--fn", "k", "--no-color", NULL};
    kd_options o;
    assert_int_equal(parse(&o, 6, argv), 0);
    assert_string_equal(o.diff.files[1], "b.cu");
    assert_string_equal(o.diff.fn[0], "k");
    assert_false(o.render.color);
    kd_options_free(&o);
}

static void fn_pair_and_scopes(void **state)
{
    (void)state;
    const char *pair[] = {"kerndiff", "--fn", "ns::old_k:ns::new_k", "a.cu", "b.cu", NULL};
    kd_options o;
    assert_int_equal(parse(&o, 5, pair), 0);
    assert_string_equal(o.diff.fn[0], "ns::old_k");
    assert_string_equal(o.diff.fn[1], "ns::new_k");
    kd_options_free(&o);

    const char *scoped[] = {"kerndiff", "--fn", "ns::k", "a.cu", "b.cu", NULL};
    assert_int_equal(parse(&o, 5, scoped), 0);
    assert_string_equal(o.diff.fn[0], "ns::k");
    assert_string_equal(o.diff.fn[1], "ns::k");
    kd_options_free(&o);

    const char *bad[] = {"kerndiff", "--fn", "k:", "a.cu", "b.cu", NULL};
    assert_int_equal(parse(&o, 5, bad), KD_EXIT_USAGE);
    kd_options_free(&o);
}

static void json_destination(void **state)
{
    (void)state;
    kd_options o;
    const char *to_stdout[] = {"kerndiff", "--json", "a.cu", "b.cu", NULL};
    assert_int_equal(parse(&o, 4, to_stdout), 0);
    assert_string_equal(kd_options_output(&o, "--json"), "-");
    assert_string_equal(o.diff.files[0], "a.cu");
    kd_options_free(&o);

    const char *to_file[] = {"kerndiff", "--json", "out.json", "a.cu", "b.cu", NULL};
    assert_int_equal(parse(&o, 5, to_file), 0);
    assert_string_equal(kd_options_output(&o, "--json"), "out.json");
    assert_string_equal(o.diff.files[1], "b.cu");
    kd_options_free(&o);

    const char *md[] = {"kerndiff", "--markdown=r.txt", "a.cu", "b.cu", NULL};
    assert_int_equal(parse(&o, 4, md), 0);
    assert_string_equal(kd_options_output(&o, "--markdown"), "r.txt");
    kd_options_free(&o);
}

/* --ncu-report, --metric-names and --metrics (repeated flags add up); a bad name is a usage error. */
static void ncu_output_options(void **state)
{
    (void)state;
    kd_options o;
    const char *argv[] = {"kerndiff", "--ncu-report", "reps", "--metric-names", "--metrics", "a__b.sum,c.pct",
                          "--metrics=d.max", "a.cu", "b.cu", NULL};
    assert_int_equal(parse(&o, 9, argv), 0);
    assert_string_equal(o.diff.counters.report_dir, "reps");
    assert_true(o.render.metric_names);
    assert_int_equal(o.diff.counters.extra_metrics.count, 3);
    assert_string_equal(o.diff.counters.extra_metrics.items[0], "a__b.sum");
    assert_string_equal(o.diff.counters.extra_metrics.items[1], "c.pct");
    assert_string_equal(o.diff.counters.extra_metrics.items[2], "d.max");
    kd_options_free(&o);
    const char *bad[][6] = {{"kerndiff", "--metrics", "a b", "a.cu", "b.cu", NULL},
                            {"kerndiff", "--metrics", "a,,b", "a.cu", "b.cu", NULL},
                            {"kerndiff", "--metrics", "a,", "a.cu", "b.cu", NULL},
                            {"kerndiff", "--metrics", "$(id)", "a.cu", "b.cu", NULL},
                            {"kerndiff", "--metrics", "", "a.cu", "b.cu", NULL}};
    for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
        assert_int_equal(parse(&o, 5, bad[i]), KD_EXIT_USAGE);
        kd_options_free(&o);
    }
    const char *many[] = {"kerndiff", "--metrics", "a,b,c,d,e,f,g,h,i,j,k,l,m,n,o,p,q", "a.cu", "b.cu", NULL};
    assert_int_equal(parse(&o, 5, many), KD_EXIT_USAGE); /* 17: over the limit */
    kd_options_free(&o);
}

static void usage_errors(void **state)
{
    (void)state;
    kd_options o;
    const char *none[] = {"kerndiff", NULL};
    assert_int_equal(parse(&o, 1, none), KD_EXIT_USAGE);
    kd_options_free(&o);
    const char *at_two[] = {"kerndiff", "--at", "HEAD", "a.cu", "b.cu", NULL};
    assert_int_equal(parse(&o, 5, at_two), KD_EXIT_USAGE);
    kd_options_free(&o);
    const char *three[] = {"kerndiff", "a.cu", "b.cu", "c.cu", NULL};
    assert_int_equal(parse(&o, 4, three), KD_EXIT_USAGE);
    kd_options_free(&o);
    const char *target[] = {"kerndiff", "--target", "0", "a.cu", "b.cu", NULL};
    assert_int_equal(parse(&o, 5, target), KD_EXIT_USAGE);
    kd_options_free(&o);
    const char *call[] = {"kerndiff", "--call", "v3:block=1", "a.cu", "b.cu", NULL};
    assert_int_equal(parse(&o, 5, call), KD_EXIT_USAGE);
    kd_options_free(&o);
    const char *batch[] = {"kerndiff", "--batch", "sometimes", "a.cu", "b.cu", NULL};
    assert_int_equal(parse(&o, 5, batch), KD_EXIT_USAGE);
    kd_options_free(&o);
    const char *unknown[] = {"kerndiff", "--bogus", "a.cu", "b.cu", NULL};
    assert_int_equal(parse(&o, 4, unknown), KD_EXIT_USAGE);
    kd_options_free(&o);
}

static void one_file_is_git_mode(void **state)
{
    (void)state;
    kd_options o;
    const char *argv[] = {"kerndiff", "--at", "v1..v2", "k.cu", NULL};
    assert_int_equal(parse(&o, 4, argv), 0);
    assert_int_equal(o.command, KD_CMD_DIFF);
    assert_string_equal(o.diff.git_file, "k.cu");
    assert_string_equal(o.diff.at, "v1..v2");
    assert_null(o.diff.files[0]);
    kd_options_free(&o);
}

static void app_at_revisions(void **state)
{
    (void)state;
    kd_options o;
    const char *two[] = {"kerndiff", "app", "--at", "v1", "--at", "v2", "--prepare", "make -j", "./prog x", NULL};
    assert_int_equal(parse(&o, 9, two), 0);
    assert_int_equal(o.command, KD_CMD_APP);
    assert_string_equal(o.app.at[0], "v1");
    assert_string_equal(o.app.at[1], "v2");
    assert_string_equal(o.app.prepare, "make -j");
    assert_string_equal(o.diff.files[0], "./prog x");
    assert_string_equal(o.diff.files[1], "./prog x");
    kd_options_free(&o);
    const char *one[] = {"kerndiff", "app", "--at", "HEAD~2", "./prog", NULL};
    assert_int_equal(parse(&o, 5, one), 0);
    assert_string_equal(o.app.at[0], "HEAD~2");
    assert_null(o.app.at[1]);
    assert_null(o.app.prepare);
    kd_options_free(&o);
    /* Refused: a second --at outside app, --prepare without --at, A..B, two commands with --at. */
    const char *kernel_twice[] = {"kerndiff", "--at", "a", "--at", "b", "k.cu", NULL};
    const char *prepare_alone[] = {"kerndiff", "app", "--prepare", "make", "./a", "./b", NULL};
    const char *dots[] = {"kerndiff", "app", "--at", "a..b", "./prog", NULL};
    const char *two_cmds[] = {"kerndiff", "app", "--at", "a", "./a", "./b", NULL};
    const char **bad[] = {kernel_twice, prepare_alone, dots, two_cmds};
    const int argc[] = {6, 6, 5, 6};
    for (size_t i = 0; i < 4; i++) {
        assert_int_equal(parse(&o, argc[i], bad[i]), KD_EXIT_USAGE);
        kd_options_free(&o);
    }
}

static void list_and_no_color_env(void **state)
{
    (void)state;
    kd_options o;
    setenv("NO_COLOR", "1", 1);
    const char *list[] = {"kerndiff", "list", "k.cu", NULL};
    assert_int_equal(parse(&o, 3, list), 0);
    assert_int_equal(o.command, KD_CMD_LIST);
    assert_string_equal(o.diff.files[0], "k.cu");
    assert_false(o.render.color);
    kd_options_free(&o);
    unsetenv("NO_COLOR");
}

static void timing_and_launch_options(void **state)
{
    (void)state;
    const char *argv[] = {"kerndiff", "--n", "16M", "--buf", "C=n*n", "--arg", "alpha=2", "--grid", "ceil(n/256)",
                          "--block", "128", "--call", "v2:block=256", "--target", "0.5%", "--max-time", "3",
                          "--min-runs", "50", "--max-runs", "900", "--timeout", "2.5", "--seed", "7", "--rtol", "1e-3",
                          "--batch", "off", "--require-match", "a.cu", "b.cu", NULL};
    kd_options o;
    assert_int_equal(parse(&o, 32, argv), 0);
    assert_string_equal(o.diff.launch.n, "16M");
    assert_string_equal(o.diff.launch.buffers.items[0], "C=n*n");
    assert_string_equal(o.diff.launch.scalars.items[0], "alpha=2");
    assert_string_equal(o.diff.launch.grid, "ceil(n/256)");
    assert_string_equal(o.diff.launch.block, "128");
    assert_string_equal(o.diff.launch.call[1].block, "256");
    assert_null(o.diff.launch.call[0].block);
    assert_true(o.diff.timing.target_pct == 0.5);
    assert_true(o.diff.timing.max_time_s == 3.0);
    assert_int_equal(o.diff.timing.min_runs, 50);
    assert_int_equal(o.diff.timing.max_runs, 900);
    assert_int_equal(o.diff.timing.timeout_ms, 2500);
    assert_int_equal(o.diff.timing.seed, 7);
    assert_true(o.diff.timing.tolerance_given);
    assert_true(o.diff.timing.tolerance.rtol == 1e-3);
    assert_int_equal(o.diff.timing.batch, -1);
    assert_true(o.diff.timing.check);
    assert_true(o.diff.gate.require_match);
    kd_options_free(&o);

    const char *no_check[] = {"kerndiff", "--no-check", "a.cu", "b.cu", NULL};
    assert_int_equal(parse(&o, 4, no_check), 0);
    assert_false(o.diff.timing.check);
    kd_options_free(&o);

    const char *defaults[] = {"kerndiff", "a.cu", "b.cu", NULL};
    assert_int_equal(parse(&o, 3, defaults), 0);
    assert_true(o.diff.timing.target_pct == 1.0);
    assert_true(o.diff.timing.check);
    assert_int_equal(o.diff.timing.seed, 1);
    kd_options_free(&o);
}

/* Usage errors (exit 2) caught before anything runs, with the offending text named. */
static void expect_usage_error(int argc, const char **argv)
{
    kd_options o;
    assert_int_equal(parse(&o, argc, argv), KD_EXIT_USAGE);
    kd_options_free(&o);
}

static void timeout_is_bounded_and_shell_text_never_reaches_nvcc(void **state)
{
    (void)state;
    const char *huge[] = {"kerndiff", "--timeout", "715827", "a.cu", "b.cu", NULL};
    expect_usage_error(5, huge);
    const char *hour[] = {"kerndiff", "--timeout", "3600", "a.cu", "b.cu", NULL};
    kd_options o;
    assert_int_equal(parse(&o, 5, hour), 0);
    assert_int_equal(o.diff.timing.timeout_ms, 3600000);
    kd_options_free(&o);
    const char *flag[] = {"kerndiff", "--nvcc-flag", "-Xcompiler=$(id)", "a.cu", "b.cu", NULL};
    expect_usage_error(5, flag);
    const char *include[] = {"kerndiff", "-I", "my `dir`", "a.cu", "b.cu", NULL};
    expect_usage_error(5, include);
    const char *newline[] = {"kerndiff", "-D", "X=1\n#include </etc/passwd>", "a.cu", "b.cu", NULL};
    expect_usage_error(5, newline);
    const char *name[] = {"kerndiff", "-D", "$(id)=1", "a.cu", "b.cu", NULL};
    expect_usage_error(5, name);
    const char *fine[] = {"kerndiff", "-D", "X=$(touch p)", "-D", "F(a,b)=((a)<(b))", "-DY", "--nvcc-flag",
                          "-gencode=arch=compute_90,code=sm_90", "a.cu", "b.cu", NULL};
    assert_int_equal(parse(&o, 10, fine), 0); /* values go into a header, never to a shell */
    assert_int_equal(o.diff.frontend.defines.count, 3);
    kd_options_free(&o);
    const char *call[] = {"kerndiff", "--call", "v2:n=1M,iters", "a.cu", "b.cu", NULL};
    expect_usage_error(5, call);
}

/* Issue 28: an optional output value takes the next word unless it is an option, a command
 * or a source file; "-" is stdout; a word the command needs is given back. */
static void optional_output_words(void **state)
{
    (void)state;
    kd_options o;
    const char *dash[] = {"kerndiff", "--json", "-", "a.cu", "b.cu", NULL};
    assert_int_equal(parse(&o, 5, dash), 0);
    assert_string_equal(kd_options_output(&o, "--json"), "-");
    assert_string_equal(o.diff.files[0], "a.cu");
    assert_string_equal(o.diff.files[1], "b.cu");
    kd_options_free(&o);

    const char *no_extension[] = {"kerndiff", "--json", "report", "a.cu", "b.cu", NULL};
    assert_int_equal(parse(&o, 5, no_extension), 0);
    assert_string_equal(kd_options_output(&o, "--json"), "report");
    assert_string_equal(o.diff.files[0], "a.cu");
    kd_options_free(&o);

    const char *md_dash[] = {"kerndiff", "a.cu", "--markdown", "-", "b.cu", NULL};
    assert_int_equal(parse(&o, 5, md_dash), 0);
    assert_string_equal(kd_options_output(&o, "--markdown"), "-");
    assert_string_equal(o.diff.files[1], "b.cu");
    kd_options_free(&o);

    const char *header[] = {"kerndiff", "--markdown", "k.cuh", NULL};
    assert_int_equal(parse(&o, 3, header), 0);
    assert_string_equal(kd_options_output(&o, "--markdown"), "-");
    assert_string_equal(o.diff.git_file, "k.cuh");
    kd_options_free(&o);

    const char *python[] = {"kerndiff", "--json", "K.PY", "b.py", NULL};
    assert_int_equal(parse(&o, 4, python), 0);
    assert_string_equal(kd_options_output(&o, "--json"), "-");
    assert_string_equal(o.diff.files[0], "K.PY");
    kd_options_free(&o);

    /* compare needs both saved runs: --json gives old.json back, in its place. */
    const char *compare[] = {"kerndiff", "compare", "--json", "old.json", "new.json", NULL};
    assert_int_equal(parse(&o, 5, compare), 0);
    assert_int_equal(o.command, KD_CMD_COMPARE);
    assert_string_equal(kd_options_output(&o, "--json"), "-");
    assert_string_equal(o.diff.files[0], "old.json");
    assert_string_equal(o.diff.files[1], "new.json");
    kd_options_free(&o);

    const char *list[] = {"kerndiff", "--json", "list", "a.cu", NULL};
    expect_usage_error(4, list); /* list writes no document */
}

/* Issue 28: contradictions and impossible values refused at parse time, both named. */
static void whole_request_checked(void **state)
{
    (void)state;
    const char *crossed[] = {"kerndiff", "--min-runs", "100", "--max-runs", "10", "a.cu", "b.cu", NULL};
    expect_usage_error(7, crossed);
    kd_options o;
    const char *max_only[] = {"kerndiff", "--max-runs", "10", "a.cu", "b.cu", NULL};
    assert_int_equal(parse(&o, 5, max_only), 0);
    assert_int_equal(o.diff.timing.min_runs, 10); /* the default minimum follows */
    assert_int_equal(o.diff.timing.max_runs, 10);
    kd_options_free(&o);
    const char *min_only[] = {"kerndiff", "--min-runs", "5000", "a.cu", "b.cu", NULL};
    assert_int_equal(parse(&o, 5, min_only), 0);
    assert_int_equal(o.diff.timing.max_runs, 5000);
    kd_options_free(&o);

    const char *two_stdout[] = {"kerndiff", "--json", "--markdown", "a.cu", "b.cu", NULL};
    expect_usage_error(5, two_stdout);
    const char *csv_and_json[] = {"kerndiff", "--csv", "-", "--json=-", "a.cu", "b.cu", NULL};
    expect_usage_error(6, csv_and_json);
    const char *one_each[] = {"kerndiff", "--csv", "-", "--json=r.json", "a.cu", "b.cu", NULL};
    assert_int_equal(parse(&o, 6, one_each), 0);
    assert_true(kd_options_stdout_taken(&o));
    kd_options_free(&o);

    const char *bad_n[] = {"kerndiff", "--no-run", "--n", "16Q", "a.cu", "b.cu", NULL};
    expect_usage_error(6, bad_n);
    const char *block0[] = {"kerndiff", "--block", "0", "a.cu", "b.cu", NULL};
    expect_usage_error(5, block0);
    const char *too_many_threads[] = {"kerndiff", "--block", "16,16,8", "a.cu", "b.cu", NULL};
    expect_usage_error(5, too_many_threads);
    const char *z_over[] = {"kerndiff", "--block", "1,1,65", "a.cu", "b.cu", NULL};
    expect_usage_error(5, z_over);
    const char *grid0[] = {"kerndiff", "--grid", "0", "a.cu", "b.cu", NULL};
    expect_usage_error(5, grid0);
    /* A setting with a name in it is the launch's to check (it knows n and the scalars). */
    const char *named[] = {"kerndiff", "--block", "min(tile*32, 1024)", "--grid", "ceil(n/256),2", "a.cu", "b.cu", NULL};
    assert_int_equal(parse(&o, 7, named), 0);
    kd_options_free(&o);
    const char *fine[] = {"kerndiff", "--block", "16,16", "--grid", "1<<20", "a.cu", "b.cu", NULL};
    assert_int_equal(parse(&o, 7, fine), 0);
    kd_options_free(&o);

    const char *no_check[] = {"kerndiff", "--no-check", "--require-match", "a.cu", "b.cu", NULL};
    expect_usage_error(5, no_check);
    const char *no_run[] = {"kerndiff", "--no-run", "--fail-if-slower", "2", "a.cu", "b.cu", NULL};
    expect_usage_error(6, no_run);
    const char *warn_alone[] = {"kerndiff", "--sanitize-warn", "a.cu", "b.cu", NULL};
    expect_usage_error(4, warn_alone);
    const char *side[] = {"kerndiff", "--side", "v1", "a.cu", "b.cu", NULL};
    expect_usage_error(5, side);
    const char *runs[] = {"kerndiff", "--runs", "5", "a.cu", "b.cu", NULL};
    expect_usage_error(5, runs);
    const char *watch[] = {"kerndiff", "--watch", "--json=r.json", "a.cu", "b.cu", NULL};
    expect_usage_error(5, watch);
    const char *two_sweeps[] = {"kerndiff", "--n", "1M,2M", "--sweep", "T=1,2", "a.cu", "b.cu", NULL};
    expect_usage_error(7, two_sweeps);
    const char *app_save[] = {"kerndiff", "app", "--save", "r.json", "a", "b", NULL};
    expect_usage_error(6, app_save);

    const char *force[] = {"kerndiff", "--force", "--json=a.cu", "a.cu", "b.cu", NULL};
    assert_int_equal(parse(&o, 5, force), 0);
    assert_true(o.force);
    kd_options_free(&o);
}

/* `--nn` is `--n` typed with one letter more, not `--fn` with its first letter wrong. */
static void suggestions_prefer_the_typed_beginning(void **state)
{
    (void)state;
    const char *names[] = {"fn", "n", "max-time", "min-runs", "max-runs"};
    assert_string_equal(kd_suggest("nn", names, 5), "n");
    assert_string_equal(kd_suggest("max-tmie", names, 5), "max-time");
    assert_string_equal(kd_suggest("max-run", names, 5), "max-runs");
    assert_null(kd_suggest("frobnicate", names, 5));
    assert_true(kd_outputs_source_name("dir.json/k.CU"));
    assert_true(kd_outputs_source_name("x.cpp"));
    assert_false(kd_outputs_source_name("k.cu/report"));
    assert_false(kd_outputs_source_name("report.json"));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(two_files_and_flags), cmocka_unit_test(options_after_files),
        cmocka_unit_test(fn_pair_and_scopes),  cmocka_unit_test(json_destination),
        cmocka_unit_test(usage_errors),
        cmocka_unit_test(ncu_output_options),        cmocka_unit_test(app_at_revisions),
        cmocka_unit_test(list_and_no_color_env),
        cmocka_unit_test(timing_and_launch_options),
        cmocka_unit_test(timeout_is_bounded_and_shell_text_never_reaches_nvcc),
        cmocka_unit_test(one_file_is_git_mode),
        cmocka_unit_test(optional_output_words),
        cmocka_unit_test(whole_request_checked),
        cmocka_unit_test(suggestions_prefer_the_typed_beginning),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
