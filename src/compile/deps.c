#include "compile/deps.h"

#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "util/fs.h"
#include "util/xalloc.h"

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

static bool set_has(const kd_include_set *set, const char *path)
{
    for (size_t i = 0; i < set->count; i++)
        if (strcmp(set->files[i].path, path) == 0)
            return true;
    return false;
}

/* Takes ownership of path and text. */
static void set_add(kd_include_set *set, char *path, char *text, size_t len)
{
    set->files = kd_xreallocarray(set->files, set->count + 1, sizeof *set->files);
    set->files[set->count++] = (kd_include_file){.path = path, .text = text, .len = len};
}

void kd_include_set_free(kd_include_set *set)
{
    for (size_t i = 0; i < set->count; i++) {
        free(set->files[i].path);
        free(set->files[i].text);
    }
    free(set->files);
    memset(set, 0, sizeof *set);
}

/* `dir`/`name`; "" is the reader's top, where the name stands alone. */
static char *join(const char *dir, const char *name)
{
    return *dir ? kd_path_join(dir, name) : kd_xstrdup(name);
}

/* One include walk: where it reads, where it searches, what it has collected, and where
 * it says why it stopped. */
typedef struct walk {
    const kd_include_reader *r;
    const char *const *dirs;
    size_t ndirs;
    kd_include_set *set;
    kd_strbuf *error;
} walk;

/* One candidate path (owned, consumed): already collected counts as found; a file found
 * is added to the set. */
static kd_include_lookup try_candidate(const walk *w, char *candidate)
{
    const kd_include_reader *r = w->r;
    kd_include_set *set = w->set;
    kd_strbuf *error = w->error;
    char *path = r->canonical(r->ctx, candidate);
    free(candidate);
    if (!path)
        return KD_INCLUDE_MISSING;
    if (set_has(set, path)) {
        free(path);
        return KD_INCLUDE_FOUND;
    }
    char *text = NULL;
    size_t len = 0;
    kd_include_lookup found = r->read(r->ctx, path, &text, &len, error);
    if (found != KD_INCLUDE_FOUND) {
        free(path);
        free(text);
        return found;
    }
    if (set->count >= KD_INCLUDE_MAX_FILES) {
        kd_sb_printf(error, "%s includes more than %d files", set->files[0].path, KD_INCLUDE_MAX_FILES);
        free(path);
        free(text);
        return KD_INCLUDE_ERROR;
    }
    set_add(set, path, text, len);
    return KD_INCLUDE_FOUND;
}

/* The preprocessor's search for one include of a file in folder `from_dir`. */
static kd_include_lookup resolve(const walk *w, const char *from_dir, const char *name, bool quoted)
{
    if (name[0] == '/')
        return try_candidate(w, kd_xstrdup(name));
    kd_include_lookup found = KD_INCLUDE_MISSING;
    if (quoted)
        found = try_candidate(w, join(strcmp(from_dir, ".") == 0 ? "" : from_dir, name));
    for (size_t i = 0; found == KD_INCLUDE_MISSING && i < w->ndirs; i++)
        found = try_candidate(w, join(w->dirs[i], name));
    return found;
}

/* Reads every include line of set->files[index] and collects what they reach. */
static int follow(const walk *w, size_t index)
{
    kd_include_set *set = w->set;
    /* The file array may move as files are added; the strings it points to do not. */
    const char *text = set->files[index].text, *end = text + set->files[index].len;
    char *from_dir = kd_dirname(set->files[index].path);
    int rc = 0;
    for (const char *line = text; line < end && rc == 0;) {
        const char *eol = memchr(line, '\n', (size_t)(end - line));
        if (!eol)
            eol = end;
        char name[PATH_MAX];
        bool quoted;
        if (kd_include_line(line, eol, name, sizeof name, &quoted) &&
            resolve(w, from_dir, name, quoted) == KD_INCLUDE_ERROR)
            rc = -1;
        line = eol + 1;
    }
    free(from_dir);
    return rc;
}

kd_include_lookup kd_include_walk(const kd_include_reader *reader, const char *first, const char *const *dirs,
                                  size_t ndirs, kd_include_set *out, kd_strbuf *error)
{
    memset(out, 0, sizeof *out);
    const walk w = {reader, dirs, ndirs, out, error};
    kd_include_lookup found = try_candidate(&w, kd_xstrdup(first));
    if (found == KD_INCLUDE_OUTSIDE)
        found = KD_INCLUDE_MISSING;
    /* Breadth first over a growing set: each file is read once, cycles end by themselves. */
    for (size_t i = 0; found == KD_INCLUDE_FOUND && i < out->count; i++)
        if (follow(&w, i) != 0)
            found = KD_INCLUDE_ERROR;
    if (found != KD_INCLUDE_FOUND)
        kd_include_set_free(out);
    return found;
}

/* ---- the disk ---- */

static char *disk_canonical(void *ctx, const char *path)
{
    (void)ctx;
    return realpath(path, NULL);
}

/* A folder is not a candidate (the search goes on); a FIFO, a device or a file over the
 * input limit is there but cannot be read: the build would block on it or hold it all. */
static kd_include_lookup disk_read(void *ctx, const char *path, char **text, size_t *len, kd_strbuf *error)
{
    (void)ctx;
    struct stat st;
    if (stat(path, &st) != 0 || S_ISDIR(st.st_mode))
        return KD_INCLUDE_MISSING;
    *text = kd_read_file(path, len);
    if (*text)
        return KD_INCLUDE_FOUND;
    kd_sb_printf(error, "%s: %s", path, kd_read_error(errno));
    return KD_INCLUDE_ERROR;
}

kd_include_lookup kd_include_walk_disk(const char *source_path, const kd_strlist *include_dirs,
                                       kd_include_set *out, kd_strbuf *error)
{
    const kd_include_reader disk = {NULL, disk_canonical, disk_read};
    return kd_include_walk(&disk, source_path, (const char *const *)include_dirs->items, include_dirs->count, out,
                           error);
}

int kd_collect_includes(const char *source_path, const kd_strlist *include_dirs, kd_strlist *out)
{
    kd_include_set set;
    kd_strbuf error = {0};
    kd_include_lookup found = kd_include_walk_disk(source_path, include_dirs, &set, &error);
    kd_sb_free(&error);
    if (found != KD_INCLUDE_FOUND)
        return -1;
    for (size_t i = 0; i < set.count; i++) {
        kd_strlist_push(out, set.files[i].path);
        set.files[i].path = NULL; /* now out's */
    }
    kd_include_set_free(&set);
    return 0;
}
