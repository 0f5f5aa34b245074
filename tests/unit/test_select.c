#include "kd_test.h"

#include <stdio.h>
#include <string.h>

#include "report/diag_text.h"
#include "source/select.h"

static kd_kernel_list scan(const char *text)
{
    kd_kernel_list list = {0};
    assert_int_equal(kd_scan_source(text, strlen(text), &list), 0);
    return list;
}

static const char *const files[2] = {"a.cu", "b.cu"};

/* The message as report/ words it (report/words_source.c), then freed. */
static void assert_said(kd_diag *d, const char *want)
{
    kd_strbuf text = {0};
    kd_diag_text(d, &text);
    assert_string_equal(kd_sb_str(&text), want);
    kd_sb_free(&text);
    kd_diag_free(d);
}
static const char *const no_fn[2] = {NULL, NULL};

static void the_one_common_kernel_is_chosen(void **state)
{
    (void)state;
    kd_kernel_list lists[2] = {scan("__global__ void k(float*p){}\n__global__ void only_a(){}\n"),
                               scan("__global__ void k(float*p){}\n__global__ void only_b(){}\n")};
    kd_selection sel;
    kd_diag err = {0};
    assert_int_equal(kd_select_kernel(lists, files, no_fn, &sel, &err), 0);
    assert_string_equal(sel.name[0], "k");
    assert_string_equal(sel.name[1], "k");
    assert_false(sel.one_kernel_each);
    kd_selection_free(&sel);
    kd_kernel_list_free(&lists[0]);
    kd_kernel_list_free(&lists[1]);
}

static void several_common_kernels_without_instances_fail_with_the_list(void **state)
{
    (void)state;
    const char *src = "__global__ void alpha(){}\n__global__ void beta(){}\n";
    kd_kernel_list lists[2] = {scan(src), scan(src)};
    kd_selection sel;
    kd_diag err = {0};
    assert_int_equal(kd_select_kernel(lists, files, no_fn, &sel, &err), -1);
    assert_said(&err, "kerndiff: both files define several kernels; choose one with --fn NAME: alpha, beta");
    kd_kernel_list_free(&lists[0]);
    kd_kernel_list_free(&lists[1]);
}

static void fn_names_are_checked_per_side(void **state)
{
    (void)state;
    kd_kernel_list lists[2] = {scan("__global__ void old_k(){}\n"), scan("__global__ void new_k(){}\n")};
    kd_selection sel;
    kd_diag err = {0};
    const char *const both[2] = {"old_k", "new_k"};
    assert_int_equal(kd_select_kernel(lists, files, both, &sel, &err), 0);
    assert_string_equal(sel.name[1], "new_k");
    kd_selection_free(&sel);
    const char *const wrong[2] = {"old_k", "old_k"};
    assert_int_equal(kd_select_kernel(lists, files, wrong, &sel, &err), -1);
    assert_said(&err, "kerndiff: v2: no kernel named 'old_k' in b.cu; kernels there: new_k");
    kd_kernel_list_free(&lists[0]);
    kd_kernel_list_free(&lists[1]);
}

static void a_renamed_single_kernel_is_paired_with_a_note(void **state)
{
    (void)state;
    kd_kernel_list lists[2] = {scan("__global__ void old_k(){}\n"), scan("__global__ void new_k(){}\n")};
    kd_selection sel;
    kd_diag err = {0};
    assert_int_equal(kd_select_kernel(lists, files, no_fn, &sel, &err), 0);
    assert_string_equal(sel.name[0], "old_k");
    assert_string_equal(sel.name[1], "new_k");
    assert_true(sel.one_kernel_each);
    kd_selection_free(&sel);
    kd_kernel_list_free(&lists[0]);
    kd_kernel_list_free(&lists[1]);
}

static void template_arguments_do_not_hide_the_kernel(void **state)
{
    (void)state;
    const char *src = "template <typename T> __global__ void tk(T *p) {}\n";
    kd_kernel_list lists[2] = {scan(src), scan(src)};
    kd_selection sel;
    kd_diag err = {0};
    const char *const fn[2] = {"tk<float>", "tk<float>"};
    assert_int_equal(kd_select_kernel(lists, files, fn, &sel, &err), 0);
    assert_string_equal(sel.name[0], "tk<float>");
    kd_selection_free(&sel);
    kd_kernel_list_free(&lists[0]);
    kd_kernel_list_free(&lists[1]);
}

static void no_kernel_is_said_in_the_files_language(void **state)
{
    (void)state;
    kd_kernel_list lists[2] = {scan("__global__ void k(){}\n"), {0}};
    kd_selection sel;
    kd_diag err = {0};
    const char *const py[2] = {"a.cu", "b.py"}, *const ptx[2] = {"a.cu", "b.ptx"};
    assert_int_equal(kd_select_kernel(lists, files, no_fn, &sel, &err), -1);
    assert_said(&err, "kerndiff: v2: no __global__ kernel found in b.cu");
    assert_int_equal(kd_select_kernel(lists, py, no_fn, &sel, &err), -1);
    assert_said(&err, "kerndiff: v2: no @triton.jit kernel found in b.py");
    assert_int_equal(kd_select_kernel(lists, ptx, no_fn, &sel, &err), -1);
    assert_said(&err, "kerndiff: v2: no .entry kernel found in b.ptx");
    kd_kernel_list_free(&lists[0]);
}

static void a_misspelt_fn_gets_the_nearest_name(void **state)
{
    (void)state;
    kd_kernel_list lists[2] = {scan("__global__ void transpose(){}\n__global__ void copy(){}\n"),
                               scan("__global__ void transpose(){}\n")};
    const char *const fn[2] = {"transpos", "transpose"};
    kd_selection sel;
    kd_diag err = {0};
    assert_int_equal(kd_select_kernel(lists, files, fn, &sel, &err), -1);
    assert_said(&err, "kerndiff: v1: no kernel named 'transpos' in a.cu (did you mean transpose?); kernels there: "
                      "transpose, copy");
    kd_kernel_list_free(&lists[0]);
    kd_kernel_list_free(&lists[1]);
}

static void no_common_kernel_lists_both_sides(void **state)
{
    (void)state;
    kd_kernel_list lists[2] = {scan("__global__ void a1(){}\n__global__ void a2(){}\n"),
                               scan("__global__ void b1(){}\n")};
    kd_selection sel;
    kd_diag err = {0};
    assert_int_equal(kd_select_kernel(lists, files, no_fn, &sel, &err), -1);
    assert_said(&err, "kerndiff: no kernel is common to both files; use --fn NAME1:NAME2\n  v1 has: a1, a2\n  v2 has: b1");
    kd_kernel_list_free(&lists[0]);
    kd_kernel_list_free(&lists[1]);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(the_one_common_kernel_is_chosen),
        cmocka_unit_test(several_common_kernels_without_instances_fail_with_the_list),
        cmocka_unit_test(fn_names_are_checked_per_side),
        cmocka_unit_test(a_renamed_single_kernel_is_paired_with_a_note),
        cmocka_unit_test(template_arguments_do_not_hide_the_kernel),
        cmocka_unit_test(no_kernel_is_said_in_the_files_language),
        cmocka_unit_test(a_misspelt_fn_gets_the_nearest_name),
        cmocka_unit_test(no_common_kernel_lists_both_sides),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
