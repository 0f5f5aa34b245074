/* deps.h — the one include resolver: which files a kernel source includes, found the way
 * the preprocessor finds them. The build cache key (hash every file reached) and git mode
 * (read every file reached at a revision) walk with the same search order and stop rule
 * and differ only in where they read files (a kd_include_reader). System headers (<...>
 * not found under -I) are covered by the nvcc version in the cache key. */
#ifndef KD_BUILD_DEPS_H
#define KD_BUILD_DEPS_H

#include <stdbool.h>
#include <stddef.h>

#include "util/strbuf.h"
#include "util/strlist.h"

/* A bound on the walk, so that a pathological tree cannot keep us reading forever. */
enum { KD_INCLUDE_MAX_FILES = 4096 };

typedef enum kd_include_lookup {
    KD_INCLUDE_MISSING,  /* no regular file there: the search goes on */
    KD_INCLUDE_FOUND,
    KD_INCLUDE_OUTSIDE,  /* a file that is not collected (git mode: outside the repository):
                            the search stops there, as the preprocessor's would */
    KD_INCLUDE_ERROR,    /* give up: the reason is in `error` */
} kd_include_lookup;

/* Where a walk reads files. Paths are the reader's own: absolute on disk, relative to the
 * repository's top in git mode (where an absolute path is outside the repository). */
typedef struct kd_include_reader {
    void *ctx;
    /* The name that identifies `path` (malloc'd): a real path, a normalised repository
     * path. NULL when nothing can be there (MISSING). */
    char *(*canonical)(void *ctx, const char *path);
    /* Reads the regular file `canonical`: FOUND with *text (malloc'd) and *len, or MISSING,
     * OUTSIDE, ERROR. */
    kd_include_lookup (*read)(void *ctx, const char *canonical, char **text, size_t *len, kd_strbuf *error);
} kd_include_reader;

typedef struct kd_include_file {
    char *path;   /* canonical */
    char *text;
    size_t len;
} kd_include_file;

typedef struct kd_include_set {
    kd_include_file *files;   /* the first file, then what it reaches, breadth first */
    size_t count;
} kd_include_set;

/* Collects `first` and everything it includes, transitively. For `#include NAME` in a file
 * in folder D: an absolute NAME is tried as it is; a quoted NAME is tried in D; then NAME
 * in each of `dirs` in order ("" is the reader's top); the first candidate FOUND or OUTSIDE
 * ends the search, and an unresolved include is skipped (the compiler will report it).
 * Returns KD_INCLUDE_FOUND, KD_INCLUDE_MISSING when `first` is not there, or
 * KD_INCLUDE_ERROR (reader error, more than KD_INCLUDE_MAX_FILES files). */
kd_include_lookup kd_include_walk(const kd_include_reader *reader, const char *first, const char *const *dirs,
                                  size_t ndirs, kd_include_set *out, kd_strbuf *error);
void kd_include_set_free(kd_include_set *set);

/* The walk on the disk: real paths, -I folders as given (relative to the current folder). */
kd_include_lookup kd_include_walk_disk(const char *source_path, const kd_strlist *include_dirs,
                                       kd_include_set *out, kd_strbuf *error);

/* Appends the real paths of source_path and everything it includes (the disk walk) to
 * `out` (malloc'd strings, source first). Returns 0, -1 when the source cannot be read. */
int kd_collect_includes(const char *source_path, const kd_strlist *include_dirs, kd_strlist *out);

/* Reads `#  include "name"` or `<name>` in [line, end) into name (cap bytes); false when
 * the line is no include. *quoted tells the two forms apart. */
bool kd_include_line(const char *line, const char *end, char *name, size_t cap, bool *quoted);

#endif
