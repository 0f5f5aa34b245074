/* A command is one row (cli/command.h, issue 44 items 1-2). A scratch command made here, in
 * this file alone — its row and its run function, as cmd/NAME.c and a line of cmd/commands.c
 * would be — is taken by everything that knows a command: the parse (its word, its operands,
 * the words an optional output gives back), the refusals (an option of a group it does not
 * accept, an output with no renderer for what it shows), the output guard (an operand is an
 * input), the help (`kerndiff hello --help`, the global list; the man page is made from
 * them) and the three completions. The built-in rows are checked too: every group and option
 * their specs name exists. */
#include "kd_test.h"

#include <getopt.h>
#include <string.h>
#include <unistd.h>

#include "cli/command.h"
#include "cli/exit_codes.h"
#include "cli/option_parse.h"
#include "cli/outputs.h"
#include "cmd/cmd.h"

static int hello_runs;
static int hello_run(const kd_cmd_args *a)
{
    (void)a;
    hello_runs++;
    return 0;
}

/* The scratch command: one row, nothing else. */
static const kd_command_row hello = {
    .id = (kd_command)100, .name = "hello",
    .help = {"hello", "say hello to a kernel file", "kerndiff hello [options] FILE.cu",
             "Says hello to FILE.cu, with a seed.", "Timing:--seed|Output:-q", "kerndiff hello --seed 3 kernel.cu"},
    .min_operands = 1, .max_operands = 1,
    .groups = "output:-q,-v,--force|timing:--seed",
    .flags = KD_CMDF_CHECKS | KD_CMDF_WRITES,
    .subjects = KD_SUBJECT_BIT(KD_SUBJECT_APP), /* renders what app's outputs render: no CSV */
    .run = hello_run,
};

/* kd_cmds with the scratch row before its end. */
static kd_command_row table[32];
static const kd_command_row *hello_row;

static int setup(void **state)
{
    (void)state;
    size_t n = 0;
    while (kd_cmds[n].name)
        n++;
    assert_true(n + 2 <= sizeof table / sizeof *table);
    memcpy(table, kd_cmds, n * sizeof *table);
    table[n] = hello;
    hello_row = &table[n];
    memset(&table[n + 1], 0, sizeof table[n + 1]);
    return 0;
}

/* What a call wrote to one stream (STDOUT_FILENO or STDERR_FILENO), into out[]. */
typedef struct caught {
    int fd;
    FILE *tmp;
    int saved;
} caught;

static void catch_start(caught *c, int fd)
{
    fflush(stdout);
    fflush(stderr);
    c->fd = fd;
    c->tmp = tmpfile();
    assert_non_null(c->tmp);
    c->saved = dup(fd);
    assert_true(c->saved >= 0);
    assert_true(dup2(fileno(c->tmp), fd) >= 0);
}

static void catch_end(caught *c, char *out, size_t size)
{
    fflush(stdout);
    fflush(stderr);
    assert_true(dup2(c->saved, c->fd) >= 0);
    close(c->saved);
    rewind(c->tmp);
    size_t n = fread(out, 1, size - 1, c->tmp);
    out[n] = '\0';
    fclose(c->tmp);
}

static int argc_of(const char **argv)
{
    int n = 0;
    while (argv[n])
        n++;
    return n;
}

/* Parses argv with the scratch table, stderr caught in said[]. */
static int parse_saying(kd_options *o, const char **argv, char *said, size_t size)
{
    caught c;
    catch_start(&c, STDERR_FILENO);
    int rc = kd_options_parse_rows(table, argc_of(argv), (char **)argv, o);
    catch_end(&c, said, size);
    return rc;
}

static void parse_finds_the_row(void **state)
{
    (void)state;
    char said[1024];
    kd_options o;
    const char *argv[] = {"kerndiff", "hello", "--seed", "3", "k.cu", NULL};
    assert_int_equal(parse_saying(&o, argv, said, sizeof said), 0);
    assert_ptr_equal(o.row, hello_row);
    assert_int_equal(o.command, 100);
    assert_int_equal(o.noperands, 1);
    assert_string_equal(o.operands[0], "k.cu");
    assert_int_equal(o.diff.timing.seed, 3);
    /* its row runs it: what main.c calls */
    kd_cmd_args a = {&o, 5, (char **)argv};
    hello_runs = 0;
    assert_int_equal(o.row->run(&a), 0);
    assert_int_equal(hello_runs, 1);
    kd_options_free(&o);

    /* a bare --json does not take its word; a word --json took goes back to it */
    const char *bare[] = {"kerndiff", "--json", "hello", "k.cu", NULL};
    assert_int_equal(parse_saying(&o, bare, said, sizeof said), 0);
    assert_ptr_equal(o.row, hello_row);
    assert_string_equal(kd_options_output(&o, "--json"), "-");
    kd_options_free(&o);
    const char *taken[] = {"kerndiff", "hello", "--json", "notes.txt", NULL};
    assert_int_equal(parse_saying(&o, taken, said, sizeof said), 0);
    assert_int_equal(o.noperands, 1);
    assert_string_equal(o.operands[0], "notes.txt");
    assert_string_equal(kd_options_output(&o, "--json"), "-");
    kd_options_free(&o);

    /* the other commands still parse as they did */
    const char *diff[] = {"kerndiff", "--seed", "3", "a.cu", "b.cu", NULL};
    assert_int_equal(parse_saying(&o, diff, said, sizeof said), 0);
    assert_int_equal(o.command, KD_CMD_DIFF);
    assert_string_equal(o.diff.files[1], "b.cu");
    kd_options_free(&o);
}

static void row_refuses_what_it_does_not_take(void **state)
{
    (void)state;
    char said[1024];
    kd_options o;
    /* its operand count, from min and max (no check function of its own) */
    const char *two[] = {"kerndiff", "hello", "a.cu", "b.cu", NULL};
    assert_int_equal(parse_saying(&o, two, said, sizeof said), KD_EXIT_USAGE);
    assert_non_null(strstr(said, "usage: kerndiff hello [options] FILE.cu"));
    kd_options_free(&o);
    /* an option of a group it does not accept, named with the command */
    const char *timing[] = {"kerndiff", "hello", "--max-time", "2", "k.cu", NULL};
    assert_int_equal(parse_saying(&o, timing, said, sizeof said), KD_EXIT_USAGE);
    assert_non_null(strstr(said, "--max-time is not an option of kerndiff hello FILE.cu (its options: kerndiff help hello)"));
    assert_null(strstr(said, "Try 'kerndiff --help'")); /* the command's own hint is enough */
    kd_options_free(&o);
    /* an option one other command owns, named with that command */
    const char *heats[] = {"kerndiff", "hello", "--heats", "2", "k.cu", NULL};
    assert_int_equal(parse_saying(&o, heats, said, sizeof said), KD_EXIT_USAGE);
    assert_non_null(strstr(said, "--heats belongs to kerndiff rank BASE CAND..."));
    assert_non_null(strstr(said, "Try 'kerndiff --help'.")); /* no command hint: the general one */
    kd_options_free(&o);
    /* an output with no renderer for what it shows: refused, never ignored */
    const char *csv[] = {"kerndiff", "hello", "--csv", "x.csv", "k.cu", NULL};
    assert_int_equal(parse_saying(&o, csv, said, sizeof said), KD_EXIT_USAGE);
    assert_non_null(strstr(said, "--csv is not an option of kerndiff hello (its outputs: --json, --markdown, --html)"));
    kd_options_free(&o);
    /* two documents on stdout: the check every request gets */
    const char *two_stdout[] = {"kerndiff", "hello", "--json", "-", "--markdown", "-", "k.cu", NULL};
    assert_int_equal(parse_saying(&o, two_stdout, said, sizeof said), KD_EXIT_USAGE);
    assert_non_null(strstr(said, "--json and --markdown both write to standard output"));
    kd_options_free(&o);
    /* and the scratch command's options stay its own: --seed is the diff's too, -q everyone's */
    const char *ok[] = {"kerndiff", "hello", "-q", "--markdown=out.md", "k.cu", NULL};
    assert_int_equal(parse_saying(&o, ok, said, sizeof said), 0);
    kd_options_free(&o);
}

/* A row that writes gets the output guard: an output over one of its operands is refused. */
static void output_guard_takes_its_operands(void **state)
{
    (void)state;
    char dir[] = "/tmp/kd_rows_XXXXXX", path[64], said[1024], json[80];
    assert_non_null(mkdtemp(dir));
    snprintf(path, sizeof path, "%s/input.txt", dir);
    FILE *f = fopen(path, "w");
    assert_non_null(f);
    fputs("not a report\n", f);
    fclose(f);
    snprintf(json, sizeof json, "--json=%s", path);
    const char *argv[] = {"kerndiff", "hello", json, path, NULL};
    kd_options o;
    assert_int_equal(parse_saying(&o, argv, said, sizeof said), 0);
    caught c;
    catch_start(&c, STDERR_FILENO);
    int rc = kd_outputs_check(&o);
    catch_end(&c, said, sizeof said);
    assert_int_equal(rc, KD_EXIT_USAGE);
    assert_non_null(strstr(said, "which is an operand of the command"));
    kd_options_free(&o);
    unlink(path);
    rmdir(dir);
}

/* Runs the row the command line names (help, completion) with stdout caught. */
static void run_printing(const char **argv, char *out, size_t size)
{
    kd_options o;
    char said[256];
    assert_int_equal(parse_saying(&o, argv, said, sizeof said), 0);
    assert_non_null(o.row);
    kd_cmd_args a = {&o, argc_of(argv), (char **)argv};
    caught c;
    catch_start(&c, STDOUT_FILENO);
    int rc = o.row->run(&a);
    catch_end(&c, out, size);
    assert_int_equal(rc, 0);
    kd_options_free(&o);
}

static void help_and_completions_list_it(void **state)
{
    (void)state;
    static char out[1 << 17];
    const char *own[] = {"kerndiff", "hello", "--help", NULL};
    run_printing(own, out, sizeof out);
    assert_non_null(strstr(out, "usage: kerndiff hello [options] FILE.cu"));
    assert_non_null(strstr(out, "Says hello to FILE.cu, with a seed."));
    assert_non_null(strstr(out, "  --seed N")); /* its options: the help's lines of them */
    assert_null(strstr(out, "--max-time"));
    const char *word[] = {"kerndiff", "help", "hello", NULL};
    run_printing(word, out, sizeof out);
    assert_non_null(strstr(out, "usage: kerndiff hello [options] FILE.cu"));
    /* the global help, which the man page is made from (scripts/gen-man.py) */
    const char *global[] = {"kerndiff", "--help", NULL};
    run_printing(global, out, sizeof out);
    assert_non_null(strstr(out, "\n       kerndiff hello [options] FILE.cu\n"));
    assert_non_null(strstr(out, "\n  hello     say hello to a kernel file\n"));
    assert_non_null(strstr(out, "\n  kerndiff hello --seed 3 kernel.cu\n"));

    const char *bash[] = {"kerndiff", "--completion", "bash", NULL};
    run_printing(bash, out, sizeof out);
    assert_non_null(strstr(out, "compgen -W \"list compare app capture rank help hello\""));
    assert_non_null(strstr(out, "compgen -W \"diff list compare app capture rank hello\"")); /* help CMD */
    const char *zsh[] = {"kerndiff", "--completion", "zsh", NULL};
    run_printing(zsh, out, sizeof out);
    assert_non_null(strstr(out, "hello\\:\"say hello to a kernel file\""));
    const char *fish[] = {"kerndiff", "--completion", "fish", NULL};
    run_printing(fish, out, sizeof out);
    assert_non_null(strstr(out, "__fish_use_subcommand -a hello -d 'say hello to a kernel file'"));
    assert_non_null(strstr(out, "-a 'diff list compare app capture rank hello'"));
}

/* Whether group g has an option named `option` ("--top", "-q"). */
static bool group_has(const kd_option_group *g, const char *option)
{
    for (const struct option *o = g->options; o->name; o++)
        if ((option[1] == '-' && strcmp(o->name, option + 2) == 0) || (option[1] != '-' && o->val == option[1]))
            return true;
    return false;
}

/* Every built-in row's spec names groups that exist and options they have: a misspelt one
 * would be a group or an option no command accepts. */
static void built_in_specs_name_real_groups(void **state)
{
    (void)state;
    for (const kd_command_row *r = kd_cmds; r->name; r++) {
        assert_non_null(r->run);
        if (!(r->flags & KD_CMDF_CHECKS))
            continue;
        assert_non_null(r->groups);
        for (const char *item = r->groups; *item;) {
            size_t len = strcspn(item, "|"), name = strcspn(item, ":|");
            const kd_option_group *g = NULL;
            for (const kd_option_group *const *each = kd_option_groups; *each; each++)
                if (strlen((*each)->name) == name && strncmp((*each)->name, item, name) == 0)
                    g = *each;
            if (!g)
                fail_msg("%s: no option group '%.*s'", r->name, (int)name, item);
            for (const char *o = item + name + 1; name < len && o < item + len;) {
                size_t olen = strcspn(o, ",|");
                char option[48];
                snprintf(option, sizeof option, "%.*s", (int)olen, o);
                if (!group_has(g, option))
                    fail_msg("%s: group %s has no option %s", r->name, g->name, option);
                o += olen + 1;
            }
            item += len + (item[len] == '|');
        }
    }
    /* and the commands reached by an option alone take no word */
    assert_null(kd_command_by_word(kd_cmds, "version"));
    assert_null(kd_command_by_word(kd_cmds, "diff"));
    assert_non_null(kd_command_by_word(kd_cmds, "rank"));
}

/* The group an option is in ("--top", "-I"): the one whose table has it; the short options
 * no table lists are the build's (-I, -D) and capture's (-o). */
static const char *group_of(const char *option)
{
    for (const kd_option_group *const *g = kd_option_groups; *g; g++)
        if (group_has(*g, option))
            return (*g)->name;
    return option[1] == 'o' ? "capture" : option[1] == 'I' || option[1] == 'D' ? "build" : NULL;
}

/* What a command's help lists (`kerndiff help CMD`, the man page's section) it accepts: a help
 * never offers an option the row refuses. Output options are the subjects' (the help's
 * Output section is shared); list's Launch section names --launch and --from, which only a
 * diff replays. */
static void help_lists_only_what_the_row_accepts(void **state)
{
    (void)state;
    static char out[1 << 16];
    for (const kd_command_row *r = kd_cmds; r->name; r++) {
        if (!(r->flags & KD_CMDF_CHECKS) || !r->help.synopsis)
            continue;
        caught c;
        catch_start(&c, STDOUT_FILENO);
        kd_help_print_command(&r->help);
        catch_end(&c, out, sizeof out);
        size_t checked = 0;
        for (const char *line = out; *line; line += strcspn(line, "\n") + (line[strcspn(line, "\n")] == '\n')) {
            if (strncmp(line, "  -", 3) != 0)
                continue;
            char option[48];
            snprintf(option, sizeof option, "%.*s", (int)strcspn(line + 2, " ,=[\n"), line + 2);
            if (kd_format_option_slot(option) >= 0 ||
                (r->id == KD_CMD_LIST && (!strcmp(option, "--launch") || !strcmp(option, "--from"))))
                continue;
            const char *group = group_of(option);
            if (!group || !kd_command_accepts(r, group, option))
                fail_msg("kerndiff help %s lists %s (group %s), which its row does not accept", r->help.word, option,
                         group ? group : "none");
            checked++;
        }
        assert_true(checked > 0);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(parse_finds_the_row),
        cmocka_unit_test(row_refuses_what_it_does_not_take),
        cmocka_unit_test(output_guard_takes_its_operands),
        cmocka_unit_test(help_and_completions_list_it),
        cmocka_unit_test(built_in_specs_name_real_groups),
        cmocka_unit_test(help_lists_only_what_the_row_accepts),
    };
    return cmocka_run_group_tests(tests, setup, NULL);
}
