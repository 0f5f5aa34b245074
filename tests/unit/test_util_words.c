/* Issue 29 item 2 (words only in report/), util/'s last words: the out-of-memory sentence is
 * a util/ message said through util/diag.h (with a re-entry guard), and the status line is
 * drawn by the sink report/ supplies (util/progress.h's kd_trace_set_status_sink). */
#include "kd_test.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "report/diag_text.h"
#include "report/stderr_text.h"
#include "util/progress.h"
#include "util/util_msgs.h"
#include "util/xalloc.h"

static void out_of_memory_words(void **state)
{
    (void)state;
    kd_diag d = {0};
    kd_strbuf sb = {0};
    kd_diag_set(&d, KD_MSG_UTIL_OUT_OF_MEMORY, KD_DIAG_NO_SIDE, KD_U(123));
    kd_diag_text(&d, &sb);
    assert_string_equal(kd_sb_str(&sb),
                        "kerndiff: out of memory (allocating 123 bytes); free some memory or make the run smaller");
    kd_diag_free(&d);
    kd_sb_free(&sb);
    kd_diag_set0(&d, KD_MSG_UTIL_OUT_OF_MEMORY_UNSIZED, KD_DIAG_NO_SIDE);
    kd_diag_text(&d, &sb);
    assert_string_equal(kd_sb_str(&sb), "kerndiff: out of memory; free some memory or make the run smaller");
    kd_diag_free(&d);
    kd_sb_free(&sb);
}

static int sink_calls;
static int report_fd = -1;
/* A sink whose own allocation fails: it writes the id and size it got, then dies of memory
 * again, inside the first death. */
static void failing_sink(const kd_diag *d, void *ctx)
{
    (void)ctx;
    if (++sink_calls > 1)
        _exit(99); /* re-entered: the guard did not hold */
    dprintf(report_fd, "%d %llu", d->id, d->nargs ? d->args[0].v.u : 0ull);
    kd_die_oom(7);
}

/* The sentence is a message (the sink gets its id and the size), said once; the allocation
 * failing inside the sink just exits with the status. */
static void out_of_memory_said_once(void **state)
{
    (void)state;
    int fds[2];
    assert_int_equal(pipe(fds), 0);
    pid_t pid = fork();
    assert_true(pid >= 0);
    if (pid == 0) {
        close(fds[0]);
        report_fd = fds[1];
        kd_diag_set_sink(failing_sink, NULL);
        kd_die_oom(4096);
    }
    close(fds[1]);
    char buf[64] = "";
    ssize_t n = read(fds[0], buf, sizeof buf - 1);
    close(fds[0]);
    int status = 0;
    assert_int_equal(waitpid(pid, &status, 0), pid);
    assert_true(WIFEXITED(status));
    assert_int_equal(WEXITSTATUS(status), KD_XALLOC_EXIT_STATUS);
    assert_true(n > 0);
    char want[64];
    snprintf(want, sizeof want, "%d 4096", (int)KD_MSG_UTIL_OUT_OF_MEMORY);
    assert_string_equal(buf, want);
}

/* report/'s status sink: redrawn in place, the text filtered, erased with text NULL. */
static void status_sink_draws_and_erases(void **state)
{
    (void)state;
    FILE *f = tmpfile();
    assert_non_null(f);
    fflush(stderr);
    int saved = dup(STDERR_FILENO);
    dup2(fileno(f), STDERR_FILENO);
    kd_status_to_stderr(1.25, "timing v1 \033]0;x\a");
    kd_status_to_stderr(0, NULL);
    fflush(stderr);
    dup2(saved, STDERR_FILENO);
    close(saved);
    char buf[256] = "";
    rewind(f);
    size_t n = fread(buf, 1, sizeof buf - 1, f);
    fclose(f);
    buf[n] = '\0';
    assert_true(strncmp(buf, "\r\033[K[kerndiff 1.2s] timing v1 ", 30) == 0 ||
                strncmp(buf, "\r\033[K[kerndiff 1.3s] timing v1 ", 30) == 0);
    assert_null(strchr(buf + 4, '\a'));                          /* the tool's control written out */
    assert_string_equal(buf + n - 4, "\r\033[K");                /* then erased */
}

/* A sink installed is what kd_status_clear calls; none installed, nothing happens. */
static int erased;
static void counting_sink(double seconds, const char *text)
{
    (void)seconds;
    if (!text)
        erased++;
}
static void no_sink_no_line(void **state)
{
    (void)state;
    kd_trace_set_status_sink(counting_sink);
    kd_status_clear(); /* nothing shown: nothing erased */
    assert_int_equal(erased, 0);
    kd_trace_set_status_sink(NULL);
    kd_status("x %d", 1); /* no sink (and no terminal): no crash, nothing drawn */
    kd_status_clear();
    assert_int_equal(erased, 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(out_of_memory_words),          cmocka_unit_test(out_of_memory_said_once),
        cmocka_unit_test(status_sink_draws_and_erases),
        cmocka_unit_test(no_sink_no_line),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
