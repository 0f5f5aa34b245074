/* launch/replay.h: a launch made from a capture (issue 30 item 2). The raw folder of
 * tests/fixtures/capture/raw-axpy (axpy(float a, const float *x, float *y, int n), x left as
 * it was, y = a*x + y) packed by capture/file.c's writer, then: the contents extracted, the
 * changed allocation found; each side's kernel checked against the captured parameter
 * layout (count, sizes, a pointer where a scalar is declared) with the side and parameter
 * named; the spec (geometry, typed and named buffers, roles); a side's outputs compared with
 * the program's result (the first differing element and both values); a corrupt file
 * refused. */
#include "kd_test.h"

#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "capture/capture_msgs.h"
#include "capture/file.h"
#include "launch/launch_msgs.h"
#include "launch/replay.h"
#include "report/diag_text.h"
#include "source/scan.h"
#include "util/fs.h"
#include "util/strbuf.h"

static char dir[] = "/tmp/kd-test-c3-replay.XXXXXX";
static char *capture_path;

static const char *fixture_dir(void)
{
    static char path[1024];
    const char *f = getenv("KD_FIXTURES");
    snprintf(path, sizeof path, "%s/capture/raw-axpy", f && *f ? f : "tests/fixtures");
    return path;
}

static int setup(void **state)
{
    (void)state;
    if (!mkdtemp(dir))
        return -1;
    capture_path = kd_path_join(dir, "axpy.kdcap");
    kd_diag err = {0};
    int rc = kd_capture_pack(fixture_dir(), capture_path, &err);
    kd_diag_free(&err);
    return rc;
}

static int teardown(void **state)
{
    (void)state;
    free(capture_path);
    return kd_remove_tree(dir);
}

/* The first kernel of a source text. */
static kd_kernel_list scan(const char *src)
{
    kd_kernel_list list = {0};
    assert_int_equal(kd_scan_source(src, strlen(src), &list), 0);
    assert_true(list.count >= 1);
    return list;
}

static char *said(const kd_diag *d)
{
    kd_strbuf sb = {0};
    kd_diag_text(d, &sb);
    return kd_sb_take(&sb);
}

static void opens_and_extracts(void **state)
{
    (void)state;
    kd_replay r;
    kd_diag err = {0};
    assert_int_equal(kd_replay_open(capture_path, dir, &r, &err), 0);
    assert_int_equal(r.nbuffers, 2);
    assert_int_equal(r.data_bytes, 64);
    assert_false(r.buffers[0].changed); /* x: only read */
    assert_null(r.buffers[0].after_path);
    assert_true(r.buffers[1].changed);  /* y: written */
    size_t len = 0;
    char *before = kd_read_file(r.buffers[1].before_path, &len);
    assert_int_equal(len, 32);
    float one = 1.0f;
    assert_memory_equal(before, &one, 4);
    free(before);
    char *after = kd_read_file(r.buffers[1].after_path, &len);
    float fifteen = 15.0f;
    assert_int_equal(len, 32);
    assert_memory_equal(after + 28, &fifteen, 4);
    free(after);
    struct stat st;
    assert_int_equal(stat(r.buffers[1].after_path, &st), 0);
    assert_int_equal(st.st_mode & 0777, 0600);
    size_t bytes = 0;
    const unsigned char *p1 = kd_replay_param(&r, 1, &bytes);
    assert_int_equal(bytes, 8);
    unsigned long long word;
    memcpy(&word, p1, 8);
    assert_true(word == 0x7f0000000000ull); /* the program's address, unpatched */
    assert_null(kd_replay_param(&r, 4, &bytes));
    char *x_before = r.buffers[0].before_path;
    assert_int_equal(access(x_before, F_OK), 0);
    kd_replay_free(&r);
    assert_int_not_equal(access(x_before, F_OK), 0); /* the extracted files go with the replay */
}

static void spec_from_capture(void **state)
{
    (void)state;
    kd_replay r;
    kd_diag err = {0};
    assert_int_equal(kd_replay_open(capture_path, dir, &r, &err), 0);
    kd_kernel_list k = scan("__global__ void axpy(float a, const float *x, float *y, int n) { }\n");
    kd_launch_spec spec;
    assert_int_equal(kd_replay_spec(&r, &k.items[0], 1, &spec, &err), 0);
    assert_int_equal(spec.nargs, 2);
    assert_string_equal(spec.args[0].name, "x");
    assert_int_equal(spec.args[0].role, KD_ROLE_INPUT);
    assert_int_equal(spec.args[0].type.base, KD_DT_F32);
    assert_int_equal(spec.args[0].count, 8);
    assert_string_equal(spec.args[1].name, "y");
    assert_int_equal(spec.args[1].role, KD_ROLE_INOUT);
    assert_int_equal(spec.args[1].count, 8);
    assert_int_equal(spec.grid[0], 1);
    assert_int_equal(spec.block[0], 256);
    assert_int_equal(spec.dynamic_smem, 0);
    assert_string_equal(spec.block_origin, "captured");
    assert_int_equal(spec.n, 8); /* the compared buffer's elements stand for n */
    kd_launch_spec_free(&spec);
    kd_kernel_list_free(&k);

    /* a version that reads y as doubles: the buffer's elements are still counted from the
       capture's bytes (4 doubles) */
    k = scan("__global__ void axpy(float a, const float *x, double *y, int n) { }\n");
    assert_int_equal(kd_replay_spec(&r, &k.items[0], 2, &spec, &err), 0);
    assert_int_equal(spec.args[1].type.base, KD_DT_F64);
    assert_int_equal(spec.args[1].count, 4);
    kd_launch_spec_free(&spec);
    kd_kernel_list_free(&k);
    kd_replay_free(&r);
}

static void layout_refused(void **state)
{
    (void)state;
    kd_replay r;
    kd_diag err = {0};
    assert_int_equal(kd_replay_open(capture_path, dir, &r, &err), 0);
    kd_launch_spec spec;
    struct {
        const char *src;
        int id;
        const char *words;
    } cases[] = {
        {"__global__ void axpy(float a, const float *x, float *y) { }\n", KD_MSG_REPLAY_PARAM_COUNT,
         "v2: axpy takes 3 parameters, the captured kernel axpy(float, float const*, float*, int) took 4"},
        {"__global__ void axpy(float a, const float *x, float *y, long long n) { }\n", KD_MSG_REPLAY_PARAM_SIZE,
         "v2: parameter 3 'n' (long long) is 8 bytes, the captured kernel's parameter 3 was 4 bytes"},
        {"__global__ void axpy(double a, const float *x, float *y, int n) { }\n", KD_MSG_REPLAY_PARAM_SIZE,
         "v2: parameter 0 'a' (double) is 8 bytes, the captured kernel's parameter 0 was 4 bytes"},
        {"__global__ void axpy(float a, unsigned long long x, float *y, int n) { }\n", KD_MSG_REPLAY_PARAM_POINTER,
         "v2: parameter 1 'x' (unsigned long long) is not a pointer, but the program passed a device pointer"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        kd_kernel_list k = scan(cases[i].src);
        kd_diag_free(&err);
        assert_int_equal(kd_replay_spec(&r, &k.items[0], 2, &spec, &err), -1);
        assert_int_equal(err.id, cases[i].id);
        assert_int_equal(err.side, 2);
        char *text = said(&err);
        if (!strstr(text, cases[i].words))
            fail_msg("case %zu said: %s", i, text);
        free(text);
        kd_kernel_list_free(&k);
    }
    kd_diag_free(&err);
    kd_replay_free(&r);
}

static void outputs_against_program(void **state)
{
    (void)state;
    kd_replay r;
    kd_diag err = {0};
    assert_int_equal(kd_replay_open(capture_path, dir, &r, &err), 0);
    kd_kernel_list k = scan("__global__ void axpy(float a, const float *x, float *y, int n) { }\n");
    kd_launch_spec spec;
    assert_int_equal(kd_replay_spec(&r, &k.items[0], 1, &spec, &err), 0);
    size_t len = 0;
    unsigned char *program = (unsigned char *)kd_read_file(r.buffers[1].after_path, &len);
    assert_int_equal(len, 32);
    kd_replay_match m;
    assert_int_equal(kd_replay_match_outputs(&r, &spec, program, len, &m, &err), 0);
    assert_true(m.compared);
    assert_true(m.same);
    float wrong = 99.5f;
    memcpy(program + 5 * 4, &wrong, 4);
    memcpy(program + 6 * 4, &wrong, 4);
    assert_int_equal(kd_replay_match_outputs(&r, &spec, program, len, &m, &err), 0);
    assert_false(m.same);
    assert_int_equal(m.buffer, 1);
    assert_int_equal(m.element, 5); /* the first that differs */
    assert_true(m.got == 99.5);
    assert_true(m.want == 11.0);
    assert_int_equal(kd_replay_match_outputs(&r, &spec, program, 31, &m, &err), -1);
    assert_int_equal(err.id, KD_MSG_REPLAY_OUTPUTS_SHORT);
    kd_diag_free(&err);
    free(program);
    kd_launch_spec_free(&spec);
    kd_kernel_list_free(&k);
    kd_replay_free(&r);
}

static void corrupt_capture_refused(void **state)
{
    (void)state;
    size_t len = 0;
    char *bytes = kd_read_file(capture_path, &len);
    assert_non_null(bytes);
    char *bad = kd_path_join(dir, "bad.kdcap");
    /* truncated */
    assert_int_equal(kd_write_file(bad, bytes, len - 10), 0);
    kd_replay r;
    kd_diag err = {0};
    assert_int_equal(kd_replay_open(bad, dir, &r, &err), -1);
    assert_int_equal(err.id, KD_MSG_CAPTURE_TRUNCATED);
    kd_diag_free(&err);
    /* a flipped byte in the contents (the first blob, after the 64-byte header) */
    bytes[64] ^= 0x40;
    assert_int_equal(kd_write_file(bad, bytes, len), 0);
    assert_int_equal(kd_replay_open(bad, dir, &r, &err), -1);
    assert_int_equal(err.id, KD_MSG_CAPTURE_BLOB_CHECKSUM);
    kd_diag_free(&err);
    /* not a capture */
    assert_int_equal(kd_write_file(bad, "hello", 5), 0);
    assert_int_equal(kd_replay_open(bad, dir, &r, &err), -1);
    assert_int_not_equal(err.id, 0);
    kd_diag_free(&err);
    free(bytes);
    free(bad);
}

/* tests/e2e/capture/copy.kdcap (the e2e suite's capture) is its raw folder packed by this
 * writer: packing it again gives the same bytes, so the fixture follows the format. */
static void e2e_fixture_is_current(void **state)
{
    (void)state;
    char *out = kd_path_join(dir, "copy.kdcap");
    kd_diag err = {0};
    assert_int_equal(kd_capture_pack("tests/e2e/capture/raw-copy", out, &err), 0);
    size_t a = 0, b = 0;
    char *packed = kd_read_file(out, &a), *committed = kd_read_file("tests/e2e/capture/copy.kdcap", &b);
    assert_non_null(packed);
    assert_non_null(committed);
    assert_int_equal(a, b);
    assert_memory_equal(packed, committed, a);
    free(packed);
    free(committed);
    free(out);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(opens_and_extracts),
        cmocka_unit_test(spec_from_capture),
        cmocka_unit_test(layout_refused),
        cmocka_unit_test(outputs_against_program),
        cmocka_unit_test(corrupt_capture_refused),
        cmocka_unit_test(e2e_fixture_is_current),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
