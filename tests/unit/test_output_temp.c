/* The temporary file of a write (util/output.h: kd_output_temp_make, used by kd_write_file and
 * the capture file) is removed when a signal ends kerndiff before the rename, the signal then
 * doing what it did before; a signal that was ignored stays ignored; a write past the file-size
 * limit (ulimit -f: SIGXFSZ) fails with EFBIG, leaves no temporary file and keeps the old file.
 * Each case runs in a child, which the signal may end. */
#include "kd_test.h"
#include "kd_test_dir.h"

#include <dirent.h>
#include <errno.h>
#include <signal.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "util/fs.h"
#include "util/output.h"
#include "util/xalloc.h"

KD_TEST_DIR("s1-output-temp")

/* How many entries of dir start with prefix. */
static int entries(const char *prefix)
{
    DIR *d = opendir(dir);
    assert_non_null(d);
    int n = 0;
    for (struct dirent *de; (de = readdir(d));)
        n += strncmp(de->d_name, prefix, strlen(prefix)) == 0;
    closedir(d);
    return n;
}

/* The child's end: its exit status, or 128 + the signal that ended it. */
static int run_child(void (*body)(const char *), const char *arg)
{
    pid_t pid = fork();
    assert_true(pid >= 0);
    if (pid == 0) {
        body(arg);
        _exit(0);
    }
    int status;
    assert_int_equal(waitpid(pid, &status, 0), pid);
    return WIFSIGNALED(status) ? 128 + WTERMSIG(status) : WEXITSTATUS(status);
}

static void killed_while_writing(const char *sig_name)
{
    int sig = atoi(sig_name);
    /* As a process started from a terminal has it: a shell's background job (make check run
       with &, a CI runner) starts with SIGINT and SIGQUIT ignored, and an ignored signal is
       left ignored (the next test), so the child would live on. */
    signal(sig, SIG_DFL);
    char *tmp = kd_xasprintf("%s/report.html.tmpXXXXXX", dir);
    int fd = kd_output_temp_make(tmp);
    if (fd < 0 || write(fd, "half", 4) != 4)
        _exit(90);
    raise(sig); /* ends the child here */
    _exit(91);
}

static void signals_remove_the_temporary_file(void **state)
{
    (void)state;
    const int sigs[] = {SIGINT, SIGTERM, SIGHUP, SIGQUIT, SIGALRM, SIGUSR1, SIGXCPU};
    for (size_t i = 0; i < sizeof sigs / sizeof *sigs; i++) {
        char arg[16];
        snprintf(arg, sizeof arg, "%d", sigs[i]);
        assert_int_equal(run_child(killed_while_writing, arg), 128 + sigs[i]);
        assert_int_equal(entries("report.html.tmp"), 0);
    }
}

static void ignored_stays_ignored(const char *unused)
{
    (void)unused;
    signal(SIGHUP, SIG_IGN);
    char *tmp = kd_xasprintf("%s/kept.tmpXXXXXX", dir);
    int fd = kd_output_temp_make(tmp);
    if (fd < 0)
        _exit(90);
    raise(SIGHUP);
    kd_output_temp_done();
    struct sigaction now;
    sigaction(SIGHUP, NULL, &now);
    _exit(access(tmp, F_OK) == 0 && now.sa_handler == SIG_IGN ? 0 : 92);
}

static void an_ignored_signal_leaves_the_write_alone(void **state)
{
    (void)state;
    assert_int_equal(run_child(ignored_stays_ignored, NULL), 0);
    assert_int_equal(entries("kept.tmp"), 1);
}

static void past_the_size_limit(const char *path)
{
    struct rlimit lim = {8192, 8192};
    if (setrlimit(RLIMIT_FSIZE, &lim) != 0)
        _exit(93);
    size_t len = 100000;
    char *big = kd_xmalloc(len);
    memset(big, 'x', len);
    errno = 0;
    int rc = kd_write_file(path, big, len);
    _exit(rc == -1 && errno == EFBIG ? 0 : 94);
}

static void a_write_past_ulimit_fails_and_leaves_nothing(void **state)
{
    (void)state;
    char *path = kd_path_join(dir, "old.html");
    assert_int_equal(kd_write_file(path, "old\n", 4), 0);
    assert_int_equal(run_child(past_the_size_limit, path), 0);
    size_t len;
    char *text = kd_read_file(path, &len);
    assert_string_equal(text, "old\n");
    assert_int_equal(entries("old.html.tmp"), 0);
    free(text);
    free(path);
}

/* kd_output_discard: a file an earlier run left at an output's path goes (a reader would take
 * it for this run's); stdout, a missing path, a folder, a FIFO and a device are left alone. */
static void discard_removes_only_an_earlier_file(void **state)
{
    (void)state;
    int err;
    char *path = kd_path_join(dir, "stale.csv");
    assert_int_equal(kd_write_file(path, "v1,0,1\n", 7), 0);
    assert_int_equal(kd_output_discard(path, &err), 1);
    assert_int_equal(access(path, F_OK), -1);
    assert_int_equal(kd_output_discard(path, &err), 0); /* gone: nothing to do */
    assert_int_equal(kd_output_discard("-", &err), 0);
    assert_int_equal(kd_output_discard(dir, &err), 0);
    assert_int_equal(access(dir, F_OK), 0);
    char *fifo = kd_path_join(dir, "pipe");
    assert_int_equal(mkfifo(fifo, 0600), 0);
    assert_int_equal(kd_output_discard(fifo, &err), 0);
    assert_int_equal(access(fifo, F_OK), 0);
    assert_int_equal(kd_output_discard("/dev/null", &err), 0);
    assert_int_equal(access("/dev/null", F_OK), 0);
    free(fifo);
    free(path);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(signals_remove_the_temporary_file),
        cmocka_unit_test(an_ignored_signal_leaves_the_write_alone),
        cmocka_unit_test(a_write_past_ulimit_fails_and_leaves_nothing),
        cmocka_unit_test(discard_removes_only_an_earlier_file),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
