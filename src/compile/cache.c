#include "compile/cache.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "util/fs.h"
#include "util/hash.h"
#include "util/xalloc.h"

#define MANIFEST "manifest"

char *kd_cache_entry(const char key[65])
{
    const char *xdg = getenv("XDG_CACHE_HOME");
    const char *home = getenv("HOME");
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

/* One manifest line, "NAME SIZE SHA256", against its file. Returns the file's index in the
 * layout, or -1 with what is wrong in `why`. */
static int check_manifest_line(const char *dir, const char *line, const kd_cache_layout *layout, kd_strbuf *why)
{
    char name[32], digest[65], actual[65];
    unsigned long long size;
    if (sscanf(line, "%31s %llu %64s", name, &size, digest) != 3) {
        kd_sb_puts(why, "a malformed manifest");
        return -1;
    }
    size_t i = 0;
    while (i < layout->n && strcmp(layout->names[i], name) != 0)
        i++;
    char *path = i < layout->n ? kd_path_join(dir, name) : NULL;
    size_t len = 0;
    char *data = path ? kd_read_file(path, &len) : NULL;
    if (data)
        file_digest(data, len, actual);
    int rc = (int)i;
    if (!data || len != size || strcmp(actual, digest) != 0) {
        kd_sb_printf(why, "%s %s", name, !data ? "is missing" : len != size ? "has the wrong size"
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
    bool usable = entry && kd_cache_verify(entry, layout, &why) == 0;
    if (!usable && entry && access(entry, F_OK) == 0) {
        kd_strbuf text = {0};
        kd_sb_printf(&text, "cache entry %.12s was damaged (%s): rebuilt and replaced", key, kd_sb_str(&why));
        *note = kd_sb_take(&text);
    }
    kd_sb_free(&why);
    return usable;
}

int kd_cache_verify(const char *entry, const kd_cache_layout *layout, kd_strbuf *why)
{
    char *manifest_path = kd_path_join(entry, MANIFEST);
    char *manifest = kd_read_file(manifest_path, NULL);
    free(manifest_path);
    if (!manifest) {
        kd_sb_puts(why, "no manifest");
        return -1;
    }
    bool *listed = kd_xcalloc(layout->n + 1, sizeof *listed);
    int rc = 0;
    char *save = NULL;
    for (char *line = strtok_r(manifest, "\n", &save); line && rc == 0; line = strtok_r(NULL, "\n", &save)) {
        int i = check_manifest_line(entry, line, layout, why);
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
    free(manifest);
    return rc;
}

/* Copies the files and writes their manifest into `staging`. */
static int fill_staging(const char *build_dir, const char *staging, const kd_cache_layout *layout)
{
    kd_strbuf manifest = {0};
    int rc = 0;
    for (size_t i = 0; i < layout->n && rc == 0; i++) {
        char *from = kd_path_join(build_dir, layout->names[i]);
        char *to = kd_path_join(staging, layout->names[i]);
        size_t len;
        char *data = kd_read_file(from, &len);
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

void kd_cache_store(const char *build_dir, const char *entry, const kd_cache_layout *layout)
{
    char *parent = kd_dirname(entry);
    kd_strbuf staging = {0};
    kd_sb_printf(&staging, "%s.tmp.%ld", entry, (long)getpid());
    if (kd_mkdir_p(parent) == 0 && kd_mkdir_p(staging.data) == 0 &&
        (fill_staging(build_dir, staging.data, layout) != 0 || install_entry(staging.data, entry) != 0))
        kd_remove_tree(staging.data);
    free(parent);
    kd_sb_free(&staging);
}
