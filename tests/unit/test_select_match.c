/* Several kernels compared with zero flags (issue 27): the kernels two files share are matched
 * by name, a template by its compiled instance; those only one file has are kept apart. */
#include "kd_test.h"

#include <string.h>

#include "source/select.h"

static kd_strlist list_of(const char *const *names, size_t n)
{
    kd_strlist l = {0};
    for (size_t i = 0; i < n; i++)
        kd_strlist_push(&l, names[i]);
    return l;
}

static void shared_in_v1_order_and_only_per_side(void **state)
{
    (void)state;
    const char *const a[] = {"copy", "transposeNaive", "gone", "transposeCoalesced"};
    const char *const b[] = {"transposeCoalesced", "added", "copy", "transposeNaive"};
    kd_strlist names[2] = {list_of(a, 4), list_of(b, 4)};
    kd_kernel_match m;
    kd_match_kernels(names, &m);
    assert_int_equal(m.nshared, 3);
    assert_string_equal(m.shared[0], "copy");
    assert_string_equal(m.shared[1], "transposeNaive");
    assert_string_equal(m.shared[2], "transposeCoalesced");
    assert_int_equal(m.nonly[0], 1);
    assert_string_equal(m.only[0][0], "gone");
    assert_int_equal(m.nonly[1], 1);
    assert_string_equal(m.only[1][0], "added");
    kd_kernel_match_free(&m);
    assert_int_equal(m.nshared, 0);
    free(names[0].items);
    free(names[1].items);
}

static void instances_are_matched_by_their_compiled_spelling(void **state)
{
    (void)state;
    const char *const a[] = {"axpy<float>", "axpy<double>", "reduce4<float, 256u>"};
    const char *const b[] = {"axpy<double>", "reduce4<float, 128u>", "axpy<float>"};
    kd_strlist names[2] = {list_of(a, 3), list_of(b, 3)};
    kd_kernel_match m;
    kd_match_kernels(names, &m);
    assert_int_equal(m.nshared, 2);
    assert_string_equal(m.shared[0], "axpy<float>");
    assert_string_equal(m.shared[1], "axpy<double>");
    assert_int_equal(m.nonly[0], 1);
    assert_string_equal(m.only[0][0], "reduce4<float, 256u>");
    assert_int_equal(m.nonly[1], 1);
    assert_string_equal(m.only[1][0], "reduce4<float, 128u>");
    kd_kernel_match_free(&m);
    free(names[0].items);
    free(names[1].items);
}

static void a_name_twice_counts_once(void **state)
{
    (void)state;
    const char *const a[] = {"k", "k", "only"};
    const char *const b[] = {"k", "other", "other"};
    kd_strlist names[2] = {list_of(a, 3), list_of(b, 3)};
    kd_kernel_match m;
    kd_match_kernels(names, &m);
    assert_int_equal(m.nshared, 1);
    assert_string_equal(m.shared[0], "k");
    assert_int_equal(m.nonly[0], 1);
    assert_int_equal(m.nonly[1], 1);
    assert_string_equal(m.only[1][0], "other");
    kd_kernel_match_free(&m);
    free(names[0].items);
    free(names[1].items);
}

static void nothing_shared(void **state)
{
    (void)state;
    kd_strlist names[2] = {{0}, {0}};
    kd_kernel_match m;
    kd_match_kernels(names, &m);
    assert_int_equal(m.nshared, 0);
    assert_int_equal(m.nonly[0] + m.nonly[1], 0);
    kd_kernel_match_free(&m);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(shared_in_v1_order_and_only_per_side),
        cmocka_unit_test(instances_are_matched_by_their_compiled_spelling),
        cmocka_unit_test(a_name_twice_counts_once),
        cmocka_unit_test(nothing_shared),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
