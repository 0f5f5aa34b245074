/* Issue 29 item 3/5: what a backend's build reads of the comparison (backend/backend.h's
 * kd_build_target), so that backend/registry.h need not include diff/comparison.h. */
#include "kd_test.h"

#include <stdio.h>
#include <stdlib.h>

#include "diff/build_target.h"

static void target_reads_arch_limits_and_gpu(void **state)
{
    (void)state;
    unsetenv("KERNDIFF_SIMULATE");
    static const kd_arch_limits limits = {.max_smem_per_block = 99 * 1024};
    kd_comparison c = {0};
    snprintf(c.arch, sizeof c.arch, "sm_90");
    c.limits = &limits;
    c.side[0].path = "v1.cu";
    c.side[1].path = "v2.cu";
    kd_build_target t = kd_build_target_of(&c);
    assert_string_equal(t.arch, "sm_90");
    assert_ptr_equal(t.limits, &limits);
    assert_false(t.gpu);
    assert_false(t.times); /* CUDA needs a GPU, and there is none */
    c.gpu.present = true;
    t = kd_build_target_of(&c);
    assert_true(t.gpu);
    assert_true(t.times);
}

int main(void)
{
    const struct CMUnitTest tests[] = {cmocka_unit_test(target_reads_arch_limits_and_gpu)};
    return cmocka_run_group_tests(tests, NULL, NULL);
}
