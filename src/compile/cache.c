#include "compile/cache.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "util/env.h"
#include "util/fs.h"
#include "util/hash.h"
#include "util/xalloc.h"

#define MANIFEST "manifest"
#define PIECE ((size_t)1 << 20) /* bytes read at a time from a large file */

char *kd_cache_entry(const char key[65])
{
    const char *xdg = kd_env(KD_ENV_XDG_CACHE_HOME);
    const char *home = kd_env(KD_ENV_HOME);
    kd_strbuf sb = {0};
    if (xdg && *xdg)
        kd_sb_printf(&sb, "%s/kerndiff/builds/%s", xdg, key);
    else if (home && *home)
        kd_sb_printf(&sb, "%s/.cache/kerndiff/builds/%s", home, key);
    else
        return NULL;
    return kd_sb_take(&sb);
}

/* SHA-256 of one file's bytes, hex. */
static void file_digest(const char *data, size_t len, char hex[65])
{
    kd_hash h;
    kd_hash_init(&h);
    kd_hash_field(&h, data, len);
    kd_hash_hex(&h, hex);
}

static bool is_hex64(const char *s, size_t len)
{
    if (len != 64)
        return false;
    for (size_t i = 0; i < len; i++)
        if (!((s[i] >= '0' && s[i] <= '9') || (s[i] >= 'a' && s[i] <= 'f')))
            return false;
    return true;
}

/* The next space-separated word of [*at, end) (no other whitespace inside a line). */
static bool next_word(const char **at, const char *end, const char **word, size_t *len)
{
    const char *p = *at;
    if (p < end && *p == ' ')
        p++;
    const char *w = p;
    while (p < end && *p != ' ')
        p++;
    *word = w;
    *len = (size_t)(p - w);
    *at = p;
    return *len > 0;
}

/* A file name an entry may hold: a plain name, never a path or a dot name. */
static bool plain_name(const char *s, size_t len)
{
    if (len == 0 || len >= sizeof ((kd_cache_manifest_file *)0)->name || s[0] == '.')
        return false;
    for (size_t i = 0; i < len; i++)
        if (s[i] == '/' || (unsigned char)s[i] < 0x21 || s[i] == 0x7f)
            return false;
    return true;
}

static bool parse_size(const char *s, size_t len, unsigned long long *out)
{
    unsigned long long v = 0;
    if (len == 0 || len > 19)
        return false;
    for (size_t i = 0; i < len; i++) {
        if (s[i] < '0' || s[i] > '9')
            return false;
        v = v * 10 + (unsigned)(s[i] - '0');
    }
    *out = v;
    return true;
}

/* One "NAME SIZE SHA256" line into m. Returns 0, or -1 with what is wrong in `why`. */
static int parse_file_line(const char *line, const char *end, size_t number, kd_cache_manifest *m, kd_strbuf *why)
{
    const char *w[3];
    size_t len[3];
    const char *at = line;
    for (int i = 0; i < 3; i++)
        if (!next_word(&at, end, &w[i], &len[i])) {
            kd_sb_printf(why, "a malformed manifest (line %zu)", number);
            return -1;
        }
    unsigned long long size;
    if (at != end || !plain_name(w[0], len[0]) || !parse_size(w[1], len[1], &size) || !is_hex64(w[2], len[2])) {
        kd_sb_printf(why, "a malformed manifest (line %zu)", number);
        return -1;
    }
    for (size_t i = 0; i < m->nfiles; i++)
        if (strlen(m->files[i].name) == len[0] && !memcmp(m->files[i].name, w[0], len[0])) {
            kd_sb_printf(why, "a malformed manifest (line %zu lists %.*s twice)", number, (int)len[0], w[0]);
            return -1;
        }
    if (m->nfiles == KD_CACHE_MAX_FILES) {
        kd_sb_printf(why, "a malformed manifest (more than %d files)", KD_CACHE_MAX_FILES);
        return -1;
    }
    kd_cache_manifest_file *f = &m->files[m->nfiles++];
    memcpy(f->name, w[0], len[0]);
    f->name[len[0]] = '\0';
    f->size = size;
    memcpy(f->digest, w[2], 64);
    f->digest[64] = '\0';
    return 0;
}

int kd_cache_manifest_parse(const char *text, size_t len, kd_cache_manifest *m, kd_strbuf *why)
{
    memset(m, 0, sizeof *m);
    if (len > KD_CACHE_MANIFEST_MAX) {
        kd_sb_puts(why, "a manifest too large to be kerndiff's");
        return -1;
    }
    if (memchr(text, '\0', len)) {
        kd_sb_puts(why, "a malformed manifest (a NUL byte)");
        return -1;
    }
    const char *end = text + len, *line = text;
    size_t number = 0;
    while (line < end) {
        const char *eol = memchr(line, '\n', (size_t)(end - line));
        const char *stop = eol ? eol : end;
        number++;
        size_t n = (size_t)(stop - line);
        if (number == 1) {
            if (n != strlen(KD_CACHE_MANIFEST_HEADER) || memcmp(line, KD_CACHE_MANIFEST_HEADER, n) != 0) {
                kd_sb_puts(why, "its manifest is not in this kerndiff's format (no key: made by an older kerndiff)");
                return -1;
            }
        } else if (number == 2) {
            if (n != 4 + 64 || memcmp(line, "key ", 4) != 0 || !is_hex64(line + 4, 64)) {
                kd_sb_puts(why, "a malformed manifest (line 2 is not its key)");
                return -1;
            }
            memcpy(m->key, line + 4, 64);
            m->key[64] = '\0';
        } else if (parse_file_line(line, stop, number, m, why) != 0) {
            return -1;
        }
        line = eol ? eol + 1 : end;
    }
    if (number < 2) {
        kd_sb_puts(why, number ? "a malformed manifest (no key)" : "an empty manifest");
        return -1;
    }
    return 0;
}

/* One listed file against the file in `dir`. Returns its index in the layout, or -1 with
 * what is wrong in `why`. */
static int check_file(const char *dir, const kd_cache_manifest_file *f, const kd_cache_layout *layout, kd_strbuf *why)
{
    size_t i = 0;
    while (i < layout->n && strcmp(layout->names[i], f->name) != 0)
        i++;
    if (i == layout->n) {
        kd_sb_printf(why, "its manifest lists %s, which no build of this kind makes", f->name);
        return -1;
    }
    char *path = kd_path_join(dir, f->name);
    struct stat st;
    /* Only a regular file is read: a FIFO or a link planted in the entry is not followed. */
    bool regular = lstat(path, &st) == 0 && S_ISREG(st.st_mode);
    size_t len = 0;
    char *data = regular && (unsigned long long)st.st_size == f->size ? kd_read_output(path, &len) : NULL;
    char actual[65] = "";
    if (data)
        file_digest(data, len, actual);
    int rc = (int)i;
    if (!data || len != f->size || strcmp(actual, f->digest) != 0) {
        kd_sb_printf(why, "%s %s", f->name, !regular                              ? "is missing or not a regular file"
                                            : (unsigned long long)st.st_size != f->size || (data && len != f->size)
                                                ? "has the wrong size"
                                            : !data ? "cannot be read"
                                                    : "does not match its checksum");
        rc = -1;
    }
    free(data);
    free(path);
    return rc;
}

bool kd_cache_usable(const char *entry, const char key[65], const kd_cache_layout *layout, char **note)
{
    kd_strbuf why = {0};
    struct stat st;
    bool usable = entry && kd_cache_verify(entry, layout, &why) == 0;
    if (!usable && entry && lstat(entry, &st) == 0) {
        kd_strbuf text = {0};
        kd_sb_printf(&text, "cache entry %.12s was damaged (%s): rebuilt and replaced", key, kd_sb_str(&why));
        *note = kd_sb_take(&text);
    }
    kd_sb_free(&why);
    return usable;
}

int kd_cache_verify(const char *entry, const kd_cache_layout *layout, kd_strbuf *why)
{
    struct stat st;
    if (lstat(entry, &st) != 0) {
        kd_sb_printf(why, "it cannot be read: %s", strerror(errno));
        return -1;
    }
    if (!S_ISDIR(st.st_mode)) {
        kd_sb_puts(why, "it is not a folder");
        return -1;
    }
    char *manifest_path = kd_path_join(entry, MANIFEST);
    size_t len = 0;
    bool regular = lstat(manifest_path, &st) == 0 && S_ISREG(st.st_mode) && st.st_size <= KD_CACHE_MANIFEST_MAX;
    char *text = regular ? kd_read_file(manifest_path, &len) : NULL;
    free(manifest_path);
    if (!text) {
        kd_sb_puts(why, "no manifest");
        return -1;
    }
    kd_cache_manifest m;
    int rc = kd_cache_manifest_parse(text, len, &m, why);
    free(text);
    /* The entry is bound to its key: the folder is named by the key (the hash of the build's
     * inputs), and so must its manifest be. Entries swapped or copied between keys fail here. */
    char *name = kd_basename(entry);
    if (rc == 0 && strcmp(m.key, name) != 0) {
        kd_sb_printf(why, "its manifest names another key, %.12s: it holds another build", m.key);
        rc = -1;
    }
    free(name);
    bool *listed = kd_xcalloc(layout->n + 1, sizeof *listed);
    for (size_t f = 0; f < m.nfiles && rc == 0; f++) {
        int i = check_file(entry, &m.files[f], layout, why);
        if (i < 0)
            rc = -1;
        else
            listed[i] = true;
    }
    for (size_t i = 0; i < layout->n && rc == 0; i++)
        if (layout->required[i] && !listed[i]) {
            kd_sb_printf(why, "%s is not in the manifest", layout->names[i]);
            rc = -1;
        }
    free(listed);
    return rc;
}

/* Copies the files and writes their manifest into `staging`. */
static int fill_staging(const char *build_dir, const char *staging, const char *key, const kd_cache_layout *layout)
{
    kd_strbuf manifest = {0};
    kd_sb_printf(&manifest, "%s\nkey %s\n", KD_CACHE_MANIFEST_HEADER, key);
    int rc = 0;
    for (size_t i = 0; i < layout->n && rc == 0; i++) {
        char *from = kd_path_join(build_dir, layout->names[i]);
        char *to = kd_path_join(staging, layout->names[i]);
        size_t len;
        char *data = kd_read_output(from, &len);
        if (data) {
            char digest[65];
            file_digest(data, len, digest);
            kd_sb_printf(&manifest, "%s %zu %s\n", layout->names[i], len, digest);
            rc = kd_write_file(to, data, len) == 0 && chmod(to, 0700) == 0 ? 0 : -1;
        } else if (layout->required[i]) {
            rc = -1;
        }
        free(data);
        free(from);
        free(to);
    }
    if (rc == 0) {
        char *path = kd_path_join(staging, MANIFEST);
        rc = kd_write_file(path, kd_sb_str(&manifest), manifest.len);
        free(path);
    }
    kd_sb_free(&manifest);
    return rc;
}

/* Puts the staging folder where the entry goes, replacing a damaged (or, with --no-cache,
 * any) entry already there: the old one is moved aside first, so readers see either. */
static int install_entry(const char *staging, const char *entry)
{
    struct stat st;
    /* Something that is not a folder (a file, a link) where the entry goes is removed, not
     * followed: rename cannot put a folder over it, and it would be "rebuilt" every run. */
    if (lstat(entry, &st) == 0 && !S_ISDIR(st.st_mode) && unlink(entry) != 0)
        return -1;
    if (rename(staging, entry) == 0)
        return 0;
    if (errno != ENOTEMPTY && errno != EEXIST)
        return -1;
    kd_strbuf old = {0};
    kd_sb_printf(&old, "%s.old.%ld", entry, (long)getpid());
    int rc = rename(entry, old.data) == 0 && rename(staging, entry) == 0 ? 0 : -1;
    kd_remove_tree(old.data);
    kd_sb_free(&old);
    return rc;
}

int kd_cache_link_or_copy(const char *from, const char *to)
{
    (void)unlink(to);
    if (link(from, to) == 0)
        return 0;
    int in = open(from, O_RDONLY | O_NOFOLLOW | O_CLOEXEC);
    if (in < 0)
        return -1;
    int out = open(to, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600);
    int rc = out < 0 ? -1 : 0;
    char *buf = kd_xmalloc(PIECE);
    for (ssize_t got; rc == 0 && (got = read(in, buf, PIECE)) != 0;)
        rc = got < 0 ? -1 : kd_write_all(out, buf, (size_t)got);
    int saved = errno;
    free(buf);
    close(in);
    if (out >= 0 && close(out) != 0 && rc == 0)
        rc = -1;
    if (rc != 0)
        (void)unlink(to);
    errno = saved;
    return rc;
}

int kd_cache_file_digest(const char *path, unsigned long long *size, char digest[65], kd_strbuf *why)
{
    int fd = open(path, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);
    struct stat st;
    if (fd < 0 || fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
        kd_sb_puts(why, fd < 0 && errno != ELOOP ? "is missing" : "is not a regular file");
        if (fd >= 0)
            close(fd);
        return -1;
    }
    struct sha256_ctx ctx;
    sha256_init(&ctx);
    uint8_t *buf = kd_xmalloc(PIECE);
    unsigned long long n = 0;
    ssize_t got;
    while ((got = read(fd, buf, PIECE)) > 0) {
        sha256_update(&ctx, (size_t)got, buf);
        n += (unsigned long long)got;
    }
    free(buf);
    close(fd);
    if (got < 0) {
        kd_sb_printf(why, "cannot be read: %s", strerror(errno));
        return -1;
    }
    uint8_t d[SHA256_DIGEST_SIZE];
    sha256_digest(&ctx, sizeof d, d);
    for (int i = 0; i < SHA256_DIGEST_SIZE; i++)
        snprintf(digest + 2 * i, 3, "%02x", d[i]);
    *size = n;
    return 0;
}

/* build_dir/folder's regular files with plain names linked or copied into staging/folder, at
 * most max_bytes together (no such folder: nothing). Returns 0 or -1. */
static int fill_folder(const char *build_dir, const char *staging, const char *folder, unsigned long long max_bytes)
{
    char *from_dir = kd_path_join(build_dir, folder), *to_dir = kd_path_join(staging, folder);
    DIR *d = opendir(from_dir);
    int rc = d ? kd_mkdir_p(to_dir) : errno == ENOENT ? 0 : -1; /* none there: nothing to keep */
    unsigned long long total = 0;
    for (struct dirent *e; d && rc == 0 && (e = readdir(d));) {
        if (e->d_name[0] == '.')
            continue;
        char *from = kd_path_join(from_dir, e->d_name), *to = kd_path_join(to_dir, e->d_name);
        struct stat st;
        if (lstat(from, &st) != 0 || !S_ISREG(st.st_mode) || (total += (unsigned long long)st.st_size) > max_bytes ||
            kd_cache_link_or_copy(from, to) != 0)
            rc = -1;
        free(from);
        free(to);
    }
    if (d)
        closedir(d);
    free(from_dir);
    free(to_dir);
    return rc;
}

void kd_cache_store(const char *build_dir, const char *entry, const kd_cache_layout *layout)
{
    kd_cache_store_with_folder(build_dir, entry, layout, NULL, 0);
}

void kd_cache_store_with_folder(const char *build_dir, const char *entry, const kd_cache_layout *layout,
                                const char *folder, unsigned long long max_bytes)
{
    char *parent = kd_dirname(entry), *key = kd_basename(entry);
    kd_strbuf staging = {0};
    kd_sb_printf(&staging, "%s.tmp.%ld", entry, (long)getpid());
    if (kd_mkdir_p(parent) == 0 && kd_mkdir_p(staging.data) == 0 &&
        (fill_staging(build_dir, staging.data, key, layout) != 0 ||
         (folder && fill_folder(build_dir, staging.data, folder, max_bytes) != 0) ||
         install_entry(staging.data, entry) != 0))
        kd_remove_tree(staging.data);
    free(parent);
    free(key);
    kd_sb_free(&staging);
}
