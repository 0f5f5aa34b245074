#include "util/tmpdir.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "util/cleanup.h"
#include "util/env.h"
#include "util/fs.h"
#include "util/util_msgs.h"

static char tmp_path[4096];

static void remove_tmpdir(void)
{
    if (tmp_path[0])
        kd_remove_tree(tmp_path);
}

bool kd_path_is_shell_plain(const char *path)
{
    for (const unsigned char *p = (const unsigned char *)path; *p; p++)
        if (*p <= ' ' || *p == 0x7f || strchr("$`\\\"';&|<>()*?[]{}!#~", *p))
            return false;
    return true;
}

const char *kd_tmpdir(void)
{
    if (tmp_path[0])
        return tmp_path;
    const char *base = kd_env(KD_ENV_TMPDIR);
    /* The folder becomes nvcc's TMPDIR (compile/build.c), and nvcc runs its steps through a
     * shell with it unquoted: `$(...)` in it would run. */
    if (base && *base && !kd_path_is_shell_plain(base)) {
        kd_say(KD_MSG_UTIL_TMPDIR_UNSAFE, KD_DIAG_NO_SIDE, KD_S(base));
        base = NULL;
    }
    snprintf(tmp_path, sizeof tmp_path, "%s/kerndiff.XXXXXX", base && *base ? base : "/tmp");
    if (!mkdtemp(tmp_path)) {
        tmp_path[0] = '\0';
        return NULL;
    }
    kd_on_exit(remove_tmpdir);
    return tmp_path;
}
