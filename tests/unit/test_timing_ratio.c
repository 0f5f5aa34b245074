/* The digits a ratio is printed with (report/timing_text.h) and the headline that uses them. */
#include "kd_test.h"

#include <stdio.h>
#include <string.h>

#include "report/model_text.h"
#include "report/timing_text.h"

static void text_of(double ratio, double lo, double hi, char *buf, size_t size)
{
    int d = kd_ratio_decimals(ratio, lo, hi);
    snprintf(buf, size, "%.*fx (%.*f-%.*f)", d, ratio, d, lo, d, hi);
}

static void digits_show_the_change(void **state)
{
    (void)state;
    char buf[64];
    text_of(1.003, 0.99, 1.016, buf, sizeof buf); /* a wide CI: the change still shows */
    assert_string_equal(buf, "1.003x (0.990-1.016)");
    text_of(1.0031, 1.0028, 1.0034, buf, sizeof buf); /* a narrow one earns a digit */
    assert_string_equal(buf, "1.0031x (1.0028-1.0034)");
    text_of(1.25, 1.245, 1.2551, buf, sizeof buf);
    assert_string_equal(buf, "1.25x (1.25-1.26)");
    text_of(0.997, 0.995, 0.999, buf, sizeof buf); /* below 1 the same */
    assert_string_equal(buf, "0.997x (0.995-0.999)");
    text_of(2.5, 2.4, 2.6, buf, sizeof buf);
    assert_string_equal(buf, "2.50x (2.40-2.60)");
    text_of(1.0, 1.0, 1.0, buf, sizeof buf); /* no change, no CI: 2 digits */
    assert_string_equal(buf, "1.00x (1.00-1.00)");
    assert_int_equal(kd_ratio_decimals(1 + 1e-12, 1, 1), 6); /* capped */
    assert_int_equal(kd_ratio_decimals(40, 10, 90), 2);
}

/* "v2 is 1x slower" for a 0.3% change was the bug. */
static void headline_of_a_small_change(void **state)
{
    (void)state;
    kd_timing t;
    memset(&t, 0, sizeof t);
    t.side[0].summary.median = 100000;
    t.side[1].summary.median = 100300;
    t.speedup.ratio = 100000.0 / 100300.0;
    t.speedup.lo = 0.9965;
    t.speedup.hi = 0.9975;
    t.verdict = KD_VERDICT_SLOWER;
    kd_strbuf line = {0};
    kd_timing_headline(&t, &line);
    assert_non_null(strstr(kd_sb_str(&line), "v2 is 1.0030x slower (" /* the CI earns a 4th digit */));
    assert_non_null(strstr(kd_sb_str(&line), "95% CI 1.0025-1.0035x)"));
    kd_sb_free(&line);
    t.speedup.lo = 0.99, t.speedup.hi = 1.0; /* a wide CI: still the 0.3% */
    kd_timing_headline(&t, &line);
    assert_non_null(strstr(kd_sb_str(&line), "v2 is 1.003x slower ("));
    kd_sb_free(&line);
    t.verdict = KD_VERDICT_FASTER;
    t.speedup.ratio = 1.25, t.speedup.lo = 1.24, t.speedup.hi = 1.26;
    kd_timing_headline(&t, &line);
    assert_non_null(strstr(kd_sb_str(&line), "v2 is 1.25x faster ("));
    assert_non_null(strstr(kd_sb_str(&line), "95% CI 1.24-1.26x)"));
    kd_sb_free(&line);
    t.verdict = KD_VERDICT_NO_DIFFERENCE;
    t.speedup.ratio = 1.0004, t.speedup.lo = 0.998, t.speedup.hi = 1.003;
    kd_timing_headline(&t, &line);
    assert_non_null(strstr(kd_sb_str(&line), "speedup 1.0004x, 95% CI 0.9980-1.0030x"));
    kd_sb_free(&line);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(digits_show_the_change),
        cmocka_unit_test(headline_of_a_small_change),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
