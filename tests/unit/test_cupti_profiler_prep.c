/* harness/cupti_profiler: KERNDIFF_COUNTER_PREP names the L2 preparation of each counter pass
 * (docs/COUNTERS.md): each name gives its steps, unset, empty or unknown gives the default
 * (the flush buffer written, then read through L2), and "inside" moves the preparation after
 * the profiler's start. */
#include "kd_test.h"

#include <stdlib.h>

#include "cupti_profiler.h"

static unsigned prep(const char *value)
{
    if (value)
        setenv("KERNDIFF_COUNTER_PREP", value, 1);
    else
        unsetenv("KERNDIFF_COUNTER_PREP");
    return kd_cupti_l2_prep();
}

static void names(void **state)
{
    (void)state;
    const unsigned M = KD_CUPTI_PREP_MEMSET, T = KD_CUPTI_PREP_TOUCH, D = KD_CUPTI_PREP_DISCARD;
    assert_int_equal(prep("touch"), M | T);
    assert_int_equal(prep("memset"), M);
    assert_int_equal(prep("read"), T);
    assert_int_equal(prep("discard"), M | D);
    assert_int_equal(prep("clean"), M | T | D);
    assert_int_equal(prep("none"), 0);
    assert_int_equal(prep("pages"), M | T | KD_CUPTI_PREP_PAGES);
    assert_int_equal(prep("limit"), M | T | KD_CUPTI_PREP_LIMIT);
    assert_int_equal(prep("reset"), M | T | KD_CUPTI_PREP_RESET);
    assert_int_equal(prep("inside"), M | T | KD_CUPTI_PREP_INSIDE);
    assert_int_equal(prep("icache"), M | T | KD_CUPTI_PREP_ICACHE);
    assert_int_equal(prep("tlb"), M | T | KD_CUPTI_PREP_TLB);
}

static void default_steps(void **state)
{
    (void)state;
    const unsigned def = KD_CUPTI_PREP_MEMSET | KD_CUPTI_PREP_TOUCH;
    assert_int_equal(prep(NULL), def);
    assert_int_equal(prep(""), def);
    assert_int_equal(prep("TOUCH"), def); /* names are exact */
    assert_int_equal(prep("flush"), def);
    assert_int_equal(prep("inside "), def);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(names),
        cmocka_unit_test(default_steps),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
