/* A fault in a C++ kernel names the kernel (not its return type), and a fault in a kernel
 * with dynamic shared memory names --smem first. */
#include "kd_test.h"

#include <string.h>

#include "sanitizer/report.h"

/* The shape compute-sanitizer gives a templated C++ kernel's frame (demangled, with its
 * return type and parameters). */
static const char shared_fault[] =
    "========= COMPUTE-SANITIZER\n"
    "========= Invalid __shared__ write of size 4 bytes\n"
    "=========     at void reduce0<float>(float *, float *, unsigned int)+0x1b0 in reduce.cu:40\n"
    "=========     by thread (3,0,0) in block (0,0,0)\n"
    "=========     Access to 0x0 is out of bounds\n"
    "========= \n"
    "========= ERROR SUMMARY: 1 error\n";

static void cpp_frame_names_the_kernel(void **state)
{
    (void)state;
    kd_san_report r;
    kd_san_parse(shared_fault, &r);
    assert_int_equal(r.count, 1);
    assert_string_equal(r.findings[0].function, "reduce0<float>");
    assert_string_equal(r.findings[0].file, "reduce.cu");
    assert_int_equal(r.findings[0].line, 40);
    kd_san_report_free(&r);
    kd_san_parse("========= Invalid __global__ read of size 4 bytes\n"
                 "=========     at ns::k<float, 4>(float const*)+0x10 in k.cu:3\n========= \n", &r);
    assert_string_equal(r.findings[0].function, "ns::k<float, 4>");
    kd_san_report_free(&r);
}

static void dynamic_shared_fault_names_smem_first(void **state)
{
    (void)state;
    kd_san_report r;
    kd_san_parse(shared_fault, &r);
    kd_launch_spec spec = {.dynamic_shared = true, .dynamic_smem = 0, .smem_origin = "--smem"};
    kd_san_note_launch(&r, &spec);
    kd_strbuf text = {0};
    kd_san_explain(&r.findings[0], NULL, 0, &text);
    assert_string_equal(kd_sb_str(&text),
                        "thread (3,0,0) of block (0,0,0) wrote 4 bytes of shared memory at offset 0x0, outside the "
                        "block's shared memory at reduce.cu:40 (in reduce0<float>); the kernel's dynamic shared memory "
                        "(extern __shared__) is 0 B, as set: give the size it needs with --smem BYTES");
    kd_sb_free(&text);
    spec = (kd_launch_spec){.dynamic_shared = true, .dynamic_smem = 1024, .smem_origin = "assumed"};
    kd_san_note_launch(&r, &spec);
    kd_san_explain(&r.findings[0], NULL, 0, &text);
    assert_non_null(strstr(kd_sb_str(&text), "is 1024 B, assumed (one element a thread): give the size it needs "
                                             "with --smem BYTES"));
    assert_null(strstr(kd_sb_str(&text), "--block"));
    kd_sb_free(&text);
    spec = (kd_launch_spec){.dynamic_shared = false, .smem_origin = "default"}; /* static arrays: the block */
    kd_san_note_launch(&r, &spec);
    kd_san_explain(&r.findings[0], NULL, 0, &text);
    assert_non_null(strstr(kd_sb_str(&text), "; a --block larger than the kernel's shared arrays assume?"));
    kd_sb_free(&text);
    kd_san_report_free(&r);
}

static void global_fault_with_assumed_smem_names_smem_then_the_buffer(void **state)
{
    (void)state;
    kd_launch_arg out = {.name = "g_odata", .role = KD_ROLE_OUTPUT, .type = {.base = KD_DT_F32, .lanes = 1}, .count = 4};
    kd_san_buffer b = {&out, 0x1000, 16};
    kd_san_finding f = {.kind = KD_SAN_INVALID_ACCESS, .space = "global", .access = "write", .size = 4,
                        .has_address = true, .address = 0x1010, .count = 1, .dynamic_shared = true,
                        .smem_assumed = true, .smem_bytes = 1024};
    kd_strbuf text = {0};
    kd_san_explain(&f, &b, 1, &text);
    assert_string_equal(kd_sb_str(&text), "wrote 4 bytes at g_odata[4], one past its end (4 elements); the kernel's "
                                           "dynamic shared memory (extern __shared__) is 1024 B, assumed (one element "
                                           "a thread): give the size it needs with --smem BYTES, else --n, --buf "
                                           "g_odata=... or --grid");
    kd_sb_free(&text);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(cpp_frame_names_the_kernel),
        cmocka_unit_test(dynamic_shared_fault_names_smem_first),
        cmocka_unit_test(global_fault_with_assumed_smem_names_smem_then_the_buffer),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
