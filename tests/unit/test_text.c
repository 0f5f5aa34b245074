#include "kd_test.h"

#include <string.h>

#include "util/text.h"

static void line_endings_become_newlines(void **state)
{
    (void)state;
    char text[] = "a\rb\r\nc\nd\r";
    size_t len = kd_normalize_newlines(text, strlen(text));
    assert_int_equal(len, 8);
    assert_string_equal(text, "a\nb\nc\nd\n");
}

static void control_sequences_are_written_out(void **state)
{
    (void)state;
    const char text[] = "k\033]8;;http://x\007t\tab\n\x7f" "\xc2\x9b" "2J \xc3\xa9";
    kd_strbuf sb = {0};
    kd_escape_controls(text, sizeof text - 1, &sb);
    assert_string_equal(kd_sb_str(&sb), "k\\x1b]8;;http://x\\x07t\tab\n\\x7f\\xc2\\x9b2J \xc3\xa9");
    kd_sb_free(&sb);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(line_endings_become_newlines),
        cmocka_unit_test(control_sequences_are_written_out),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
