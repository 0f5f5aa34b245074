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

/* Splits a demangled signature into the name and one string per parameter type. */
static void signature_parts(void **state)
{
    (void)state;
    char *name;
    kd_strlist types;
    assert_int_equal(kd_symbol_signature("void ns::copy<float>(float const*, float*, int)", &name, &types), 0);
    assert_string_equal(name, "ns::copy<float>");
    assert_int_equal(types.count, 3);
    assert_string_equal(types.items[0], "float const*");
    assert_string_equal(types.items[1], "float*");
    assert_string_equal(types.items[2], "int");
    kd_symbol_signature_free(&name, &types);
    /* commas inside template arguments and function types stay with their parameter */
    assert_int_equal(kd_symbol_signature("void k<Pair<float, int>, 4>(Pair<float, int>*, void (*)(int, int), long)",
                                         &name, &types), 0);
    assert_string_equal(name, "k<Pair<float, int>, 4>");
    assert_int_equal(types.count, 3);
    assert_string_equal(types.items[0], "Pair<float, int>*");
    assert_string_equal(types.items[1], "void (*)(int, int)");
    assert_string_equal(types.items[2], "long");
    kd_symbol_signature_free(&name, &types);
    assert_int_equal(kd_symbol_signature("empty()", &name, &types), 0);
    assert_string_equal(name, "empty");
    assert_int_equal(types.count, 0);
    kd_symbol_signature_free(&name, &types);
    assert_int_equal(kd_symbol_signature("cscale", &name, &types), 1); /* extern "C": no parameter list */
    assert_null(name);
    assert_int_equal(types.count, 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(demangles_cxx_and_keeps_c_names),
        cmocka_unit_test(matches_plain_scoped_and_template_names),
        cmocka_unit_test(template_arguments),
        cmocka_unit_test(signature_parts),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
