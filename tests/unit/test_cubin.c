/* A .cubin's C++ kernels (issue 27 item 1): listed under their demangled names, typed from
 * the mangled signature (source/ptxentry.h kd_ptx_kernels_named), and a user's name mapped
 * back to the symbol to load (static/cubin.h). */
#include "kd_test.h"

#include <string.h>

#include "source/ptxentry.h"
#include "source/roles.h"
#include "static/cubin.h"

static const char usage[] =
    "\nResource usage:\n Common:\n  GLOBAL:0\n"
    " Function _Z10scaled_addPKfS0_Pffi:\n  REG:12 STACK:0 SHARED:0 LOCAL:0 CONSTANT[0]:556 TEXTURE:0 SURFACE:0 SAMPLER:0\n"
    " Function _Z4copyIfEvPKT_PS0_i:\n  REG:8 STACK:0 SHARED:0 LOCAL:0\n"
    " Function plain_c:\n  REG:4 STACK:0 SHARED:0 LOCAL:0\n";

static void function_names_in_order(void **state)
{
    (void)state;
    kd_strlist names = {0};
    kd_cubin_function_names(usage, &names);
    assert_int_equal(names.count, 3);
    assert_string_equal(names.items[0], "_Z10scaled_addPKfS0_Pffi");
    assert_string_equal(names.items[1], "_Z4copyIfEvPKT_PS0_i");
    assert_string_equal(names.items[2], "plain_c");
    for (size_t i = 0; i < names.count; i++)
        free(names.items[i]);
    free(names.items);
}

static void symbol_of_a_users_name(void **state)
{
    (void)state;
    static const struct { const char *want, *symbol; } cases[] = {
        {"scaled_add", "_Z10scaled_addPKfS0_Pffi"},
        {"copy<float>", "_Z4copyIfEvPKT_PS0_i"},
        {"copy", "_Z4copyIfEvPKT_PS0_i"},
        {"plain_c", "plain_c"},
        {"_Z10scaled_addPKfS0_Pffi", "_Z10scaled_addPKfS0_Pffi"},
        {"missing", "missing"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        char *got = kd_cubin_symbol(usage, cases[i].want);
        if (strcmp(got, cases[i].symbol) != 0)
            fail_msg("%s: got %s, wanted %s", cases[i].want, got, cases[i].symbol);
        free(got);
    }
}

static void kernels_typed_from_the_mangled_names(void **state)
{
    (void)state;
    char *names[] = {"_Z10scaled_addPKfS0_Pffi", "plain_c"};
    kd_kernel_list list;
    kd_ptx_kernels_named(names, 2, &list);
    assert_int_equal(list.count, 2);
    const kd_kernel *k = kd_kernel_find(&list, "scaled_add");
    assert_non_null(k);
    assert_string_equal(k->name, "scaled_add");
    assert_non_null(k->signature);
    assert_int_equal(k->nparams, 5);
    assert_true(k->params[0].is_pointer && k->params[0].is_const);
    assert_string_equal(k->params[0].pointee, "float");
    assert_int_equal(kd_param_role_of(&k->params[0]), KD_ROLE_INPUT);
    assert_int_equal(kd_param_role_of(&k->params[2]), KD_ROLE_OUTPUT);
    assert_string_equal(k->params[3].type, "float");
    assert_string_equal(k->params[4].type, "int");
    const kd_kernel *c = kd_kernel_find(&list, "plain_c");
    assert_non_null(c);
    assert_int_equal(c->nparams, 0); /* extern "C": the signature= annotation gives them */
    assert_null(c->signature);
    kd_kernel_list_free(&list);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(function_names_in_order),
        cmocka_unit_test(symbol_of_a_users_name),
        cmocka_unit_test(kernels_typed_from_the_mangled_names),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
