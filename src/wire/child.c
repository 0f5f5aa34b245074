#include "wire/child.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "util/env.h"
#include "util/spawn.h"
#include "wire/locate.h"
#include "wire/wire_msgs.h"
#include "util/xalloc.h"

static long now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec * 1000L + ts.tv_nsec / 1000000L;
}

/* A reason for a caller that still takes text: report/'s words for message id with one value. */
static void said(kd_strbuf *why, int id, const char *value)
{
    kd_diag d = {0};
    kd_diag_set(&d, id, KD_DIAG_NO_SIDE, KD_S(value));
    kd_diag_append_words(&d, why);
    kd_diag_free(&d);
}

/* A harness loads the newest CUPTI wheel (13.4 or later) in place of the toolkit's, unless
 * KERNDIFF_CUPTI_LIBRARY names one: set once, in kerndiff's own environment, before the first
 * fork (setenv is not for a forked child of a threaded parent). */
static void offer_newer_cupti(void)
{
    static bool done;
    if (done)
        return;
    done = true;
    if (kd_env_nonempty(KD_ENV_CUPTI_LIBRARY))
        return;
    char *lib = kd_cupti_wheel_library(KD_CUPTI_CACHE_CONTROL_VERSION);
    if (lib)
        setenv(kd_env_table()[KD_ENV_CUPTI_LIBRARY].name, lib, 0);
    free(lib);
}

int kd_child_start(kd_child *c, const char *side, const char *const argv[], kd_strbuf *why)
{
    offer_newer_cupti();
    memset(c, 0, sizeof *c);
    c->side = side;
    c->to_child = c->from_child = c->child_err = -1;
    int in[2], out[2], err[2];
    if (pipe2(in, O_CLOEXEC) || pipe2(out, O_CLOEXEC) || pipe2(err, O_CLOEXEC)) {
        said(why, KD_MSG_WIRE_CHILD_NO_PIPES, strerror(errno));
        return -1;
    }
    pid_t parent = getpid();
    c->pid = fork();
    if (c->pid < 0) {
        said(why, KD_MSG_WIRE_CHILD_NO_FORK, strerror(errno));
        return -1;
    }
    if (c->pid == 0) {
        /* A harness must not outlive kerndiff, even if kerndiff is killed. */
        prctl(PR_SET_PDEATHSIG, SIGKILL);
        if (getppid() != parent)
            _exit(127);
        setpgid(0, 0); /* its own group: what it starts (ncu's target) ends with it */
        dup2(in[0], STDIN_FILENO);
        dup2(out[1], STDOUT_FILENO);
        dup2(err[1], STDERR_FILENO);
        signal(SIGPIPE, SIG_DFL);
        execvp(argv[0], (char *const *)argv);
        dprintf(STDERR_FILENO, "cannot run %s: %s\n", argv[0], strerror(errno));
        _exit(127);
    }
    setpgid(c->pid, c->pid); /* also here: whichever side runs first */
    kd_spawn_track_group(c->pid);
    close(in[0]);
    close(out[1]);
    close(err[1]);
    c->to_child = in[1];
    c->from_child = out[0];
    c->child_err = err[0];
    return 0;
}

static void reap(kd_child *c, bool block)
{
    if (c->exited || c->pid <= 0)
        return;
    int status;
    pid_t r;
    while ((r = waitpid(c->pid, &status, block ? 0 : WNOHANG)) < 0 && errno == EINTR)
        ;
    if (r != c->pid)
        return;
    c->exited = true;
    kd_spawn_untrack_group(c->pid);
    if (WIFSIGNALED(status))
        c->signal = WTERMSIG(status);
    else
        c->exit_code = WEXITSTATUS(status);
}

static void kill_child(kd_child *c)
{
    if (!c->exited && c->pid > 0) {
        kill(-c->pid, SIGKILL); /* the group: ncu and the harness it runs */
        reap(c, true);
    }
}

/* Takes one complete line out of `pending`, if there is one. */
static bool take_line(kd_child *c)
{
    char *nl = c->pending.data ? memchr(c->pending.data, '\n', c->pending.len) : NULL;
    if (!nl)
        return false;
    size_t n = (size_t)(nl - c->pending.data);
    free(c->line);
    c->line = kd_xstrndup(c->pending.data, n);
    memmove(c->pending.data, nl + 1, c->pending.len - n - 1);
    c->pending.len -= n + 1;
    c->pending.data[c->pending.len] = '\0';
    return true;
}

static void drain_fd(int *fd, kd_strbuf *into)
{
    char buf[4096];
    ssize_t n = read(*fd, buf, sizeof buf);
    if (n > 0)
        kd_sb_append(into, buf, (size_t)n);
    else if (n == 0 || (errno != EINTR && errno != EAGAIN)) {
        close(*fd);
        *fd = -1;
    }
}

/* The text a terminal would show for `line`: what follows its last carriage return (a
 * trailing one, as in CRLF, does not count). */
static char *visible_text(char *line)
{
    size_t len = strlen(line);
    while (len && line[len - 1] == '\r')
        line[--len] = '\0';
    char *cr = strrchr(line, '\r');
    return cr ? cr + 1 : line;
}

/* A program that runs the harness (ncu) shares its stdout and may write there: blank lines,
 * "==PROF==" messages, progress redrawn with '\r'. Such lines are not replies. They are kept
 * with the child's stderr text, which a failure report quotes. */
static bool is_tool_noise(kd_child *c)
{
    char *text = visible_text(c->line);
    memmove(c->line, text, strlen(text) + 1); /* from here on, the line is what a terminal shows */
    if (c->line[strspn(c->line, " \t")] != '\0' && strncmp(c->line, "==", 2) != 0)
        return false;
    kd_sb_printf(&c->stderr_text, "(stdout) %s\n", c->line);
    return true;
}

/* One complete reply line, skipping tool noise. */
static bool take_reply(kd_child *c)
{
    while (take_line(c))
        if (!is_tool_noise(c))
            return true;
    return false;
}

static kd_reply_status read_reply(kd_child *c, int timeout_ms)
{
    long deadline = now_ms() + timeout_ms;
    while (!take_reply(c)) {
        if (c->from_child < 0) {
            /* stdout closed: collect the rest of stderr, then the exit status. */
            while (c->child_err >= 0)
                drain_fd(&c->child_err, &c->stderr_text);
            reap(c, true);
            return KD_REPLY_DIED;
        }
        long left = deadline - now_ms();
        if (left <= 0) {
            kill_child(c);
            return KD_REPLY_TIMEOUT;
        }
        struct pollfd fds[2] = {{.fd = c->from_child, .events = POLLIN}, {.fd = c->child_err, .events = POLLIN}};
        int r = poll(fds, 2, (int)left);
        if (r < 0 && errno != EINTR)
            return KD_REPLY_DIED;
        if (r > 0 && fds[0].revents)
            drain_fd(&c->from_child, &c->pending);
        if (r > 0 && fds[1].revents)
            drain_fd(&c->child_err, &c->stderr_text);
    }
    kd_proto_split(c->line, &c->words);
    if (c->words.count >= 1 && strcmp(c->words.word[0], "ok") == 0)
        return KD_REPLY_OK;
    if (c->words.count >= 2 && strcmp(c->words.word[0], "err") == 0)
        return KD_REPLY_ERR;
    return KD_REPLY_GARBLED;
}

__attribute__((format(printf, 2, 0))) static void send_line(kd_child *c, const char *fmt, va_list ap)
{
    c->send_failed = true;
    if (c->exited || c->to_child < 0)
        return;
    char *cmd = kd_xvasprintf(fmt, ap);
    c->send_failed = dprintf(c->to_child, "%s\n", cmd) != (int)strlen(cmd) + 1; /* EPIPE: SIGPIPE is ignored */
    free(cmd);
}

void kd_child_send(kd_child *c, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    send_line(c, fmt, ap);
    va_end(ap);
}

kd_reply_status kd_child_receive(kd_child *c, int timeout_ms)
{
    if (c->send_failed) {
        while (c->child_err >= 0)
            drain_fd(&c->child_err, &c->stderr_text);
        reap(c, true);
        return KD_REPLY_DIED;
    }
    return read_reply(c, timeout_ms);
}

kd_reply_status kd_child_call(kd_child *c, int timeout_ms, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    send_line(c, fmt, ap);
    va_end(ap);
    return kd_child_receive(c, timeout_ms);
}

/* The child's last stderr line, which usually says what went wrong; NULL when it wrote none. */
static char *last_stderr_line(const kd_child *c)
{
    const char *text = kd_sb_str(&c->stderr_text);
    size_t len = c->stderr_text.len;
    while (len && (text[len - 1] == '\n' || text[len - 1] == '\r'))
        len--;
    size_t start = len;
    while (start && text[start - 1] != '\n')
        start--;
    return len > start ? kd_xstrndup(text + start, len - start) : NULL;
}

/* The reply's words from `from` on, separated by spaces (splitting put NULs in the line);
 * each word cut at 200 bytes. */
static char *join_words(const kd_child *c, size_t from)
{
    kd_strbuf out = {0};
    for (size_t i = from; i < c->words.count; i++) {
        if (i > from)
            kd_sb_puts(&out, " ");
        const char *w = c->words.word[i];
        kd_sb_append(&out, w, strnlen(w, 200));
    }
    return kd_sb_take(&out);
}

void kd_child_failure_get(const kd_child *c, kd_reply_status st, kd_child_failure *f)
{
    memset(f, 0, sizeof *f);
    f->status = st;
    switch (st) {
    case KD_REPLY_OK:
    case KD_REPLY_TIMEOUT:
        break;
    case KD_REPLY_ERR: /* "err KIND message..." */
        f->answer = join_words(c, 2);
        break;
    case KD_REPLY_DIED:
        f->signal = c->signal;
        f->exit_code = c->exit_code;
        f->last_words = last_stderr_line(c);
        break;
    case KD_REPLY_GARBLED:
        f->answer = join_words(c, 0);
        break;
    }
}

void kd_child_failure_free(kd_child_failure *f)
{
    free(f->answer);
    free(f->last_words);
    memset(f, 0, sizeof *f);
}

void kd_child_failure_diag(const kd_child_failure *f, const char *doing, int side, kd_diag *d)
{
    kd_diag what = {0};
    const char *answer = f->answer ? f->answer : "";
    switch (f->status) {
    case KD_REPLY_OK: kd_diag_set0(&what, KD_MSG_WIRE_CHILD_NO_FAILURE, side); break;
    case KD_REPLY_ERR: kd_diag_set(&what, KD_MSG_WIRE_CHILD_ERR, side, KD_S(answer)); break;
    case KD_REPLY_TIMEOUT: kd_diag_set0(&what, KD_MSG_WIRE_CHILD_TIMEOUT, side); break;
    case KD_REPLY_GARBLED: kd_diag_set(&what, KD_MSG_WIRE_CHILD_GARBLED, side, KD_S(answer)); break;
    case KD_REPLY_DIED:
        if (f->signal && f->last_words)
            kd_diag_set(&what, KD_MSG_WIRE_CHILD_SIGNAL_WORDS, side, KD_I(f->signal), KD_S(strsignal(f->signal)),
                        KD_S(f->last_words));
        else if (f->signal)
            kd_diag_set(&what, KD_MSG_WIRE_CHILD_SIGNAL, side, KD_I(f->signal), KD_S(strsignal(f->signal)));
        else if (f->last_words)
            kd_diag_set(&what, KD_MSG_WIRE_CHILD_EXIT_WORDS, side, KD_I(f->exit_code), KD_S(f->last_words));
        else
            kd_diag_set(&what, KD_MSG_WIRE_CHILD_EXIT, side, KD_I(f->exit_code));
        break;
    }
    if (doing) {
        kd_diag_set(d, KD_MSG_WIRE_CHILD_WHILE, side, KD_S(doing), KD_M(&what));
        kd_diag_free(&what);
    } else {
        kd_diag_free(d);
        *d = what; /* moved */
    }
}

void kd_child_failure_words(const kd_child *c, kd_reply_status st, const char *doing, kd_strbuf *why)
{
    kd_child_failure f;
    kd_child_failure_get(c, st, &f);
    kd_diag d = {0};
    kd_child_failure_diag(&f, doing, KD_DIAG_NO_SIDE, &d);
    kd_diag_append_words(&d, why);
    kd_diag_free(&d);
    kd_child_failure_free(&f);
}

void kd_child_stop(kd_child *c)
{
    if (c->pid > 0 && !c->exited && c->to_child >= 0) {
        if (kd_child_call(c, 2000, "quit") == KD_REPLY_OK)
            reap(c, true);
    }
    kill_child(c);
    int *fds[] = {&c->to_child, &c->from_child, &c->child_err};
    for (size_t i = 0; i < 3; i++)
        if (*fds[i] >= 0) {
            close(*fds[i]);
            *fds[i] = -1;
        }
    kd_sb_free(&c->pending);
    kd_sb_free(&c->stderr_text);
    free(c->line);
    c->line = NULL;
    c->pid = 0;
}
