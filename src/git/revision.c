#include "git/revision.h"

#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "compile/deps.h"
#include "git/git_msgs.h"
#include "git/run.h"
#include "util/fs.h"
#include "util/spawn.h"
#include "util/xalloc.h"

/* The compared file (first) and everything it includes from the repository: paths
 * relative to the repository's top (the shared include walk, compile/deps). */
typedef kd_include_set file_set;

/* What every lookup needs to know about the repository. */
typedef struct repo {
    const char *file;           /* as the user typed it, for messages */
    char *top;                  /* real path of the working tree's top */
    char *relpath;              /* the compared file, relative to top */
    const kd_strlist *idirs;    /* the request's -I folders (an empty list when none) */
    char **idir_relpaths;       /* per -I folder: relative to top ("" for top itself), or
                                 * NULL when it is outside the repository */
} repo;

/* ---- the repository ------------------------------------------------------------- */

static int find_top(repo *r, const char *file_dir, kd_diag *error)
{
    const char *argv[] = {"git", "-C", file_dir, "rev-parse", "--show-toplevel", NULL};
    char *top;
    if (kd_git_line(argv, &top, error) != 0)
        return -1;
    /* No answer also inside a .git folder or a bare repository: no working tree to read. */
    char real[PATH_MAX];
    if (top && realpath(top, real))
        r->top = kd_xstrdup(real);
    free(top);
    if (!r->top) {
        kd_diag_set(error, KD_MSG_GIT_NOT_A_REPO, KD_DIAG_NO_SIDE, KD_S(r->file));
        return -1;
    }
    return 0;
}

/* The index, not the disk, decides what is tracked: a tracked file deleted from the
 * working copy still has committed versions to compare. */
static int find_relpath(repo *r, const char *file_dir, const char *base, kd_diag *error)
{
    /* --literal-pathspecs: a file named "k*.cu" is that file, not a pattern. -z: names
     * come back unquoted whatever their characters. */
    const char *argv[] = {"git", "--literal-pathspecs", "-C", file_dir, "ls-files", "-z", "--full-name",
                          "--", base, NULL};
    kd_spawn_result res;
    if (kd_git_run(argv, &res, error) != 0)
        return -1;
    const char *listed = kd_sb_str(&res.out);
    size_t first_len = strlen(listed);
    bool single = res.exit_code == 0 && first_len > 0 && first_len + 1 >= res.out.len;
    const char *slash = strrchr(listed, '/');
    /* A folder of the same name would list its contents: only the file itself counts. */
    if (single && strcmp(slash ? slash + 1 : listed, base) == 0)
        r->relpath = kd_xstrdup(listed);
    kd_spawn_result_free(&res);
    if (!r->relpath) {
        kd_diag_set(error, KD_MSG_GIT_NOT_TRACKED, KD_DIAG_NO_SIDE, KD_S(r->file));
        return -1;
    }
    return 0;
}

/* `dir` relative to the repository top ("" for the top), or NULL when it is outside it
 * (or missing: there is nothing on disk to tell where it is). */
static char *relative_to_top(const char *top, const char *dir)
{
    char real[PATH_MAX];
    if (!realpath(dir, real))
        return NULL;
    if (strcmp(top, "/") == 0)
        return kd_xstrdup(real + 1);
    size_t n = strlen(top);
    if (strncmp(real, top, n) != 0 || (real[n] != '\0' && real[n] != '/'))
        return NULL;
    return kd_xstrdup(real[n] ? real + n + 1 : "");
}

static void map_include_dirs(repo *r)
{
    if (r->idirs->count == 0)
        return;
    r->idir_relpaths = kd_xcalloc(r->idirs->count, sizeof *r->idir_relpaths);
    for (size_t i = 0; i < r->idirs->count; i++)
        r->idir_relpaths[i] = relative_to_top(r->top, r->idirs->items[i]);
}

static const kd_strlist no_include_dirs;

static int open_repo(const kd_git_request *req, repo *r, kd_diag *error)
{
    r->file = req->file ? req->file : "";
    r->idirs = req->include_dirs ? req->include_dirs : &no_include_dirs;
    if (!req->file || !*req->file || !req->workdir || !*req->workdir) {
        kd_diag_set0(error, KD_MSG_GIT_NEEDS_FILE, KD_DIAG_NO_SIDE);
        return -1;
    }
    if (kd_is_dir(req->file)) {
        kd_diag_set(error, KD_MSG_GIT_IS_FOLDER, KD_DIAG_NO_SIDE, KD_S(req->file));
        return -1;
    }
    char *dir = kd_dirname(req->file), *base = kd_basename(req->file);
    int rc = -1;
    if (!kd_is_dir(dir)) /* git -C would fail, and call it "not a repository" */
        kd_diag_set(error, KD_MSG_GIT_NO_SUCH_FOLDER, KD_DIAG_NO_SIDE, KD_S(req->file), KD_S(dir));
    else if (find_top(r, dir, error) == 0 && find_relpath(r, dir, base, error) == 0) {
        map_include_dirs(r);
        rc = 0;
    }
    free(dir);
    free(base);
    return rc;
}

static void close_repo(repo *r)
{
    for (size_t i = 0; r->idir_relpaths && i < r->idirs->count; i++)
        free(r->idir_relpaths[i]);
    free(r->idir_relpaths);
    free(r->top);
    free(r->relpath);
}

/* ---- paths inside the repository ------------------------------------------------ */

/* `name` taken from the repository folder `dir` ("" for the top), with "." and ".."
 * folded so one file always gets one path (the set is keyed on it). NULL when the path
 * climbs above the top: that file is not versioned here. */
static char *repo_join(const char *dir, const char *name)
{
    char *parts = kd_xasprintf("%s/%s", dir, name);
    char *out = kd_xmalloc(strlen(parts) + 1);
    size_t len = 0;
    bool escaped = false;
    char *save = NULL;
    for (char *part = strtok_r(parts, "/", &save); part && !escaped; part = strtok_r(NULL, "/", &save)) {
        if (strcmp(part, ".") == 0)
            continue;
        if (strcmp(part, "..") == 0) {
            escaped = len == 0;
            while (len > 0 && out[len - 1] != '/')
                len--;
            len -= len > 0; /* the slash before the dropped component */
            continue;
        }
        if (len > 0)
            out[len++] = '/';
        size_t n = strlen(part);
        memcpy(out + len, part, n);
        len += n;
    }
    free(parts);
    if (escaped || len == 0) {
        free(out);
        return NULL;
    }
    out[len] = '\0';
    return out;
}

/* ---- reading one version of a file ---------------------------------------------- */

static kd_include_lookup read_from_disk(const repo *r, const char *relpath, char **text, size_t *len)
{
    char *path = kd_path_join(r->top, relpath);
    struct stat st;
    if (stat(path, &st) == 0 && S_ISREG(st.st_mode))
        *text = kd_read_file(path, len);
    free(path);
    return *text ? KD_INCLUDE_FOUND : KD_INCLUDE_MISSING;
}

/* `cat-file blob` rather than `show`: it refuses trees, so an include naming a folder
 * reads as missing instead of as a tree listing. The bytes are the same as `git show`. */
static kd_include_lookup read_from_revision(const repo *r, const char *revision, const char *relpath, char **text,
                                            size_t *len, kd_diag *error)
{
    char *spec = kd_xasprintf("%s:%s", revision, relpath);
    const char *argv[] = {"git", "-C", r->top, "cat-file", "blob", spec, NULL};
    kd_spawn_result res;
    int ran = kd_git_run(argv, &res, error);
    free(spec);
    if (ran != 0)
        return KD_INCLUDE_ERROR;
    kd_include_lookup found = KD_INCLUDE_MISSING;
    if (res.exit_code == 0) {
        *len = res.out.len;
        *text = kd_sb_take(&res.out);
        found = KD_INCLUDE_FOUND;
    }
    kd_spawn_result_free(&res);
    return found;
}

/* Where the include walk reads one side's files: a revision, or (NULL) the working copy;
 * why a read failed (the walk's own error text is not read: compile/deps.h). */
typedef struct side_reader {
    const repo *r;
    const char *revision;
    kd_diag *error;
} side_reader;

/* A repository path, normalised (NULL when it leaves the repository); an absolute path
 * (a folder outside the repository) as it is. */
static char *side_canonical(void *ctx, const char *path)
{
    (void)ctx;
    return path[0] == '/' ? kd_xstrdup(path) : repo_join("", path);
}

/* Outside the repository a file is the same for every side: found, never collected. */
static kd_include_lookup side_read(void *ctx, const char *path, char **text, size_t *len, kd_strbuf *ignored)
{
    (void)ignored;
    const side_reader *sr = ctx;
    if (path[0] == '/') {
        struct stat st;
        return stat(path, &st) == 0 && S_ISREG(st.st_mode) ? KD_INCLUDE_OUTSIDE : KD_INCLUDE_MISSING;
    }
    return sr->revision ? read_from_revision(sr->r, sr->revision, path, text, len, sr->error)
                        : read_from_disk(sr->r, path, text, len);
}

/* ---- the set of files one side is built from ------------------------------------ */

/* Same paths with the same bytes; order does not matter. */
static bool sets_equal(const file_set *a, const file_set *b)
{
    if (a->count != b->count)
        return false;
    for (size_t i = 0; i < a->count; i++) {
        bool matched = false;
        for (size_t j = 0; j < b->count && !matched; j++)
            matched = strcmp(a->files[i].path, b->files[j].path) == 0 && a->files[i].len == b->files[j].len &&
                      memcmp(a->files[i].text, b->files[j].text, a->files[i].len) == 0;
        if (!matched)
            return false;
    }
    return true;
}

/* Collects the compared file and, transitively, what it includes from the repository,
 * at `revision` (NULL: the working copy), with the include search the build cache uses.
 * Each -I folder is searched as a repository path, or, outside the repository, on disk. */
static kd_include_lookup collect_side(const repo *r, const char *revision, file_set *set, kd_diag *error)
{
    side_reader sr = {r, revision, error};
    const kd_include_reader reader = {&sr, side_canonical, side_read};
    size_t n = r->idirs->count;
    const char **dirs = kd_xcalloc(n, sizeof *dirs);
    char **outside = kd_xcalloc(n, sizeof *outside);
    size_t used = 0;
    for (size_t i = 0; i < n; i++) {
        /* A folder outside the repository that does not exist holds nothing. */
        if (!r->idir_relpaths[i] && !(outside[i] = realpath(r->idirs->items[i], NULL)))
            continue;
        dirs[used++] = r->idir_relpaths[i] ? r->idir_relpaths[i] : outside[i];
    }
    kd_strbuf walk_error = {0};
    kd_diag_free(error);
    kd_include_lookup found = kd_include_walk(&reader, r->relpath, dirs, used, set, &walk_error);
    kd_sb_free(&walk_error);
    /* An error no read gave is the walk's own: more files than it follows. */
    if (found == KD_INCLUDE_ERROR && !error->id)
        kd_diag_set(error, KD_MSG_GIT_TOO_MANY_INCLUDES, KD_DIAG_NO_SIDE, KD_S(r->relpath), KD_I(KD_INCLUDE_MAX_FILES));
    for (size_t i = 0; i < n; i++)
        free(outside[i]);
    free(outside);
    free(dirs);
    return found;
}

static int write_tree(const file_set *set, const char *root, kd_diag *error)
{
    for (size_t i = 0; i < set->count; i++) {
        char *path = kd_path_join(root, set->files[i].path);
        char *dir = kd_dirname(path);
        int rc = kd_mkdir_p(dir) == 0 && kd_write_file(path, set->files[i].text, set->files[i].len) == 0 ? 0 : -1;
        if (rc != 0)
            kd_diag_set(error, KD_MSG_GIT_CANNOT_WRITE, KD_DIAG_NO_SIDE, KD_S(path), KD_S(strerror(errno)));
        free(dir);
        free(path);
        if (rc != 0)
            return -1;
    }
    return 0;
}

/* ---- revisions and sides -------------------------------------------------------- */

/* A committed side's -I folders: the materialised copy of each folder inside the
 * repository first, so angle includes find that revision's headers. */
static void remap_include_dirs(const repo *r, const char *root, kd_strlist *out)
{
    for (size_t i = 0; i < r->idirs->count; i++) {
        if (r->idir_relpaths[i])
            kd_strlist_push(out, *r->idir_relpaths[i] ? kd_path_join(root, r->idir_relpaths[i]) : kd_xstrdup(root));
        kd_strlist_push(out, kd_xstrdup(r->idirs->items[i]));
    }
}

static int revision_side(const repo *r, const kd_git_request *req, const char *ref, kd_git_side *side,
                         file_set *set, kd_diag *error)
{
    kd_git_commit c = {0};
    if (kd_git_commit_resolve(r->top, ref, &c, error) != 0) {
        kd_git_commit_free(&c);
        return -1;
    }
    kd_include_lookup found = collect_side(r, c.hash, set, error);
    if (found == KD_INCLUDE_MISSING)
        kd_diag_set(error, KD_MSG_GIT_NOT_AT_REVISION, KD_DIAG_NO_SIDE, KD_S(r->file), KD_S(ref));
    char *root = found == KD_INCLUDE_FOUND ? kd_path_join(req->workdir, c.short_hash) : NULL;
    int rc = -1;
    if (root && write_tree(set, root, error) == 0) {
        side->path = kd_path_join(root, r->relpath);
        side->label = kd_git_commit_label(ref, &c);
        side->revision = c.hash;
        c.hash = NULL;
        remap_include_dirs(r, root, &side->include_dirs);
        rc = 0;
    }
    free(root);
    kd_git_commit_free(&c);
    return rc;
}

static int working_side(const repo *r, kd_git_side *side, file_set *set, kd_diag *error)
{
    kd_include_lookup found = collect_side(r, NULL, set, error);
    char real[PATH_MAX];
    if (found == KD_INCLUDE_MISSING || (found == KD_INCLUDE_FOUND && !realpath(r->file, real))) {
        kd_diag_set(error, KD_MSG_GIT_NOT_IN_WORKING_COPY, KD_DIAG_NO_SIDE, KD_S(r->file));
        return -1;
    }
    if (found != KD_INCLUDE_FOUND)
        return -1;
    side->path = kd_xstrdup(real);
    side->label = kd_xstrdup("working copy");
    side->revision = NULL;
    for (size_t i = 0; i < r->idirs->count; i++)
        kd_strlist_push(&side->include_dirs, kd_xstrdup(r->idirs->items[i]));
    return 0;
}

/* Splits "A..B" into two revisions. *to stays NULL when `at` names a single revision. An
 * empty side is refused, not read as HEAD (git's reading): `--at ..` would compare HEAD with
 * itself and `--at A..` A with HEAD, not with the working copy a user may mean. */
static int split_range(const char *at, char **from, char **to, kd_diag *error)
{
    const char *dots = strstr(at, "..");
    if (!dots) {
        *from = kd_xstrdup(at);
        return 0;
    }
    if (dots[2] == '.') {
        kd_diag_set(error, KD_MSG_GIT_TRIPLE_DOTS, KD_DIAG_NO_SIDE, KD_S(at));
        return -1;
    }
    bool no_from = dots == at, no_to = !dots[2];
    if (no_from || no_to) {
        kd_diag_set(error, no_from && no_to ? KD_MSG_GIT_RANGE_EMPTY : no_from ? KD_MSG_GIT_RANGE_NO_FROM
                                                                               : KD_MSG_GIT_RANGE_NO_TO,
                    KD_DIAG_NO_SIDE, KD_S(at));
        return -1;
    }
    *from = kd_xstrndup(at, (size_t)(dots - at));
    *to = kd_xstrdup(dots + 2);
    return 0;
}

static int resolve_sides(const repo *r, const kd_git_request *req, kd_git_result *out, kd_diag *error)
{
    char *from = NULL, *to = NULL;
    file_set sets[2] = {{0}};
    int rc = split_range(req->at ? req->at : "HEAD", &from, &to, error);
    if (rc == 0)
        rc = revision_side(r, req, from, &out->side[0], &sets[0], error);
    if (rc == 0)
        rc = to ? revision_side(r, req, to, &out->side[1], &sets[1], error)
                : working_side(r, &out->side[1], &sets[1], error);
    if (rc == 0)
        out->identical = sets_equal(&sets[0], &sets[1]);
    kd_include_set_free(&sets[0]);
    kd_include_set_free(&sets[1]);
    free(from);
    free(to);
    return rc;
}

int kd_git_resolve(const kd_git_request *req, kd_git_result *out, kd_diag *error)
{
    memset(out, 0, sizeof *out);
    /* git itself missing is a tool problem, not bad input: tell the two apart first. */
    const char *const version[] = {"git", "--version", NULL};
    kd_spawn_result probe;
    if (kd_git_run(version, &probe, error) != 0) {
        kd_git_reason_in(error, KD_GIT_IN_PROBE, KD_DIAG_NO_SIDE, NULL);
        return -2;
    }
    kd_spawn_result_free(&probe);
    repo r = {0};
    int rc = open_repo(req, &r, error);
    if (rc == 0)
        rc = resolve_sides(&r, req, out, error);
    close_repo(&r);
    if (rc != 0)
        kd_git_result_free(out);
    return rc;
}

static void side_free(kd_git_side *side)
{
    free(side->path);
    free(side->label);
    free(side->revision);
    for (size_t i = 0; i < side->include_dirs.count; i++)
        free(side->include_dirs.items[i]);
    free(side->include_dirs.items);
}

void kd_git_result_free(kd_git_result *r)
{
    side_free(&r->side[0]);
    side_free(&r->side[1]);
    memset(r, 0, sizeof *r);
}
