#include "util/tmpdir.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "util/cleanup.h"
#include "util/env.h"
#include "util/fs.h"

static char tmp_path[4096];

static void remove_tmpdir(void)
{
    if (tmp_path[0])
        kd_remove_tree(tmp_path);
}

const char *kd_tmpdir(void)
{
    if (tmp_path[0])
        return tmp_path;
    const char *base = kd_env(KD_ENV_TMPDIR);
    snprintf(tmp_path, sizeof tmp_path, "%s/kerndiff.XXXXXX", base && *base ? base : "/tmp");
    if (!mkdtemp(tmp_path)) {
        tmp_path[0] = '\0';
        return NULL;
    }
    kd_on_exit(remove_tmpdir);
    return tmp_path;
}
