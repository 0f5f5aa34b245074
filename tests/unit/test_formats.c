/* Issue 29 item 1: report/formats.h (the outputs as one table, one fan-out that attempts
 * every output), cmd/cmd.h (the commands as one table), cli/status.h (outputs and gates
 * to exit codes, no words). */
#include "kd_test.h"

#include <stddef.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli/exit_codes.h"
#include "cli/option_parse.h"
#include "cli/options.h"
#include "cli/outputs.h"
#include "cli/status.h"
#include "cmd/cmd.h"
#include "report/formats.h"
#include "report/gate_text.h"
#include "util/strbuf.h"

/* Every row names a format and can render something; an option asks for one row only. */
static void the_table_is_well_formed(void **state)
{
    (void)state;
    size_t rows = 0;
    for (const kd_format *const *row = kd_formats; *row; row++, rows++) {
        const kd_format *f = *row;
        assert_non_null(f->name);
        assert_true(f->comparison || f->sweep || f->app);
        for (size_t i = 0; i < 2 && f->options[i].name; i++) {
            assert_true(strncmp(f->options[i].name, "--", 2) == 0);
            assert_ptr_equal(kd_format_for_option(f->options[i].name), f);
        }
    }
    assert_true(rows >= 6); /* terminal, JSON, trace, Markdown, HTML, CSV */
    assert_ptr_equal(kd_formats[0], &kd_format_terminal); /* first: written to the human stream */
    assert_null(kd_format_terminal.options[0].name);       /* asked for by no option */
    assert_string_equal(kd_format_for_option("--save")->name, "JSON");
    assert_ptr_equal(kd_format_for_option("--save"), kd_format_for_option("--json"));
    assert_string_equal(kd_format_for_option("--csv")->name, "CSV");
    assert_null(kd_format_for_option("--nope"));
    assert_null(kd_format_for_option(NULL));
    assert_null(kd_format_for_option("--csv")->app); /* app has no CSV: skipped, not failed */
}

/* Issue 29 item 4: a format's option is its row. Slots follow the table; the named FILE
 * fields of kd_options and the named getopt codes are the slots of the built-in rows; every
 * row's option parses, is asked for, is in --help where its section has its place. */
static void options_come_from_the_table(void **state)
{
    (void)state;
    static const struct {
        const char *name;
        int code;
    } named[] = {
        {"--json", OPT_JSON}, {"--save", OPT_SAVE}, {"--trace", OPT_TRACE},
        {"--markdown", OPT_MARKDOWN}, {"--html", OPT_HTML}, {"--csv", OPT_CSV},
    };
    for (size_t i = 0; i < sizeof named / sizeof *named; i++) {
        int slot = kd_format_option_slot(named[i].name);
        assert_true(slot >= 0);
        assert_int_equal(named[i].code, OPT_FORMAT + slot);
    }
    assert_int_equal(kd_format_option_slot("--json"), 0); /* the terminal has none: JSON's are first */
    /* kerndiff app's and rank's outputs follow the table: a row with a renderer for the subject,
     * less an option marked not_for it (--save: not for app) */
    static const struct {
        const char *name;
        bool app, rank;
    } renders[] = {{"--json", true, true}, {"--markdown", true, true}, {"--html", true, true},
                   {"--save", false, true}, {"--csv", false, false}, {"--trace", false, false}};
    for (size_t i = 0; i < sizeof renders / sizeof *renders; i++) {
        const kd_format_option *fo = kd_format_option_at((size_t)kd_format_option_slot(renders[i].name));
        assert_int_equal(kd_format_option_renders(fo, KD_SUBJECT_APP), renders[i].app);
        assert_int_equal(kd_format_option_renders(fo, KD_SUBJECT_RANK), renders[i].rank);
        assert_true(kd_format_option_renders(fo, KD_SUBJECT_COMPARISON));
    }
    assert_false(kd_format_option_renders(NULL, KD_SUBJECT_COMPARISON));
    assert_int_equal(kd_format_option_slot("--nope"), -1);

    const char *help = kd_help();
    size_t nslots = 0;
    const kd_format_option *o;
    for (; (o = kd_format_option_at(nslots)) != NULL; nslots++) {
        assert_true(nslots < KD_FORMAT_OPTIONS_MAX);
        assert_true(kd_help_has_section(o->section));
        char line[128];
        /* its first word after the option column (a long description is wrapped again to 80) */
        snprintf(line, sizeof line, "\n  %-20s  %.*s", o->usage, (int)strcspn(o->help, " \n"), o->help);
        assert_non_null(strstr(help, line));
        assert_non_null(o->extension);
        assert_int_equal(o->extension[0], '.');
    }
    assert_true(nslots >= 6);
    assert_false(kd_help_has_section("Nowhere"));
    assert_null(strstr(help, "\n@")); /* no place marker leaks into --help */

    /* Each option's FILE lands in its slot and becomes its request, in the table's order. */
    char *argv[] = {"kerndiff", "--csv", "s.csv", "--markdown=m.md", "--save", "r.json", "--html", "p.html",
                    "a.cu", "b.cu", NULL};
    kd_options opts;
    assert_int_equal(kd_options_parse(10, argv, &opts), 0);
    assert_string_equal(opts.output_path[kd_format_option_slot("--csv")], "s.csv");
    assert_string_equal(kd_options_output(&opts, "--markdown"), "m.md");
    assert_string_equal(kd_options_output(&opts, "--save"), "r.json");
    assert_null(kd_options_output(&opts, "--json"));
    assert_null(kd_options_output(&opts, "--nope"));
    kd_format_request req[KD_OUTPUTS_MAX];
    size_t n = kd_outputs_requests(&opts, req, KD_OUTPUTS_MAX);
    assert_int_equal(n, nslots);
    for (size_t i = 0; i < n; i++) {
        assert_string_equal(req[i].option, kd_format_option_at(i)->name);
        assert_ptr_equal(req[i].path, opts.output_path[i]);
    }
    assert_false(kd_options_stdout_taken(&opts));
    kd_options_free(&opts);

    /* A bare optional one writes to stdout, which the terminal report then leaves to it. */
    char *argv2[] = {"kerndiff", "--json", "a.cu", "b.cu", NULL};
    assert_int_equal(kd_options_parse(4, argv2, &opts), 0);
    assert_string_equal(kd_options_output(&opts, "--json"), "-");
    assert_true(kd_options_stdout_taken(&opts));
    kd_options_free(&opts);
}

static char scratch[64];

static char *slurp(const char *path)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    char *text = calloc(1, 65536);
    size_t n = fread(text, 1, 65535, f);
    text[n] = '\0';
    fclose(f);
    return text;
}

/* The fan-out: a failing first output does not cost the others; each failure counted. */
static void every_output_is_attempted(void **state)
{
    (void)state;
    strcpy(scratch, "/tmp/kd_l1_XXXXXX");
    assert_non_null(mkdtemp(scratch));
    char md[128], csv[128], json[128];
    snprintf(md, sizeof md, "%s/s.md", scratch);
    snprintf(csv, sizeof csv, "%s/s.csv", scratch);
    snprintf(json, sizeof json, "%s/s.json", scratch);
    kd_sweep_point points[2] = {{.value = "1024", .rc = 0}, {.value = "2048", .rc = 5}};
    kd_sweep_result sweep = {"n", false, points, 2};
    json_t *doc = json_pack("{s:i}", "schema_version", 3);
    kd_format_subject s = {.kind = KD_SUBJECT_SWEEP, .sweep = &sweep, .sweep_json = doc};
    const kd_format_request requests[] = {
        {"--json", "/dev/null/first.json"}, {"--markdown", md}, {"--trace", csv /* no sweep trace: said, counted lost */},
        {"--csv", csv}, {"--html", NULL /* not asked */}, {"--save", json}, {"--markdown", "/dev/null/last.md"},
    };
    FILE *devnull = fopen("/dev/null", "w");
    assert_non_null(devnull);
    int failures = kd_formats_write(&s, devnull, requests, sizeof requests / sizeof *requests);
    fclose(devnull);
    assert_int_equal(failures, 3); /* the two bad paths, and the trace a sweep has no form of */
    char *text = slurp(md);
    assert_non_null(text);
    assert_non_null(strstr(text, "### kerndiff sweep over `n`"));
    assert_non_null(strstr(text, "| 2048 |"));
    free(text);
    assert_non_null(text = slurp(csv));
    assert_non_null(strstr(text, "n,2048,5,"));
    free(text);
    assert_non_null(text = slurp(json));
    assert_non_null(strstr(text, "\"schema_version\": 3"));
    free(text);
    /* A sweep without its JSON document: that output fails, the rest still go. */
    s.sweep_json = NULL;
    const kd_format_request again[] = {{"--json", json}, {"--csv", csv}};
    assert_int_equal(kd_formats_write(&s, NULL, again, 2), 1);
    json_decref(doc);
    unlink(md);
    unlink(csv);
    unlink(json);
    rmdir(scratch);
}

/* Every command word has its row in the command table. */
static void every_command_has_a_row(void **state)
{
    (void)state;
    const kd_command ids[] = {KD_CMD_DIFF, KD_CMD_LIST, KD_CMD_COMPARE, KD_CMD_APP, KD_CMD_HELP, KD_CMD_VERSION,
                              KD_CMD_COMPLETION, KD_CMD_CAPTURE, KD_CMD_RANK};
    for (size_t i = 0; i < sizeof ids / sizeof *ids; i++) {
        const kd_cmd *c = kd_command_by_id(kd_cmds, ids[i]);
        assert_non_null(c);
        assert_non_null(c->run);
        assert_int_equal(c->id, ids[i]);
    }
    assert_null(kd_command_by_id(kd_cmds, (kd_command)999));
}

/* Exit codes: the outcome first, then a lost output, then the gate (its sentence is report/'s). */
static void status_orders_outcome_outputs_gate(void **state)
{
    (void)state;
    kd_comparison c;
    memset(&c, 0, sizeof c);
    bool gate_failed = true;
    c.gate.result = KD_GATE_PASSED;
    assert_int_equal(kd_comparison_status(&c, KD_OK, 0, &gate_failed), KD_EXIT_OK);
    assert_false(gate_failed);
    assert_int_equal(kd_comparison_status(&c, KD_OK, 2, &gate_failed), KD_EXIT_TOOL);
    c.gate.result = KD_GATE_SLOWER;
    assert_int_equal(kd_comparison_status(&c, KD_OK, 0, &gate_failed), KD_EXIT_SLOWER);
    assert_true(gate_failed);
    assert_int_equal(kd_comparison_status(&c, KD_OK, 1, &gate_failed), KD_EXIT_TOOL);
    assert_false(gate_failed);
    assert_int_equal(kd_comparison_status(&c, KD_FAIL_BUILD, 1, &gate_failed), KD_EXIT_BUILD);
    c.gate.result = KD_GATE_OUTPUTS_DIFFER;
    assert_int_equal(kd_comparison_status(&c, KD_OK, 0, &gate_failed), KD_EXIT_MISMATCH);
    c.gate.result = KD_GATE_NOT_MEASURED;
    assert_int_equal(kd_comparison_status(&c, KD_OK, 0, &gate_failed), KD_EXIT_NOT_EVALUATED);
    assert_true(gate_failed);
    assert_int_equal(kd_outputs_status(0), KD_EXIT_OK);
    assert_int_equal(kd_outputs_status(3), KD_EXIT_TOOL);

    kd_app_comparison app;
    memset(&app, 0, sizeof app);
    app.fail_if_slower_pct = 5;
    app.gate = KD_APP_GATE_SLOWER;
    assert_int_equal(kd_app_status(&app, KD_OK, 0, &gate_failed), KD_EXIT_SLOWER);
    assert_true(gate_failed);
    assert_int_equal(kd_app_status(&app, KD_OK, 1, &gate_failed), KD_EXIT_TOOL);
    assert_false(gate_failed);
    assert_int_equal(kd_app_status(&app, KD_FAIL_RUNTIME, 0, &gate_failed), KD_EXIT_RUNTIME);
    kd_strbuf why = {0};
    kd_app_gate_failure_text(&app, &why);
    assert_string_equal(kd_sb_str(&why), "v2's GPU kernel time is more than 5% above v1's (--fail-if-slower)");
    kd_sb_free(&why);
    app.gate = KD_APP_GATE_PASSED;
    assert_int_equal(kd_app_status(&app, KD_OK, 0, &gate_failed), KD_EXIT_OK);
    kd_app_gate_failure_text(&app, &why);
    assert_int_equal(why.len, 0);
    kd_sb_free(&why);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(the_table_is_well_formed), cmocka_unit_test(options_come_from_the_table),
        cmocka_unit_test(every_output_is_attempted),
        cmocka_unit_test(every_command_has_a_row), cmocka_unit_test(status_orders_outcome_outputs_gate),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
