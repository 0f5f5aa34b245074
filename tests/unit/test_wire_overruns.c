/* wire/client.h kd_wire_check_overruns: the `overrun=` of a `check` reply (docs/PROTOCOL.md),
 * read as the bounds guard's findings; anything malformed is -1 (the check fails closed). */
#include "kd_test.h"

#include "wire/child.h"
#include "wire/client.h"

static long parse(const char *reply, kd_overrun *out, size_t max)
{
    static char line[256];
    snprintf(line, sizeof line, "%s", reply);
    kd_child c;
    memset(&c, 0, sizeof c);
    kd_proto_split(line, &c.words);
    return kd_wire_check_overruns(&c, out, max);
}

static void none_and_some(void **state)
{
    (void)state;
    kd_overrun o[4];
    assert_int_equal(parse("ok check bytes=8 overrun=-", o, 4), 0);
    assert_int_equal(parse("ok check bytes=8 overrun=2:300,5:65536", o, 4), 2);
    assert_int_equal(o[0].arg, 2);
    assert_int_equal(o[0].reach, 300);
    assert_int_equal(o[1].arg, 5);
    assert_int_equal(o[1].reach, 65536);
    /* more than out holds: all counted, the first max kept */
    assert_int_equal(parse("ok check bytes=8 overrun=0:1,1:2,2:3", o, 2), 3);
    assert_int_equal(o[1].reach, 2);
}

static void malformed_fails_closed(void **state)
{
    (void)state;
    kd_overrun o[4];
    static const char *const bad[] = {
        "ok check bytes=8",                  /* an older harness: cannot say */
        "ok check bytes=8 overrun=",         "ok check bytes=8 overrun=x",
        "ok check bytes=8 overrun=2",        "ok check bytes=8 overrun=2:",
        "ok check bytes=8 overrun=2:0",      "ok check bytes=8 overrun=2:5,",
        "ok check bytes=8 overrun=2:5;3:1",  "ok check bytes=8 overrun=-2:5",
        "ok check bytes=8 overrun=4096:5",   "ok check bytes=8 overrun=2:-5",
    };
    for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
        long n = parse(bad[i], o, 4);
        if (n != -1)
            fail_msg("'%s' read as %ld overruns, not refused", bad[i], n);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(none_and_some),
        cmocka_unit_test(malformed_fails_closed),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
