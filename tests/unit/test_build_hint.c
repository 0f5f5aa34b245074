/* The last line of a failed build's message (compile/build.h kd_build_failure_hint): a
 * header nvcc could not open is looked for near the kernel file and offered as -I DIR. */
#include "kd_test.h"

#include <string.h>
#include <unistd.h>

#include "compile/build.h"
#include "report/diag_text.h"
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
    snprintf(root, sizeof root, "/tmp/kd_r2_hint_XXXXXX");
    assert_non_null(mkdtemp(root));
    touch("samples/Common/helper_cuda.h");
    touch("samples/reduction/reduction.cu");
    return 0;
}

static int remove_tree(void **state)
{
    (void)state;
    return kd_remove_tree(root);
}

/* The hint's words (report/words_compile.c), and whether it is said first. */
static void hint_for_first(const char *nvcc, const char *path, const char *want, bool first)
{
    kd_diag hint = {0};
    kd_strbuf text = {0};
    assert_int_equal(kd_build_failure_hint(nvcc, path, &hint), first);
    kd_diag_text(&hint, &text);
    assert_string_equal(kd_sb_str(&text), want);
    kd_sb_free(&text);
    kd_diag_free(&hint);
}

static void hint_for(const char *nvcc, const char *path, const char *want)
{
    hint_for_first(nvcc, path, want, !strstr(want, "Fix the error"));
}

static void missing_header_nearby_is_offered_as_dash_i(void **state)
{
    (void)state;
    char path[256], want[512];
    snprintf(path, sizeof path, "%s/samples/reduction/reduction.cu", root);
    snprintf(want, sizeof want, "helper_cuda.h is not on the include path; it lies in %s/samples/Common: add -I %s/samples/Common",
             root, root);
    hint_for("reduction.cu:3:10: fatal error: helper_cuda.h: No such file or directory\n"
             " #include \"helper_cuda.h\"\n          ^~~~~~~~~~~~~~~\ncompilation terminated.\n",
             path, want);
}

static void missing_header_nowhere_says_so(void **state)
{
    (void)state;
    char path[256], want[512];
    snprintf(path, sizeof path, "%s/samples/reduction/reduction.cu", root);
    snprintf(want, sizeof want, "nope.h is not on the include path, nor near %s: add -I FOLDER where it lies", path);
    hint_for("reduction.cu:3:10: fatal error: nope.h: No such file or directory\n", path, want);
}

static void other_errors_keep_the_general_advice(void **state)
{
    (void)state;
    hint_for("k.cu(4): error: identifier \"x\" is undefined\n", "k.cu", "Fix the error in k.cu, or check -I/-D/--nvcc-flag.");
    hint_for(NULL, "k.cu", "Fix the error in k.cu, or check -I/-D/--nvcc-flag.");
}

/* nvcc names the flag that allows what it refuses (marlin needs --expt-relaxed-constexpr, which
 * PyTorch's CUDAExtension passes): the hint offers it as --nvcc-flag, said first; a quoted
 * "flag" holding anything but an option's characters is not offered. */
static void flag_nvcc_asks_for_is_offered(void **state)
{
    (void)state;
    hint_for_first("m.cu(225): error: calling a constexpr __host__ function(\"ceildiv\") from a __global__ function"
                   "(\"Marlin\") is not allowed. The experimental flag '--expt-relaxed-constexpr' can be used to allow "
                   "this.\n24 errors detected in the compilation of \"kernel.cu\".\n",
                   "m.cu", "nvcc's errors ask for --expt-relaxed-constexpr, a flag the project's own build likely "
                   "passes: add --nvcc-flag --expt-relaxed-constexpr", true);
    hint_for_first("m.cu(1): error: the flag '--x;rm -rf' is wrong\n", "m.cu",
                   "Fix the error in m.cu, or check -I/-D/--nvcc-flag.", false);
    hint_for_first("m.cu(1): error: the flag '--' is wrong\n", "m.cu", "Fix the error in m.cu, or check -I/-D/--nvcc-flag.",
                   false);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(missing_header_nearby_is_offered_as_dash_i),
        cmocka_unit_test(missing_header_nowhere_says_so),
        cmocka_unit_test(other_errors_keep_the_general_advice),
        cmocka_unit_test(flag_nvcc_asks_for_is_offered),
    };
    return cmocka_run_group_tests(tests, make_tree, remove_tree);
}
