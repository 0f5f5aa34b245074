/* test_cache_folder.c — a cache entry that keeps a folder of large files whole (issue 26:
 * a Triton capture's tensor data, lost when it was copied through the 64 MiB read cap):
 * kd_cache_store_with_folder puts the folder's files in the entry before it is installed, a
 * missing folder stores the entry without one, one past max_bytes stores nothing;
 * kd_cache_file_digest reads in pieces (a file past 1 MiB) and refuses a link;
 * kd_cache_link_or_copy replaces what is at the target. */
#include "kd_test.h"

#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "compile/cache.h"
#include "util/fs.h"
#include "util/strbuf.h"

#define KEY "cccccccccccccccccccccccccccccccccccccccccccccccccccccccccccccccc"

static const char *const names[] = {"launch.json"};
static const bool required[] = {true};
static const kd_cache_layout layout = {names, required, 1};

static void write_at(const char *dir, const char *name, const char *text, size_t len)
{
    char *path = kd_path_join(dir, name);
    assert_int_equal(kd_write_file(path, text, len), 0);
    free(path);
}

static bool exists(const char *dir, const char *name)
{
    char *path = kd_path_join(dir, name);
    struct stat st;
    bool there = lstat(path, &st) == 0;
    free(path);
    return there;
}

static void stores_the_folder_with_the_entry(void **state)
{
    (void)state;
    char root[] = "/tmp/kd-test-h26-XXXXXX";
    assert_non_null(mkdtemp(root));
    char *build = kd_path_join(root, "build"), *data = kd_path_join(build, "data"), *entry = kd_path_join(root, KEY);
    assert_int_equal(kd_mkdir_p(data), 0);
    write_at(build, "launch.json", "{}", 2);
    /* 3 MiB: read in several pieces */
    size_t big = (size_t)3 << 20;
    char *bytes = malloc(big);
    memset(bytes, 0x3f, big);
    write_at(data, "x.bin", bytes, big);
    write_at(data, "y.bin", "abc", 3);
    kd_cache_store_with_folder(build, entry, &layout, "data", 4 << 20);
    kd_strbuf why = {0};
    assert_int_equal(kd_cache_verify(entry, &layout, &why), 0);
    assert_true(exists(entry, "data/x.bin") && exists(entry, "data/y.bin"));
    unsigned long long size = 0;
    char digest[65];
    char *y = kd_path_join(entry, "data/y.bin"), *x = kd_path_join(entry, "data/x.bin");
    assert_int_equal(kd_cache_file_digest(y, &size, digest, &why), 0);
    assert_int_equal(size, 3);
    assert_string_equal(digest, "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"); /* SHA-256("abc") */
    assert_int_equal(kd_cache_file_digest(x, &size, digest, &why), 0);
    assert_int_equal(size, big);
    /* past max_bytes all together: nothing stored (the old entry stays as it was) */
    kd_remove_tree(entry);
    kd_cache_store_with_folder(build, entry, &layout, "data", big);
    assert_false(exists(root, KEY));
    /* no such folder: the entry alone */
    kd_remove_tree(data);
    kd_cache_store_with_folder(build, entry, &layout, "data", big);
    assert_int_equal(kd_cache_verify(entry, &layout, &why), 0);
    assert_false(exists(entry, "data"));
    kd_sb_free(&why);
    kd_remove_tree(root);
    free(bytes);
    free(x);
    free(y);
    free(build);
    free(data);
    free(entry);
}

static void a_link_is_not_read_and_a_target_is_replaced(void **state)
{
    (void)state;
    char root[] = "/tmp/kd-test-h26-XXXXXX";
    assert_non_null(mkdtemp(root));
    write_at(root, "real", "abc", 3);
    write_at(root, "old", "something else", 14);
    char *real = kd_path_join(root, "real"), *link_path = kd_path_join(root, "link"), *old = kd_path_join(root, "old");
    assert_int_equal(symlink(real, link_path), 0);
    unsigned long long size = 0;
    char digest[65];
    kd_strbuf why = {0};
    assert_int_equal(kd_cache_file_digest(link_path, &size, digest, &why), -1);
    assert_string_equal(kd_sb_str(&why), "is not a regular file");
    kd_sb_free(&why);
    char *missing = kd_path_join(root, "none");
    assert_int_equal(kd_cache_file_digest(missing, &size, digest, &why), -1);
    assert_string_equal(kd_sb_str(&why), "is missing");
    kd_sb_free(&why);
    assert_int_equal(kd_cache_link_or_copy(real, old), 0);
    char *text = kd_read_file(old, NULL);
    assert_string_equal(text, "abc");
    free(text);
    kd_remove_tree(root);
    free(real);
    free(link_path);
    free(old);
    free(missing);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(stores_the_folder_with_the_entry),
        cmocka_unit_test(a_link_is_not_read_and_a_target_is_replaced),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
