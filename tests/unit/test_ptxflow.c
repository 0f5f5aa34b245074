/* test_ptxflow.c — pointer parameters' uses read from PTX data flow (static/ptxflow.h), the
 * template-argument spellings --fn accepts (static/symbols.h) and the buffer use decided from
 * them (source/roles.h). The PTX is nvcc 13's, trimmed to what the analysis reads. */
#include "kd_test.h"

#include <stdlib.h>
#include <string.h>

#include "source/roles.h"
#include "static/ptxflow.h"
#include "static/symbols.h"

/* y[i] += a * x[i]: y read and written, x only read; the loop reassigns a register. */
static const char axpy[] =
    ".visible .entry k(\n\t.param .u64 k_param_0,\n\t.param .u64 k_param_1,\n\t.param .f32 k_param_2\n)\n{\n"
    "\t.reg .b64 %rd<9>;\n\t.reg .f32 %f<4>;\n"
    "\tld.param.u64 %rd1, [k_param_0];\n\tld.param.u64 %rd2, [k_param_1];\n\tld.param.f32 %f1, [k_param_2];\n"
    "\tcvta.to.global.u64 %rd3, %rd1;\n\tcvta.to.global.u64 %rd4, %rd2;\n"
    "$L__BB0_1:\n\tmul.wide.s32 %rd5, %r1, 4;\n\tadd.s64 %rd6, %rd4, %rd5;\n\tld.global.f32 %f2, [%rd6];\n"
    "\tadd.s64 %rd7, %rd3, %rd5;\n\tld.global.f32 %f3, [%rd7];\n\tfma.rn.f32 %f3, %f1, %f2, %f3;\n"
    "\tst.global.f32 [%rd7], %f3;\n\tadd.s64 %rd3, %rd3, 4;\n\t@%p1 bra $L__BB0_1;\n\tret;\n}\n";

/* in is read, out written only through a call (escapes), bins updated atomically, unused untouched. */
static const char mixed[] =
    ".visible .entry m(\n\t.param .u64 m_param_0,\n\t.param .u64 m_param_1,\n\t.param .u64 m_param_2,\n"
    "\t.param .u64 m_param_3,\n\t.param .u32 m_param_4\n)\n{\n"
    "\tld.param.u64 %rd1, [m_param_0];\n\tld.param.u64 %rd2, [m_param_1];\n\tld.param.u64 %rd3, [m_param_2];\n"
    "\tcvta.to.global.u64 %rd4, %rd1;\n\tld.global.nc.u32 %r1, [%rd4+8];\n"
    "\tsetp.lt.u64 %p1, %rd1, %rd2;\n\tselp.b32 %r2, 1, 0, %p1;\n"
    "\tcvta.to.global.u64 %rd5, %rd3;\n\tatom.global.add.u32 %r3, [%rd5], 1;\n"
    "\t{ // callseq 0\n\t.param .b64 param0;\n\tst.param.b64 [param0], %rd2;\n"
    "\tcall.uni put, (param0);\n\t}\n\tret;\n}\n";

static void uses(const char *ptx, const char *entry, const int *want, size_t n)
{
    kd_ptx_param_use *u;
    size_t count;
    assert_int_equal(kd_ptx_param_uses(ptx, entry, &u, &count), 0);
    assert_int_equal(count, n);
    for (size_t i = 0; i < n; i++)
        if (u[i].use != want[i])
            fail_msg("%s parameter %zu: use %d, wanted %d", entry, i, u[i].use, want[i]);
    kd_ptx_param_uses_free(u, count);
}

static void read_write_and_loops(void **state)
{
    (void)state;
    uses(axpy, "k", (const int[]){KD_PTX_READ | KD_PTX_WRITE, KD_PTX_READ, 0}, 3);
}

static void atomics_calls_and_comparisons(void **state)
{
    (void)state;
    /* p0 only read (its comparison with p1 carries nothing); p1 escapes into a call; p2's
       atomic reads and writes; p3 unused; the scalar never counts */
    uses(mixed, "m", (const int[]){KD_PTX_READ, KD_PTX_ESCAPE, KD_PTX_READ | KD_PTX_WRITE, 0, 0}, 5);
    kd_ptx_param_use *u;
    size_t count;
    assert_int_equal(kd_ptx_param_uses(mixed, "absent", &u, &count), -1);
}

static void template_arguments_spelled_any_way(void **state)
{
    (void)state;
    const char *entry = "void reduce6<float, 256u, true>(float*, float*, unsigned int)";
    assert_true(kd_symbol_matches(entry, "reduce6<float,256,true>"));
    assert_true(kd_symbol_matches(entry, "reduce6<float, 256U, (bool)1>"));
    assert_true(kd_symbol_matches(entry, "reduce6< float ,256ul,true >"));
    assert_false(kd_symbol_matches(entry, "reduce6<float,128,true>"));
    assert_false(kd_symbol_matches(entry, "reduce6<float,256,false>"));
    /* float4 is a type, not 4 with a suffix */
    assert_false(kd_symbol_matches("void t<float4>(float4*)", "t<float>"));
}

static void names_the_demangler_refuses(void **state)
{
    (void)state;
    char mangled[2100] = "_Z3bigPf";
    memset(mangled + 8, 'i', 2000);
    mangled[2008] = '\0';
    char *d = kd_demangle(mangled);
    assert_true(kd_symbol_matches(d, "big"));
    free(d);
    d = kd_demangle("_Z10scaled_addPKfS0_Pffi");
    assert_string_equal(d, "scaled_add(float const*, float const*, float*, float, int)");
    free(d);
}

static void use_precedence(void **state)
{
    (void)state;
    kd_param p = {.name = "g_idata", .type = "float *", .pointee = "float", .is_pointer = true};
    const char *why;
    assert_int_equal(kd_param_buffer_use(&p, &why), KD_USE_OUT); /* not analysed: not const */
    assert_string_equal(why, "not declared const");
    p.access = KD_ACCESS_READ;
    assert_int_equal(kd_param_buffer_use(&p, &why), KD_USE_IN);
    assert_int_equal(kd_param_role_of(&p), KD_ROLE_INPUT);
    p.access = KD_ACCESS_READ_WRITE;
    assert_int_equal(kd_param_buffer_use(&p, NULL), KD_USE_INOUT);
    assert_int_equal(kd_param_role_of(&p), KD_ROLE_INOUT); /* seeded and compared */
    p.access = KD_ACCESS_ESCAPES;
    assert_int_equal(kd_param_buffer_use(&p, &why), KD_USE_OUT);
    assert_non_null(strstr(why, "role assumed"));
    p.use = KD_USE_IN;
    p.use_origin = "annotation";
    assert_int_equal(kd_param_buffer_use(&p, &why), KD_USE_IN);
    assert_string_equal(why, "annotation");
}

static void length_names(void **state)
{
    (void)state;
    static const char *const lengths[] = {"n", "N", "numElements", "num_elements", "n_elements", "numel", "size",
                                          "len", "count"};
    static const char *const others[] = {"block_size", "tile_size", "num_threads", "stride", "alpha"};
    for (size_t i = 0; i < sizeof lengths / sizeof *lengths; i++) {
        kd_param p = {.name = (char *)lengths[i], .type = "int"};
        if (kd_param_role_of(&p) != KD_ROLE_LENGTH)
            fail_msg("%s is not a length", lengths[i]);
    }
    for (size_t i = 0; i < sizeof others / sizeof *others; i++) {
        kd_param p = {.name = (char *)others[i], .type = "unsigned int"};
        if (kd_param_role_of(&p) != KD_ROLE_SCALAR)
            fail_msg("%s taken as a length", others[i]);
    }
}

static void declared_uses(void **state)
{
    (void)state;
    kd_param params[2] = {{.name = "in", .type = "float *", .pointee = "float", .is_pointer = true},
                          {.name = "n", .type = "int"}};
    kd_kernel k = {.name = "k", .qualified = "k", .params = params, .nparams = 2};
    kd_strbuf error = {0};
    assert_int_equal(kd_kernel_declare_uses(&k, "in", KD_USE_INOUT, "--buf", &error), 0);
    assert_int_equal(params[0].use, KD_USE_INOUT);
    assert_int_equal(kd_kernel_declare_uses(&k, "n", KD_USE_IN, "annotation", &error), -1);
    assert_non_null(strstr(kd_sb_str(&error), "'n' is not a pointer parameter of k; its buffers: in"));
    kd_sb_free(&error);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(read_write_and_loops),       cmocka_unit_test(atomics_calls_and_comparisons),
        cmocka_unit_test(template_arguments_spelled_any_way), cmocka_unit_test(names_the_demangler_refuses),
        cmocka_unit_test(use_precedence),             cmocka_unit_test(length_names),
        cmocka_unit_test(declared_uses),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
