/* test_cache.c — the build cache's manifest (compile/cache.c): the strict reader, an
 * entry bound to its key (two entries swapped are refused, then replaced), and something
 * that is not a folder where an entry goes (a file, a link) replaced, not followed. */
#include "kd_test.h"

#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "compile/cache.h"
#include "util/fs.h"

#define KEY_A "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa"
#define KEY_B "bbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbb"
#define DIGEST "7d53a5e6243907a42e74ce19d6da4af63829cbe5afd45c8a37f98c7b7f50b254"

static int parse(const char *text, kd_cache_manifest *m, kd_strbuf *why)
{
    kd_sb_free(why);
    return kd_cache_manifest_parse(text, strlen(text), m, why);
}

static void reads_key_and_files(void **state)
{
    (void)state;
    kd_cache_manifest m;
    kd_strbuf why = {0};
    assert_int_equal(parse(KD_CACHE_MANIFEST_HEADER "\nkey " KEY_A "\nkernel.ptx 12 " DIGEST "\nptxas.log 0 " DIGEST
                           "\n", &m, &why), 0);
    assert_string_equal(m.key, KEY_A);
    assert_int_equal(m.nfiles, 2);
    assert_string_equal(m.files[0].name, "kernel.ptx");
    assert_int_equal(m.files[0].size, 12);
    assert_string_equal(m.files[0].digest, DIGEST);
    assert_string_equal(m.files[1].name, "ptxas.log");
    /* No final newline is the same manifest. */
    assert_int_equal(parse(KD_CACHE_MANIFEST_HEADER "\nkey " KEY_A "\nkernel.ptx 12 " DIGEST, &m, &why), 0);
    assert_int_equal(m.nfiles, 1);
    kd_sb_free(&why);
}

static void refuses_what_kerndiff_never_writes(void **state)
{
    (void)state;
    static const char *const bad[] = {
        "",
        "kernel.ptx 12 " DIGEST "\n", /* the old format: no key */
        KD_CACHE_MANIFEST_HEADER "\n",
        KD_CACHE_MANIFEST_HEADER "\nkey " KEY_A "x\n",
        KD_CACHE_MANIFEST_HEADER "\nkey AAAAaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa\n",
        KD_CACHE_MANIFEST_HEADER "\nkey " KEY_A "\n../kernel.ptx 12 " DIGEST "\n",
        KD_CACHE_MANIFEST_HEADER "\nkey " KEY_A "\n.manifest 12 " DIGEST "\n",
        KD_CACHE_MANIFEST_HEADER "\nkey " KEY_A "\nkernel.ptx -1 " DIGEST "\n",
        KD_CACHE_MANIFEST_HEADER "\nkey " KEY_A "\nkernel.ptx 99999999999999999999 " DIGEST "\n",
        KD_CACHE_MANIFEST_HEADER "\nkey " KEY_A "\nkernel.ptx 12 " DIGEST " extra\n",
        KD_CACHE_MANIFEST_HEADER "\nkey " KEY_A "\nkernel.ptx  12 " DIGEST "\n",
        KD_CACHE_MANIFEST_HEADER "\nkey " KEY_A "\nkernel.ptx 12 " DIGEST "\nkernel.ptx 12 " DIGEST "\n",
        KD_CACHE_MANIFEST_HEADER "\nkey " KEY_A "\n\nkernel.ptx 12 " DIGEST "\n",
    };
    kd_cache_manifest m;
    kd_strbuf why = {0};
    for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
        if (parse(bad[i], &m, &why) == 0)
            fail_msg("manifest %zu accepted: %s", i, bad[i]);
        assert_true(why.len > 0);
    }
    /* A NUL inside, and more than the cap. */
    char nul[] = KD_CACHE_MANIFEST_HEADER "\nkey " KEY_A "\n";
    nul[3] = '\0';
    kd_sb_free(&why);
    assert_int_equal(kd_cache_manifest_parse(nul, sizeof nul - 1, &m, &why), -1);
    char *big = calloc(KD_CACHE_MANIFEST_MAX + 2, 1);
    memset(big, 'a', KD_CACHE_MANIFEST_MAX + 1);
    kd_sb_free(&why);
    assert_int_equal(kd_cache_manifest_parse(big, KD_CACHE_MANIFEST_MAX + 1, &m, &why), -1);
    free(big);
    kd_sb_free(&why);
}

static const char *const names[] = {"kernel.ptx", "ptxas.log"};
static const bool required[] = {true, false};
static const kd_cache_layout layout = {names, required, 2};

/* An entry for `key` under root, stored from a build folder holding `ptx`. */
static char *store(const char *root, const char *key, const char *ptx)
{
    char *build = kd_path_join(root, "build"), *file = kd_path_join(build, "kernel.ptx");
    assert_int_equal(kd_mkdir_p(build), 0);
    assert_int_equal(kd_write_file(file, ptx, strlen(ptx)), 0);
    char *entry = kd_path_join(root, key);
    kd_cache_store(build, entry, &layout);
    kd_remove_tree(build);
    free(build);
    free(file);
    return entry;
}

static void an_entry_is_bound_to_its_key(void **state)
{
    (void)state;
    char root[] = "/tmp/kd-test-cache-XXXXXX";
    assert_non_null(mkdtemp(root));
    char *a = store(root, KEY_A, "version A"), *b = store(root, KEY_B, "version B");
    kd_strbuf why = {0};
    assert_int_equal(kd_cache_verify(a, &layout, &why), 0);
    assert_int_equal(kd_cache_verify(b, &layout, &why), 0);
    /* Swapped: every file still matches its manifest, but the manifest names the other key. */
    char *tmp = kd_path_join(root, "swap");
    assert_int_equal(rename(a, tmp), 0);
    assert_int_equal(rename(b, a), 0);
    assert_int_equal(rename(tmp, b), 0);
    assert_int_equal(kd_cache_verify(a, &layout, &why), -1);
    assert_non_null(strstr(kd_sb_str(&why), "names another key, bbbbbbbbbbbb"));
    char *note = NULL;
    assert_false(kd_cache_usable(a, KEY_A, &layout, &note));
    assert_non_null(note);
    assert_non_null(strstr(note, "cache entry aaaaaaaaaaaa was damaged (its manifest names another key"));
    free(note);
    /* Stored again (the rebuild): replaced, and trusted from then on. */
    free(store(root, KEY_A, "version A"));
    note = NULL;
    assert_true(kd_cache_usable(a, KEY_A, &layout, &note));
    assert_null(note);
    char *ptx = kd_path_join(a, "kernel.ptx"), *text = kd_read_file(ptx, NULL);
    assert_string_equal(text, "version A");
    free(text);
    free(ptx);
    kd_sb_free(&why);
    kd_remove_tree(root);
    free(a);
    free(b);
    free(tmp);
}

static void a_file_or_link_where_an_entry_goes_is_replaced(void **state)
{
    (void)state;
    char root[] = "/tmp/kd-test-cache-XXXXXX";
    assert_non_null(mkdtemp(root));
    char *entry = kd_path_join(root, KEY_A), *target = kd_path_join(root, "elsewhere");
    assert_int_equal(kd_write_file(entry, "junk", 4), 0);
    char *note = NULL;
    assert_false(kd_cache_usable(entry, KEY_A, &layout, &note));
    assert_non_null(strstr(note, "(it is not a folder)"));
    free(note);
    free(store(root, KEY_A, "v"));
    struct stat st;
    assert_int_equal(lstat(entry, &st), 0);
    assert_true(S_ISDIR(st.st_mode));
    note = NULL;
    assert_true(kd_cache_usable(entry, KEY_A, &layout, &note));
    /* A link to a folder elsewhere: refused and replaced by the entry; the folder it named stays. */
    assert_int_equal(kd_remove_tree(entry), 0);
    assert_int_equal(kd_mkdir_p(target), 0);
    assert_int_equal(symlink(target, entry), 0);
    assert_false(kd_cache_usable(entry, KEY_A, &layout, &note));
    free(note);
    free(store(root, KEY_A, "v"));
    assert_int_equal(lstat(entry, &st), 0);
    assert_true(S_ISDIR(st.st_mode));
    assert_true(kd_is_dir(target));
    kd_remove_tree(root);
    free(entry);
    free(target);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(reads_key_and_files),
        cmocka_unit_test(refuses_what_kerndiff_never_writes),
        cmocka_unit_test(an_entry_is_bound_to_its_key),
        cmocka_unit_test(a_file_or_link_where_an_entry_goes_is_replaced),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
