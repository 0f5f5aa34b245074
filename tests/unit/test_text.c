#include "kd_test.h"

#include <string.h>

#include "report/stderr_text.h"
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

/* Bidi overrides (Trojan Source), a raw 8-bit CSI and bytes that are not UTF-8 are shown,
 * valid UTF-8 is kept; a name's newline and tab are written out, a file's are not. */
static void bidi_and_broken_utf8_are_written_out(void **state)
{
    (void)state;
    const char text[] = "a\xe2\x80\xae" "b\xe2\x81\xa6" "c\x9b" "d\xe9" "e\xc0\xaf" "\xe2\x82\xac\xf0\x9f\x98\x80\n\t";
    kd_strbuf sb = {0};
    kd_escape_text(text, sizeof text - 1, 0, &sb);
    assert_string_equal(kd_sb_str(&sb), "a\\u202eb\\u2066c\\x9bd\\xe9e\\xc0\\xaf\xe2\x82\xac\xf0\x9f\x98\x80\n\t");
    kd_sb_free(&sb);
    kd_escape_text(text, sizeof text - 1, KD_ESCAPE_LINES, &sb);
    assert_non_null(strstr(kd_sb_str(&sb), "\\x0a\\x09"));
    kd_sb_free(&sb);
    /* a sequence cut short at the end of the text */
    kd_escape_text("x\xe2\x80", 3, 0, &sb);
    assert_string_equal(kd_sb_str(&sb), "x\\xe2\\x80");
    kd_sb_free(&sb);
}

static void markdown_cells_lose_pipes_and_backticks(void **state)
{
    (void)state;
    kd_strbuf sb = {0};
    kd_escape_text("a|b`c", 5, KD_ESCAPE_MARKDOWN, &sb);
    assert_string_equal(kd_sb_str(&sb), "a\\x7cb\\x60c");
    kd_sb_free(&sb);
    assert_true(kd_text_is_plain("a|b`c", 5, 0));
    assert_false(kd_text_is_plain("a|b`c", 5, KD_ESCAPE_MARKDOWN));
}

/* Escaping what was escaped changes nothing; plain text is returned as itself. */
static void safe_text_is_idempotent(void **state)
{
    (void)state;
    kd_strbuf once = {0}, twice = {0};
    const char *plain = "v1.cu";
    assert_ptr_equal(kd_text_safe(plain, &once), plain);
    assert_string_equal(kd_text_safe(NULL, &once), "");
    const char *first = kd_text_safe("k\033[2J\n\xe2\x80\xae", &once);
    assert_string_equal(first, "k\\x1b[2J\\x0a\\u202e");
    assert_ptr_equal(kd_text_safe(first, &twice), first);
    /* the scratch is emptied before reuse */
    assert_string_equal(kd_text_safe("\a", &once), "\\x07");
    kd_sb_free(&once);
    kd_sb_free(&twice);
}

/* A whole message, formatted then escaped (report/stderr_text.h, which took util/'s
 * kd_text_fprintf's place): its newline kept, the quoted ESC written out. */
static void fprintf_escapes_the_message(void **state)
{
    (void)state;
    char buf[128] = {0};
    FILE *f = fmemopen(buf, sizeof buf - 1, "w");
    assert_non_null(f);
    kd_untrusted_fprintf(f, "kerndiff: no kernel named '%s' in %s\n", "k\033]0;t\a", "v1.cu");
    fclose(f);
    assert_string_equal(buf, "kerndiff: no kernel named 'k\\x1b]0;t\\x07' in v1.cu\n");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(line_endings_become_newlines),
        cmocka_unit_test(control_sequences_are_written_out),
        cmocka_unit_test(bidi_and_broken_utf8_are_written_out),
        cmocka_unit_test(markdown_cells_lose_pipes_and_backticks),
        cmocka_unit_test(safe_text_is_idempotent),
        cmocka_unit_test(fprintf_escapes_the_message),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
