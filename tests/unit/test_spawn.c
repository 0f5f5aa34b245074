/* util/spawn's two halves (issue 26 item 2): kd_spawn_start runs a program without waiting,
 * so two run at once; kd_spawn_wait collects each one's output and status, its timeout
 * counted from the start; kd_spawn_cancel ends a job and its process group. */
#include "kd_test.h"
#include "kd_test_dir.h"

#include <errno.h>
#include <signal.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "util/fs.h"
#include "util/spawn.h"

KD_TEST_DIR("p26")

/* Two jobs that can each end only once the other has started (each waits, at most 20 s, for
 * the other's mark file): both end by themselves, so they ran at once, whatever the timing. */
static void two_jobs_run_at_once(void **state)
{
    (void)state;
    static const char script[] = "touch \"$1/$2\"; n=0; while [ ! -e \"$1/$3\" ] && [ $n -lt 2000 ]; do "
                                 "sleep 0.01; n=$((n+1)); done; [ -e \"$1/$3\" ] && echo \"$2 saw $3\"";
    const char *a[] = {"sh", "-c", script, "sh", dir, "a", "b", NULL};
    const char *b[] = {"sh", "-c", script, "sh", dir, "b", "a", NULL};
    kd_spawn_job ja, jb;
    assert_int_equal(kd_spawn_start(a, NULL, &ja), 0);
    assert_true(ja.pid > 0);
    assert_int_equal(kd_spawn_start(b, NULL, &jb), 0);
    kd_spawn_result ra, rb;
    assert_int_equal(kd_spawn_wait(&ja, 60000, &ra), 0);
    assert_int_equal(kd_spawn_wait(&jb, 60000, &rb), 0);
    assert_false(ra.timed_out);
    assert_int_equal(ra.exit_code, 0);
    assert_string_equal(kd_sb_str(&ra.out), "a saw b\n");
    assert_int_equal(rb.exit_code, 0);
    assert_string_equal(kd_sb_str(&rb.out), "b saw a\n");
    kd_spawn_result_free(&ra);
    kd_spawn_result_free(&rb);
    assert_int_equal(ja.pid, 0); /* waited: the job is empty again */
    assert_int_equal(kd_spawn_wait(&ja, 1000, &ra), -1);
}

/* Output on both streams and the exit status, as kd_spawn gives them. */
static void wait_collects_output_and_status(void **state)
{
    (void)state;
    const char *argv[] = {"sh", "-c", "echo out; echo err >&2; exit 3", NULL};
    kd_spawn_job job;
    assert_int_equal(kd_spawn_start(argv, dir, &job), 0);
    kd_spawn_result r;
    assert_int_equal(kd_spawn_wait(&job, 10000, &r), 0);
    assert_string_equal(kd_sb_str(&r.out), "out\n");
    assert_string_equal(kd_sb_str(&r.err), "err\n");
    assert_int_equal(r.exit_code, 3);
    assert_int_equal(r.signal, 0);
    kd_spawn_result_free(&r);
}

/* The timeout counts from the start: a job waited for after its time has passed (as the
 * second of two jobs is) is ended at once, not given the time again. The program would end by
 * itself 0.4 s after its start, within the 0.2 s a wait-counted timeout would give after 0.3 s. */
static void timeout_counts_from_the_start(void **state)
{
    (void)state;
    const char *argv[] = {"sh", "-c", "sleep 0.4; echo done", NULL};
    kd_spawn_job job;
    assert_int_equal(kd_spawn_start(argv, NULL, &job), 0);
    struct timespec pause = {0, 300 * 1000000L};
    nanosleep(&pause, NULL);
    kd_spawn_result r;
    assert_int_equal(kd_spawn_wait(&job, 200, &r), 0);
    assert_true(r.timed_out);
    assert_int_equal(r.signal, SIGKILL);
    assert_string_equal(kd_sb_str(&r.out), "");
    kd_spawn_result_free(&r);
}

/* ... but a job that ended in time and is waited for after its deadline (the second of two
 * jobs, its output waiting in the pipes) has not timed out: its output and status are its own. */
static void ended_in_time_waited_late(void **state)
{
    (void)state;
    const char *argv[] = {"sh", "-c", "echo quick; exit 4", NULL};
    kd_spawn_job job;
    assert_int_equal(kd_spawn_start(argv, NULL, &job), 0);
    /* it has ended once its leader is a zombie (waitid with WNOWAIT leaves it to be reaped) */
    siginfo_t info;
    assert_int_equal(waitid(P_PID, (id_t)job.pid, &info, WEXITED | WNOWAIT), 0);
    struct timespec pause = {0, 300 * 1000000L};
    nanosleep(&pause, NULL);
    kd_spawn_result r;
    assert_int_equal(kd_spawn_wait(&job, 200, &r), 0);
    assert_false(r.timed_out);
    assert_int_equal(r.exit_code, 4);
    assert_string_equal(kd_sb_str(&r.out), "quick\n");
    kd_spawn_result_free(&r);
}

/* A job no longer wanted: its group killed and its leader reaped; no job is not an error. */
static void cancel_ends_the_job(void **state)
{
    (void)state;
    const char *argv[] = {"sleep", "30", NULL};
    kd_spawn_job job;
    assert_int_equal(kd_spawn_start(argv, NULL, &job), 0);
    pid_t pid = job.pid;
    kd_spawn_cancel(&job);
    assert_int_equal(job.pid, 0);
    errno = 0;
    assert_int_equal(waitpid(pid, NULL, WNOHANG), -1); /* already reaped */
    assert_int_equal(errno, ECHILD);
    kd_spawn_cancel(&job); /* an empty job: nothing */
}

/* A program that is not there: -1 with ENOENT, and an empty job. */
static void start_of_a_missing_program(void **state)
{
    (void)state;
    const char *argv[] = {"kd-no-such-program-p26", NULL};
    kd_spawn_job job;
    errno = 0;
    assert_int_equal(kd_spawn_start(argv, NULL, &job), -1);
    assert_int_equal(errno, ENOENT);
    assert_int_equal(job.pid, 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(two_jobs_run_at_once),
        cmocka_unit_test(wait_collects_output_and_status),
        cmocka_unit_test(timeout_counts_from_the_start),
        cmocka_unit_test(ended_in_time_waited_late),
        cmocka_unit_test(cancel_ends_the_job),
        cmocka_unit_test(start_of_a_missing_program),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
