#include "kd_test.h"

#include <stdio.h>
#include <string.h>

#include "source/select.h"

static kd_kernel_list scan(const char *text)
{
    kd_kernel_list list = {0};
    assert_int_equal(kd_scan_source(text, strlen(text), &list), 0);
    return list;
}

static const char *const files[2] = {"a.cu", "b.cu"};
static const char *const no_fn[2] = {NULL, NULL};

static void the_one_common_kernel_is_chosen(void **state)
{
    (void)state;
    kd_kernel_list lists[2] = {scan("__global__ void k(float*p){}\n__global__ void only_a(){}\n"),
                               scan("__global__ void k(float*p){}\n__global__ void only_b(){}\n")};
    kd_selection sel;
    kd_strbuf err = {0};
    assert_int_equal(kd_select_kernel(lists, files, no_fn, NULL, NULL, &sel, &err), 0);
    assert_string_equal(sel.name[0], "k");
    assert_string_equal(sel.name[1], "k");
    assert_false(sel.one_kernel_each);
    kd_selection_free(&sel);
    kd_kernel_list_free(&lists[0]);
    kd_kernel_list_free(&lists[1]);
}

static void several_common_kernels_fail_with_the_list_off_a_terminal(void **state)
{
    (void)state;
    const char *src = "__global__ void alpha(){}\n__global__ void beta(){}\n";
    kd_kernel_list lists[2] = {scan(src), scan(src)};
    kd_selection sel;
    kd_strbuf err = {0};
    assert_int_equal(kd_select_kernel(lists, files, no_fn, NULL, NULL, &sel, &err), -1);
    assert_string_equal(kd_sb_str(&err), "both files define several kernels; choose one with --fn NAME: alpha, beta");
    kd_sb_free(&err);
    kd_kernel_list_free(&lists[0]);
    kd_kernel_list_free(&lists[1]);
}

static void a_terminal_user_picks_by_number(void **state)
{
    (void)state;
    const char *src = "__global__ void alpha(){}\n__global__ void beta(){}\n";
    kd_kernel_list lists[2] = {scan(src), scan(src)};
    FILE *in = fmemopen((char[]){"2\n"}, 2, "r");
    char shown[512] = {0};
    FILE *out = fmemopen(shown, sizeof shown - 1, "w");
    kd_selection sel;
    kd_strbuf err = {0};
    assert_int_equal(kd_select_kernel(lists, files, no_fn, in, out, &sel, &err), 0);
    fclose(out);
    fclose(in);
    assert_string_equal(sel.name[0], "beta");
    assert_non_null(strstr(shown, "  1) alpha\n  2) beta\n"));
    kd_selection_free(&sel);
    kd_kernel_list_free(&lists[0]);
    kd_kernel_list_free(&lists[1]);
}

static void fn_names_are_checked_per_side(void **state)
{
    (void)state;
    kd_kernel_list lists[2] = {scan("__global__ void old_k(){}\n"), scan("__global__ void new_k(){}\n")};
    kd_selection sel;
    kd_strbuf err = {0};
    const char *const both[2] = {"old_k", "new_k"};
    assert_int_equal(kd_select_kernel(lists, files, both, NULL, NULL, &sel, &err), 0);
    assert_string_equal(sel.name[1], "new_k");
    kd_selection_free(&sel);
    const char *const wrong[2] = {"old_k", "old_k"};
    assert_int_equal(kd_select_kernel(lists, files, wrong, NULL, NULL, &sel, &err), -1);
    assert_string_equal(kd_sb_str(&err), "v2: no kernel named 'old_k' in b.cu; kernels there: new_k");
    kd_sb_free(&err);
    kd_kernel_list_free(&lists[0]);
    kd_kernel_list_free(&lists[1]);
}

static void a_renamed_single_kernel_is_paired_with_a_note(void **state)
{
    (void)state;
    kd_kernel_list lists[2] = {scan("__global__ void old_k(){}\n"), scan("__global__ void new_k(){}\n")};
    kd_selection sel;
    kd_strbuf err = {0};
    assert_int_equal(kd_select_kernel(lists, files, no_fn, NULL, NULL, &sel, &err), 0);
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
    kd_strbuf err = {0};
    const char *const fn[2] = {"tk<float>", "tk<float>"};
    assert_int_equal(kd_select_kernel(lists, files, fn, NULL, NULL, &sel, &err), 0);
    assert_string_equal(sel.name[0], "tk<float>");
    kd_selection_free(&sel);
    kd_kernel_list_free(&lists[0]);
    kd_kernel_list_free(&lists[1]);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(the_one_common_kernel_is_chosen),
        cmocka_unit_test(several_common_kernels_fail_with_the_list_off_a_terminal),
        cmocka_unit_test(a_terminal_user_picks_by_number),
        cmocka_unit_test(fn_names_are_checked_per_side),
        cmocka_unit_test(a_renamed_single_kernel_is_paired_with_a_note),
        cmocka_unit_test(template_arguments_do_not_hide_the_kernel),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
