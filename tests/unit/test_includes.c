/* A header nvcc could not find, looked for near the kernel file. */
#include "kd_test.h"

#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "compile/includes.h"
#include "util/fs.h"

static char root[64];

static void touch(const char *relative)
{
    char path[256];
    snprintf(path, sizeof path, "%s/%s", root, relative);
    char *dir = kd_dirname(path);
    assert_int_equal(kd_mkdir_p(dir), 0);
    free(dir);
    assert_int_equal(kd_write_file(path, "", 0), 0);
}

static int make_tree(void **state)
{
    (void)state;
    snprintf(root, sizeof root, "/tmp/kd_includes_XXXXXX");
    assert_non_null(mkdtemp(root));
    touch("samples/Common/helper_cuda.h");
    touch("samples/0_Intro/reduction/reduce.cu");
    touch("samples/0_Intro/reduction/inc/local.h");
    touch("samples/0_Intro/include/cuda/vec.h");
    touch("far/a/b/c/d/k.cu");
    touch("far/Common/too_far.h");
    /* LeetCUDA's layout: the header in a sibling subfolder of a parent, two of them alike */
    touch("kernels/flash-attn/mma/basic/split_kv.cu");
    touch("kernels/flash-attn/utils/utils.h");
    touch("kernels/hgemm/utils/utils.h");
    touch("kernels/flash-attn/.hidden/secret.h");
    return 0;
}

static int remove_tree(void **state)
{
    (void)state;
    return kd_remove_tree(root);
}

static void expect(const char *path, const char *header, const char *want)
{
    char *dir = NULL;
    if (!want) {
        assert_int_equal(kd_suggest_include(path, header, &dir), -1);
        return;
    }
    assert_int_equal(kd_suggest_include(path, header, &dir), 0);
    assert_string_equal(dir, want);
    free(dir);
}

static void finds_headers_in_parents_and_their_common_folders(void **state)
{
    (void)state;
    char file[256], want[256];
    snprintf(file, sizeof file, "%s/samples/0_Intro/reduction/reduce.cu", root);
    char *dir = NULL;
    assert_int_equal(kd_suggest_include(file, "helper_cuda.h", &dir), 0);
    /* spelled from the path; the folder is samples/Common */
    assert_non_null(strstr(dir, "/samples/Common"));
    free(dir);
    snprintf(want, sizeof want, "%s/samples/0_Intro/reduction/inc", root);
    expect(file, "local.h", want);
    snprintf(want, sizeof want, "%s/samples/0_Intro/include", root);
    expect(file, "cuda/vec.h", want);
    expect(file, "nowhere.h", NULL);
    expect(file, "/abs/helper.h", NULL);
    snprintf(file, sizeof file, "%s/far/a/b/c/d/k.cu", root);
    expect(file, "too_far.h", NULL); /* 4 levels up: beyond the search */
}

static void finds_headers_in_any_subfolder_of_a_parent(void **state)
{
    (void)state;
    char file[256], want[256];
    snprintf(file, sizeof file, "%s/kernels/flash-attn/mma/basic/split_kv.cu", root);
    /* kernels/flash-attn has it in its utils/ subfolder (kernels/hgemm/utils is another project part) */
    snprintf(want, sizeof want, "%s/kernels/flash-attn/utils", root);
    expect(file, "utils.h", want);
    expect(file, "secret.h", NULL); /* hidden folders are not read */
}

static void relative_paths_stay_relative(void **state)
{
    (void)state;
    char here[512], dir[256];
    assert_non_null(getcwd(here, sizeof here));
    snprintf(dir, sizeof dir, "%s/samples/0_Intro/reduction", root);
    assert_int_equal(chdir(dir), 0);
    expect("reduce.cu", "helper_cuda.h", "../../Common");
    expect("./reduce.cu", "local.h", "./inc");
    assert_int_equal(chdir(here), 0);
}

static void reads_nvccs_missing_header(void **state)
{
    (void)state;
    char *header = NULL;
    assert_true(kd_missing_include("reduce.cu:3:10: fatal error: helper_cuda.h: No such file or directory\n"
                                   "    3 | #include <helper_cuda.h>\ncompilation terminated.\n", &header));
    assert_string_equal(header, "helper_cuda.h");
    free(header);
    assert_false(kd_missing_include("k.cu(4): error: identifier \"x\" is undefined\n", &header));
    assert_false(kd_missing_include("fatal error: cannot open output file\nx: No such file or directory\n", &header));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(finds_headers_in_parents_and_their_common_folders),
        cmocka_unit_test(finds_headers_in_any_subfolder_of_a_parent),
        cmocka_unit_test(relative_paths_stay_relative),
        cmocka_unit_test(reads_nvccs_missing_header),
    };
    return cmocka_run_group_tests(tests, make_tree, remove_tree);
}
