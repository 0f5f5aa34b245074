/* source/kinds.h: the one list of suffixes, and the backend table that claims by it. */
#include "kd_test.h"

#include "backend/backend.h"
#include "source/kinds.h"

static void each_suffix_has_its_kind(void **state)
{
    (void)state;
    assert_int_equal(kd_source_kind_of("k.cu"), KD_SOURCE_CUDA);
    assert_int_equal(kd_source_kind_of("dir/sub/k.cu"), KD_SOURCE_CUDA);
    assert_int_equal(kd_source_kind_of("k.cuh"), KD_SOURCE_CUDA_HEADER);
    assert_int_equal(kd_source_kind_of("k.h"), KD_SOURCE_CUDA_HEADER);
    assert_int_equal(kd_source_kind_of("k.hpp"), KD_SOURCE_CUDA_HEADER);
    assert_int_equal(kd_source_kind_of("k.hh"), KD_SOURCE_CUDA_HEADER);
    assert_int_equal(kd_source_kind_of("k.hxx"), KD_SOURCE_CUDA_HEADER);
    assert_int_equal(kd_source_kind_of("k.py"), KD_SOURCE_TRITON);
    assert_int_equal(kd_source_kind_of("k.ptx"), KD_SOURCE_PTX);
    assert_int_equal(kd_source_kind_of("k.cubin"), KD_SOURCE_CUBIN);
    assert_int_equal(kd_source_kind_of("host.cpp"), KD_SOURCE_HOST);
    assert_int_equal(kd_source_kind_of("host.c"), KD_SOURCE_HOST);
}

static void only_the_last_suffix_of_the_name_counts(void **state)
{
    (void)state;
    assert_int_equal(kd_source_kind_of("k"), KD_SOURCE_UNKNOWN);
    assert_int_equal(kd_source_kind_of(""), KD_SOURCE_UNKNOWN);
    assert_int_equal(kd_source_kind_of(NULL), KD_SOURCE_UNKNOWN);
    assert_int_equal(kd_source_kind_of("a.cu.bak"), KD_SOURCE_UNKNOWN);
    assert_int_equal(kd_source_kind_of("k.cu/report"), KD_SOURCE_UNKNOWN);
    assert_int_equal(kd_source_kind_of("v1.py.d/k"), KD_SOURCE_UNKNOWN);
    assert_int_equal(kd_source_kind_of("k.cub"), KD_SOURCE_UNKNOWN);     /* no prefix match */
    assert_int_equal(kd_source_kind_of("k.pyc"), KD_SOURCE_UNKNOWN);
    assert_int_equal(kd_source_kind_of("k.tar.cu"), KD_SOURCE_CUDA);
}

/* Reading goes by the toolchains' spelling; the output guard refuses either case. */
static void case_counts_for_reading_not_for_the_guard(void **state)
{
    (void)state;
    assert_int_equal(kd_source_kind_of("K.CU"), KD_SOURCE_UNKNOWN);
    assert_int_equal(kd_source_kind_of("k.Py"), KD_SOURCE_UNKNOWN);
    assert_string_equal(kd_source_guarded_suffix("K.CU"), ".cu");
    assert_string_equal(kd_source_guarded_suffix("dir.json/k.Cubin"), ".cubin");
    assert_string_equal(kd_source_guarded_suffix("x.cpp"), ".cpp");
    assert_string_equal(kd_source_guarded_suffix("k.cuh"), ".cuh");
    assert_null(kd_source_guarded_suffix("report.json"));
    assert_null(kd_source_guarded_suffix("a.cu.bak"));
    assert_null(kd_source_guarded_suffix("k.cu/report"));
    assert_null(kd_source_guarded_suffix("k"));
}

/* What rank takes from a folder of candidates: kernel files, not the headers they share. */
static void kernels_are_the_four_readable_kinds(void **state)
{
    (void)state;
    assert_true(kd_source_is_kernel("v2.cu"));
    assert_true(kd_source_is_kernel("v2.py"));
    assert_true(kd_source_is_kernel("v2.ptx"));
    assert_true(kd_source_is_kernel("v2.cubin"));
    assert_false(kd_source_is_kernel("common.cuh"));
    assert_false(kd_source_is_kernel("common.h"));
    assert_false(kd_source_is_kernel("main.cpp"));
    assert_false(kd_source_is_kernel("README"));
    assert_false(kd_source_is_kernel("v2.cu.orig"));
}

/* The backend table claims by the same kinds: no list of its own to drift. */
static void the_backend_table_agrees(void **state)
{
    (void)state;
    unsetenv("KERNDIFF_SIMULATE"); /* the sim backend, first in the table, claims all when set */
    assert_string_equal(kd_frontend_for("k.py")->name, "triton");
    assert_string_equal(kd_frontend_for("k.ptx")->name, "binary");
    assert_string_equal(kd_frontend_for("k.cubin")->name, "binary");
    assert_string_equal(kd_frontend_for("k.cu")->name, "cuda");
    assert_string_equal(kd_frontend_for("k.cuh")->name, "cuda");
    assert_string_equal(kd_frontend_for("k.PY")->name, "cuda"); /* nvcc decides what it is */
    assert_string_equal(kd_frontend_for("a.py.bak")->name, "cuda");
    assert_string_equal(kd_backend_for("a.ptx", "b.cubin")->name, "binary");
    assert_string_equal(kd_backend_for("a.py", "b.cu")->name, "cuda");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(each_suffix_has_its_kind),
        cmocka_unit_test(only_the_last_suffix_of_the_name_counts),
        cmocka_unit_test(case_counts_for_reading_not_for_the_guard),
        cmocka_unit_test(kernels_are_the_four_readable_kinds),
        cmocka_unit_test(the_backend_table_agrees),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
