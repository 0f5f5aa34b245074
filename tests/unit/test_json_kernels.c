/* Several kernels compared statically (issue 27): the JSON document's `kernels` array, the
 * kernels only one side has and the untimed flag are read back as written (kerndiff compare
 * reads saved documents through kd_comparison_read). */
#include "kd_test.h"

#include <string.h>

#include "report/report.h"
#include "util/xalloc.h"

static void side_named(kd_side *side, const char *label, const char *kernel)
{
    side->label = label;
    side->path = "t.cu";
    side->kernel = kd_xstrdup(kernel);
    side->launch_error = kd_xstrdup("needs --arg alpha=VALUE");
    side->stat.block_origin = "default";
    side->stat.block_threads = 256;
}

static void one_comparison(kd_comparison *c, const char *kernel)
{
    memset(c, 0, sizeof *c);
    snprintf(c->arch, sizeof c->arch, "sm_90");
    c->arch_origin = "default, no GPU";
    side_named(&c->side[0], "v1", kernel);
    side_named(&c->side[1], "v2", kernel);
    kd_hist_add(&c->side[0].stat.ptx_ops, "ld.global.f32", 3);
    kd_hist_add(&c->side[1].stat.ptx_ops, "ld.global.f32", 4);
    kd_comparison_tabulate(c);
    c->analysed = true;
}

static void kernels_are_read_back(void **state)
{
    (void)state;
    kd_comparison c;
    one_comparison(&c, "axpy<float>");
    c.kernels = kd_xcalloc(2, sizeof *c.kernels);
    one_comparison(&c.kernels[0], "axpy<float>");
    one_comparison(&c.kernels[1], "axpy<double>");
    c.kernel_count = 2;
    c.only[1] = kd_xcalloc(1, sizeof *c.only[1]);
    c.only[1][0] = kd_xstrdup("axpy<half>");
    c.only_count[1] = 1;
    c.kernels_untimed = true;

    json_t *doc = kd_comparison_json(&c);
    assert_non_null(doc);
    json_t *text = json_object_get(doc, "kernels_text");
    assert_string_equal(json_string_value(text), "timing needs one kernel: --fn NAME (axpy<float>, axpy<double>)");
    assert_int_equal(json_array_size(json_object_get(doc, "kernels")), 2);

    kd_comparison back;
    kd_strbuf err = {0};
    assert_int_equal(kd_comparison_read(doc, &back, &err), 0);
    assert_int_equal(back.kernel_count, 2);
    assert_string_equal(back.kernels[1].side[0].kernel, "axpy<double>");
    assert_string_equal(back.kernels[1].side[1].kernel, "axpy<double>");
    assert_true(back.kernels[1].analysed);
    assert_string_equal(back.kernels[1].arch, "sm_90");
    /* the histograms, tabulated again */
    assert_int_equal(back.kernels[0].ptx_ops.total[0], 3);
    assert_int_equal(back.kernels[0].ptx_ops.total[1], 4);
    assert_int_equal(back.only_count[0], 0);
    assert_int_equal(back.only_count[1], 1);
    assert_string_equal(back.only[1][0], "axpy<half>");
    assert_true(back.kernels_untimed);
    kd_comparison_free(&back);
    json_decref(doc);
    kd_sb_free(&err);
    kd_comparison_free(&c);
}

static void one_kernel_has_an_empty_array(void **state)
{
    (void)state;
    kd_comparison c;
    one_comparison(&c, "k");
    json_t *doc = kd_comparison_json(&c);
    assert_non_null(doc);
    assert_int_equal(json_array_size(json_object_get(doc, "kernels")), 0);
    assert_true(json_is_null(json_object_get(doc, "kernels_text")));
    /* a document without the keys (an older one's shape) reads as one kernel */
    json_object_del(doc, "kernels");
    json_object_del(doc, "kernels_only");
    json_object_del(doc, "kernels_untimed");
    kd_comparison back;
    kd_strbuf err = {0};
    assert_int_equal(kd_comparison_read(doc, &back, &err), 0);
    assert_int_equal(back.kernel_count, 0);
    assert_false(back.kernels_untimed);
    kd_comparison_free(&back);
    json_decref(doc);
    kd_sb_free(&err);
    kd_comparison_free(&c);
}

static void a_bad_only_list_is_refused(void **state)
{
    (void)state;
    kd_comparison c;
    one_comparison(&c, "k");
    json_t *doc = kd_comparison_json(&c);
    json_object_set_new(doc, "kernels_only", json_pack("{s:[i], s:[]}", "v1", 3, "v2"));
    kd_comparison back;
    kd_strbuf err = {0};
    assert_int_equal(kd_comparison_read(doc, &back, &err), -1);
    assert_non_null(strstr(kd_sb_str(&err), "kernels_only"));
    kd_comparison_free(&back);
    json_decref(doc);
    kd_sb_free(&err);
    kd_comparison_free(&c);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(kernels_are_read_back),
        cmocka_unit_test(one_kernel_has_an_empty_array),
        cmocka_unit_test(a_bad_only_list_is_refused),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
