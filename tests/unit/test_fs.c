/* util/fs: what kd_read_file refuses (a FIFO without blocking, a device, a file over the
 * input cap) and the cap's exact boundary. */
#include "kd_test.h"
#include "kd_test_dir.h"

#include <errno.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "util/fs.h"

KD_TEST_DIR("fs")

static char *in_dir(const char *name)
{
    return kd_path_join(dir, name);
}

/* A FIFO with no writer: refused at once (open would otherwise wait for a writer). */
static void fifo_is_refused_without_blocking(void **state)
{
    (void)state;
    char *path = in_dir("fifo.cu");
    assert_int_equal(mkfifo(path, 0600), 0);
    alarm(10); /* a blocking open ends the test run instead of hanging it */
    errno = 0;
    assert_null(kd_read_file(path, NULL));
    assert_int_equal(errno, ENOTSUP);
    alarm(0);
    assert_int_equal(kd_check_input(path), -1);
    assert_int_equal(errno, ENOTSUP);
    assert_non_null(strstr(kd_read_error(ENOTSUP), "not a regular file"));
    free(path);
}

static void device_is_refused(void **state)
{
    (void)state;
    errno = 0;
    assert_null(kd_read_file("/dev/zero", NULL));
    assert_int_equal(errno, ENOTSUP);
    assert_null(kd_read_output("/dev/zero", NULL));
    assert_int_equal(errno, ENOTSUP);
    assert_null(kd_read_file("/tmp", NULL));
    assert_int_equal(errno, EISDIR);
}

/* Exactly the cap is read; one byte more is refused before it is read (sparse files). */
static void the_cap_is_exact(void **state)
{
    (void)state;
    char *at = in_dir("at_cap"), *over = in_dir("over_cap");
    FILE *f = fopen(at, "wb");
    assert_non_null(f);
    fclose(f);
    assert_int_equal(truncate(at, (off_t)KD_INPUT_MAX_BYTES), 0);
    f = fopen(over, "wb");
    assert_non_null(f);
    fclose(f);
    assert_int_equal(truncate(over, (off_t)KD_INPUT_MAX_BYTES + 1), 0);

    size_t len = 0;
    char *text = kd_read_file(at, &len);
    assert_non_null(text);
    assert_int_equal(len, KD_INPUT_MAX_BYTES);
    free(text);
    assert_int_equal(kd_check_input(at), 0);

    errno = 0;
    assert_null(kd_read_file(over, NULL));
    assert_int_equal(errno, EFBIG);
    assert_int_equal(kd_check_input(over), -1);
    assert_int_equal(errno, EFBIG);
    assert_non_null(strstr(kd_read_error(EFBIG), "64 MiB"));
    /* a tool's output has the larger limit */
    text = kd_read_output(over, &len);
    assert_non_null(text);
    assert_int_equal(len, KD_INPUT_MAX_BYTES + 1);
    free(text);
    free(at);
    free(over);
}

static void missing_file_keeps_its_errno(void **state)
{
    (void)state;
    char *path = in_dir("missing.cu");
    errno = 0;
    assert_null(kd_read_file(path, NULL));
    assert_int_equal(errno, ENOENT);
    assert_string_equal(kd_read_error(ENOENT), strerror(ENOENT));
    free(path);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(fifo_is_refused_without_blocking),
        cmocka_unit_test(device_is_refused),
        cmocka_unit_test(the_cap_is_exact),
        cmocka_unit_test(missing_file_keeps_its_errno),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
