/* measure/harness_pool: children started ahead for a sweep's next point, taken by role and
 * argv; none outside a sweep, none after the last point, none with KERNDIFF_SWEEP_FRESH; a
 * spare that died is replaced; the end of the sweep stops what is left. Real processes: the
 * simulated harness beside the test's build folder, and /bin/true (one that exits at once). */
#include "kd_test.h"

#include <limits.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "measure/harness_pool.h"
#include "util/strbuf.h"

static char sim[PATH_MAX];

static int find_sim(void **state)
{
    (void)state;
    if (!kd_test_sim_harness(sim, sizeof sim))
        return -1;
    unsetenv("KERNDIFF_SWEEP_FRESH");
    signal(SIGPIPE, SIG_IGN); /* as kerndiff's main: a child gone is a failed send, not our end */
    return 0;
}

static kd_harness_pool_stats since(kd_harness_pool_stats before)
{
    kd_harness_pool_stats now = kd_harness_pool_stats_get();
    return (kd_harness_pool_stats){now.started - before.started, now.taken - before.taken,
                                   now.replaced - before.replaced, now.dropped - before.dropped};
}

static void take_and_stop(int role, const char *const *argv)
{
    kd_child c;
    kd_strbuf why = {0};
    assert_int_equal(kd_harness_pool_take(role, &c, "v1", argv, &why), 0);
    assert_string_equal(c.side, "v1"); /* the point's label, not the spare's */
    kd_child_stop(&c);
    kd_sb_free(&why);
}

static void outside_a_sweep_nothing_ahead(void **state)
{
    (void)state;
    const char *argv[] = {sim, "median=50us", NULL};
    const char *const *ahead[KD_POOL_ROLES] = {argv, argv, argv};
    kd_harness_pool_stats before = kd_harness_pool_stats_get();
    kd_harness_pool_start_ahead(ahead);
    take_and_stop(0, argv);
    kd_harness_pool_stats d = since(before);
    assert_int_equal(d.started, 1); /* the take's own */
    assert_int_equal(d.taken, 0);
}

static void the_next_point_takes_the_spares(void **state)
{
    (void)state;
    const char *alone[] = {sim, "median=50us", NULL}, *both[] = {sim, "median=50us", "median=40us", NULL};
    const char *const *ahead[KD_POOL_ROLES] = {alone, alone, both};
    kd_harness_pool_stats before = kd_harness_pool_stats_get();
    kd_harness_pool_point(1); /* one point follows */
    kd_harness_pool_start_ahead(ahead);
    assert_int_equal(since(before).started, 3);
    kd_harness_pool_point(0); /* the last point: it takes them, and starts none */
    for (int r = 0; r < KD_POOL_ROLES; r++)
        take_and_stop(r, r == 2 ? both : alone);
    kd_harness_pool_start_ahead(ahead);
    kd_harness_pool_end();
    kd_harness_pool_stats d = since(before);
    assert_int_equal(d.started, 3);
    assert_int_equal(d.taken, 3);
    assert_int_equal(d.replaced + d.dropped, 0);
}

static void another_argv_or_a_dead_spare_starts_fresh(void **state)
{
    (void)state;
    const char *alone[] = {sim, "median=50us", NULL}, *other[] = {sim, "median=60us", NULL};
    const char *dead[] = {"/bin/true", NULL};
    const char *const *ahead[KD_POOL_ROLES] = {alone, dead, NULL};
    kd_harness_pool_stats before = kd_harness_pool_stats_get();
    kd_harness_pool_point(2);
    kd_harness_pool_start_ahead(ahead);
    assert_int_equal(since(before).started, 2); /* none for a role without argv */
    usleep(200 * 1000); /* /bin/true has exited */
    take_and_stop(0, other); /* another argv: the spare is dropped, a fresh one started */
    kd_child c;
    kd_strbuf why = {0};
    assert_int_equal(kd_harness_pool_take(1, &c, "v2", dead, &why), 0); /* dead: replaced (and said) */
    kd_child_stop(&c);
    kd_sb_free(&why);
    kd_harness_pool_stats d = since(before);
    assert_int_equal(d.dropped, 1);
    assert_int_equal(d.replaced, 1);
    assert_int_equal(d.taken, 0);
    assert_int_equal(d.started, 4);
    kd_harness_pool_end();
}

static void sweep_fresh_turns_it_off(void **state)
{
    (void)state;
    setenv("KERNDIFF_SWEEP_FRESH", "1", 1);
    const char *argv[] = {sim, "median=50us", NULL};
    const char *const *ahead[KD_POOL_ROLES] = {argv, argv, argv};
    kd_harness_pool_stats before = kd_harness_pool_stats_get();
    kd_harness_pool_point(3);
    kd_harness_pool_start_ahead(ahead);
    kd_child c = {0};
    assert_false(kd_harness_pool_retire(&c)); /* the caller stops its own */
    kd_harness_pool_end();
    unsetenv("KERNDIFF_SWEEP_FRESH");
    assert_int_equal(since(before).started, 0);
}

static void the_end_stops_what_is_left(void **state)
{
    (void)state;
    const char *argv[] = {sim, "median=50us", NULL};
    const char *const *ahead[KD_POOL_ROLES] = {argv, argv, argv};
    kd_harness_pool_stats before = kd_harness_pool_stats_get();
    kd_harness_pool_point(4);
    kd_harness_pool_start_ahead(ahead);
    kd_harness_pool_end(); /* the sweep broke off: three unused */
    assert_int_equal(since(before).dropped, 3);
    take_and_stop(0, argv); /* and the pool is closed: a fresh one */
    assert_int_equal(since(before).taken, 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(outside_a_sweep_nothing_ahead),
        cmocka_unit_test(the_next_point_takes_the_spares),
        cmocka_unit_test(another_argv_or_a_dead_spare_starts_fresh),
        cmocka_unit_test(sweep_fresh_turns_it_off),
        cmocka_unit_test(the_end_stops_what_is_left),
    };
    return cmocka_run_group_tests(tests, find_sim, NULL);
}
