/* kd_test.h — the includes every cmocka test needs, in the order cmocka requires. */
#ifndef KD_TEST_H
#define KD_TEST_H
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>

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
#endif
