#include "wire/locate.h"

#include <glob.h>
#include <limits.h>
#include <pwd.h>
#include <stdio.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "util/env.h"
#include "util/fs.h"
#include "util/xalloc.h"

static char *accessible_in(const char *dir, const char *name, int mode)
{
    char *path = kd_path_join(dir, name);
    if (access(path, mode) == 0)
        return path;
    free(path);
    return NULL;
}

static char *executable_in(const char *dir, const char *name)
{
    return accessible_in(dir, name, X_OK);
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

/* The project's virtual environment, BUILD/../.venv (scripts/install-deps.sh), malloc'd;
 * NULL when there is none. */
static char *project_venv(void)
{
    char *dir = self_dir();
    if (!dir)
        return NULL;
    char *venv = kd_path_join(dir, "../.venv");
    free(dir);
    char *python = kd_path_join(venv, "bin/python3");
    bool found = access(python, X_OK) == 0;
    free(python);
    if (!found) {
        free(venv);
        return NULL;
    }
    return venv;
}

char *kd_python_path(void)
{
    const char *env = kd_env_nonempty(KD_ENV_PYTHON);
    if (env)
        return kd_xstrdup(env);
    char *venv = project_venv();
    char *python = venv ? kd_path_join(venv, "bin/python3") : kd_xstrdup("python3");
    free(venv);
    return python;
}

/* A file shipped beside kerndiff, granting `mode` (X_OK a program, R_OK data): in
 * $KERNDIFF_HARNESS_DIR alone when it is set, else beside the binary, else in the install's
 * ../libexec/kerndiff. */
static char *shipped(const char *name, int mode)
{
    const char *env = getenv("KERNDIFF_HARNESS_DIR");
    if (env && *env)
        return accessible_in(env, name, mode);
    char *dir = self_dir();
    if (!dir)
        return NULL;
    char *found = accessible_in(dir, name, mode);
    if (!found) {
        char *libexec = kd_path_join(dir, "../libexec/kerndiff");
        found = accessible_in(libexec, name, mode);
        free(libexec);
    }
    free(dir);
    return found;
}

char *kd_harness_path(const char *name)
{
    return shipped(name, X_OK);
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

/* The prefixes pip installs into, in the order they are searched: $VIRTUAL_ENV, the project's
 * .venv, $CONDA_PREFIX, ~/.local, pyenv's versions (a pattern), /usr/local, /usr, /opt/conda.
 * Fills prefix[] (NULL where unset) and returns their count; the malloc'd ones are also in
 * owned[] (free them). */
enum { WHEEL_PREFIXES = 8, WHEEL_OWNED = 4 };
static size_t wheel_prefixes(const char *prefix[WHEEL_PREFIXES], char *owned[WHEEL_OWNED])
{
    const char *home = home_dir();
    const char *pyenv = getenv("PYENV_ROOT");
    owned[0] = home ? kd_path_join(home, ".pyenv") : NULL;
    owned[1] = home ? kd_path_join(home, ".local") : NULL;
    owned[2] = NULL;
    if (pyenv && *pyenv)
        owned[2] = kd_path_join(pyenv, "versions/*");
    else if (owned[0])
        owned[2] = kd_path_join(owned[0], "versions/*");
    owned[3] = project_venv();
    const char *all[WHEEL_PREFIXES] = {getenv("VIRTUAL_ENV"), owned[3], getenv("CONDA_PREFIX"), owned[1], owned[2],
                                       "/usr/local", "/usr", "/opt/conda"};
    memcpy(prefix, all, sizeof all);
    return WHEEL_PREFIXES;
}

static char *in_wheels(const char *name)
{
    const char *prefix[WHEEL_PREFIXES];
    char *owned[WHEEL_OWNED];
    size_t n = wheel_prefixes(prefix, owned);
    char *found = NULL;
    for (size_t i = 0; i < n && !found; i++)
        if (prefix[i] && *prefix[i])
            found = in_wheels_under(prefix[i], name);
    for (size_t i = 0; i < WHEEL_OWNED; i++)
        free(owned[i]);
    return found;
}

/* "13.5.25" -> 130525 style (major*10000 + minor*100 + patch, patch capped at 99); 0: unreadable. */
static unsigned wheel_version(const char *v)
{
    unsigned major = 0, minor = 0, patch = 0;
    if (sscanf(v, "%u.%u.%u", &major, &minor, &patch) < 2 || major > 99 || minor > 99)
        return 0;
    return major * 10000 + minor * 100 + (patch > 99 ? 99 : patch);
}

/* The newest nvidia-cuda-cupti wheel under one prefix at or above `floor`: its libcupti in
 * *best (replaced, the old one freed) and its version in *best_version. */
static void cupti_wheels_under(const char *prefix, unsigned floor, char **best, unsigned *best_version)
{
    static const char *const tails[] = {"lib/python3*/site-packages", "lib/python3*/dist-packages",
                                        "lib/python3/dist-packages"};
    for (size_t t = 0; t < sizeof tails / sizeof *tails; t++) {
        char *dirs = kd_path_join(prefix, tails[t]);
        char *pattern = kd_path_join(dirs, "nvidia_cuda_cupti-*.dist-info");
        glob_t g;
        if (glob(pattern, GLOB_ONLYDIR, NULL, &g) == 0)
            for (size_t i = 0; i < g.gl_pathc; i++) {
                const char *info = strrchr(g.gl_pathv[i], '/');
                unsigned version = wheel_version(info + sizeof "/nvidia_cuda_cupti-" - 1);
                if (version < floor || version <= *best_version)
                    continue;
                /* site-packages/nvidia/cuNN/lib/libcupti.so.NN beside the .dist-info */
                char site[PATH_MAX], lib[PATH_MAX + 64];
                snprintf(site, sizeof site, "%.*s", (int)(info - g.gl_pathv[i]), g.gl_pathv[i]);
                snprintf(lib, sizeof lib, "%s/nvidia/cu%u/lib/libcupti.so.%u", site, version / 10000, version / 10000);
                if (access(lib, R_OK) == 0) {
                    free(*best);
                    *best = kd_xstrdup(lib);
                    *best_version = version;
                }
            }
        globfree(&g);
        free(pattern);
        free(dirs);
    }
}

char *kd_cupti_wheel_library(unsigned floor)
{
    const char *prefix[WHEEL_PREFIXES];
    char *owned[WHEEL_OWNED];
    size_t n = wheel_prefixes(prefix, owned);
    char *best = NULL;
    unsigned best_version = 0;
    for (size_t i = 0; i < n; i++)
        if (prefix[i] && *prefix[i]) {
            /* pyenv's prefix is a pattern: every version's site-packages */
            glob_t g;
            if (glob(prefix[i], GLOB_ONLYDIR, NULL, &g) == 0)
                for (size_t k = 0; k < g.gl_pathc; k++)
                    cupti_wheels_under(g.gl_pathv[k], floor, &best, &best_version);
            globfree(&g);
        }
    for (size_t i = 0; i < WHEEL_OWNED; i++)
        free(owned[i]);
    return best;
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
    parts[n++] = (kd_part){"libcupti 13.4+ wheel", "counters that agree with ncu: pip install nvidia-cuda-cupti",
                           kd_cupti_wheel_library(KD_CUPTI_CACHE_CONTROL_VERSION)};
    return n;
}

void kd_parts_free(kd_part *parts, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        free(parts[i].path);
        parts[i].path = NULL;
    }
}

/* A data file shipped beside the harness programs (the same folders, read access alone). */
char *kd_share_path(const char *name)
{
    return shipped(name, R_OK);
}
