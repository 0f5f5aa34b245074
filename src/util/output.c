#include "util/output.h"

#include <errno.h>
#include <limits.h>
#include <signal.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "util/fs.h"

/* ---- the temporary file of a write, removed on a signal -------------------------------------- */

static void on_xfsz(int sig)
{
    (void)sig; /* the write that went past the limit fails with EFBIG: it is said there */
}

void kd_output_catch_xfsz(void)
{
    static bool caught;
    if (caught)
        return;
    caught = true;
    struct sigaction sa = {.sa_handler = on_xfsz};
    sigemptyset(&sa.sa_mask);
    sigaction(SIGXFSZ, &sa, NULL);
}

/* The signals that end kerndiff by default (SIGKILL and SIGSTOP cannot be caught). */
static const int fatal_signals[] = {SIGINT, SIGTERM, SIGHUP, SIGQUIT, SIGALRM, SIGXCPU, SIGUSR1, SIGUSR2, SIGVTALRM,
                                    SIGPROF};
enum { NFATAL = sizeof fatal_signals / sizeof *fatal_signals };

static char pending[PATH_MAX + 32];   /* the temporary file armed, for the handler */
static volatile sig_atomic_t armed;
static struct sigaction before[NFATAL]; /* each signal's action before the write */
static bool installed[NFATAL];

/* Async-signal-safe: removes the temporary file, puts back the signal's earlier action
 * and raises it again (delivered when this returns: kerndiff ends as it would have). */
static void on_fatal(int sig)
{
    int saved = errno;
    if (armed) {
        armed = 0;
        unlink(pending);
    }
    for (int i = 0; i < NFATAL; i++)
        if (fatal_signals[i] == sig && installed[i])
            sigaction(sig, &before[i], NULL);
    raise(sig);
    errno = saved;
}

int kd_output_temp_make(char *template)
{
    kd_output_catch_xfsz();
    if (armed || strlen(template) >= sizeof pending) { /* one write at a time; a name too long for the slot */
        errno = armed ? EBUSY : ENAMETOOLONG;
        return -1;
    }
    /* No signal between the file's creation and its arming. */
    sigset_t all, old;
    sigfillset(&all);
    sigprocmask(SIG_BLOCK, &all, &old);
    int fd = mkstemp(template);
    int saved = errno;
    if (fd >= 0) {
        memcpy(pending, template, strlen(template) + 1);
        armed = 1;
        struct sigaction sa = {.sa_handler = on_fatal};
        sigemptyset(&sa.sa_mask);
        for (int i = 0; i < NFATAL; i++) {
            installed[i] = false;
            /* a signal ignored (nohup's SIGHUP) stays ignored: it never ends the write */
            if (sigaction(fatal_signals[i], NULL, &before[i]) == 0 && before[i].sa_handler != SIG_IGN)
                installed[i] = sigaction(fatal_signals[i], &sa, NULL) == 0;
        }
    }
    sigprocmask(SIG_SETMASK, &old, NULL);
    errno = saved;
    return fd;
}

void kd_output_temp_done(void)
{
    sigset_t all, old;
    sigfillset(&all);
    sigprocmask(SIG_BLOCK, &all, &old);
    armed = 0;
    for (int i = 0; i < NFATAL; i++)
        if (installed[i]) {
            sigaction(fatal_signals[i], &before[i], NULL);
            installed[i] = false;
        }
    sigprocmask(SIG_SETMASK, &old, NULL);
}

/* ---- reports --------------------------------------------------------------------------------- */

FILE *kd_output_open(kd_output *o, const char *path)
{
    kd_output_catch_xfsz();
    *o = (kd_output){.path = path};
    o->stream = open_memstream(&o->data, &o->len);
    return o->stream;
}

/* Why stdout first failed (a full disk, a closed pipe): a later flush no longer says. */
static int stdout_errno;

int kd_stdout_flush(void)
{
    kd_output_catch_xfsz();
    errno = 0;
    if (fflush(stdout) == 0 && !ferror(stdout))
        return 0;
    if (!stdout_errno)
        stdout_errno = errno;
    return -1;
}

/* stdout keeps its buffer shared with the terminal report, so it is written through stdio. */
static int write_stdout(const char *data, size_t len)
{
    size_t written = fwrite(data, 1, len, stdout);
    if (written != len && !stdout_errno)
        stdout_errno = errno;
    int rc = kd_stdout_flush() == 0 && written == len ? 0 : -1;
    if (rc != 0)
        errno = stdout_errno;
    /* A reader that stopped reading (kerndiff --json - | head) took what it wanted: no failure
     * here; main.c ends quietly with the run's status (kd_stdout_check still says EPIPE). */
    if (rc != 0 && stdout_errno == EPIPE)
        rc = 0;
    return rc;
}

kd_output_result kd_output_close(kd_output *o, int failed, int *err)
{
    *err = 0;
    if (!o->stream) {
        *o = (kd_output){0};
        return KD_OUTPUT_NO_MEMORY;
    }
    failed |= fclose(o->stream) != 0;
    kd_output_result result = KD_OUTPUT_NOT_RENDERED;
    if (!failed) {
        errno = 0;
        int rc = strcmp(o->path, "-") == 0 ? write_stdout(o->data, o->len) : kd_write_file(o->path, o->data, o->len);
        result = rc == 0 ? KD_OUTPUT_WRITTEN : KD_OUTPUT_NOT_WRITTEN;
        *err = rc == 0 ? 0 : errno;
    }
    free(o->data);
    *o = (kd_output){0};
    return result;
}

bool kd_output_left_over(const char *path)
{
    struct stat st;
    return strcmp(path, "-") != 0 && lstat(path, &st) == 0 && (S_ISREG(st.st_mode) || S_ISLNK(st.st_mode));
}

int kd_output_discard(const char *path, int *err)
{
    *err = 0;
    if (!kd_output_left_over(path))
        return 0;
    if (unlink(path) == 0)
        return 1;
    *err = errno;
    return -1;
}

int kd_stdout_check(int *err)
{
    *err = 0;
    if (kd_stdout_flush() == 0)
        return 0;
    *err = stdout_errno;
    return -1;
}
