/* revision.h — git mode: turn `kerndiff FILE [--at REF | --at A..B]` into two files to
 * build, one per side, each either the working copy or a committed version written out
 * ("materialised") into a folder kerndiff owns.
 *
 * A committed version is only useful if it builds against its own revision's headers, so
 * the files it includes are materialised with it: everything reached through
 * `#include "..."` (beside the including file, then the -I folders) and `#include <...>`
 * found under -I folders inside the repository, transitively, read at the same revision
 * and written at the same paths relative to the repository top:
 *
 *     workdir/<short hash>/<path relative to the repository top>
 *
 * Quoted includes of the committed file then resolve inside that tree by themselves; for
 * angle includes the side's `include_dirs` (below) put the materialised copies of the -I
 * folders first. Includes that do not exist at the revision, that leave the repository
 * (`..` above the top, absolute paths) or that resolve to -I folders outside it are not
 * materialised: they are not versioned here, and nvcc reports those it cannot find.
 *
 * git is only ever run from an argument vector (util/spawn.h), never through a shell. */
#ifndef KD_GIT_REVISION_H
#define KD_GIT_REVISION_H

#include <stdbool.h>

#include "util/diag.h"
#include "util/strlist.h"

/* One side of the comparison. Every string (and every item of include_dirs) is malloc'd
 * and owned by the side; kd_git_result_free releases them. */
typedef struct kd_git_side {
    char *path;      /* a file to build: the working copy's real path, or a materialised copy */
    char *label;     /* "HEAD (3f2a1c9)", "working copy", "v1.2 (a1b2c3d)"; a hash typed as
                      * the revision is shown once: "3f2a1c9" */
    char *revision;  /* full commit hash, or NULL for the working copy */
    kd_strlist include_dirs; /* the -I folders to build this side with, in order. Working
                      * copy: the request's folders. Revision: each request folder inside
                      * the repository becomes its materialised copy followed by the
                      * original (so files git does not track, such as generated headers,
                      * are still found, while tracked ones come from the revision);
                      * folders outside the repository are kept as they are. */
} kd_git_side;

typedef struct kd_git_request {
    const char *file;      /* as the user typed it, relative to the current directory */
    const char *at;        /* NULL: HEAD vs working copy; "REF": REF vs working copy; "A..B": A vs B
                            * (an empty A or B is refused, naming the side: "..", "A..", "..B";
                            * "A...B" is refused) */
    const char *workdir;   /* a private folder kerndiff owns, where committed versions are written;
                            * created when missing, files in it are overwritten */
    const kd_strlist *include_dirs; /* -I folders (from util/strlist.h), to follow #include <...>
                            * found there; NULL: none */
} kd_git_request;

typedef struct kd_git_result {
    kd_git_side side[2];   /* [0]: the older / committed side ("A" or REF), [1]: "B" or the working copy */
    bool identical;        /* both sides have the same content (and included files): still diffed, but said */
} kd_git_result;

/* Resolves both sides, materialising committed versions under req->workdir. Works from any
 * directory inside the repository (the file's own folder locates the repository).
 *
 * `identical` compares, per side, the file and the repository files it includes (found
 * the same way as for materialising; for the working copy, the files on disk at those
 * paths, tracked or not): the same set of paths with the same bytes.
 *
 * Returns 0 with *out filled (free it with kd_git_result_free); -2 when git cannot be
 * run at all (KD_MSG_GIT_PROBE_*: "git not found: install git ..."); or -1 with *out left
 * empty and the reason in *error (git/git_msgs.h), such as KD_MSG_GIT_NOT_A_REPO,
 * _NOT_TRACKED, _UNKNOWN_REVISION, _NOT_AT_REVISION, _NOT_IN_WORKING_COPY. */
int kd_git_resolve(const kd_git_request *req, kd_git_result *out, kd_diag *error);

/* Frees what kd_git_resolve filled and zeroes *r; safe on a zeroed result. Materialised
 * files stay on disk: the workdir belongs to the caller. */
void kd_git_result_free(kd_git_result *r);

#endif
