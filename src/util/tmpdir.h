/* tmpdir.h — one private temporary folder per kerndiff run, removed at exit, on SIGINT,
 * SIGTERM and SIGHUP too. */
#ifndef KD_UTIL_TMPDIR_H
#define KD_UTIL_TMPDIR_H

#include <stdbool.h>

/* The folder (mode 0700, under $TMPDIR or /tmp), created on first use; NULL on failure. A
 * TMPDIR that a shell would split or act on is said and not used (kd_path_is_shell_plain):
 * the folder is nvcc's TMPDIR, and nvcc runs its steps through a shell. */
const char *kd_tmpdir(void);
/* Whether path holds only characters a POSIX shell takes as themselves unquoted. */
bool kd_path_is_shell_plain(const char *path);

#endif
