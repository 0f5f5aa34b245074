/* Issue 40 item 4/6 (tests/e2e/hostile/s3_escape.sh has the end-to-end checks): Markdown text
 * outside a code span opens no tag or link, a capture's lost output is the diff's status. */
#include "kd_test.h"

#include <string.h>

#include "app/capture_run.h"
#include "capture/capture_msgs.h"
#include "report/rank_report.h"
#include "report/untrusted.h"
#include "util/outcome.h"
#include "util/text.h"

static void markdown_text_opens_no_tag_or_link(void **state)
{
    (void)state;
    kd_untrusted u = {0};
    assert_string_equal(kd_untrusted_md_text(&u, "k <img src=x onerror=alert(1)> [x](javascript:y)"),
                        "k &lt;img src=x onerror=alert(1)> [x&#93;(javascript:y)");
    /* kerndiff's own brackets stay: no link can start there */
    assert_string_equal(kd_untrusted_md_text(&u, "first: [10] 15 vs 0, out[11]"), "first: [10] 15 vs 0, out[11]");
    assert_string_equal(kd_untrusted_md_text(&u, "a\n[x]: javascript:y"), "a\n[x&#93;: javascript:y");
    /* idempotent: what it writes holds neither character */
    const char *once = kd_untrusted_md_text(&u, "<a>[b](c)");
    assert_string_equal(kd_untrusted_md_text(&u, once), once);
    /* in a code span the text is kept as it is (a template's <int> stays readable) */
    assert_string_equal(kd_untrusted_md(&u, "f<int>[2]"), "f<int>[2]");
    assert_string_equal(kd_untrusted_md_cell(&u, "a|<b>\n"), "a\\x7c&lt;b>\\x0a");
    kd_untrusted_free(&u);
}

static void a_capture_not_written_is_exit_7(void **state)
{
    (void)state;
    assert_int_equal(kd_capture_run_outcome(KD_MSG_CAPTURE_CANNOT_WRITE), KD_FAIL_TOOL);
}

/* A fraction above 1 (a shard's percent) is no occupancy: "?", never "9900%". */
static void occupancy_99_is_not_9900_percent(void **state)
{
    (void)state;
    char regs[16], spills[24], occ[16];
    kd_rank_format_static(&(kd_rank_static){.registers = 32, .spill_bytes = 0, .occupancy = 99}, regs, spills, occ);
    assert_string_equal(occ, "?");
    kd_rank_format_static(&(kd_rank_static){.registers = 32, .spill_bytes = 0, .occupancy = 0.99}, regs, spills, occ);
    assert_string_equal(occ, "99%");
}

/* 1,000 candidates at 99% family-wise: 99.999% each, never "100%". */
static void the_level_each_has_its_digits(void **state)
{
    (void)state;
    kd_rank_result r = {.opts = {.confidence = 0.99}, .corrected_confidence = 1 - 0.01 / 1000, .family = 1000,
                        .baseline = "base.cu", .count = 1000, .timed = 1000, .heats = 1};
    char header[512];
    kd_rank_format_header(&r, header, sizeof header);
    assert_non_null(strstr(header, "(99% family-wise, 99.999% each)"));
    r.opts.confidence = 0.95;
    r.corrected_confidence = 1 - 0.05 / 7;
    kd_rank_format_header(&r, header, sizeof header);
    assert_non_null(strstr(header, "(95% family-wise, 99.29% each)"));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(markdown_text_opens_no_tag_or_link),
        cmocka_unit_test(a_capture_not_written_is_exit_7),
        cmocka_unit_test(occupancy_99_is_not_9900_percent),
        cmocka_unit_test(the_level_each_has_its_digits),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
