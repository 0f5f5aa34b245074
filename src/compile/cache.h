/* cache.h — the content-addressed store of build artifacts under
 * $XDG_CACHE_HOME/kerndiff/builds/KEY (else ~/.cache/...), used by every build: nvcc's
 * (compile/build.c), Triton's AOT compiles and .ptx inputs. An entry is written to a staging
 * folder and renamed (replacing a damaged one), so a concurrent run never sees half of one,
 * and it holds a MANIFEST of each file's size and SHA-256, checked on every read: a truncated
 * or corrupt entry is refused, and the caller rebuilds and replaces it. */
#ifndef KD_COMPILE_CACHE_H
#define KD_COMPILE_CACHE_H

#include <stdbool.h>
#include <stddef.h>
#include "util/strbuf.h"

/* What an entry may hold: n file names, and which of them must be there. */
typedef struct kd_cache_layout {
    const char *const *names;
    const bool *required;
    size_t n;
} kd_cache_layout;

/* The entry folder for key (malloc'd), or NULL when there is no cache location. */
char *kd_cache_entry(const char key[65]);
/* Checks an entry against its manifest: every listed file matches its size and digest, and
 * every required one is listed. Returns 0, or -1 with what is wrong (or missing) in `why`. */
int kd_cache_verify(const char *entry, const kd_cache_layout *layout, kd_strbuf *why);
/* Whether the entry for key can be used: it is there and passes kd_cache_verify. One that
 * is there but fails sets *note (malloc'd) to "cache entry KEY was damaged (WHY): rebuilt and
 * replaced"; the caller rebuilds and stores over it. */
bool kd_cache_usable(const char *entry, const char key[65], const kd_cache_layout *layout, char **note);
/* Copies the layout's files that build_dir has (every required one must be there) into
 * entry, with their manifest. A failure leaves no entry (the build is still good: the cache
 * is an optimisation). */
void kd_cache_store(const char *build_dir, const char *entry, const kd_cache_layout *layout);

#endif
