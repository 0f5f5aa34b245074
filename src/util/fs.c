#include "util/fs.h"

#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "util/output.h"
#include "util/xalloc.h"

/* Why a file of this kind cannot be an input, as kd_read_file's errno; 0 when it can. */
static int unreadable_kind(const struct stat *st, size_t max)
{
    if (S_ISDIR(st->st_mode))
        return EISDIR;
    if (!S_ISREG(st->st_mode))
        return ENOTSUP;
    return (unsigned long long)st->st_size > max ? EFBIG : 0;
}

static char *read_capped(const char *path, size_t *len, size_t max)
{
    /* O_NONBLOCK: opening a FIFO with no writer would wait for one; it is refused below
     * without a read. A regular file ignores the flag. */
    int fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
    if (fd < 0)
        return NULL;
    struct stat st;
    int refused = fstat(fd, &st) != 0 ? errno : unreadable_kind(&st, max);
    if (refused) {
        close(fd);
        errno = refused;
        return NULL;
    }
    FILE *f = fdopen(fd, "rb");
    if (!f) {
        int saved = errno;
        close(fd);
        errno = saved;
        return NULL;
    }
    size_t cap = 4096, n = 0;
    /* Checked, not kd_x*: a user's file may be too big to hold; the callers report ENOMEM
     * with the file's name and side. The limit holds for a file that grows while read. */
    char *buf = malloc(cap);
    bool too_big = false;
    for (size_t got; buf; n += got) {
        if (n > max) {
            too_big = true;
            break;
        }
        if (n + 1 >= cap) {
            char *p = realloc(buf, cap *= 2);
            if (!p) {
                free(buf);
                buf = NULL;
                break;
            }
            buf = p;
        }
        got = fread(buf + n, 1, cap - n - 1, f);
        if (got == 0)
            break;
    }
    int failed = ferror(f) ? (errno ? errno : EIO) : too_big ? EFBIG : 0; /* fread's errno, e.g. EISDIR */
    fclose(f);
    if (!buf || failed) {
        free(buf);
        errno = failed ? failed : ENOMEM;
        return NULL;
    }
    buf[n] = '\0';
    if (len)
        *len = n;
    return buf;
}

char *kd_read_file(const char *path, size_t *len) { return read_capped(path, len, KD_INPUT_MAX_BYTES); }

char *kd_read_output(const char *path, size_t *len) { return read_capped(path, len, KD_OUTPUT_MAX_BYTES); }

int kd_check_input(const char *path)
{
    struct stat st;
    if (stat(path, &st) != 0)
        return -1;
    int refused = unreadable_kind(&st, KD_INPUT_MAX_BYTES);
    if (!refused)
        return 0;
    errno = refused;
    return -1;
}

const char *kd_read_error(int err)
{
    switch (err) {
    case ENOTSUP: return "not a regular file (a FIFO, a device or a socket): give a file";
    case EFBIG: return "too large: kerndiff reads at most 64 MiB of an input file (1 GiB of a tool's output)";
    case EISDIR: return "a folder, not a file";
    default: return strerror(err);
    }
}

/* All of data to fd; -1 with errno (ENOSPC on a full disk) when it does not all go. */
/* The one write loop (kd_write_all, kd_pwrite_all): at NULL writes at the file's position. */
static int write_loop(int fd, const void *data, size_t len, const uint64_t *at)
{
    const char *p = data;
    for (size_t off = 0; off < len;) {
        ssize_t w = at ? pwrite(fd, p + off, len - off, (off_t)(*at + off)) : write(fd, p + off, len - off);
        if (w < 0 && errno == EINTR)
            continue;
        if (w <= 0) {
            if (w == 0)
                errno = ENOSPC;
            return -1;
        }
        off += (size_t)w;
    }
    return 0;
}

int kd_write_all(int fd, const void *data, size_t len)
{
    return write_loop(fd, data, len, NULL);
}

int kd_pwrite_all(int fd, const void *data, size_t len, uint64_t offset)
{
    return write_loop(fd, data, len, &offset);
}

/* Writes in place what must not be renamed over (a device, a FIFO). */
static int write_in_place(const char *path, const char *data, size_t len)
{
    int fd = open(path, O_WRONLY | O_TRUNC | O_CLOEXEC);
    if (fd < 0)
        return -1;
    int rc = kd_write_all(fd, data, len);
    int saved = errno;
    if (close(fd) != 0 && rc == 0)
        return -1;
    errno = saved;
    return rc;
}

static mode_t new_file_mode(void)
{
    mode_t mask = umask(0);
    umask(mask);
    return 0666 & ~mask;
}

int kd_write_file(const char *path, const char *data, size_t len)
{
    struct stat st;
    bool exists = stat(path, &st) == 0;
    if (exists && S_ISDIR(st.st_mode)) {
        errno = EISDIR;
        return -1;
    }
    if (exists && !S_ISREG(st.st_mode))
        return write_in_place(path, data, len);
    size_t plen = strlen(path);
    char *tmp = kd_xmalloc(plen + 16);
    snprintf(tmp, plen + 16, "%s.tmpXXXXXX", path);
    int fd = kd_output_temp_make(tmp); /* mkstemp, removed if a signal ends kerndiff before the rename */
    if (fd < 0) {
        free(tmp);
        return -1;
    }
    int rc = fchmod(fd, exists ? st.st_mode & 07777 : new_file_mode());
    if (rc == 0)
        rc = kd_write_all(fd, data, len);
    int saved = errno;
    if (close(fd) != 0 && rc == 0) {
        rc = -1;
        saved = errno;
    }
    if (rc == 0 && rename(tmp, path) != 0) {
        rc = -1;
        saved = errno;
    }
    if (rc != 0)
        unlink(tmp);
    kd_output_temp_done();
    free(tmp);
    errno = saved;
    return rc;
}

int kd_mkdir_p(const char *path)
{
    char *p = kd_xstrdup(path);
    for (char *s = p + 1; *s; s++) {
        if (*s != '/')
            continue;
        *s = '\0';
        if (mkdir(p, 0700) != 0 && errno != EEXIST) {
            free(p);
            return -1;
        }
        *s = '/';
    }
    int rc = (mkdir(p, 0700) == 0 || errno == EEXIST) && kd_is_dir(p) ? 0 : -1;
    free(p);
    return rc;
}

static int remove_entry(const char *path, const struct stat *st, int flag, struct FTW *ftw)
{
    (void)st, (void)flag, (void)ftw;
    return remove(path);
}

int kd_remove_tree(const char *path)
{
    if (!path || !*path || strcmp(path, "/") == 0)
        return -1;
    return nftw(path, remove_entry, 16, FTW_DEPTH | FTW_PHYS);
}

bool kd_is_dir(const char *path)
{
    struct stat st;
    return stat(path, &st) == 0 && S_ISDIR(st.st_mode);
}

char *kd_dirname(const char *path)
{
    const char *slash = strrchr(path, '/');
    if (!slash)
        return kd_xstrdup(".");
    if (slash == path)
        return kd_xstrdup("/");
    return kd_xstrndup(path, (size_t)(slash - path));
}

char *kd_basename(const char *path)
{
    const char *slash = strrchr(path, '/');
    return kd_xstrdup(slash ? slash + 1 : path);
}

char *kd_path_join(const char *dir, const char *name)
{
    size_t n = strlen(dir) + strlen(name) + 2;
    char *s = kd_xmalloc(n);
    snprintf(s, n, "%s/%s", dir, name);
    return s;
}
