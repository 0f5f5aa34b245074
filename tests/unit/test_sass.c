/* test_sass.c — function extraction, mnemonic histograms and checks on `cuobjdump -sass`
 * listings captured from real builds (tests/fixtures/README.md), plus inline corner cases.
 * Expected counts were checked by hand; those marked "grep" also match `grep -c`. */
#include "kd_test.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "static/sass.h"

typedef struct counted {
    kd_histogram ops, families;
    kd_sass_checks checks;
} counted;

static counted count_text(const char *text)
{
    counted c = {0};
    kd_sass_histogram(text, &c.ops, &c.families, &c.checks);
    return c;
}

static counted count_function(const char *listing, const char *function)
{
    char *text = kd_sass_function_text(listing, function);
    if (!text)
        fail_msg("function %s not found", function);
    counted c = count_text(text);
    free(text);
    return c;
}

static counted count_fixture_function(const char *fixture, const char *function)
{
    char *listing = read_fixture(fixture);
    counted c = count_function(listing, function);
    free(listing);
    return c;
}

static void counted_free(counted *c)
{
    kd_hist_free(&c->ops);
    kd_hist_free(&c->families);
}

/* ---- fixtures ---- */

static void test_shared_reduce_barriers(void **state)
{
    (void)state;
    counted c = count_fixture_function("sass/shared.sm_90.sass", "_Z6reducePKfPfPji");
    assert_int_equal(c.ops.total, 88); /* grep -c of address comments */
    assert_int_equal(kd_hist_get(&c.ops, "BAR.SYNC.DEFER_BLOCKING"), 9); /* grep */
    assert_int_equal(kd_hist_get(&c.ops, "MEMBAR.SC.GPU"), 1);
    assert_int_equal(kd_hist_get(&c.ops, "ERRBAR"), 1); /* printed `ERRBAR;` */
    assert_int_equal(kd_hist_get(&c.ops, "NOP"), 9);    /* printed `NOP;` */
    assert_int_equal(kd_hist_get(&c.ops, "LDS"), 17);   /* 16 of them guarded `@!P0`/`@!P1` */
    assert_int_equal(kd_hist_get(&c.ops, "STS"), 9);
    assert_int_equal(kd_hist_get(&c.ops, "EXIT"), 2);   /* one is `@P0 EXIT` */
    assert_int_equal(kd_hist_get(&c.ops, "ATOMG.E.ADD.STRONG.GPU"), 1);
    assert_int_equal(kd_hist_get(&c.families, "BAR"), 9);
    assert_int_equal(kd_hist_get(&c.families, "ISETP"), 9);
    assert_int_equal(c.checks.barriers, 9);
    assert_int_equal(c.checks.memory_barriers, 1);
    assert_int_equal(c.checks.global_loads, 1);
    assert_int_equal(c.checks.global_stores, 1);
    assert_int_equal(c.checks.local_loads, 0);
    assert_int_equal(c.checks.local_stores, 0);
    counted_free(&c);
}

static void test_vec_access_widths(void **state)
{
    (void)state;
    counted c = count_fixture_function("sass/vec.sm_90.sass", "_Z6scale4PK6float4PS_fi");
    assert_int_equal(c.ops.total, 32);
    assert_int_equal(kd_hist_get(&c.ops, "LDG.E.128.CONSTANT"), 1); /* grep */
    assert_int_equal(kd_hist_get(&c.ops, "STG.E.128"), 1);
    assert_int_equal(kd_hist_get(&c.ops, "FMUL"), 4);
    assert_int_equal(kd_hist_get(&c.families, "LDG"), 1);
    assert_int_equal(c.checks.global_loads, 1);
    assert_int_equal(c.checks.global_loads_128, 1);
    assert_int_equal(c.checks.global_loads_64, 0);
    assert_int_equal(c.checks.global_stores_128, 1);
    counted_free(&c);

    c = count_fixture_function("sass/vec.sm_90.sass", "_Z6scale1PKfPffi");
    assert_int_equal(kd_hist_get(&c.ops, "LDG.E.CONSTANT"), 1);
    assert_int_equal(c.checks.global_loads, 1);
    assert_int_equal(c.checks.global_loads_128, 0);
    assert_int_equal(c.checks.global_stores_128, 0);
    counted_free(&c);
}

static void test_spill_local_memory(void **state)
{
    (void)state;
    counted c = count_fixture_function("sass/spill.sm_90.sass", "_Z5spillP6float4i");
    assert_int_equal(c.ops.total, 464);                  /* grep */
    assert_int_equal(kd_hist_get(&c.ops, "LDL"), 35);
    assert_int_equal(kd_hist_get(&c.ops, "LDL.LU"), 76);
    assert_int_equal(kd_hist_get(&c.ops, "STL"), 76);
    assert_int_equal(kd_hist_get(&c.ops, "STL.128"), 16); /* grep; the `table` array */
    assert_int_equal(kd_hist_get(&c.families, "LDL"), 111);
    assert_int_equal(c.checks.local_loads, 111);          /* grep */
    assert_int_equal(c.checks.local_stores, 92);          /* grep */
    assert_int_equal(c.checks.global_loads, 64);
    assert_int_equal(c.checks.global_stores, 64);
    assert_int_equal(c.checks.global_stores_128, 0);      /* STL.128 is not a global store */
    counted_free(&c);
}

/* The non-inlined .func is disassembled inside k's function, after k's own code. */
static void test_multi_prefix_names_and_callee(void **state)
{
    (void)state;
    char *listing = read_fixture("sass/multi.sm_90.sass");
    counted k = count_function(listing, "k");
    counted k2 = count_function(listing, "k2");
    assert_int_equal(kd_hist_get(&k.ops, "CALL.REL.NOINC"), 1);
    assert_int_equal(kd_hist_get(&k.ops, "RET.REL.NODEC"), 1);
    assert_int_equal(kd_hist_get(&k.families, "FFMA"), 29);
    assert_int_equal(kd_hist_get(&k2.ops, "CALL.REL.NOINC"), 0);
    assert_int_equal(kd_hist_get(&k2.families, "FFMA"), 0);
    assert_int_equal(kd_hist_get(&k2.families, "IADD3"), 1);
    assert_int_equal(k2.checks.global_loads, 1);
    counted_free(&k);
    counted_free(&k2);
    assert_null(kd_sass_function_text(listing, "_Z6helperfi"));
    assert_null(kd_sass_function_text(listing, "_Z4axpy"));
    assert_null(kd_sass_function_text(listing, "k3"));
    free(listing);
}

static void test_multi_template_and_atomics(void **state)
{
    (void)state;
    char *listing = read_fixture("sass/multi.sm_90.sass");
    counted d = count_function(listing, "_Z4axpyIdEvT_PKS0_PS0_i");
    counted a = count_function(listing, "_Z7atomicsPiPdPKdi");
    assert_int_equal(kd_hist_get(&d.families, "DFMA"), 1);
    assert_int_equal(d.checks.global_loads_64, 2);
    assert_int_equal(d.checks.global_stores_64, 1);
    assert_int_equal(a.ops.total, 40);
    /* atomicAdd whose result is unused compiles to a reduction, not ATOMG. */
    assert_int_equal(kd_hist_get(&a.ops, "REDG.E.ADD.STRONG.GPU"), 1);
    assert_int_equal(kd_hist_get(&a.ops, "REDG.E.ADD.F64.RN.STRONG.GPU"), 1);
    assert_int_equal(kd_hist_get(&a.ops, "LDG.E.64"), 2);
    assert_int_equal(a.checks.global_loads, 2);
    assert_int_equal(a.checks.global_loads_64, 2);
    assert_int_equal(a.checks.global_stores, 0);
    counted_free(&d);
    counted_free(&a);
    free(listing);
}

/* A fat binary lists sm_80 then sm_90; the first copy is returned and ends at its section. */
static void test_multi_arch_listing_stops_at_section(void **state)
{
    (void)state;
    char *listing = read_fixture("sass/vec.sm_80_sm_90.sass");
    char *text = kd_sass_function_text(listing, "_Z6scale4PK6float4PS_fi");
    assert_non_null(text);
    assert_null(strstr(text, "Fatbin"));
    assert_null(strstr(text, "code for"));
    assert_null(strstr(text, "SM90"));
    counted c = count_text(text);
    assert_int_equal(c.ops.total, 32);
    assert_int_equal(kd_hist_get(&c.ops, "LDG.E.128.CONSTANT"), 1);
    assert_int_equal(kd_hist_get(&c.ops, "HFMA2.MMA"), 1); /* sm_80's copy only */
    assert_int_equal(kd_hist_get(&c.families, "LDC"), 0);    /* sm_90's copy has 4 */
    counted_free(&c);
    free(text);
    free(listing);
}

/* ---- inline edge cases ---- */

static const char listing[] =
    "\n\tcode for sm_90\n\t.target\tsm_90\n\n"
    "\t\tFunction : k2\n"
    "\t.headerflags\t@\"EF_CUDA_SM90 EF_CUDA_VIRTUAL_SM(EF_CUDA_SM90)\"\n"
    "        /*0000*/                   LDC R1, c[0x0][0x28] ;      /* 0x00000a00ff017b82 */\n"
    "                                                               /* 0x000fe20000000800 */\n"
    "        /*0010*/               @P0 BRA 0x40 ;                  /* 0x0000000000007947 */\n"
    "        /*0020*/              @!PT LDS RZ, [RZ] ;              /* 0x0000000000007947 */\n"
    "        /*0030*/             @!UP0 LDG.E.64 R2, desc[UR4][R2.64] ; /* 0x0 */\n"
    "        /*0040*/                   STG.E.128 desc[UR4][R2.64], R4 ; /* 0x0 */\n"
    "        /*0050*/                   BAR.RED.POPC RZ, 0x0, P0 ;  /* 0x0 */\n"
    "        /*0060*/                   BAR.ARV 0x1, 0x40 ;         /* 0x0 */\n"
    "        /*0070*/                   LDGSTS.E.BYPASS.128 [R1], desc[UR4][R2.64] ;\n"
    "        /*0080*/                   STL.64 [R1], R2 ;\n"
    "        /*0090*/                   LDL.LU.64 R2, [R1] ;\n"
    "        /*00a0*/                   NOP;\n"
    "        /*00b0*/                   EXIT ;\n"
    "\t\t..........\n\n"
    "\t\tFunction : k\n"
    "        /*0000*/                   FFMA R0, R1, R2, R3 ;\n"
    "\n\tcode for sm_80\n"
    "\t\tFunction : k2\n"
    "        /*0000*/                   IADD3 R0, R1, R2, RZ ;\n"
    "\t\tFunction : last\r\n"
    "        /*0000*/                   EXIT ;";

static void test_inline_guards_operands_and_encodings(void **state)
{
    (void)state;
    counted c = count_function(listing, "k2");
    assert_int_equal(c.ops.total, 12);
    assert_int_equal(kd_hist_get(&c.ops, "BRA"), 1);
    assert_int_equal(kd_hist_get(&c.ops, "LDS"), 1);
    assert_int_equal(kd_hist_get(&c.ops, "LDG.E.64"), 1);
    assert_int_equal(kd_hist_get(&c.ops, "NOP"), 1);
    assert_int_equal(kd_hist_get(&c.ops, "IADD3"), 0); /* sm_80's k2 comes later */
    assert_int_equal(kd_hist_get(&c.families, "BAR"), 2);
    assert_int_equal(c.checks.barriers, 2);
    assert_int_equal(c.checks.global_loads, 1);
    assert_int_equal(c.checks.global_loads_64, 1);
    assert_int_equal(c.checks.global_stores, 1);
    assert_int_equal(c.checks.global_stores_128, 1);
    assert_int_equal(c.checks.local_stores, 1);
    assert_int_equal(c.checks.local_loads, 1);
    assert_int_equal(c.checks.memory_barriers, 0);
    counted_free(&c);
}

static void test_inline_function_boundaries(void **state)
{
    (void)state;
    counted k = count_function(listing, "k");
    assert_int_equal(k.ops.total, 1);
    assert_int_equal(kd_hist_get(&k.ops, "FFMA"), 1);
    counted_free(&k);
    counted last = count_function(listing, "last"); /* CRLF header, no final newline */
    assert_int_equal(last.ops.total, 1);
    counted_free(&last);
    char *empty = kd_sass_function_text("Function : e\n", "e");
    assert_non_null(empty);
    assert_string_equal(empty, "");
    free(empty);
    assert_null(kd_sass_function_text(listing, "k22"));
    assert_null(kd_sass_function_text(listing, ""));
    assert_null(kd_sass_function_text("", "k"));
}

static void test_checks_are_reset_and_outputs_optional(void **state)
{
    (void)state;
    kd_sass_checks checks;
    memset(&checks, 0x7f, sizeof checks);
    kd_sass_histogram("/*0000*/ MEMBAR.SC.GPU ;\n/*0010*/ MEMBAR.ALL.CTA ;\n",
                      NULL, NULL, &checks);
    assert_int_equal(checks.memory_barriers, 2);
    assert_int_equal(checks.barriers, 0);
    assert_int_equal(checks.global_loads, 0);
    kd_histogram fam = {0};
    kd_sass_histogram("/*0000*/ LDG.E.128 R0, [R2] ;\n", NULL, &fam, NULL);
    assert_int_equal(kd_hist_get(&fam, "LDG"), 1);
    kd_hist_free(&fam);
}

static void test_non_instruction_lines(void **state)
{
    (void)state;
    counted c = count_text("/* 0x000fe20000000800 */\n"
                           "/**/ NOP ;\n"
                           "/*00g0*/ NOP ;\n"
                           "/*0000* NOP ;\n"
                           "/*0000*/ @P0\n"
                           "/*0000*/ 0x1 ;\n"
                           "/*0000*/\n"
                           "Function : x\n"
                           "/*0000*/ { IADD3 R0, R1, R2, RZ ;\n"
                           "/*0010*/ @!P0 EXIT }");
    assert_int_equal(c.ops.total, 2);
    assert_int_equal(kd_hist_get(&c.ops, "IADD3"), 1);
    assert_int_equal(kd_hist_get(&c.ops, "EXIT"), 1);
    counted_free(&c);
}

static void test_width_modifiers_match_whole_parts(void **state)
{
    (void)state;
    counted c = count_text("/*0000*/ LDG.E.1280 R0, [R2] ;\n"
                           "/*0010*/ LDG.E.U8.64X R0, [R2] ;\n"
                           "/*0020*/ STG.E.64.STRONG.GPU [R2], R0 ;\n"
                           "/*0030*/ LDG.128 R0, [R2] ;\n");
    assert_int_equal(c.checks.global_loads, 3);
    assert_int_equal(c.checks.global_loads_128, 1);
    assert_int_equal(c.checks.global_loads_64, 0);
    assert_int_equal(c.checks.global_stores_64, 1);
    counted_free(&c);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_shared_reduce_barriers),
        cmocka_unit_test(test_vec_access_widths),
        cmocka_unit_test(test_spill_local_memory),
        cmocka_unit_test(test_multi_prefix_names_and_callee),
        cmocka_unit_test(test_multi_template_and_atomics),
        cmocka_unit_test(test_multi_arch_listing_stops_at_section),
        cmocka_unit_test(test_inline_guards_operands_and_encodings),
        cmocka_unit_test(test_inline_function_boundaries),
        cmocka_unit_test(test_checks_are_reset_and_outputs_optional),
        cmocka_unit_test(test_non_instruction_lines),
        cmocka_unit_test(test_width_modifiers_match_whole_parts),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
