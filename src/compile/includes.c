/* includes.c — a missing header looked for near the kernel file (see includes.h). */
#include "compile/includes.h"

#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "util/fs.h"
#include "util/xalloc.h"

bool kd_missing_include(const char *out, char **header)
{
    static const char marker[] = "fatal error: ", missing[] = ": No such file or directory";
    for (const char *p = out; p && (p = strstr(p, marker)) != NULL; p++) {
        const char *name = p + sizeof marker - 1, *eol = strchr(name, '\n');
        const char *end = strstr(name, missing);
        if (!end || (eol && end > eol) || end == name)
            continue;
        *header = kd_xstrndup(name, (size_t)(end - name));
        return true;
    }
    return false;
}

static bool is_file(const char *path)
{
    struct stat st;
    return stat(path, &st) == 0 && S_ISREG(st.st_mode);
}

/* The folder one level up from dir, spelled relative when dir is: "a/b" -> "a", "a" -> ".",
 * "." -> "..", "../x" -> "..", ".." -> "../..". NULL above "/". */
static char *parent(const char *dir)
{
    size_t n = strlen(dir);
    if (strcmp(dir, "/") == 0)
        return NULL;
    if (strcmp(dir, ".") == 0)
        return kd_xstrdup("..");
    if (n >= 2 && strcmp(dir + n - 2, "..") == 0 && (n == 2 || dir[n - 3] == '/'))
        return kd_path_join(dir, "..");
    return kd_dirname(dir);
}

int kd_suggest_include(const char *path, const char *header, char **dir)
{
    static const char *const subfolders[] = {NULL, "Common", "common", "include", "inc"};
    if (!header || !*header || header[0] == '/')
        return -1;
    char *folder = kd_dirname(path);
    for (int level = 0; folder && level <= 3; level++) {
        for (size_t s = 0; s < sizeof subfolders / sizeof *subfolders; s++) {
            char *candidate = subfolders[s] ? kd_path_join(folder, subfolders[s]) : kd_xstrdup(folder);
            char *file = kd_path_join(candidate, header);
            bool found = is_file(file);
            free(file);
            if (found) {
                free(folder);
                *dir = candidate;
                return 0;
            }
            free(candidate);
        }
        char *up = parent(folder);
        free(folder);
        folder = up;
    }
    free(folder);
    return -1;
}
