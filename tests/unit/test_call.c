#include "kd_test.h"

#include <string.h>

#include "launch/call.h"

/* Parses each text in turn into one settings struct, as repeated --call flags do. */
static void parse_all(kd_call_settings *s, const char *const *texts, size_t count)
{
    memset(s, 0, sizeof *s);
    for (size_t i = 0; i < count; i++) {
        kd_strbuf why = {0};
        if (kd_call_parse(texts[i], s, &why) != 0)
            fail_msg("'%s' failed: %s", texts[i], kd_sb_str(&why));
        kd_sb_free(&why);
    }
}

static void fails_with(const char *text, const char *message)
{
    kd_call_settings s = {0};
    kd_strbuf why = {0};
    assert_int_equal(kd_call_parse(text, &s, &why), -1);
    assert_string_equal(kd_sb_str(&why), message);
    kd_sb_free(&why);
    kd_call_settings_free(&s);
}

static void commas_split_only_before_a_new_key(void **state)
{
    (void)state;
    kd_call_settings s;
    const char *texts[] = {"block=16,16,grid=64,2,s=min(a,b),n=4K"};
    parse_all(&s, texts, 1);
    assert_string_equal(s.block, "16,16");
    assert_string_equal(s.grid, "64,2");
    assert_string_equal(s.n, "4K");
    assert_null(s.smem);
    assert_int_equal(s.params.count, 1);
    assert_string_equal(s.params.items[0], "s=min(a,b)");
    kd_call_settings_free(&s);
}

static void repeated_calls_merge_and_later_keys_win(void **state)
{
    (void)state;
    kd_call_settings s;
    const char *texts[] = {"grid=8192,iters=5", "smem=32", "iters=7,block=128"};
    parse_all(&s, texts, 3);
    assert_string_equal(s.grid, "8192");
    assert_string_equal(s.smem, "32");
    assert_string_equal(s.block, "128");
    assert_int_equal(s.params.count, 2); /* the launch builder takes the last iters= */
    assert_string_equal(s.params.items[0], "iters=5");
    assert_string_equal(s.params.items[1], "iters=7");
    kd_call_settings_free(&s);
}

static void entries_without_a_key_are_named(void **state)
{
    (void)state;
    fails_with("iters", "entry 'iters' is not KEY=VALUE (KEY: n, grid, block, smem or a parameter name)");
    fails_with("n=1M,iters", "entry 'iters' is not KEY=VALUE (only grid and block take X,Y,Z)");
    fails_with("=3", "entry '=3' is not KEY=VALUE (KEY: n, grid, block, smem or a parameter name)");
    fails_with("grid=", "entry 'grid=' has no value");
    fails_with("", "no settings: write vN:KEY=VALUE,...");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(commas_split_only_before_a_new_key),
        cmocka_unit_test(repeated_calls_merge_and_later_keys_win),
        cmocka_unit_test(entries_without_a_key_are_named),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
