/* Hot-spot lines outside the main source pair by their file's path before its base name: a
 * header z/k.cu and the main file k.cu (which sorts first), both sampled at line 3, stay two
 * rows (found by tests/fuzz/fuzz_hotspots.c: a profile diffed against itself showed moves). */
#include "kd_test.h"

#include <string.h>

#include "hotspots/hotspots.h"

static const char record[] = "kerndiff-hotspots 1\n"
                             "kernel k\n"
                             "reason 1 smsp__pcsamp_warps_issue_stalled_wait\n"
                             "pc k 0x10 1:30\n"
                             "pc k 0x20 1:70\n";
/* 0x10 is line 3 of the header z/k.cu, 0x20 line 3 of the main file k.cu */
static const char listing[] = "//--------------------- .text.k --------------------------\n"
                              "//## File \"/src/z/k.cu\", line 3\n"
                              "        /*0010*/                   LDG.E R2, desc[UR4][R2.64] ;\n"
                              "//## File \"/src/k.cu\", line 3\n"
                              "        /*0020*/                   FADD R0, R2, R3 ;\n";
static const char source[] = "// k.cu\n__global__ void k(float *x)\n{ x[0] += 1; }\n";

static void profile(kd_hs_profile *p)
{
    kd_hs_error err;
    assert_int_equal(kd_hs_record_parse(record, p, &err), 0);
    assert_int_equal(kd_hs_attach_sass(p, listing), 2);
    kd_hs_profile_finish(p, source);
    assert_string_equal(p->main_file, "/src/k.cu");
    assert_int_equal(p->line_count, 2);
}

static void same_base_name_pairs_by_path(void **state)
{
    (void)state;
    kd_hs_profile a, b;
    profile(&a);
    profile(&b);
    kd_hs_diff d;
    kd_hs_diff_build(&a, &b, &d);
    assert_int_equal(d.row_count, 2);
    for (size_t r = 0; r < d.row_count; r++) {
        const kd_hs_row *row = &d.rows[r];
        assert_non_null(row->side[0]);
        assert_non_null(row->side[1]);
        assert_string_equal(row->side[0]->file, row->side[1]->file);
        assert_true(row->delta == 0);
    }
    kd_hs_diff_free(&d);
    kd_hs_profile_free(&a);
    kd_hs_profile_free(&b);
}

int main(void)
{
    const struct CMUnitTest tests[] = {cmocka_unit_test(same_base_name_pairs_by_path)};
    return cmocka_run_group_tests(tests, NULL, NULL);
}
