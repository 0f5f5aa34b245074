/* test_compiled.c — kernels read from compiled entries (source/compiled.h): demangled
 * parameter types, names taken from the scanned template, and the kernels only the compiled
 * code declares (macros). The PTX is nvcc 13's for a template, a macro-made kernel and an
 * extern "C" one (trimmed to the declarations). */
#include "kd_test.h"

#include <stdlib.h>
#include <string.h>

#include "source/compiled.h"

static const char ptx[] =
    ".version 8.0\n.target sm_90\n.address_size 64\n"
    ".visible .entry _Z4copyIfEvPKT_PS0_i(\n"
    "\t.param .u64 _Z4copyIfEvPKT_PS0_i_param_0,\n\t.param .u64 _Z4copyIfEvPKT_PS0_i_param_1,\n"
    "\t.param .u32 _Z4copyIfEvPKT_PS0_i_param_2\n)\n{\n\tret;\n}\n"
    ".visible .entry _Z4copyIdEvPKT_PS0_i(\n"
    "\t.param .u64 _Z4copyIdEvPKT_PS0_i_param_0,\n\t.param .u64 _Z4copyIdEvPKT_PS0_i_param_1,\n"
    "\t.param .u32 _Z4copyIdEvPKT_PS0_i_param_2\n)\n{\n\tret;\n}\n"
    ".visible .entry _Z6scale2PKfPfi(\n"
    "\t.param .u64 _Z6scale2PKfPfi_param_0,\n\t.param .u64 _Z6scale2PKfPfi_param_1,\n"
    "\t.param .u32 _Z6scale2PKfPfi_param_2\n)\n{\n\tret;\n}\n"
    ".visible .entry cscale(\n"
    "\t.param .u64 cscale_param_0,\n\t.param .u64 cscale_param_1,\n\t.param .u32 cscale_param_2\n)\n{\n\tret;\n}\n";

/* The template as the scanner describes `copy(const T *__restrict__ in, T *out, int n = 0)`. */
static kd_kernel scanned_template(void)
{
    kd_kernel_list list;
    const char *src = "template <typename T> __global__ void copy(const T *__restrict__ in, T *out, int n = 0) {}\n"
                      "template __global__ void copy<float>(const float *, float *, int);\n";
    assert_int_equal(kd_scan_source(src, strlen(src), &list), 0);
    assert_int_equal(list.count, 1);
    kd_kernel k = list.items[0];
    list.items[0] = (kd_kernel){0};
    kd_kernel_list_free(&list);
    return k;
}

static void check_param(const kd_param *p, const char *name, const char *type, const char *pointee, bool is_const)
{
    assert_string_equal(p->name, name);
    assert_string_equal(p->type, type);
    if (pointee)
        assert_string_equal(p->pointee, pointee);
    else
        assert_null(p->pointee);
    assert_int_equal(p->is_pointer, pointee != NULL);
    assert_int_equal(p->is_const, is_const);
}

/* An instance keeps the template's names and defaults; its types are the instance's. */
static void instance_types_from_the_signature(void **state)
{
    (void)state;
    kd_kernel tmpl = scanned_template(), k;
    assert_int_equal(kd_kernel_from_signature("void copy<float>(float const*, float*, int)", &tmpl, &k), 0);
    assert_string_equal(k.name, "copy<float>");
    assert_string_equal(k.signature, "void copy<float>(float const*, float*, int)");
    assert_false(k.from_compiled);
    assert_false(k.is_template);
    assert_int_equal(k.nparams, 3);
    check_param(&k.params[0], "in", "const float *", "float", true);
    check_param(&k.params[1], "out", "float *", "float", false);
    check_param(&k.params[2], "n", "int", NULL, false);
    assert_string_equal(k.params[2].default_value, "0");
    kd_kernel_free(&k);
    /* another parameter count (a pack): the names are positional */
    assert_int_equal(kd_kernel_from_signature("void ns::copy<__half2>(__half2 const volatile*, unsigned long)", &tmpl, &k), 0);
    assert_string_equal(k.qualified, "ns::copy<__half2>");
    assert_string_equal(k.name, "copy<__half2>");
    assert_int_equal(k.nparams, 2);
    check_param(&k.params[0], "p0", "const __half2 *", "__half2", true);
    check_param(&k.params[1], "p1", "unsigned long", NULL, false);
    kd_kernel_free(&k);
    assert_int_equal(kd_kernel_from_signature("cscale", &tmpl, &k), 1);
    kd_kernel_free(&tmpl);
}

/* Entries no scanned kernel accounts for are added; the template's instances are not. */
static void kernels_only_the_compiled_code_declares(void **state)
{
    (void)state;
    kd_kernel_list list = {0};
    kd_kernel tmpl = scanned_template();
    list.items = malloc(sizeof *list.items);
    assert_non_null(list.items);
    list.items[0] = tmpl;
    list.count = 1;
    assert_int_equal(kd_compiled_kernels_add(&list, NULL, ptx), 2);
    assert_int_equal(list.count, 3);
    const kd_kernel *scale2 = kd_kernel_find(&list, "scale2"), *cscale = kd_kernel_find(&list, "cscale");
    assert_non_null(scale2);
    assert_true(scale2->from_compiled);
    assert_string_equal(scale2->signature, "scale2(float const*, float*, int)");
    assert_int_equal(scale2->nparams, 3);
    check_param(&scale2->params[0], "p0", "const float *", "float", true);
    check_param(&scale2->params[1], "p1", "float *", "float", false);
    check_param(&scale2->params[2], "p2", "int", NULL, false);
    /* extern "C": no signature; the .entry's types, pointers as float outputs */
    assert_non_null(cscale);
    assert_true(cscale->from_compiled);
    assert_true(cscale->extern_c);
    assert_null(cscale->signature);
    assert_int_equal(cscale->nparams, 3);
    check_param(&cscale->params[0], "p0", "float *", "float", false);
    /* a second pass adds nothing: every entry is accounted for now */
    assert_int_equal(kd_compiled_kernels_add(&list, NULL, ptx), 0);
    assert_int_equal(list.count, 3);
    kd_kernel_list_free(&list);
}

static void template_instances_in_entry_order(void **state)
{
    (void)state;
    kd_kernel tmpl = scanned_template();
    kd_kernel_list inst;
    kd_compiled_instances(&tmpl, ptx, &inst);
    assert_int_equal(inst.count, 2);
    assert_string_equal(inst.items[0].name, "copy<float>");
    assert_string_equal(inst.items[1].name, "copy<double>");
    check_param(&inst.items[1].params[0], "in", "const double *", "double", true);
    kd_kernel_list_free(&inst);
    kd_kernel_free(&tmpl);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(instance_types_from_the_signature),
        cmocka_unit_test(kernels_only_the_compiled_code_declares),
        cmocka_unit_test(template_instances_in_entry_order),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
