#include "kd_test.h"

#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "git/git_msgs.h"
#include "git/revision.h"
#include "report/diag_text.h"
#include "util/fs.h"
#include "util/spawn.h"

/* Each test gets a fresh folder holding the repository, kerndiff's work folder and
 * whatever must lie outside the repository. Paths come from mkdtemp: no characters a
 * shell would interpret, so system() with them is safe. */
static char scratch[64]; /* "/tmp/kd_git_XXXXXX" */
static char repo[PATH_MAX];
static char workdir[PATH_MAX];
static char start_dir[PATH_MAX];

static void shell(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static void shell(const char *fmt, ...)
{
    char command[4 * PATH_MAX];
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(command, sizeof command, fmt, ap);
    va_end(ap);
    assert_true(n > 0 && (size_t)n < sizeof command);
    assert_int_equal(system(command), 0);
}

static void write_at(const char *dir, const char *relpath, const char *text)
{
    char *path = kd_path_join(dir, relpath);
    char *parent = kd_dirname(path);
    assert_int_equal(kd_mkdir_p(parent), 0);
    assert_int_equal(kd_write_file(path, text, strlen(text)), 0);
    free(parent);
    free(path);
}

static void write_in_repo(const char *relpath, const char *text)
{
    write_at(repo, relpath, text);
}

static void commit_all(const char *message)
{
    shell("git -C %s add -A && git -C %s commit -q -m %s", repo, repo, message);
}

/* `git rev-parse [--short] REF` in the test repository, malloc'd. */
static char *rev_parse(const char *ref, bool abbreviated)
{
    const char *argv[] = {"git", "-C", repo, "rev-parse", abbreviated ? "--short" : ref,
                          abbreviated ? ref : NULL, NULL};
    kd_spawn_result res;
    assert_int_equal(kd_spawn(argv, NULL, 10000, &res), 0);
    assert_int_equal(res.exit_code, 0);
    char *line = strndup(kd_sb_str(&res.out), strcspn(kd_sb_str(&res.out), "\n"));
    kd_spawn_result_free(&res);
    assert_true(strlen(line) >= 7);
    return line;
}

static void assert_file_text(const char *path, const char *expected)
{
    char *text = kd_read_file(path, NULL);
    assert_non_null(text);
    assert_string_equal(text, expected);
    free(text);
}

/* workdir/<short hash of ref>/<relpath>, malloc'd: where a committed version must land. */
static char *materialised(const char *ref, const char *relpath)
{
    char *short_hash = rev_parse(ref, true);
    char *root = kd_path_join(workdir, short_hash);
    char *path = kd_path_join(root, relpath);
    free(root);
    free(short_hash);
    return path;
}

static void assert_materialised_text(const char *ref, const char *relpath, const char *expected)
{
    char *path = materialised(ref, relpath);
    assert_file_text(path, expected);
    free(path);
}

static void assert_label(const char *label, const char *ref)
{
    char *short_hash = rev_parse(ref, true);
    char expected[256];
    snprintf(expected, sizeof expected, "%s (%s)", ref, short_hash);
    assert_string_equal(label, expected);
    free(short_hash);
}

static int resolve(const char *file, const char *at, const kd_strlist *include_dirs, kd_git_result *out,
                   kd_diag *error)
{
    kd_git_request req = {.file = file, .at = at, .workdir = workdir, .include_dirs = include_dirs};
    return kd_git_resolve(&req, out, error);
}

/* Resolves and expects an error: the result must come back empty. */
static void assert_resolve_fails(const char *file, const char *at, const char *expected_error)
{
    kd_git_result result;
    kd_diag error = {0};
    assert_int_equal(resolve(file, at, NULL, &result, &error), -1);
    kd_strbuf text = {0};
    kd_diag_text(&error, &text);
    assert_string_equal(kd_sb_str(&text), expected_error);
    assert_null(result.side[0].path);
    assert_null(result.side[1].path);
    kd_sb_free(&text);
    kd_diag_free(&error);
}

static int setup_repository(void **state)
{
    (void)state;
    assert_non_null(getcwd(start_dir, sizeof start_dir));
    snprintf(scratch, sizeof scratch, "/tmp/kd_git_XXXXXX");
    assert_non_null(mkdtemp(scratch));
    snprintf(repo, sizeof repo, "%s/repo", scratch);
    snprintf(workdir, sizeof workdir, "%s/work", scratch);
    /* A git that reads no one's configuration, and cannot find a repository above ours. */
    setenv("HOME", scratch, 1);
    setenv("GIT_CONFIG_NOSYSTEM", "1", 1);
    setenv("GIT_CEILING_DIRECTORIES", "/tmp", 1);
    setenv("GIT_AUTHOR_NAME", "Test", 1);
    setenv("GIT_AUTHOR_EMAIL", "test@example.com", 1);
    setenv("GIT_COMMITTER_NAME", "Test", 1);
    setenv("GIT_COMMITTER_EMAIL", "test@example.com", 1);
    unsetenv("GIT_DIR");
    unsetenv("GIT_WORK_TREE");
    unsetenv("GIT_INDEX_FILE");
    shell("git init -q %s", repo);
    assert_int_equal(chdir(repo), 0);
    return 0;
}

static int remove_repository(void **state)
{
    (void)state;
    assert_int_equal(chdir(start_dir), 0);
    assert_int_equal(kd_remove_tree(scratch), 0);
    return 0;
}

static void head_against_modified_working_copy(void **state)
{
    (void)state;
    write_in_repo("kern.cu", "__global__ void k() { /* v1 */ }\n");
    commit_all("v1");
    write_in_repo("kern.cu", "__global__ void k() { /* v2 */ }\n");

    kd_git_result result;
    kd_diag error = {0};
    assert_int_equal(resolve("kern.cu", NULL, NULL, &result, &error), 0);
    assert_int_equal(error.id, 0);

    char *head = rev_parse("HEAD", false);
    char *committed = materialised("HEAD", "kern.cu");
    assert_string_equal(result.side[0].path, committed);
    assert_file_text(result.side[0].path, "__global__ void k() { /* v1 */ }\n");
    assert_label(result.side[0].label, "HEAD");
    assert_string_equal(result.side[0].revision, head);

    char real[PATH_MAX];
    assert_non_null(realpath("kern.cu", real));
    assert_string_equal(result.side[1].path, real);
    assert_string_equal(result.side[1].label, "working copy");
    assert_null(result.side[1].revision);
    assert_false(result.identical);

    free(committed);
    free(head);
    kd_git_result_free(&result);
    assert_null(result.side[0].path);
}

static void unmodified_file_and_headers_are_identical(void **state)
{
    (void)state;
    write_in_repo("kern.cu", "#include \"helpers.h\"\n__global__ void k() {}\n");
    write_in_repo("helpers.h", "#define H 1\n");
    commit_all("base");

    kd_git_result result;
    kd_diag error = {0};
    assert_int_equal(resolve("kern.cu", NULL, NULL, &result, &error), 0);
    assert_true(result.identical);
    kd_git_result_free(&result);

    /* Only an included file differs: the sides no longer build the same code. */
    write_in_repo("helpers.h", "#define H 2\n");
    assert_int_equal(resolve("kern.cu", NULL, NULL, &result, &error), 0);
    assert_false(result.identical);
    assert_materialised_text("HEAD", "helpers.h", "#define H 1\n");
    kd_git_result_free(&result);

    /* A header that exists on disk but not in the commit also counts as a difference. */
    write_in_repo("helpers.h", "#define H 1\n");
    write_in_repo("kern.cu", "#include \"helpers.h\"\n#include \"extra.h\"\n__global__ void k() {}\n");
    commit_all("extra-include");
    assert_int_equal(resolve("kern.cu", NULL, NULL, &result, &error), 0);
    assert_true(result.identical);
    kd_git_result_free(&result);
    write_in_repo("extra.h", "#define E 1\n");
    assert_int_equal(resolve("kern.cu", NULL, NULL, &result, &error), 0);
    assert_false(result.identical);
    kd_git_result_free(&result);
    assert_int_equal(error.id, 0);
}

/* Three commits, the first tagged v1.0; the working copy is the third. */
static void make_three_versions(void)
{
    write_in_repo("kern.cu", "one\n");
    commit_all("one");
    shell("git -C %s tag v1.0", repo);
    write_in_repo("kern.cu", "two\n");
    commit_all("two");
    write_in_repo("kern.cu", "three\n");
    commit_all("three");
}

static void at_picks_tag_hash_and_relative_revision(void **state)
{
    (void)state;
    make_three_versions();
    kd_git_result result;
    kd_diag error = {0};

    assert_int_equal(resolve("kern.cu", "v1.0", NULL, &result, &error), 0);
    assert_file_text(result.side[0].path, "one\n");
    assert_label(result.side[0].label, "v1.0");
    assert_string_equal(result.side[1].label, "working copy");
    assert_false(result.identical);
    kd_git_result_free(&result);

    char *second = rev_parse("HEAD~1", false);
    char *second_short = rev_parse("HEAD~1", true);
    assert_int_equal(resolve("kern.cu", second, NULL, &result, &error), 0);
    assert_file_text(result.side[0].path, "two\n");
    assert_string_equal(result.side[0].label, second_short); /* a typed hash is shown once */
    assert_string_equal(result.side[0].revision, second);
    kd_git_result_free(&result);

    assert_int_equal(resolve("kern.cu", "HEAD~1", NULL, &result, &error), 0);
    assert_file_text(result.side[0].path, "two\n");
    assert_label(result.side[0].label, "HEAD~1");
    assert_string_equal(result.side[0].revision, second);
    kd_git_result_free(&result);

    assert_int_equal(resolve("kern.cu", "HEAD", NULL, &result, &error), 0);
    assert_true(result.identical);
    kd_git_result_free(&result);
    assert_int_equal(error.id, 0);
    free(second);
    free(second_short);
}

static void range_compares_two_revisions(void **state)
{
    (void)state;
    make_three_versions();
    write_in_repo("kern.cu", "uncommitted\n");
    kd_git_result result;
    kd_diag error = {0};

    assert_int_equal(resolve("kern.cu", "v1.0..HEAD~1", NULL, &result, &error), 0);
    char *first = materialised("v1.0", "kern.cu"), *second = materialised("HEAD~1", "kern.cu");
    assert_string_equal(result.side[0].path, first);
    assert_string_equal(result.side[1].path, second);
    assert_file_text(result.side[0].path, "one\n");
    assert_file_text(result.side[1].path, "two\n");
    assert_label(result.side[0].label, "v1.0");
    assert_label(result.side[1].label, "HEAD~1");
    assert_non_null(result.side[1].revision);
    assert_false(result.identical);
    kd_git_result_free(&result);
    free(first);
    free(second);

    /* An empty side is refused (issue 28: `--at ..` compared HEAD with itself, silently). */
    assert_int_not_equal(resolve("kern.cu", "v1.0..", NULL, &result, &error), 0);
    assert_int_equal(error.id, KD_MSG_GIT_RANGE_NO_TO);
    assert_string_equal(error.args[0].v.s, "v1.0..");
    kd_git_result_free(&result);
    kd_diag_free(&error);

    assert_int_equal(resolve("kern.cu", "HEAD~1..HEAD~1", NULL, &result, &error), 0);
    assert_true(result.identical);
    kd_git_result_free(&result);
    assert_int_equal(error.id, 0);
}

static void each_side_gets_its_own_revision_of_included_headers(void **state)
{
    (void)state;
    write_in_repo("kern.cu", "#include \"inc/util.h\"\n__global__ void k() {}\n");
    write_in_repo("inc/util.h", "#include \"detail.h\"\n#define UTIL 1\n");
    write_in_repo("inc/detail.h", "#define DETAIL 1\n");
    commit_all("r1");
    shell("git -C %s tag r1", repo);
    write_in_repo("inc/util.h", "#include \"detail.h\"\n#define UTIL 2\n");
    write_in_repo("inc/detail.h", "#define DETAIL 2\n");
    commit_all("r2");
    write_in_repo("inc/util.h", "#include \"detail.h\"\n#define UTIL 3\n");

    kd_git_result result;
    kd_diag error = {0};
    assert_int_equal(resolve("kern.cu", "r1..HEAD", NULL, &result, &error), 0);
    assert_materialised_text("r1", "inc/util.h", "#include \"detail.h\"\n#define UTIL 1\n");
    assert_materialised_text("r1", "inc/detail.h", "#define DETAIL 1\n"); /* followed transitively */
    assert_materialised_text("HEAD", "inc/util.h", "#include \"detail.h\"\n#define UTIL 2\n");
    assert_materialised_text("HEAD", "inc/detail.h", "#define DETAIL 2\n");
    assert_false(result.identical); /* kern.cu is the same; its headers are not */
    kd_git_result_free(&result);

    /* Against the working copy the header on disk is the one that counts. */
    assert_int_equal(resolve("kern.cu", NULL, NULL, &result, &error), 0);
    assert_materialised_text("HEAD", "inc/util.h", "#include \"detail.h\"\n#define UTIL 2\n");
    assert_false(result.identical);
    kd_git_result_free(&result);
    assert_int_equal(error.id, 0);
}

static void angle_includes_under_include_dirs_are_materialised(void **state)
{
    (void)state;
    char outside[PATH_MAX];
    snprintf(outside, sizeof outside, "%s/sdk", scratch);
    write_at(outside, "sdk.h", "#define SDK 1\n");
    write_in_repo("kern.cu", "#include <sdk.h>\n#include <cfg.h>\n");
    write_in_repo("include/cfg.h", "#define CFG 1\n");
    commit_all("c1");
    write_in_repo("include/cfg.h", "#define CFG 2\n");

    kd_strlist dirs = {0};
    kd_strlist_push(&dirs, outside);
    kd_strlist_push(&dirs, "include");
    kd_git_result result;
    kd_diag error = {0};
    assert_int_equal(resolve("kern.cu", NULL, &dirs, &result, &error), 0);
    assert_materialised_text("HEAD", "include/cfg.h", "#define CFG 1\n");
    assert_false(result.identical);

    /* The revision builds with its own copy of include/ first; the outside folder is kept. */
    char *copy = materialised("HEAD", "include");
    assert_int_equal(result.side[0].include_dirs.count, 3);
    assert_string_equal(result.side[0].include_dirs.items[0], outside);
    assert_string_equal(result.side[0].include_dirs.items[1], copy);
    assert_string_equal(result.side[0].include_dirs.items[2], "include");
    assert_int_equal(result.side[1].include_dirs.count, 2);
    assert_string_equal(result.side[1].include_dirs.items[0], outside);
    assert_string_equal(result.side[1].include_dirs.items[1], "include");
    free(copy);
    kd_git_result_free(&result);
    free(dirs.items);
    assert_int_equal(error.id, 0);
}

static void includes_missing_or_outside_the_repository_are_skipped(void **state)
{
    (void)state;
    write_at(scratch, "outside.h", "#define OUTSIDE 1\n");
    write_in_repo("kern.cu", "#include \"../outside.h\"\n#include \"missing.h\"\n#include \"./a/../ok.h\"\n");
    write_in_repo("ok.h", "#define OK 1\n");
    /* Same name at the top: "../outside.h" must not be clamped onto it. */
    write_in_repo("outside.h", "#define INSIDE 1\n");
    commit_all("c1");

    kd_git_result result;
    kd_diag error = {0};
    assert_int_equal(resolve("kern.cu", NULL, NULL, &result, &error), 0);
    assert_materialised_text("HEAD", "ok.h", "#define OK 1\n"); /* "a/.." folded away */
    char *escaped = materialised("HEAD", "../outside.h"), *clamped = materialised("HEAD", "outside.h");
    char *missing = materialised("HEAD", "missing.h");
    assert_int_not_equal(access(escaped, F_OK), 0);
    assert_int_not_equal(access(clamped, F_OK), 0);
    assert_int_not_equal(access(missing, F_OK), 0);
    assert_true(result.identical);
    free(escaped);
    free(clamped);
    free(missing);
    kd_git_result_free(&result);
    assert_int_equal(error.id, 0);
}

static void works_from_a_subdirectory(void **state)
{
    (void)state;
    write_in_repo("src/kern.cu", "#include \"../common/c.h\"\nold\n");
    write_in_repo("common/c.h", "#define C 1\n");
    write_in_repo("tools/readme", "x\n");
    commit_all("c1");
    write_in_repo("src/kern.cu", "#include \"../common/c.h\"\nnew\n");

    kd_git_result result;
    kd_diag error = {0};
    assert_int_equal(chdir("src"), 0);
    assert_int_equal(resolve("kern.cu", NULL, NULL, &result, &error), 0);
    char *expected = materialised("HEAD", "src/kern.cu");
    assert_string_equal(result.side[0].path, expected);
    assert_file_text(result.side[0].path, "#include \"../common/c.h\"\nold\n");
    assert_materialised_text("HEAD", "common/c.h", "#define C 1\n");
    char real[PATH_MAX];
    assert_non_null(realpath("kern.cu", real));
    assert_string_equal(result.side[1].path, real);
    kd_git_result_free(&result);

    assert_int_equal(chdir("../tools"), 0);
    assert_int_equal(resolve("../src/kern.cu", "HEAD", NULL, &result, &error), 0);
    assert_string_equal(result.side[0].path, expected);
    assert_string_equal(result.side[1].path, real);
    kd_git_result_free(&result);
    free(expected);
    assert_int_equal(error.id, 0);
}

static void untracked_file_is_refused(void **state)
{
    (void)state;
    write_in_repo("kern.cu", "k\n");
    commit_all("c1");
    write_in_repo("new.cu", "n\n");
    assert_resolve_fails("new.cu", NULL, "kerndiff: new.cu is not tracked by git (git add it, or compare two files)");
    assert_resolve_fails("nothing.cu", NULL,
                         "kerndiff: nothing.cu is not tracked by git (git add it, or compare two files)");
}

static void unknown_revision_is_refused(void **state)
{
    (void)state;
    write_in_repo("kern.cu", "k\n");
    commit_all("c1");
    assert_resolve_fails("kern.cu", "xyz", "kerndiff: unknown revision 'xyz'");
    assert_resolve_fails("kern.cu", "HEAD..xyz", "kerndiff: unknown revision 'xyz'");
    assert_resolve_fails("kern.cu", "--all", "kerndiff: unknown revision '--all'");
    assert_resolve_fails("kern.cu", "HEAD...HEAD",
                         "kerndiff: 'HEAD...HEAD' is not supported: give two revisions as A..B");
}

static void file_missing_at_revision_is_refused(void **state)
{
    (void)state;
    write_in_repo("kern.cu", "k\n");
    commit_all("c1");
    write_in_repo("new.cu", "n\n");
    commit_all("c2");
    assert_resolve_fails("new.cu", "HEAD~1", "kerndiff: new.cu does not exist at revision HEAD~1");
    assert_resolve_fails("new.cu", "HEAD~1..HEAD", "kerndiff: new.cu does not exist at revision HEAD~1");

    /* Deleted from disk but still tracked: revisions still compare, the working copy is gone. */
    assert_int_equal(unlink("new.cu"), 0);
    assert_resolve_fails("new.cu", NULL, "kerndiff: new.cu does not exist in the working copy");
    kd_git_result result;
    kd_diag error = {0};
    assert_int_equal(resolve("new.cu", "HEAD..HEAD", NULL, &result, &error), 0);
    assert_file_text(result.side[1].path, "n\n");
    kd_git_result_free(&result);
}

static void file_outside_a_repository_is_refused(void **state)
{
    (void)state;
    write_at(scratch, "plain/kern.cu", "k\n");
    assert_int_equal(chdir(scratch), 0);
    assert_resolve_fails("plain/kern.cu", NULL, "kerndiff: plain/kern.cu is not inside a git repository");
}

static void missing_git_is_reported(void **state)
{
    (void)state;
    write_in_repo("kern.cu", "k\n");
    commit_all("c1");
    char *saved = strdup(getenv("PATH"));
    char empty[PATH_MAX];
    snprintf(empty, sizeof empty, "%s/empty", scratch);
    assert_int_equal(kd_mkdir_p(empty), 0);
    setenv("PATH", empty, 1);
    kd_git_result result;
    kd_diag error = {0};
    int rc = resolve("kern.cu", NULL, NULL, &result, &error);
    setenv("PATH", saved, 1);
    free(saved);
    assert_int_equal(rc, -2); /* a missing tool (exit 7), not bad input */
    kd_strbuf text = {0};
    kd_diag_text(&error, &text);
    assert_string_equal(kd_sb_str(&text),
                        "kerndiff: git not found: install git, or compare two files (kerndiff V1.cu V2.cu)");
    kd_sb_free(&text);
    kd_diag_free(&error);
}

#define REPO_TEST(fn) cmocka_unit_test_setup_teardown(fn, setup_repository, remove_repository)

int main(void)
{
    const struct CMUnitTest tests[] = {
        REPO_TEST(head_against_modified_working_copy),
        REPO_TEST(unmodified_file_and_headers_are_identical),
        REPO_TEST(at_picks_tag_hash_and_relative_revision),
        REPO_TEST(range_compares_two_revisions),
        REPO_TEST(each_side_gets_its_own_revision_of_included_headers),
        REPO_TEST(angle_includes_under_include_dirs_are_materialised),
        REPO_TEST(includes_missing_or_outside_the_repository_are_skipped),
        REPO_TEST(works_from_a_subdirectory),
        REPO_TEST(untracked_file_is_refused),
        REPO_TEST(unknown_revision_is_refused),
        REPO_TEST(file_missing_at_revision_is_refused),
        REPO_TEST(file_outside_a_repository_is_refused),
        REPO_TEST(missing_git_is_reported),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
