#include "kd_test.h"

#include <string.h>

#include "app/command.h"

/* Splits `text` and checks the words against the NULL-terminated `want`. */
static void check_words(const char *text, const char *const want[])
{
    char *storage = NULL;
    kd_strlist words = {0};
    kd_strbuf err = {0};
    assert_int_equal(kd_app_split_words(text, &storage, &words, &err), 0);
    size_t n = 0;
    while (want[n])
        n++;
    assert_int_equal(words.count, n);
    for (size_t i = 0; i < n; i++)
        assert_string_equal(words.items[i], want[i]);
    free(words.items);
    free(storage);
    kd_sb_free(&err);
}

static void blanks_separate_words(void **state)
{
    (void)state;
    check_words("  ./prog\t--n 4\n x  ", (const char *const[]){"./prog", "--n", "4", "x", NULL});
    check_words("", (const char *const[]){NULL});
    check_words(" \t\n", (const char *const[]){NULL});
}

static void single_quotes_keep_everything(void **state)
{
    (void)state;
    check_words("python -c 'print(\"a b\")  \\n' x'y z'", (const char *const[]){"python", "-c", "print(\"a b\")  \\n", "xy z", NULL});
    check_words("a '' b", (const char *const[]){"a", "", "b", NULL});
}

static void double_quotes_escape_only_shell_specials(void **state)
{
    (void)state;
    check_words("echo \"a b\" \"\\$HOME \\\" \\\\ \\x\" \"\"", (const char *const[]){"echo", "a b", "$HOME \" \\ \\x", "", NULL});
    check_words("\"line\\\njoined\"", (const char *const[]){"linejoined", NULL});
}

static void backslash_outside_quotes(void **state)
{
    (void)state;
    check_words("a\\ b c\\'d e\\\\ f\\\ng end\\", (const char *const[]){"a b", "c'd", "e\\", "fg", "end\\", NULL});
}

static void unclosed_quotes_are_refused(void **state)
{
    (void)state;
    const char *bad[] = {"prog 'unclosed", "prog \"unclosed \\\"", "prog \"ends with backslash\\"};
    const char *reason[] = {"an unclosed ' quote", "an unclosed \" quote", "an unclosed \" quote"};
    for (size_t i = 0; i < 3; i++) {
        char *storage = NULL;
        kd_strlist words = {0};
        kd_strbuf err = {0};
        assert_int_equal(kd_app_split_words(bad[i], &storage, &words, &err), -1);
        assert_string_equal(kd_sb_str(&err), reason[i]);
        free(words.items);
        free(storage);
        kd_sb_free(&err);
    }
}

static void commands_name_themselves_when_refused(void **state)
{
    (void)state;
    kd_app_command cmd;
    kd_strbuf err = {0};
    assert_int_equal(kd_app_command_make("./prog 'x", true, &cmd, &err), -1);
    assert_non_null(strstr(kd_sb_str(&err), "the command './prog 'x' has an unclosed ' quote"));
    kd_app_command_free(&cmd);
    kd_sb_free(&err);
    assert_int_equal(kd_app_command_make(" ", false, &cmd, &err), -2);
    assert_string_equal(kd_sb_str(&err), "the command is empty");
    kd_app_command_free(&cmd);
    kd_sb_free(&err);
    assert_int_equal(kd_app_command_make("''", true, &cmd, &err), 0);
    assert_string_equal(cmd.argv.items[0], "");
    kd_app_command_free(&cmd);
    assert_int_equal(kd_app_command_make(" \t", true, &cmd, &err), -2);
    kd_app_command_free(&cmd);
    kd_sb_free(&err);
    /* Through the shell the string is handed over whole, quotes and all. */
    assert_int_equal(kd_app_command_make("./prog 'x", false, &cmd, &err), 0);
    assert_int_equal(cmd.argv.count, 4);
    assert_string_equal(cmd.argv.items[0], "/bin/sh");
    assert_string_equal(cmd.argv.items[2], "./prog 'x");
    assert_null(cmd.argv.items[3]);
    kd_app_command_free(&cmd);
    assert_int_equal(kd_app_command_make("./prog \"a b\"", true, &cmd, &err), 0);
    assert_int_equal(cmd.argv.count, 3);
    assert_string_equal(cmd.argv.items[1], "a b");
    assert_null(cmd.argv.items[2]);
    kd_app_command_free(&cmd);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(blanks_separate_words),
        cmocka_unit_test(single_quotes_keep_everything),
        cmocka_unit_test(double_quotes_escape_only_shell_specials),
        cmocka_unit_test(backslash_outside_quotes),
        cmocka_unit_test(unclosed_quotes_are_refused),
        cmocka_unit_test(commands_name_themselves_when_refused),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
