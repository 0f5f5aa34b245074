/* fs.h — small file-system helpers. */
#ifndef KD_UTIL_FS_H
#define KD_UTIL_FS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* The most kerndiff reads of one file a user gives (a kernel file, a header it includes, a
 * saved run): a bigger file is refused, never held (64 MiB). */
#define KD_INPUT_MAX_BYTES ((size_t)64 << 20)
/* The most it reads of what its own tools wrote (PTX, SASS, logs): 1 GiB. */
#define KD_OUTPUT_MAX_BYTES ((size_t)1 << 30)

/* Reads a whole regular file (NUL-terminated, length in *len if non-NULL) of at most
 * KD_INPUT_MAX_BYTES. NULL with errno on failure: EISDIR for a folder, ENOTSUP for what is
 * not a regular file (a FIFO, a device, a socket: opened without blocking, never read),
 * EFBIG over the limit, ENOMEM for a file too big to hold. kd_read_error says which. */
char *kd_read_file(const char *path, size_t *len);
/* kd_read_file for a tool's output in the private folder: at most KD_OUTPUT_MAX_BYTES. */
char *kd_read_output(const char *path, size_t *len);
/* 0 when path is a regular file of at most KD_INPUT_MAX_BYTES; else -1 with kd_read_file's
 * errno (or stat's: ENOENT...). Checks without opening, so a FIFO never blocks: for the
 * CLI, before anything reads the inputs. */
int kd_check_input(const char *path);
/* What failed, for "cannot read 'PATH': %s": the limits and "not a regular file" said in
 * words (with the cap), else strerror. */
const char *kd_read_error(int err);
/* Every file kerndiff writes goes through here. A regular file (or a new one) is written
 * to a temporary file in the same folder and renamed over it, so a failure (a full disk)
 * never leaves it partial or destroys the old one; it keeps an existing file's permissions,
 * a new one gets 0666 less the umask. Anything else that exists (/dev/stdout, a FIFO, a
 * device) is written in place: renaming over it would replace the device. 0, or -1 with
 * errno (EISDIR for a folder). */
int kd_write_file(const char *path, const char *data, size_t len);
/* Writes all len bytes to fd, retrying short writes and EINTR: at the file's position
 * (kd_write_all) or at offset (kd_pwrite_all, the position unchanged). 0, or -1 with errno
 * (ENOSPC for a write that wrote nothing). */
int kd_write_all(int fd, const void *data, size_t len);
int kd_pwrite_all(int fd, const void *data, size_t len, uint64_t offset);
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
