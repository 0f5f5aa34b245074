#include "util/tmpdir.h"

#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "util/fs.h"

static char tmp_path[4096];
static pid_t owner_pid;

static void remove_tmpdir(void)
{
    /* Children forked after creation inherit the atexit handler; only the creator cleans. */
    if (tmp_path[0] && getpid() == owner_pid)
        kd_remove_tree(tmp_path);
}

static void on_fatal_signal(int sig)
{
    remove_tmpdir();
    signal(sig, SIG_DFL);
    raise(sig);
}

const char *kd_tmpdir(void)
{
    if (tmp_path[0])
        return tmp_path;
    const char *base = getenv("TMPDIR");
    snprintf(tmp_path, sizeof tmp_path, "%s/kerndiff.XXXXXX", base && *base ? base : "/tmp");
    if (!mkdtemp(tmp_path)) {
        tmp_path[0] = '\0';
        return NULL;
    }
    owner_pid = getpid();
    atexit(remove_tmpdir);
    const int signals[] = {SIGINT, SIGTERM, SIGHUP};
    for (size_t i = 0; i < sizeof signals / sizeof *signals; i++)
        signal(signals[i], on_fatal_signal);
    return tmp_path;
}
