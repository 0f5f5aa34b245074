/* report/fit.h: columns counted as characters, words elided in the middle without cutting an
 * escape (\xNN, \uNNNN), a colour sequence or a UTF-8 character, lines wrapped within the
 * width at field boundaries. */
#include "kd_test.h"

#include <ctype.h>

#include "report/fit.h"

static char *elided(const char *text, size_t max)
{
    kd_strbuf sb = {0};
    kd_fit_elide(text, strlen(text), max, &sb);
    return kd_sb_take(&sb);
}

static void columns(void **state)
{
    (void)state;
    assert_int_equal(kd_fit_columns("abc", 3), 3);
    assert_int_equal(kd_fit_columns("\xc3\xa9t\xc3\xa9", 5), 3);           /* UTF-8: one column each */
    assert_int_equal(kd_fit_columns("\033[1mab\033[0m", 10), 2);           /* colour takes none */
    assert_int_equal(kd_fit_columns("a\\x1bb", 6), 6);
}

static void elide_keeps_escapes_whole(void **state)
{
    (void)state;
    char *s = elided("short", 20);
    assert_string_equal(s, "short");
    free(s);
    s = elided("abcdefghijklmnopqrstuvwxyz", 11);
    assert_string_equal(s, "abcd...wxyz");
    assert_int_equal(kd_fit_columns(s, strlen(s)), 11);
    free(s);
    /* every cut point across an escape: never half of one, never wider than asked */
    const char *text = "aaaa\\x1b[31mbbbb\\u202ecccc\xc3\xa9\xc3\xa9\xc3\xa9" "dddd\\x07eeee";
    for (size_t max = 5; max < 40; max++) {
        s = elided(text, max);
        assert_true(kd_fit_columns(s, strlen(s)) <= max);
        const char *dots = strstr(s, "...");
        assert_non_null(dots);
        /* the head ends and the tail starts on a unit's boundary */
        size_t head = (size_t)(dots - s);
        assert_memory_equal(s, text, head);
        const char *tail = dots + 3;
        assert_false(head && s[head - 1] == '\\'); /* no lone backslash before the dots */
        assert_non_null(strstr(text, tail));
        /* an escape in what is kept is whole: \x and two hex digits, \u and four */
        for (const char *p = s; *p; p++) {
            if (p[0] == '\\' && p[1] == 'x')
                assert_true(isxdigit((unsigned char)p[2]) && isxdigit((unsigned char)p[3]));
            if (p[0] == '\\' && p[1] == 'u')
                for (int k = 2; k < 6; k++)
                    assert_true(isxdigit((unsigned char)p[k]));
        }
        /* no escape's digits left without their \x (the tail starts on a unit) */
        assert_false(tail[0] == 'x' && isxdigit((unsigned char)tail[1]) && isxdigit((unsigned char)tail[2]) &&
                     strstr(text, tail) != text && strstr(text, tail)[-1] == '\\');
        assert_false((unsigned char)tail[0] >= 0x80 && (unsigned char)tail[0] < 0xc0); /* no half character */
        free(s);
    }
}

static char *fitted(const char *text, int width)
{
    char *out = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&out, &len);
    assert_non_null(f);
    kd_fit_write(f, text, strlen(text), width);
    fclose(f);
    return out;
}

static void wraps_at_fields(void **state)
{
    (void)state;
    char *s = fitted("  v1:     grid 65536 (annotation)  block 256 (annotation)  smem 0 B (default)  n 16777216 (annotation)\n", 80);
    assert_string_equal(s, "  v1:     grid 65536 (annotation)  block 256 (annotation)  smem 0 B (default)\n"
                           "          n 16777216 (annotation)\n");
    free(s);
    /* a line that fits is kept as it is, the last line without its newline too */
    s = fitted("short\nlast", 80);
    assert_string_equal(s, "short\nlast");
    free(s);
    /* a word wider than any line: elided, every line within the width */
    char line[300];
    memset(line, 'w', sizeof line - 1);
    line[sizeof line - 1] = '\0';
    s = fitted(line, 40);
    assert_true(strlen(s) <= 40);
    assert_non_null(strstr(s, "..."));
    free(s);
    /* width 0: as it is */
    s = fitted(line, 0);
    assert_string_equal(s, line);
    free(s);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(columns),
        cmocka_unit_test(elide_keeps_escapes_whole),
        cmocka_unit_test(wraps_at_fields),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
