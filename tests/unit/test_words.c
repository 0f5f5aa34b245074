/* Issue 29, words only in report/: backend/, util/trace and report/stderr_text say their
 * messages through util/diag.h, worded by report/'s tables exactly as they were printed. */
#include "kd_test.h"

#include <string.h>
#include <unistd.h>

#include "backend/backend_msgs.h"
#include "backend/registry.h"
#include "report/diag_text.h"
#include "report/stderr_text.h"
#include "source/annotation.h"
#include "source/scan.h"
#include "util/progress.h"
#include "util/util_msgs.h"

/* The messages said, worded, one per line. */
static kd_strbuf said;
static int said_id;
static void capture(const kd_diag *d, void *ctx)
{
    (void)ctx;
    said_id = d->id;
    kd_diag_text(d, &said);
    kd_sb_puts(&said, "\n");
}

static int setup(void **state)
{
    (void)state;
    said.len = 0;
    if (said.data)
        said.data[0] = '\0';
    said_id = 0;
    kd_diag_set_sink(capture, NULL);
    return 0;
}

static int teardown(void **state)
{
    (void)state;
    kd_diag_set_sink(NULL, NULL);
    return 0;
}

/* A missing .ptx scanned for a side, then alone (kerndiff list): the same words, with and
 * without "v1: ". */
static void a_missing_input_is_said_with_or_without_its_side(void **state)
{
    (void)state;
    const kd_frontend_options opts = {0};
    kd_kernel_list kernels = {0};
    kd_annotations notes = {0};
    assert_int_not_equal(kd_backend_binary.scan(&opts, "/nonexistent/k.ptx", "v1", &kernels, &notes), 0);
    assert_int_equal(said_id, KD_MSG_BACKEND_CANNOT_READ);
    assert_string_equal(kd_sb_str(&said), "kerndiff: v1: cannot read '/nonexistent/k.ptx': No such file or directory\n");
    setup(NULL);
    assert_int_not_equal(kd_backend_binary.scan(&opts, "/nonexistent/k.ptx", NULL, &kernels, &notes), 0);
    assert_int_equal(said_id, KD_MSG_BACKEND_CANNOT_READ_NO_SIDE);
    assert_string_equal(kd_sb_str(&said), "kerndiff: cannot read '/nonexistent/k.ptx': No such file or directory\n");
    kd_kernel_list_free(&kernels);
    kd_annotations_free(&notes);
}

/* A folder given as a .cu file: the CUDA backend's own sentence. */
static void a_folder_is_not_a_kernel_file(void **state)
{
    (void)state;
    const kd_frontend_options opts = {0};
    kd_kernel_list kernels = {0};
    assert_int_not_equal(kd_backend_cuda.scan(&opts, "/", "v2", &kernels, NULL), 0);
    assert_string_equal(kd_sb_str(&said), "kerndiff: v2: '/' is a folder, not a kernel file: give a .cu file\n");
    kd_kernel_list_free(&kernels);
}

/* kd_say_sided puts the side first, or takes the id after without it. */
static void said_sided_picks_its_id(void **state)
{
    (void)state;
    kd_say_sided(KD_MSG_BACKEND_IS_FOLDER, "v1", KD_S("d"));
    assert_int_equal(said_id, KD_MSG_BACKEND_IS_FOLDER);
    kd_say_sided(KD_MSG_BACKEND_IS_FOLDER, NULL, KD_S("d"));
    assert_int_equal(said_id, KD_MSG_BACKEND_IS_FOLDER_NO_SIDE);
    kd_say_sided_args(KD_MSG_BACKEND_NEEDS_CUOBJDUMP, "v2", NULL, 0);
    assert_non_null(strstr(kd_sb_str(&said), "kerndiff: v2: a .cubin input needs cuobjdump (install"));
    assert_null(strstr(kd_sb_str(&said), "internal"));
}

/* A failed build keeps its lines, and the hint's (possibly empty) last line. */
static void a_failed_build_keeps_its_lines(void **state)
{
    (void)state;
    kd_say(KD_MSG_BACKEND_BUILD_FAILED, KD_DIAG_NO_SIDE, KD_S("v1"), KD_S("k.cu"), KD_S("sm_90"), KD_S("a\nb"), KD_S(""));
    assert_string_equal(kd_sb_str(&said), "kerndiff: v1: build of k.cu failed (nvcc -arch=sm_90); nvcc said:\na\nb\n\n");
    /* a specific hint (a missing -I, a flag nvcc asks for) is the first line, before nvcc's output */
    kd_sb_free(&said);
    kd_say(KD_MSG_BACKEND_BUILD_FAILED_HINT, KD_DIAG_NO_SIDE, KD_S("v1"), KD_S("k.cu"), KD_S("sm_90"), KD_S("a\nb"),
           KD_S("add -I csrc"));
    assert_string_equal(kd_sb_str(&said), "kerndiff: v1: build of k.cu failed (nvcc -arch=sm_90): add -I csrc; nvcc said:\na\nb\n");
}

/* Verbose stage lines and announcements are messages; quiet says neither. */
static void trace_lines_are_messages(void **state)
{
    (void)state;
    kd_trace_set(KD_VERBOSE);
    kd_trace("%s pass", "counters");
    assert_int_equal(said_id, KD_MSG_UTIL_TRACE);
    const char *line = kd_sb_str(&said);
    assert_int_equal(strncmp(line, "[kerndiff ", 10), 0);
    assert_non_null(strstr(line, "s] counters pass\n"));
    assert_int_equal(strchr(line, '.') - line, 13); /* %7.3f: "  0.001" after "[kerndiff " */
    setup(NULL);
    kd_announce("%d%% faster", 12);
    assert_string_equal(kd_sb_str(&said), "kerndiff: 12% faster\n");
    setup(NULL);
    kd_trace_set(KD_QUIET);
    kd_trace("hidden");
    kd_announce("hidden");
    assert_int_equal(said_id, 0);
    kd_trace_set(KD_NORMAL);
}

/* report/stderr_text: control sequences written out, lines kept. */
static void untrusted_fprintf_filters(void **state)
{
    (void)state;
    FILE *f = tmpfile();
    assert_non_null(f);
    kd_untrusted_fprintf(f, "kerndiff: '%s'\n%s\n", "a\033[31mb", "line");
    rewind(f);
    char buf[128] = {0};
    assert_true(fread(buf, 1, sizeof buf - 1, f) > 0);
    fclose(f);
    assert_null(strchr(buf, '\033'));
    assert_non_null(strstr(buf, "kerndiff: 'a"));
    assert_non_null(strstr(buf, "[31mb'\nline\n"));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(a_missing_input_is_said_with_or_without_its_side, setup, teardown),
        cmocka_unit_test_setup_teardown(a_folder_is_not_a_kernel_file, setup, teardown),
        cmocka_unit_test_setup_teardown(said_sided_picks_its_id, setup, teardown),
        cmocka_unit_test_setup_teardown(a_failed_build_keeps_its_lines, setup, teardown),
        cmocka_unit_test_setup_teardown(trace_lines_are_messages, setup, teardown),
        cmocka_unit_test(untrusted_fprintf_filters),
    };
    int rc = cmocka_run_group_tests(tests, NULL, NULL);
    kd_sb_free(&said);
    return rc;
}
