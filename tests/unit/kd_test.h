/* kd_test.h — the includes every cmocka test needs, in the order cmocka requires. */
#ifndef KD_TEST_H
#define KD_TEST_H
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* A fixture file's whole text (NUL-terminated, caller frees), from $KD_FIXTURES or
 * tests/fixtures; fails the test when it cannot be read. */
static inline char *read_fixture(const char *relative)
{
    const char *dir = getenv("KD_FIXTURES");
    char path[1024];
    snprintf(path, sizeof path, "%s/%s", dir && *dir ? dir : "tests/fixtures", relative);
    FILE *f = fopen(path, "rb");
    if (!f)
        fail_msg("cannot open fixture %s", path);
    assert_int_equal(fseek(f, 0, SEEK_END), 0);
    long size = ftell(f);
    assert_true(size >= 0);
    rewind(f);
    char *text = malloc((size_t)size + 1);
    assert_non_null(text);
    assert_int_equal(fread(text, 1, (size_t)size, f), (size_t)size);
    text[size] = '\0';
    fclose(f);
    return text;
}

/* The simulated harness of the build this test belongs to (BUILD/tests/test_x ->
 * BUILD/kerndiff-sim-harness) into out; false when it is not there. */
static inline bool kd_test_sim_harness(char *out, size_t n)
{
    char self[4096];
    ssize_t len = readlink("/proc/self/exe", self, sizeof self - 1);
    if (len <= 0)
        return false;
    self[len] = '\0';
    for (int up = 0; up < 2; up++) { /* the file, then tests/ */
        char *slash = strrchr(self, '/');
        if (!slash)
            return false;
        *slash = '\0';
    }
    int w = snprintf(out, n, "%s/kerndiff-sim-harness", self);
    return w > 0 && (size_t)w < n && access(out, X_OK) == 0;
}
#endif
