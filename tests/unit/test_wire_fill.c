/* wire/client's captured buffer contents (kd_harness_side.fill, `fill I PATH`,
 * docs/PROTOCOL.md) against the simulated harness, whose copy=all kernel copies its first
 * input to its output: the check file shows what the buffer was seeded with. The harness
 * is the one built beside this test (BUILD/kerndiff-sim-harness), or $KD_SIM_HARNESS;
 * without it the tests are skipped (make unit may run before the harness is built). */
#include "kd_test.h"

#include <limits.h>
#include <signal.h>
#include <string.h>
#include <unistd.h>

#include "util/fs.h"
#include "wire/client.h"

enum { N = 1024, TIMEOUT_MS = 20000 };

static char harness[PATH_MAX + 32];

static bool find_harness(void)
{
    const char *env = getenv("KD_SIM_HARNESS");
    if (env && *env) {
        snprintf(harness, sizeof harness, "%s", env);
        return access(harness, X_OK) == 0;
    }
    return kd_test_sim_harness(harness, sizeof harness);
}

typedef struct fixture {
    kd_launch_arg args[3];
    kd_launch_spec spec;
    const char *fill[3];
    kd_harness_side side;
    char dir[64], data[96], out[96];
    kd_child child;
} fixture;

static void write_data(const char *path, size_t floats)
{
    FILE *f = fopen(path, "wb");
    assert_non_null(f);
    for (size_t i = 0; i < floats; i++) {
        float v = 0.25f * (float)i - 7.0f;
        fwrite(&v, sizeof v, 1, f);
    }
    assert_int_equal(fclose(f), 0);
}

static int set_up(void **state)
{
    if (!find_harness())
        return 0; /* each test skips */
    signal(SIGPIPE, SIG_IGN);
    fixture *x = calloc(1, sizeof *x);
    snprintf(x->dir, sizeof x->dir, "/tmp/kd-test-fill.XXXXXX");
    assert_non_null(mkdtemp(x->dir));
    snprintf(x->data, sizeof x->data, "%s/captured", x->dir);
    snprintf(x->out, sizeof x->out, "%s/outputs", x->dir);
    x->args[0] = (kd_launch_arg){.name = "in", .role = KD_ROLE_INPUT, .type = {KD_DT_F32, 1}, .count = N};
    x->args[1] = (kd_launch_arg){.name = "out", .role = KD_ROLE_OUTPUT, .type = {KD_DT_F32, 1}, .count = N};
    x->args[2] = (kd_launch_arg){.name = "n", .role = KD_ROLE_LENGTH, .type = {KD_DT_I32, 1}, .value = N};
    x->spec = (kd_launch_spec){.n = N, .grid = {N / 256, 1, 1}, .block = {256, 1, 1}, .args = x->args, .nargs = 3};
    x->fill[0] = x->data;
    const char *const argv[] = {harness, "copy=all", NULL};
    x->side = (kd_harness_side){.label = "v1", .load_kind = "cubin",
                                .load_path = "/nonexistent.cubin", .load_symbol = "kd_copy", .spec = &x->spec,
                                .fill = x->fill};
    kd_strbuf why = {0};
    assert_int_equal(kd_child_start(&x->child, "v1", argv, &why), 0);
    kd_sb_free(&why);
    *state = x;
    return 0;
}

static int tear_down(void **state)
{
    fixture *x = *state;
    if (!x)
        return 0;
    kd_child_stop(&x->child);
    unlink(x->data);
    unlink(x->out);
    rmdir(x->dir);
    free(x);
    return 0;
}

/* The side's fill reaches the buffer: both check runs copy the file's bytes. */
static void test_fill_seeds_the_buffer(void **state)
{
    fixture *x = *state;
    if (!x)
        skip();
    write_data(x->data, N);
    kd_strbuf why = {0};
    assert_int_equal(kd_harness_describe(&x->child, &x->side, 7, TIMEOUT_MS, NULL, &why), 0);
    unsigned long long bytes = 0;
    kd_wire_send_setup(&x->child);
    assert_int_equal(kd_wire_setup_reply(&x->child, 2 * N * 4, &bytes, &why), 0);
    assert_int_equal(bytes, 2 * N * 4);
    kd_wire_send_check(&x->child, x->out);
    assert_int_equal(kd_wire_check_reply(&x->child, TIMEOUT_MS), KD_REPLY_OK);
    size_t len = 0, want_len = 0;
    char *got = kd_read_file(x->out, &len), *want = kd_read_file(x->data, &want_len);
    assert_int_equal(len, 2 * N * 4);
    assert_int_equal(want_len, N * 4);
    assert_memory_equal(got, want, N * 4);
    assert_memory_equal(got + N * 4, want, N * 4);
    free(got);
    free(want);
    kd_sb_free(&why);
}

/* A file of another size: describing the side fails and says what it was doing. */
static void test_fill_of_another_size_fails(void **state)
{
    fixture *x = *state;
    if (!x)
        skip();
    write_data(x->data, N - 1);
    kd_strbuf why = {0};
    assert_int_equal(kd_harness_describe(&x->child, &x->side, 7, TIMEOUT_MS, NULL, &why), -1);
    assert_non_null(strstr(kd_sb_str(&why), "loading captured buffer contents"));
    assert_non_null(strstr(kd_sb_str(&why), "needs exactly 4096"));
    kd_sb_free(&why);
}

/* Slot 1's shared buffer is not filled (the harness would refuse it): the description of
 * both sides succeeds and the shared input holds slot 0's file. */
static void test_shared_buffer_is_not_filled(void **state)
{
    fixture *x = *state;
    if (!x)
        skip();
    write_data(x->data, N);
    kd_strbuf why = {0};
    const int share[3] = {0, -1, -1};
    assert_int_equal(kd_wire_hello(&x->child, NULL, &why), 0);
    assert_int_equal(kd_wire_describe(&x->child, 0, &x->side, NULL, TIMEOUT_MS, &why), 0);
    assert_int_equal(kd_wire_describe(&x->child, 1, &x->side, share, TIMEOUT_MS, &why), 0);
    assert_int_equal(kd_wire_seed(&x->child, 7, TIMEOUT_MS), KD_REPLY_OK);
    unsigned long long bytes = 0;
    kd_wire_send_setup(&x->child);
    assert_int_equal(kd_wire_setup_reply(&x->child, 0, &bytes, &why), 0);
    assert_int_equal(bytes, 3 * N * 4); /* the input once, two outputs */
    kd_wire_send_check(&x->child, x->out); /* slot 1 is current */
    assert_int_equal(kd_wire_check_reply(&x->child, TIMEOUT_MS), KD_REPLY_OK);
    size_t len = 0, want_len = 0;
    char *got = kd_read_file(x->out, &len), *want = kd_read_file(x->data, &want_len);
    assert_int_equal(len, 2 * N * 4);
    assert_memory_equal(got, want, N * 4);
    free(got);
    free(want);
    kd_sb_free(&why);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(test_fill_seeds_the_buffer, set_up, tear_down),
        cmocka_unit_test_setup_teardown(test_fill_of_another_size_fails, set_up, tear_down),
        cmocka_unit_test_setup_teardown(test_shared_buffer_is_not_filled, set_up, tear_down),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
