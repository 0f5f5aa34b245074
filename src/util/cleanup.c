#include "util/cleanup.h"

#include <signal.h>
#include <stdlib.h>
#include <unistd.h>

enum { MAX_ACTIONS = 16 };

static void (*actions[MAX_ACTIONS])(void);
static volatile sig_atomic_t count, running;
static pid_t owner;

/* Children forked later (harnesses, before their exec) inherit the handlers; only the
 * process that registered the actions runs them. */
static void run_actions(void)
{
    if (running || getpid() != owner)
        return;
    running = 1;
    while (count > 0)
        actions[--count]();
}

static void on_signal(int sig)
{
    run_actions();
    signal(sig, SIG_DFL);
    raise(sig);
}

int kd_on_exit(void (*action)(void))
{
    if (count == MAX_ACTIONS)
        return -1;
    if (!owner) {
        owner = getpid();
        atexit(run_actions);
        const int signals[] = {SIGINT, SIGTERM, SIGHUP};
        for (size_t i = 0; i < sizeof signals / sizeof *signals; i++)
            signal(signals[i], on_signal);
    }
    actions[count++] = action;
    return 0;
}
