#include "util/progress.h"

#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h> /* vsnprintf */
#include <stdlib.h>
#include <time.h>
#include <unistd.h>

#include "util/env.h"
#include "util/util_msgs.h"
#include "util/xalloc.h"

static struct {
    bool set;
    kd_verbosity level;
    bool terminal;      /* stderr is a terminal: the status line may rewrite itself */
    bool line_shown;    /* a status line is on screen */
    struct timespec start;
} state;

static void ensure(void)
{
    if (state.set)
        return;
    const char *env = kd_env(KD_ENV_TRACE);
    state.level = env && *env && *env != '0' ? KD_VERBOSE : KD_NORMAL;
    state.terminal = isatty(STDERR_FILENO);
    clock_gettime(CLOCK_MONOTONIC, &state.start);
    state.set = true;
}

void kd_trace_set(kd_verbosity level)
{
    ensure();
    if (level != KD_NORMAL || state.level != KD_VERBOSE) /* KERNDIFF_TRACE=1 stays verbose */
        state.level = level;
}

double kd_clock_s(void)
{
    struct timespec now;
    clock_gettime(CLOCK_MONOTONIC, &now);
    return (double)now.tv_sec + (double)now.tv_nsec / 1e9;
}

static double elapsed(void)
{
    struct timespec now;
    clock_gettime(CLOCK_MONOTONIC, &now);
    return (double)(now.tv_sec - state.start.tv_sec) + (double)(now.tv_nsec - state.start.tv_nsec) / 1e9;
}

/* The status line is terminal control (it redraws itself, no newline), which a message sink
 * (util/diag.h: one line each) cannot draw: it goes to its own sink, which report/ supplies
 * and main.c installs (kd_trace_set_status_sink). util/ writes nothing itself. */
static kd_status_sink status_sink;

void kd_trace_set_status_sink(kd_status_sink sink) { status_sink = sink; }

/* A printf format from the callers, which the attribute has the compiler check there. */
__attribute__((format(printf, 1, 0))) static void status_line(const char *fmt, va_list ap)
{
    if (!status_sink)
        return;
    char text[160];
    vsnprintf(text, sizeof text, fmt, ap);
    status_sink(elapsed(), text);
    state.line_shown = true;
}

void kd_status_clear(void)
{
    ensure();
    if (state.line_shown) {
        if (status_sink)
            status_sink(0, NULL);
        state.line_shown = false;
    }
}

void kd_trace(const char *fmt, ...)
{
    ensure();
    va_list ap;
    va_start(ap, fmt);
    if (state.level == KD_VERBOSE) {
        kd_status_clear();
        char *text = kd_xvasprintf(fmt, ap);
        kd_say(KD_MSG_UTIL_TRACE, KD_DIAG_NO_SIDE, KD_D(elapsed()), KD_S(text));
        free(text);
    } else if (state.level == KD_NORMAL && state.terminal) {
        status_line(fmt, ap);
    }
    va_end(ap);
}

void kd_status(const char *fmt, ...)
{
    ensure();
    if (state.level != KD_NORMAL || !state.terminal)
        return;
    va_list ap;
    va_start(ap, fmt);
    status_line(fmt, ap);
    va_end(ap);
}

void kd_announce(const char *fmt, ...)
{
    ensure();
    if (state.level == KD_QUIET || (state.level == KD_NORMAL && !state.terminal))
        return;
    kd_status_clear();
    va_list ap;
    va_start(ap, fmt);
    char *text = kd_xvasprintf(fmt, ap);
    va_end(ap);
    kd_say(KD_MSG_UTIL_ANNOUNCE, KD_DIAG_NO_SIDE, KD_S(text));
    free(text);
}
