#include "compile/deps.h"

#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "util/fs.h"

enum { MAX_INCLUDE_DEPTH = 64 };

static bool already_listed(const kd_strlist *list, const char *path)
{
    for (size_t i = 0; i < list->count; i++)
        if (strcmp(list->items[i], path) == 0)
            return true;
    return false;
}

/* Where `name` resolves from a file in `from_dir`: quoted includes look beside the
 * including file first. Returns a malloc'd real path or NULL. */
static char *resolve(const char *name, bool quoted, const char *from_dir, const kd_strlist *dirs)
{
    char resolved[PATH_MAX];
    if (name[0] == '/')
        return realpath(name, resolved) ? strdup(resolved) : NULL;
    if (quoted) {
        char *candidate = kd_path_join(from_dir, name);
        char *hit = candidate && realpath(candidate, resolved) ? strdup(resolved) : NULL;
        free(candidate);
        if (hit)
            return hit;
    }
    for (size_t i = 0; i < dirs->count; i++) {
        char *candidate = kd_path_join(dirs->items[i], name);
        char *hit = candidate && realpath(candidate, resolved) ? strdup(resolved) : NULL;
        free(candidate);
        if (hit)
            return hit;
    }
    return NULL;
}

bool kd_include_line(const char *line, const char *end, char *name, size_t cap, bool *quoted)
{
    const char *p = line;
    while (p < end && (*p == ' ' || *p == '\t'))
        p++;
    if (p >= end || *p != '#')
        return false;
    p++;
    while (p < end && (*p == ' ' || *p == '\t'))
        p++;
    if ((size_t)(end - p) < 7 || strncmp(p, "include", 7) != 0)
        return false;
    p += 7;
    while (p < end && (*p == ' ' || *p == '\t'))
        p++;
    if (p >= end || (*p != '"' && *p != '<'))
        return false;
    char close = *p == '"' ? '"' : '>';
    *quoted = close == '"';
    const char *start = ++p;
    while (p < end && *p != close)
        p++;
    size_t n = (size_t)(p - start);
    if (p >= end || n == 0 || n >= cap)
        return false;
    memcpy(name, start, n);
    name[n] = '\0';
    return true;
}

static void collect(const char *path, const kd_strlist *dirs, kd_strlist *out, int depth)
{
    if (depth > MAX_INCLUDE_DEPTH)
        return;
    size_t len;
    char *text = kd_read_file(path, &len);
    if (!text)
        return;
    char *dir = kd_dirname(path);
    for (const char *line = text; line < text + len;) {
        const char *eol = memchr(line, '\n', (size_t)(text + len - line));
        if (!eol)
            eol = text + len;
        char name[PATH_MAX];
        bool quoted;
        if (kd_include_line(line, eol, name, sizeof name, &quoted)) {
            char *hit = resolve(name, quoted, dir, dirs);
            if (hit && !already_listed(out, hit) && kd_strlist_push(out, hit) == 0)
                collect(hit, dirs, out, depth + 1);
            else
                free(hit);
        }
        line = eol + 1;
    }
    free(dir);
    free(text);
}

int kd_collect_includes(const char *source_path, const kd_strlist *include_dirs, kd_strlist *out)
{
    char resolved[PATH_MAX];
    if (!realpath(source_path, resolved) || access(resolved, R_OK) != 0)
        return -1;
    char *first = strdup(resolved);
    if (!first || kd_strlist_push(out, first) != 0) {
        free(first);
        return -1;
    }
    collect(resolved, include_dirs, out, 0);
    return 0;
}
