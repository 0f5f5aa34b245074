#include "kd_test.h"

#include <string.h>

#include "source/annotation.h"

static void reads_key_values_of_marked_comments_only(void **state)
{
    (void)state;
    const char *src = "// kerndiff: block=256 grid=ceil(n/256) n=16M\n"
                      "/* kerndiff: block=1 in a block comment is not read */\n"
                      "int x; // kerndiff: trailing=no\n"
                      "  //kerndiff:  k=1024\tnoise  arg:x=2.5\n"
                      "// kerndiff: block=512\n";
    kd_annotations a;
    kd_annotations_parse(src, strlen(src), &a);
    assert_string_equal(kd_annotation_get(&a, "block"), "512");
    assert_string_equal(kd_annotation_get(&a, "grid"), "ceil(n/256)");
    assert_string_equal(kd_annotation_get(&a, "n"), "16M");
    assert_string_equal(kd_annotation_get(&a, "k"), "1024");
    assert_string_equal(kd_annotation_get(&a, "arg:x"), "2.5");
    assert_null(kd_annotation_get(&a, "trailing"));
    assert_null(kd_annotation_get(&a, "noise"));
    assert_int_equal(a.count, 5);
    assert_int_equal(a.items[0].line, 5); /* block: the later line wins */
    kd_annotations_free(&a);
}

static void no_newline_at_end_and_empty_input(void **state)
{
    (void)state;
    const char *src = "// kerndiff: n=7";
    kd_annotations a;
    kd_annotations_parse(src, strlen(src), &a);
    assert_string_equal(kd_annotation_get(&a, "n"), "7");
    kd_annotations_free(&a);
    kd_annotations_parse("", 0, &a);
    assert_int_equal(a.count, 0);
    kd_annotations_free(&a);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(reads_key_values_of_marked_comments_only),
        cmocka_unit_test(no_newline_at_end_and_empty_input),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
