/* sanitizer/report.c's kd_san_locate: where a global access landed, as data (its words are
 * report/sanitizer_explain.c's): the buffer, the element (negative before the start, at or
 * past the count after the end), and nothing for shared memory or an address far away. */
#include "kd_test.h"

#include <string.h>

#include "sanitizer/report.h"

static kd_launch_arg args[2];
static kd_san_buffer buffers[2];

static int set_up(void **state)
{
    (void)state;
    args[0] = (kd_launch_arg){.name = "x", .role = KD_ROLE_INPUT, .type = {.base = KD_DT_F32, .lanes = 1}, .count = 256};
    args[1] = (kd_launch_arg){.name = "y", .role = KD_ROLE_OUTPUT, .type = {.base = KD_DT_F32, .lanes = 2}, .count = 128};
    buffers[0] = (kd_san_buffer){&args[0], 0x10000, 1024};
    buffers[1] = (kd_san_buffer){&args[1], 0x20000, 1024};
    return 0;
}

static kd_san_finding access_at(unsigned long long address)
{
    kd_san_finding f = {.kind = KD_SAN_INVALID_ACCESS, .access = "write", .space = "global", .size = 4,
                        .has_address = true, .address = address, .count = 1};
    return f;
}

static void inside_and_past(void **state)
{
    (void)state;
    kd_san_finding f = access_at(0x10000 + 4 * 10);
    kd_san_place p = kd_san_locate(&f, buffers, 2);
    assert_ptr_equal(p.buffer, &buffers[0]);
    assert_int_equal(p.element, 10);
    assert_int_equal(p.elements, 256);
    /* a float2 buffer counts elements of 8 bytes */
    f = access_at(0x20000 + 8 * 3);
    p = kd_san_locate(&f, buffers, 2);
    assert_ptr_equal(p.buffer, &buffers[1]);
    assert_int_equal(p.element, 3);
    assert_int_equal(p.elements, 128);
    /* one past x's end, said by the sanitizer as 0 bytes after the allocation at 0x10000 */
    f = access_at(0x10000 + 1024);
    f.has_nearest = true;
    f.nearest = 0x10000;
    f.nearest_size = 1024;
    p = kd_san_locate(&f, buffers, 2);
    assert_ptr_equal(p.buffer, &buffers[0]);
    assert_int_equal(p.element, 256);
}

static void before_start(void **state)
{
    (void)state;
    kd_san_finding f = access_at(0x20000 - 4);
    f.has_nearest = true;
    f.nearest = 0x20000;
    f.nearest_size = 1024;
    kd_san_place p = kd_san_locate(&f, buffers, 2);
    assert_ptr_equal(p.buffer, &buffers[1]);
    assert_int_equal(p.element, -1);
}

static void nowhere(void **state)
{
    (void)state;
    kd_san_finding f = access_at(0x10000 + 8);
    strcpy(f.space, "shared");
    assert_null(kd_san_locate(&f, buffers, 2).buffer);
    f = access_at(0x10000 + 8);
    f.has_address = false;
    assert_null(kd_san_locate(&f, buffers, 2).buffer);
    f = access_at(0x20000 + 1024 + (2ull << 30)); /* far past every buffer */
    assert_null(kd_san_locate(&f, buffers, 2).buffer);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup(inside_and_past, set_up),
        cmocka_unit_test_setup(before_start, set_up),
        cmocka_unit_test_setup(nowhere, set_up),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
