#include "kd_test.h"

#include <stdlib.h>

#include "static/symbols.h"

static void demangles_cxx_and_keeps_c_names(void **state)
{
    (void)state;
    char *d = kd_demangle("_Z2tkIfEvPT_i");
    assert_string_equal(d, "void tk<float>(float*, int)");
    free(d);
    d = kd_demangle("_Z5spillP6float4i");
    assert_string_equal(d, "spill(float4*, int)");
    free(d);
    d = kd_demangle("saxpy");
    assert_string_equal(d, "saxpy");
    free(d);
}

static void matches_plain_scoped_and_template_names(void **state)
{
    (void)state;
    assert_true(kd_symbol_matches("spill(float4*, int)", "spill"));
    assert_false(kd_symbol_matches("spill(float4*, int)", "spil"));
    assert_true(kd_symbol_matches("saxpy", "saxpy"));
    assert_true(kd_symbol_matches("ns::inner::k(float*)", "k"));
    assert_true(kd_symbol_matches("ns::inner::k(float*)", "inner::k"));
    assert_false(kd_symbol_matches("ns::inner::k(float*)", "other::k"));
    assert_false(kd_symbol_matches("ns::ak(float*)", "k"));
    assert_true(kd_symbol_matches("void tk<float>(float*, int)", "tk"));
    assert_true(kd_symbol_matches("void tk<float>(float*, int)", "tk<float>"));
    assert_false(kd_symbol_matches("void tk<float>(float*, int)", "tk<double>"));
    assert_true(kd_symbol_matches("void tk<float, 4>(float*)", "tk<float,4>"));
}

static void template_arguments(void **state)
{
    (void)state;
    char *t = kd_symbol_template_args("void tk<float, 4>(float*)");
    assert_string_equal(t, "float, 4");
    free(t);
    assert_null(kd_symbol_template_args("spill(float4*, int)"));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(demangles_cxx_and_keeps_c_names),
        cmocka_unit_test(matches_plain_scoped_and_template_names),
        cmocka_unit_test(template_arguments),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
