/* cache.h — the content-addressed store of build artifacts under
 * $XDG_CACHE_HOME/kerndiff/builds/KEY (else ~/.cache/...), used by every build: nvcc's
 * (compile/build.c), Triton's AOT compiles and .ptx inputs. An entry is written to a staging
 * folder and renamed (replacing a damaged one, or a file or link where the folder goes), so
 * a concurrent run never sees half of one. It holds a MANIFEST, checked on every read:
 *
 *     kerndiff cache manifest 2
 *     key KEY                          (the folder's own name: the hash of the build's inputs)
 *     NAME SIZE SHA256                 (one line per file)
 *
 * An entry whose manifest names another key (two entries swapped or copied), a truncated or
 * corrupt file, or a manifest in another format is refused, and the caller rebuilds and
 * replaces it. */
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

#define KD_CACHE_MANIFEST_HEADER "kerndiff cache manifest 2"
#define KD_CACHE_MANIFEST_MAX 4096 /* bytes: a manifest lists a few files */
#define KD_CACHE_MAX_FILES 16

typedef struct kd_cache_manifest_file {
    char name[32];
    unsigned long long size;
    char digest[65];  /* SHA-256, lowercase hex */
} kd_cache_manifest_file;

typedef struct kd_cache_manifest {
    char key[65];
    kd_cache_manifest_file files[KD_CACHE_MAX_FILES];
    size_t nfiles;
} kd_cache_manifest;

/* Reads a manifest's text (len bytes, not necessarily NUL-terminated) strictly: the header,
 * the key (64 lowercase hex), then "NAME SIZE SHA256" lines with plain names (no '/', not
 * starting with '.'), each once. Returns 0, or -1 with what is wrong in `why`. Pure: the
 * fuzz target tests/fuzz/fuzz_cache.c runs it. */
int kd_cache_manifest_parse(const char *text, size_t len, kd_cache_manifest *m, kd_strbuf *why);

/* The entry folder for key (malloc'd), or NULL when there is no cache location. */
char *kd_cache_entry(const char key[65]);
/* Checks an entry against its manifest: the entry is a folder, its manifest names the key
 * the folder is named by, every listed file is a regular file of the layout that matches its
 * size and digest, and every required one is listed. Returns 0, or -1 with what is wrong (or missing) in `why`. */
int kd_cache_verify(const char *entry, const kd_cache_layout *layout, kd_strbuf *why);
/* Whether the entry for key can be used: it is there and passes kd_cache_verify. One that
 * is there but fails sets *note (malloc'd) to "cache entry KEY was damaged (WHY): rebuilt and
 * replaced"; the caller rebuilds and stores over it. */
bool kd_cache_usable(const char *entry, const char key[65], const kd_cache_layout *layout, char **note);
/* Copies the layout's files that build_dir has (every required one must be there) into
 * entry, with their manifest. A failure leaves no entry (the build is still good: the cache
 * is an optimisation). */
void kd_cache_store(const char *build_dir, const char *entry, const kd_cache_layout *layout);
/* kd_cache_store, and with it the regular files (plain names) of build_dir/folder, kept whole
 * in entry/folder before the entry is put in place (a reader sees the entry with them or not
 * at all). They are linked when the two folders share a file system, else copied in pieces
 * (never held in memory); at most max_bytes of them, all together, else nothing is stored.
 * They are not in the manifest: the caller lists them with their digests in one of the
 * layout's files (kd_cache_file_digest) and checks them on a read. */
void kd_cache_store_with_folder(const char *build_dir, const char *entry, const kd_cache_layout *layout,
                                const char *folder, unsigned long long max_bytes);
/* The SHA-256 (lowercase hex, of the bytes alone) and size of a regular file, read in pieces
 * (a link or a FIFO is not followed). Returns 0, or -1 with what is wrong in `why`. */
int kd_cache_file_digest(const char *path, unsigned long long *size, char digest[65], kd_strbuf *why);
/* The file `from` put at `to` (a fresh file: one there is replaced): linked when they share a
 * file system, else copied in pieces. Returns 0 or -1 (errno). */
int kd_cache_link_or_copy(const char *from, const char *to);

#endif
