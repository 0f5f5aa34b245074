/* deps.h — the files a kernel source includes with #include "...", found the way the
 * preprocessor finds them (the including file's folder, then -I folders), so the build
 * cache key changes when any of them changes. System headers (<...> not found under -I)
 * are covered by the nvcc version in the key. */
#ifndef KD_BUILD_DEPS_H
#define KD_BUILD_DEPS_H

#include <stdbool.h>
#include <stddef.h>

#include "util/strlist.h"

/* Appends the real paths of source_path and everything it includes, transitively, to
 * `out` (malloc'd strings, no duplicates, source first). Returns 0, -1 when the source
 * itself cannot be read. Unresolvable includes are skipped: nvcc will report them. */
int kd_collect_includes(const char *source_path, const kd_strlist *include_dirs, kd_strlist *out);

/* Reads `#  include "name"` or `<name>` in [line, end) into name (cap bytes); false when
 * the line is no include. *quoted tells the two forms apart. Shared by the cache's
 * dependency walk and git mode, which reads files from a revision instead of the disk. */
bool kd_include_line(const char *line, const char *end, char *name, size_t cap, bool *quoted);

#endif
