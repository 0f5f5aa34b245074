/* includes.c — a missing header looked for near the kernel file (see includes.h). */
#include "compile/includes.h"

#include <dirent.h>
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

/* Whether folder/sub holds header: *dir is then folder/sub (folder itself when sub is NULL). */
static bool holds(const char *folder, const char *sub, const char *header, char **dir)
{
    char *candidate = sub ? kd_path_join(folder, sub) : kd_xstrdup(folder);
    char *file = kd_path_join(candidate, header);
    bool found = is_file(file);
    free(file);
    if (found)
        *dir = candidate;
    else
        free(candidate);
    return found;
}

static int by_name(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Any other subfolder of folder holding header, by name (LeetCUDA's flash-attn/utils/utils.h
 * beside flash-attn/mma/); hidden ones skipped, at most KD_INCLUDE_SCAN entries read. */
enum { KD_INCLUDE_SCAN = 512 };
static bool other_subfolder_holds(const char *folder, const char *header, char **dir)
{
    DIR *d = opendir(folder);
    if (!d)
        return false;
    char *names[KD_INCLUDE_SCAN];
    size_t n = 0;
    for (struct dirent *e; n < KD_INCLUDE_SCAN && (e = readdir(d)) != NULL;)
        if (e->d_name[0] != '.')
            names[n++] = kd_xstrdup(e->d_name);
    closedir(d);
    qsort(names, n, sizeof *names, by_name);
    bool found = false;
    for (size_t i = 0; i < n; i++) {
        if (!found) {
            char *sub = kd_path_join(folder, names[i]);
            found = kd_is_dir(sub) && holds(folder, names[i], header, dir);
            free(sub);
        }
        free(names[i]);
    }
    return found;
}

int kd_suggest_include(const char *path, const char *header, char **dir)
{
    static const char *const subfolders[] = {NULL, "Common", "common", "include", "inc"};
    if (!header || !*header || header[0] == '/')
        return -1;
    char *folder = kd_dirname(path);
    for (int level = 0; folder && level <= 3; level++) {
        for (size_t s = 0; s < sizeof subfolders / sizeof *subfolders; s++)
            if (holds(folder, subfolders[s], header, dir)) {
                free(folder);
                return 0;
            }
        if (other_subfolder_holds(folder, header, dir)) {
            free(folder);
            return 0;
        }
        char *up = parent(folder);
        free(folder);
        folder = up;
    }
    free(folder);
    return -1;
}
