/* test_resources.c — `ptxas -v` logs captured from nvcc 13.0 (tests/fixtures/README.md) and
 * inline variations of the format. */
#include "kd_test.h"

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "static/resources.h"

static kd_resources parse_fixture(const char *fixture, const char *function)
{
    char *log = read_fixture(fixture);
    kd_resources r;
    if (kd_resources_parse(log, function, &r) != 0)
        fail_msg("%s not in %s", function, fixture);
    free(log);
    assert_true(r.found);
    return r;
}

/* ---- fixtures ---- */

static void test_shared_reduce_smem_and_barrier(void **state)
{
    (void)state;
    kd_resources r = parse_fixture("ptxas/shared.sm_90.log", "_Z6reducePKfPfPji");
    assert_int_equal(r.registers, 12);
    assert_int_equal(r.barriers, 1);
    assert_int_equal(r.shared_static, 1024);
    assert_int_equal(r.stack_frame, 0);
    assert_int_equal(r.spill_stores, 0);
    assert_int_equal(r.spill_loads, 0);
    assert_int_equal(r.constant0, 0); /* ptxas 13.0 prints no cmem for sm_90 */
}

static void test_spill_bytes(void **state)
{
    (void)state;
    kd_resources r = parse_fixture("ptxas/spill.sm_90.log", "_Z5spillP6float4i");
    assert_int_equal(r.registers, 32);
    assert_int_equal(r.barriers, 0);
    assert_int_equal(r.stack_frame, 560);
    assert_int_equal(r.spill_stores, 304);
    assert_int_equal(r.spill_loads, 440);
    assert_int_equal(r.shared_static, 0);
}

static void test_sm80_prints_cmem(void **state)
{
    (void)state;
    kd_resources r = parse_fixture("ptxas/vec.sm_80.log", "_Z6scale4PK6float4PS_fi");
    assert_int_equal(r.registers, 14);
    assert_int_equal(r.constant0, 376);
    r = parse_fixture("ptxas/vec.sm_90.log", "_Z6scale4PK6float4PS_fi");
    assert_int_equal(r.registers, 14);
    assert_int_equal(r.constant0, 0);
}

/* A two-target build logs every entry twice; the first target (sm_80 here) wins. */
static void test_multi_target_log_takes_first(void **state)
{
    (void)state;
    kd_resources r = parse_fixture("ptxas/vec.sm_80_sm_90.log", "_Z6scale1PKfPffi");
    assert_int_equal(r.registers, 10);
    assert_int_equal(r.constant0, 376);
}

/* ptxas logs entries in reverse order and the .func helper's properties after entry k. */
static void test_multi_exact_names(void **state)
{
    (void)state;
    kd_resources k = parse_fixture("ptxas/multi.sm_90.log", "k");
    kd_resources k2 = parse_fixture("ptxas/multi.sm_90.log", "k2");
    kd_resources d = parse_fixture("ptxas/multi.sm_90.log", "_Z4axpyIdEvT_PKS0_PS0_i");
    kd_resources a = parse_fixture("ptxas/multi.sm_90.log", "_Z7atomicsPiPdPKdi");
    assert_int_equal(k.registers, 10);
    assert_int_equal(k2.registers, 8);
    assert_int_equal(d.registers, 14);
    assert_int_equal(a.registers, 12);

    char *log = read_fixture("ptxas/multi.sm_90.log");
    kd_resources r;
    assert_int_equal(kd_resources_parse(log, "_Z6helperfi", &r), -1); /* a .func */
    assert_false(r.found);
    assert_int_equal(kd_resources_parse(log, "_Z4axpy", &r), -1);
    assert_int_equal(kd_resources_parse(log, "", &r), -1);
    free(log);
}

/* ---- inline variations ---- */

static const char func_inside_entry[] =
    "ptxas info    : 0 bytes gmem\n"
    "ptxas info    : Compiling entry function 'k2' for 'sm_90'\n"
    "ptxas info    : Function properties for k2\n"
    "    8 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads\n"
    "ptxas info    : Used 20 registers, used 0 barriers, 8 bytes cumulative stack size\n"
    "ptxas info    : Compiling entry function 'k' for 'sm_90'\n"
    "ptxas info    : Function properties for k\n"
    "    16 bytes stack frame, 4 bytes spill stores, 12 bytes spill loads\n"
    "ptxas info    : Used 10 registers, used 2 barriers, 48 bytes smem\n"
    "ptxas info    : Compile time = 3.698 ms\n"
    "ptxas info    : Function properties for kk\n"
    "    96 bytes stack frame, 88 bytes spill stores, 88 bytes spill loads\n"
    "ptxas info    : Function properties for _Z6helperfi\n"
    "    64 bytes stack frame, 32 bytes spill stores, 32 bytes spill loads\n";

static void test_func_properties_inside_entry_are_ignored(void **state)
{
    (void)state;
    kd_resources r;
    assert_int_equal(kd_resources_parse(func_inside_entry, "k", &r), 0);
    assert_true(r.found);
    assert_int_equal(r.registers, 10);
    assert_int_equal(r.barriers, 2);
    assert_int_equal(r.shared_static, 48);
    assert_int_equal(r.stack_frame, 16);
    assert_int_equal(r.spill_stores, 4);
    assert_int_equal(r.spill_loads, 12);
    assert_int_equal(kd_resources_parse(func_inside_entry, "k2", &r), 0);
    assert_int_equal(r.registers, 20);
    assert_int_equal(r.stack_frame, 8);
    assert_int_equal(r.barriers, 0);
}

/* Older ptxas releases left out the barriers part; cmem banks other than 0 are not cmem[0]. */
static void test_used_line_without_smem_or_barriers(void **state)
{
    (void)state;
    const char *log = "ptxas info    : Compiling entry function '_Z1fv' for 'sm_70'\n"
                      "ptxas info    : Function properties for _Z1fv\n"
                      "    0 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads\n"
                      "ptxas info    : Used 6 registers, 8 bytes cmem[2], 356 bytes cmem[0]\n";
    kd_resources r;
    assert_int_equal(kd_resources_parse(log, "_Z1fv", &r), 0);
    assert_int_equal(r.registers, 6);
    assert_int_equal(r.barriers, 0);
    assert_int_equal(r.shared_static, 0);
    assert_int_equal(r.constant0, 356);
}

static void test_crlf_and_missing_lines(void **state)
{
    (void)state;
    kd_resources r;
    const char *crlf = "ptxas info    : Compiling entry function 'k' for 'sm_90'\r\n"
                       "ptxas info    : Function properties for k\r\n"
                       "    32 bytes stack frame, 8 bytes spill stores, 8 bytes spill loads\r\n"
                       "ptxas info    : Used 40 registers, used 1 barriers, 512 bytes smem\r\n";
    assert_int_equal(kd_resources_parse(crlf, "k", &r), 0);
    assert_int_equal(r.registers, 40);
    assert_int_equal(r.shared_static, 512);
    assert_int_equal(r.stack_frame, 32);
    assert_int_equal(r.spill_loads, 8);

    /* A log cut off after the Compiling line: the entry exists, its figures are unknown (not
     * found: shown `?`, never 0 registers, no occupancy from them). */
    assert_int_equal(kd_resources_parse("ptxas info : Compiling entry function 'k' for 'sm_90'",
                                        "k", &r),
                     -1);
    assert_false(r.found);
    assert_int_equal(kd_resources_parse("ptxas info : Compiling entry function 'k' for 'sm_90'\n"
                                        "ptxas info : Function properties for k",
                                        "k", &r),
                     -1);
    assert_false(r.found);
    /* A reworded report (issue 40): "Used 40 regs" is not 0 registers but unknown. */
    assert_int_equal(kd_resources_parse("ptxas info    : Compiling entry function 'k' for 'sm_90'\n"
                                        "ptxas info    : Used 40 regs, 512 bytes smem\n",
                                        "k", &r),
                     -1);
    assert_false(r.found);
    /* more registers than any GPU gives a thread: damage, unknown */
    assert_int_equal(kd_resources_parse("ptxas info    : Compiling entry function 'k' for 'sm_90'\n"
                                        "ptxas info    : Used 4096 registers\n",
                                        "k", &r),
                     -1);
    assert_int_equal(kd_resources_parse("Resource usage:\n Function k:\n  REGS:26 STACK:0 SHARED:0\n", "k", &r), -1);
    assert_false(r.found);
}

static void test_absent_function_clears_output(void **state)
{
    (void)state;
    kd_resources r;
    memset(&r, 0x5a, sizeof r);
    assert_int_equal(kd_resources_parse(func_inside_entry, "kk", &r), -1);
    assert_false(r.found);
    assert_int_equal(r.registers, 0);
    assert_int_equal(r.stack_frame, 0);
    assert_int_equal(kd_resources_parse("", "k", &r), -1);
    assert_int_equal(kd_resources_parse("Compiling entry function 'k", "k", &r), -1);
}

static void test_huge_numbers_saturate(void **state)
{
    (void)state;
    const char *log = "ptxas info    : Compiling entry function 'k' for 'sm_90'\n"
                      "ptxas info    : Function properties for k\n"
                      "    99999999999999999999999 bytes stack frame\n"
                      "ptxas info    : Used 99999999999 registers, used x barriers, smem\n";
    kd_resources r;
    /* read without overflow (saturated), and a register count no GPU has is unknown (issue 40) */
    assert_int_equal(kd_resources_parse(log, "k", &r), -1);
    assert_false(r.found);
    const char *big_stack = "ptxas info    : Compiling entry function 'k' for 'sm_90'\n"
                            "ptxas info    : Function properties for k\n"
                            "    99999999999999999999999 bytes stack frame\n"
                            "ptxas info    : Used 40 registers, used x barriers, smem\n";
    assert_int_equal(kd_resources_parse(big_stack, "k", &r), 0);
    assert_int_equal(r.stack_frame, LONG_MAX);
    assert_int_equal(r.registers, 40);
    assert_int_equal(r.barriers, 0);
}

/* A cubin kerndiff did not compile (Triton's): cuobjdump's resource usage. */
static void test_cuobjdump_resource_usage(void **state)
{
    (void)state;
    const char text[] = "\nResource usage:\n Common:\n  GLOBAL:0\n Function add_kernel_v2:\n"
                        "  REG:40 STACK:8 SHARED:0 LOCAL:16 CONSTANT[0]:576 TEXTURE:0\n"
                        " Function add_kernel:\n  REG:26 STACK:0 SHARED:1024 LOCAL:0 CONSTANT[0]:576 TEXTURE:0\n";
    kd_resources r;
    assert_int_equal(kd_resources_parse(text, "add_kernel", &r), 0);
    assert_true(r.found);
    assert_int_equal(r.registers, 26);
    assert_int_equal(r.shared_static, 1024);
    assert_int_equal(r.stack_frame, 0);
    assert_int_equal(r.constant0, 576);
    assert_int_equal(kd_resources_parse(text, "add_kernel_v2", &r), 0);
    assert_int_equal(r.registers, 40);
    assert_int_equal(r.spill_stores, 16);
    assert_int_equal(kd_resources_parse(text, "add", &r), -1);
    assert_false(r.found);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_cuobjdump_resource_usage),
        cmocka_unit_test(test_shared_reduce_smem_and_barrier),
        cmocka_unit_test(test_spill_bytes),
        cmocka_unit_test(test_sm80_prints_cmem),
        cmocka_unit_test(test_multi_target_log_takes_first),
        cmocka_unit_test(test_multi_exact_names),
        cmocka_unit_test(test_func_properties_inside_entry_are_ignored),
        cmocka_unit_test(test_used_line_without_smem_or_barriers),
        cmocka_unit_test(test_crlf_and_missing_lines),
        cmocka_unit_test(test_absent_function_clears_output),
        cmocka_unit_test(test_huge_numbers_saturate),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
