/* fs.h — small file-system helpers. */
#ifndef KD_UTIL_FS_H
#define KD_UTIL_FS_H

#include <stdbool.h>
#include <stddef.h>

/* Reads a whole file (NUL-terminated, length in *len if non-NULL). NULL with errno on
 * failure (EISDIR for a folder; ENOMEM for a file too big to hold). */
char *kd_read_file(const char *path, size_t *len);
/* Every file kerndiff writes goes through here. A regular file (or a new one) is written
 * to a temporary file in the same folder and renamed over it, so a failure (a full disk)
 * never leaves it partial or destroys the old one; it keeps an existing file's permissions,
 * a new one gets 0666 less the umask. Anything else that exists (/dev/stdout, a FIFO, a
 * device) is written in place: renaming over it would replace the device. 0, or -1 with
 * errno (EISDIR for a folder). */
int kd_write_file(const char *path, const char *data, size_t len);
/* mkdir -p with mode 0700 for new folders. 0, or -1 with errno from mkdir. */
int kd_mkdir_p(const char *path);
/* rm -rf of a folder we created; refuses "" and "/". */
int kd_remove_tree(const char *path);
bool kd_is_dir(const char *path);
/* The folder part of a path ("." when none), malloc'd. */
char *kd_dirname(const char *path);
/* The last component of a path, malloc'd. */
char *kd_basename(const char *path);
/* dir + "/" + name, malloc'd. */
char *kd_path_join(const char *dir, const char *name);

#endif
