#include "wire/locate.h"

#include <glob.h>
#include <limits.h>
#include <pwd.h>
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

/* ---- the CUDA tools -------------------------------------------------------------------- */

static char *on_path(const char *name)
{
    const char *path = getenv("PATH");
    if (!path || strchr(name, '/'))
        return NULL;
    char *copy = kd_xstrdup(path), *save = NULL, *found = NULL;
    for (char *dir = strtok_r(copy, ":", &save); dir && !found; dir = strtok_r(NULL, ":", &save))
        found = executable_in(*dir ? dir : ".", name);
    free(copy);
    return found;
}

static const char *home_dir(void)
{
    const char *home = getenv("HOME");
    if (home && *home)
        return home;
    const struct passwd *pw = getpwuid(getuid()); /* env -i leaves no HOME */
    return pw ? pw->pw_dir : NULL;
}

/* The last (newest) `name` in the folders that `pattern` matches. */
static char *in_glob(const char *pattern, const char *name)
{
    glob_t g;
    char *found = NULL;
    if (glob(pattern, GLOB_ONLYDIR, NULL, &g) == 0)
        for (size_t i = g.gl_pathc; i-- > 0 && !found;)
            found = executable_in(g.gl_pathv[i], name);
    globfree(&g);
    return found;
}

/* Where pip puts the wheels' executables: PREFIX/lib/pythonX.Y/{site,dist}-packages/nvidia/cuNN/bin. */
static char *in_wheels_under(const char *prefix, const char *name)
{
    static const char *const tails[] = {"/lib/python3*/site-packages/nvidia/cu*/bin",
                                        "/lib/python3*/dist-packages/nvidia/cu*/bin",
                                        "/lib/python3/dist-packages/nvidia/cu*/bin"};
    char *found = NULL;
    for (size_t i = 0; i < sizeof tails / sizeof *tails && !found; i++) {
        char *pattern = kd_path_join(prefix, tails[i] + 1);
        found = in_glob(pattern, name);
        free(pattern);
    }
    return found;
}

static char *in_wheels(const char *name)
{
    const char *home = home_dir();
    const char *pyenv = getenv("PYENV_ROOT");
    char *pyenv_default = home ? kd_path_join(home, ".pyenv") : NULL;
    char *local = home ? kd_path_join(home, ".local") : NULL;
    char *pyenv_versions = NULL;
    if (pyenv && *pyenv)
        pyenv_versions = kd_path_join(pyenv, "versions/*");
    else if (pyenv_default)
        pyenv_versions = kd_path_join(pyenv_default, "versions/*");
    const char *prefixes[] = {getenv("VIRTUAL_ENV"), getenv("CONDA_PREFIX"), local, pyenv_versions,
                              "/usr/local", "/usr", "/opt/conda"};
    char *found = NULL;
    for (size_t i = 0; i < sizeof prefixes / sizeof *prefixes && !found; i++)
        if (prefixes[i] && *prefixes[i])
            found = in_wheels_under(prefixes[i], name);
    free(pyenv_default);
    free(local);
    free(pyenv_versions);
    return found;
}

char *kd_cuda_tool_path(const char *name)
{
    char *found = on_path(name);
    const char *homes[] = {getenv("CUDA_HOME"), getenv("CUDA_PATH"), "/usr/local/cuda"};
    for (size_t i = 0; i < sizeof homes / sizeof *homes && !found; i++)
        if (homes[i] && *homes[i]) {
            char *bin = kd_path_join(homes[i], "bin");
            found = executable_in(bin, name);
            free(bin);
        }
#ifdef KD_CUDA_TOOLS_DIR
    if (!found && *KD_CUDA_TOOLS_DIR)
        found = executable_in(KD_CUDA_TOOLS_DIR, name);
#endif
    return found ? found : in_wheels(name);
}

/* ---- every part, for --version ---------------------------------------------------------- */

size_t kd_find_parts(kd_part parts[KD_PARTS_MAX])
{
    static const struct {
        const char *name, *needed_for;
        bool harness; /* found like the harness (beside kerndiff), else a CUDA tool */
    } known[] = {
        {"nvcc", "compiling .cu files", false},
        {"ptxas", "assembling .ptx files", false},
        {"cuobjdump", "the SASS diff, and .cubin and Triton resources", false},
        {"nvdisasm", "reading SASS by hand (kerndiff reads cuobjdump's)", false},
        {"compute-sanitizer", "--sanitize", false},
        {"ncu", "the counter pass", false},
        {"kerndiff-harness", "timing on a GPU", true},
        {"kerndiff-sim-harness", "KERNDIFF_SIMULATE", true},
        {"kerndiff-triton.py", "Triton .py files", true},
    };
    size_t n = 0;
    for (size_t i = 0; i < sizeof known / sizeof *known && n < KD_PARTS_MAX - 1; i++, n++)
        parts[n] = (kd_part){known[i].name, known[i].needed_for,
                             known[i].harness ? kd_harness_path(known[i].name) : kd_cuda_tool_path(known[i].name)};
    parts[n++] = (kd_part){"include/kerndiff", "--call launchers (<kerndiff/launcher.h>)", kd_include_dir()};
    return n;
}

void kd_parts_free(kd_part *parts, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        free(parts[i].path);
        parts[i].path = NULL;
    }
}
