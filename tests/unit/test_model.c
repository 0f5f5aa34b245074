#include "kd_test.h"

#include <string.h>

#include "diff/comparison.h"
#include "report/model_text.h"
#include "static/histogram.h"

static void fill(kd_histogram *h, const char *const *keys, const long *counts, size_t n)
{
    for (size_t i = 0; i < n; i++)
        kd_hist_add(h, keys[i], counts[i]);
}

static void table_puts_changed_rows_first_largest_first(void **state)
{
    (void)state;
    kd_histogram a = {0}, b = {0};
    fill(&a, (const char *const[]){"ld.global.f32", "fma.rn.f32", "bar.sync", "ret"},
         (const long[]){4, 2, 1, 1}, 4);
    fill(&b, (const char *const[]){"ld.global.v4.f32", "fma.rn.f32", "ret"}, (const long[]){1, 8, 1}, 3);
    kd_count_table t;
    kd_count_table_build(&a, &b, &t);
    assert_int_equal(t.count, 5);
    assert_int_equal(t.changed, 4);
    assert_int_equal(t.total[0], 8);
    assert_int_equal(t.total[1], 10);
    /* |change|: fma 6, ld.global.f32 4, then 1s in key order, then unchanged ret. */
    assert_string_equal(t.rows[0].key, "fma.rn.f32");
    assert_int_equal(t.rows[0].v1, 2);
    assert_int_equal(t.rows[0].v2, 8);
    assert_string_equal(t.rows[1].key, "ld.global.f32");
    assert_int_equal(t.rows[1].v2, 0);
    assert_string_equal(t.rows[2].key, "bar.sync");
    assert_string_equal(t.rows[3].key, "ld.global.v4.f32");
    assert_int_equal(t.rows[3].v1, 0);
    assert_string_equal(t.rows[4].key, "ret");
    kd_count_table_free(&t);
    kd_hist_free(&a);
    kd_hist_free(&b);
}

/* Findings are codes with numbers; their sentences (report/model_text) must name them. */
static bool has_finding(const kd_comparison *c, const char *needle)
{
    bool found = false;
    for (size_t i = 0; i < c->finding_count && !found; i++) {
        kd_strbuf text = {0};
        kd_finding_text(&c->findings[i], &text);
        found = strstr(kd_sb_str(&text), needle) != NULL;
        kd_sb_free(&text);
    }
    return found;
}

static void findings_name_spills_widths_barriers_and_occupancy(void **state)
{
    (void)state;
    kd_comparison c = {0};
    kd_static_result *a = &c.side[0].stat, *b = &c.side[1].stat;
    a->sass_present = b->sass_present = true;
    b->resources.spill_stores = 24;
    b->resources.spill_loads = 16;
    a->sass_checks.global_loads = 4;
    b->sass_checks.global_loads = b->sass_checks.global_loads_128 = 1;
    a->sass_checks.barriers = 2;
    a->occupancy_valid = b->occupancy_valid = true;
    a->occupancy = (kd_occupancy){.blocks_per_sm = 8, .warps_per_sm = 64, .occupancy = 1.0, .limiter = KD_LIMIT_WARPS};
    b->occupancy = (kd_occupancy){.blocks_per_sm = 4, .warps_per_sm = 32, .occupancy = 0.5, .limiter = KD_LIMIT_REGISTERS};
    kd_comparison_tabulate(&c);
    assert_true(has_finding(&c, "register spills appeared: spill stores 0 -> 24 B, spill loads 0 -> 16 B"));
    assert_true(has_finding(&c, "128-bit global loads appeared: LDG .128 0 -> 1 of 4 -> 1 LDG"));
    assert_true(has_finding(&c, "barriers vanished: BAR 2 -> 0"));
    assert_true(has_finding(&c, "theoretical occupancy 100% -> 50% (64 -> 32 warps/SM), limited by warps -> registers"));
    assert_false(has_finding(&c, "memory barriers"));
    kd_comparison_free(&c);
}

static void no_findings_when_nothing_changed(void **state)
{
    (void)state;
    kd_comparison c = {0};
    c.side[0].stat.sass_present = c.side[1].stat.sass_present = true;
    c.side[0].stat.sass_checks.barriers = c.side[1].stat.sass_checks.barriers = 3;
    kd_comparison_tabulate(&c);
    assert_int_equal(c.finding_count, 0);
    kd_comparison_free(&c);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(table_puts_changed_rows_first_largest_first),
        cmocka_unit_test(findings_name_spills_widths_barriers_and_occupancy),
        cmocka_unit_test(no_findings_when_nothing_changed),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
