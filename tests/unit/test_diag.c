/* util/diag.h and report/diag_text.h: messages as data, worded by report/'s tables. */
#include "kd_test.h"

#include <string.h>

#include "report/diag_text.h"
#include "util/diag.h"

/* Every area table: ids in its area, each format well formed for its count of values. */
static void every_table_is_well_formed(void **state)
{
    (void)state;
    for (int area = 1; area < KD_AREA_COUNT; area++) {
        const kd_wording *w = kd_wording_area(area);
        assert_non_null(w);
        for (; w->id; w++) {
            if (KD_DIAG_AREA(w->id) != area || kd_wording_format_ok(w->format, w->nargs, NULL) != 0)
                fail_msg("area %d: message %d: bad entry \"%s\"", area, w->id, w->format ? w->format : "(null)");
            assert_ptr_equal(kd_wording_find(w->id), w);
        }
    }
}

static void placeholders_are_checked(void **state)
{
    (void)state;
    const kd_diag_kind kinds[] = {KD_DIAG_STR, KD_DIAG_DBL};
    assert_int_equal(kd_wording_format_ok("a {0} b {1:.2f}", 2, kinds), 0);
    assert_int_not_equal(kd_wording_format_ok("a {2}", 2, NULL), 0);     /* past its values */
    assert_int_not_equal(kd_wording_format_ok("a {0:.2f}", 2, kinds), 0); /* a number conversion on a string */
    assert_int_not_equal(kd_wording_format_ok("a {1:s}", 2, kinds), 0);  /* not a number conversion */
    assert_int_not_equal(kd_wording_format_ok("a {1:%n}", 2, kinds), 0);
    assert_int_equal(kd_wording_format_ok("{ not one }", 0, NULL), 0); /* literal braces stay */
}

/* With no sink, the last message is kept, its strings copied. */
static void said_without_a_sink_is_kept(void **state)
{
    (void)state;
    kd_diag_set_sink(NULL, NULL);
    char name[] = "k.cu";
    kd_say(123, 2, KD_S(name), KD_I(-4), KD_U(7), KD_D(1.5));
    name[0] = 'X';
    const kd_diag *d = kd_diag_last();
    assert_int_equal(d->id, 123);
    assert_int_equal(d->side, 2);
    assert_int_equal(d->nargs, 4);
    assert_string_equal(d->args[0].v.s, "k.cu");
    assert_int_equal(d->args[1].v.i, -4);
}

/* An id without words, or the wrong count of values, is said as such: never a read past. */
static void unknown_or_miscounted_is_marked(void **state)
{
    (void)state;
    kd_diag d = {0};
    kd_diag_set(&d, KD_DIAG_ID(KD_AREA_UTIL, 1000), 1, KD_S("x"));
    kd_strbuf out = {0};
    kd_diag_text(&d, &out);
    assert_non_null(strstr(kd_sb_str(&out), "internal: message"));
    assert_non_null(strstr(kd_sb_str(&out), "has no words"));
    assert_non_null(strstr(kd_sb_str(&out), ": x"));
    kd_sb_free(&out);
    kd_diag_free(&d);
    assert_int_equal(d.id, 0);
}

static int capture_count;
static void capture(const kd_diag *d, void *ctx)
{
    (void)d;
    capture_count += *(int *)ctx;
}

static void a_sink_receives_messages(void **state)
{
    (void)state;
    int step = 2;
    kd_diag_set_sink(capture, &step);
    kd_say0(KD_DIAG_ID(KD_AREA_UTIL, 999), 0);
    kd_diag kept = {0};
    kd_diag_set(&kept, KD_DIAG_ID(KD_AREA_UTIL, 998), 1, KD_S("a"));
    kd_diag_say(&kept);
    kd_diag_free(&kept);
    kd_diag_say(&kept); /* no message: nothing said */
    kd_diag_set_sink(NULL, NULL);
    assert_int_equal(capture_count, 4);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(every_table_is_well_formed), cmocka_unit_test(placeholders_are_checked),
        cmocka_unit_test(said_without_a_sink_is_kept), cmocka_unit_test(unknown_or_miscounted_is_marked),
        cmocka_unit_test(a_sink_receives_messages),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
