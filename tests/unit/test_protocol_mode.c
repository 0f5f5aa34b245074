/* wire/protocol: kd_proto_mode, the one parse of `mode` for every harness (docs/PROTOCOL.md):
 * single, batched B, sustained MS (1..KD_PROTO_MAX_SUSTAINED_MS); anything else refused. */
#include "kd_test.h"

#include <string.h>

#include "wire/protocol.h"

static bool parse(const char *text, unsigned *batch, unsigned *ms)
{
    static char line[128];
    snprintf(line, sizeof line, "%s", text);
    kd_words w;
    kd_proto_split(line, &w);
    *batch = *ms = 12345; /* overwritten either way */
    return kd_proto_mode(&w, batch, ms);
}

static void the_three_modes(void **state)
{
    (void)state;
    unsigned batch, ms;
    assert_true(parse("mode single", &batch, &ms));
    assert_int_equal(batch, 0);
    assert_int_equal(ms, 0);
    assert_true(parse("mode batched 64", &batch, &ms));
    assert_int_equal(batch, 64);
    assert_int_equal(ms, 0);
    assert_true(parse("mode sustained 100", &batch, &ms));
    assert_int_equal(batch, 0);
    assert_int_equal(ms, 100);
    assert_true(parse("mode sustained 60000", &batch, &ms));
    assert_int_equal(ms, KD_PROTO_MAX_SUSTAINED_MS);
}

static void anything_else_is_refused(void **state)
{
    (void)state;
    const char *bad[] = {"mode", "mode single 1", "mode batched", "mode batched 0", "mode batched -2",
                         "mode batched 3x", "mode sustained", "mode sustained 0", "mode sustained 60001",
                         "mode sustained -5", "mode sustained 1.5", "mode sustained 100 200", "mode warm 5",
                         "mode batched 99999999999999999999"};
    for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
        unsigned batch, ms;
        bool ok = parse(bad[i], &batch, &ms);
        if (ok)
            fail_msg("'%s' was accepted", bad[i]);
        assert_int_equal(batch, 0); /* refused: nothing half-set */
        assert_int_equal(ms, 0);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(the_three_modes),
        cmocka_unit_test(anything_else_is_refused),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
