#include "compile/cache.h"

#include <stdio.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

#include "util/fs.h"
#include "util/strbuf.h"

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

bool kd_cache_complete(const char *dir, const char *const names[], size_t n)
{
    for (size_t i = 0; i < n; i++) {
        char *p = kd_path_join(dir, names[i]);
        bool ok = p && access(p, R_OK) == 0;
        free(p);
        if (!ok)
            return false;
    }
    return true;
}

void kd_cache_store(const char *build_dir, const char *entry, const char *const names[], size_t n)
{
    char *parent = kd_dirname(entry);
    kd_strbuf staging = {0};
    kd_sb_printf(&staging, "%s.tmp.%ld", entry, (long)getpid());
    if (parent && kd_mkdir_p(parent) == 0 && kd_mkdir_p(staging.data) == 0) {
        bool ok = true;
        for (size_t i = 0; i < n && ok; i++) {
            char *from = kd_path_join(build_dir, names[i]);
            char *to = kd_path_join(staging.data, names[i]);
            size_t len;
            char *data = from ? kd_read_file(from, &len) : NULL;
            ok = data && to && kd_write_file(to, data, len) == 0 && chmod(to, 0700) == 0;
            free(data);
            free(from);
            free(to);
        }
        if (!ok || rename(staging.data, entry) != 0)
            kd_remove_tree(staging.data);
    }
    free(parent);
    kd_sb_free(&staging);
}
