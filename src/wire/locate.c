#include "wire/locate.h"

#include <limits.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "util/fs.h"
#include "util/xalloc.h"

static char *executable_in(const char *dir, const char *name)
{
    char *path = kd_path_join(dir, name);
    if (access(path, X_OK) == 0)
        return path;
    free(path);
    return NULL;
}

static char *self_dir(void)
{
    char self[PATH_MAX];
    ssize_t n = readlink("/proc/self/exe", self, sizeof self - 1);
    if (n <= 0)
        return NULL;
    self[n] = '\0';
    return kd_dirname(self);
}

char *kd_include_dir(void)
{
    const char *env = getenv("KERNDIFF_INCLUDE_DIR");
    if (env && *env)
        return kd_xstrdup(env);
    char *dir = self_dir();
    if (!dir)
        return NULL;
    char *include = kd_path_join(dir, "../include");
    free(dir);
    char *header = kd_path_join(include, "kerndiff/launcher.h");
    bool found = access(header, R_OK) == 0;
    free(header);
    if (!found) {
        free(include);
        return NULL;
    }
    char *real = realpath(include, NULL);
    free(include);
    return real;
}

char *kd_harness_path(const char *name)
{
    const char *env = getenv("KERNDIFF_HARNESS_DIR");
    if (env && *env)
        return executable_in(env, name);
    char *dir = self_dir();
    if (!dir)
        return NULL;
    char *found = executable_in(dir, name);
    if (!found) {
        char *libexec = kd_path_join(dir, "../libexec/kerndiff");
        found = executable_in(libexec, name);
        free(libexec);
    }
    free(dir);
    return found;
}
