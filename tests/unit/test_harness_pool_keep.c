/* measure/harness_pool: a sweep's child kept across points (kd_harness_pool_keep): told `reset`,
 * taken by the next point for the same role and argv (the same process), not kept after the
 * last point, when KERNDIFF_SWEEP_FRESH is 1 or `ahead`, or when the child refuses `reset`; a
 * kept child that died is replaced. Real processes: the simulated harness beside the test's
 * build folder, and /bin/cat (which answers no command). */
#include "kd_test.h"

#include <limits.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "measure/harness_pool.h"
#include "util/strbuf.h"
#include "wire/client.h"

static char sim[PATH_MAX];

static int find_sim(void **state)
{
    (void)state;
    if (!kd_test_sim_harness(sim, sizeof sim))
        return -1;
    unsetenv("KERNDIFF_SWEEP_FRESH");
    signal(SIGPIPE, SIG_IGN);
    return 0;
}

static void take(int role, kd_child *c, const char *const *argv)
{
    kd_strbuf why = {0};
    assert_int_equal(kd_harness_pool_take(role, c, "v1", argv, &why), 0);
    kd_sb_free(&why);
}

/* A child with one slot described and set up, as a point leaves it. */
static void use(kd_child *c)
{
    kd_strbuf why = {0};
    kd_device_info info;
    assert_int_equal(kd_wire_hello(c, &info, &why), 0);
    assert_int_equal(kd_child_call(c, 5000, "load cubin /nonexistent.cubin k"), KD_REPLY_OK);
    assert_int_equal(kd_child_call(c, 5000, "arg 0 buffer f32 1 64 out"), KD_REPLY_OK);
    assert_int_equal(kd_child_call(c, 5000, "geometry 1 1 1 64 1 1 0"), KD_REPLY_OK);
    assert_int_equal(kd_child_call(c, 5000, "setup"), KD_REPLY_OK);
    kd_sb_free(&why);
}

static void the_next_point_takes_the_same_process(void **state)
{
    (void)state;
    const char *argv[] = {sim, "median=50us", NULL};
    kd_harness_pool_kept before = kd_harness_pool_kept_get();
    kd_harness_pool_point(1);
    kd_child c;
    take(2, &c, argv);
    use(&c);
    pid_t pid = c.pid;
    assert_true(kd_harness_pool_keep(2, &c, argv, 5000));
    kd_harness_pool_point(0);
    kd_child d;
    take(2, &d, argv);
    assert_int_equal(d.pid, pid);                 /* the same process */
    assert_string_equal(d.side, "v1");            /* the point's label */
    /* the reset dropped the old setup: a time before a new setup is refused */
    assert_int_equal(kd_child_call(&d, 5000, "time 1"), KD_REPLY_ERR);
    use(&d);                                      /* and a new launch is taken */
    assert_false(kd_harness_pool_keep(2, &d, argv, 5000)); /* the last point: not kept */
    kd_child_stop(&d);
    kd_harness_pool_end();
    kd_harness_pool_kept now = kd_harness_pool_kept_get();
    assert_int_equal(now.kept - before.kept, 1);
    assert_int_equal(now.reused - before.reused, 1);
}

static void another_argv_is_not_the_kept_one(void **state)
{
    (void)state;
    const char *argv[] = {sim, "median=50us", NULL}, *other[] = {sim, "median=60us", NULL};
    kd_harness_pool_point(2);
    kd_child c;
    take(0, &c, argv);
    pid_t pid = c.pid;
    assert_true(kd_harness_pool_keep(0, &c, argv, 5000));
    kd_child d;
    take(0, &d, other);
    assert_int_not_equal(d.pid, pid);
    kd_child_stop(&d);
    kd_harness_pool_end();
}

static void a_child_that_refuses_reset_is_not_kept(void **state)
{
    (void)state;
    const char *argv[] = {"/bin/cat", NULL}; /* echoes `reset` back: neither ok nor err */
    kd_harness_pool_point(3);
    kd_child c;
    take(1, &c, argv);
    assert_false(kd_harness_pool_keep(1, &c, argv, 2000));
    kd_child_stop(&c);
    kd_harness_pool_end();
}

static void fresh_or_ahead_keep_nothing(void **state)
{
    (void)state;
    const char *argv[] = {sim, "median=50us", NULL};
    const char *modes[] = {"1", "ahead"};
    for (int m = 0; m < 2; m++) {
        setenv("KERNDIFF_SWEEP_FRESH", modes[m], 1);
        kd_harness_pool_point(2);
        kd_child c;
        take(0, &c, argv);
        assert_false(kd_harness_pool_keep(0, &c, argv, 5000));
        kd_child_stop(&c);
        kd_harness_pool_end();
    }
    unsetenv("KERNDIFF_SWEEP_FRESH");
}

static void a_kept_child_that_died_is_replaced(void **state)
{
    (void)state;
    const char *argv[] = {sim, "median=50us,die_after_reset=1", NULL};
    kd_harness_pool_stats before = kd_harness_pool_stats_get();
    kd_harness_pool_point(2);
    kd_child c;
    take(0, &c, argv);
    pid_t pid = c.pid;
    assert_true(kd_harness_pool_keep(0, &c, argv, 5000)); /* it answers, then exits */
    usleep(200 * 1000);
    kd_child d;
    take(0, &d, argv);
    assert_int_not_equal(d.pid, pid);
    assert_int_equal(kd_harness_pool_stats_get().replaced - before.replaced, 1);
    kd_child_stop(&d);
    kd_harness_pool_end();
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(the_next_point_takes_the_same_process),
        cmocka_unit_test(another_argv_is_not_the_kept_one),
        cmocka_unit_test(a_child_that_refuses_reset_is_not_kept),
        cmocka_unit_test(fresh_or_ahead_keep_nothing),
        cmocka_unit_test(a_kept_child_that_died_is_replaced),
    };
    return cmocka_run_group_tests(tests, find_sim, NULL);
}
