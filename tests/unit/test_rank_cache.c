/* test_rank_cache.c — the build cache keyed by content (issue 32, compile/build.c): two files
 * of the same text (and the same included texts) are one build wherever they lie; a file
 * edited in place, or a copy whose quoted include differs, is another; code that names its
 * own path (__FILE__, assert) keeps the path in the key; a build that misses the cache has a
 * folder of its own that a later build does not write over. A fake nvcc (a shell script)
 * stands in for the toolkit: it logs each compile and writes the wrapper's included text as
 * the PTX and cubin, so the test sees which source a build holds. */
#include "kd_test.h"

#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "compile/build.h"
#include "util/fs.h"
#include "util/strlist.h"

static char root[256];
static char nvcc[300], log_path[300];

static void write_text(const char *path, const char *text)
{
    assert_int_equal(kd_write_file(path, text, strlen(text)), 0);
}

static char *at(const char *name)
{
    static char paths[8][512];
    static int next;
    char *p = paths[next++ % 8];
    snprintf(p, sizeof paths[0], "%s/%s", root, name);
    return p;
}

/* How many compiles the fake nvcc ran. */
static int compiles(void)
{
    size_t len = 0;
    char *text = kd_read_output(log_path, &len);
    int n = 0;
    for (size_t i = 0; text && i < len; i++)
        n += text[i] == '\n';
    free(text);
    return n;
}

static int setup(void **state)
{
    (void)state;
    snprintf(root, sizeof root, "/tmp/kd-test-rank-cache.XXXXXX");
    assert_non_null(mkdtemp(root));
    snprintf(nvcc, sizeof nvcc, "%s/nvcc", root);
    snprintf(log_path, sizeof log_path, "%s/compiles.log", root);
    char script[2048];
    /* --version: a fixed toolkit. A compile: the file the wrapper includes is the PTX/cubin. */
    snprintf(script, sizeof script,
             "#!/bin/sh\n"
             "if [ \"$1\" = --version ]; then echo 'fake nvcc 13.0'; exit 0; fi\n"
             "echo compile >>'%s'\n"
             "src=$(sed -n 's/^#include \"\\(.*\\)\"$/\\1/p' kernel.cu | tail -n 1)\n"
             "cat \"$src\" >kernel.ptx && cat \"$src\" >kernel.cubin && echo 'ptxas info : Used 8 registers' >&2\n",
             log_path);
    write_text(nvcc, script);
    assert_int_equal(chmod(nvcc, 0755), 0);
    setenv("XDG_CACHE_HOME", at("cache"), 1);
    for (const char *d = "a\0b\0c\0"; *d; d += strlen(d) + 1)
        assert_int_equal(kd_mkdir_p(at(d)), 0);
    return 0;
}

static int teardown(void **state)
{
    (void)state;
    kd_remove_tree(root);
    return 0;
}

static kd_build_status build(const char *path, bool cache, kd_build *out)
{
    static const kd_strlist none = {0};
    kd_build_config cfg = {.nvcc = nvcc, .arch = "sm_90", .include_dirs = &none, .defines = &none,
                           .nvcc_flags = &none, .use_cache = cache};
    kd_strbuf why = {0};
    kd_build_status st = kd_build_source(&cfg, path, "v2", out, &why);
    if (st != KD_BUILD_OK)
        fail_msg("build of %s: %d %s", path, (int)st, kd_sb_str(&why));
    kd_sb_free(&why);
    return st;
}

static void same_text_builds_once(void **state)
{
    (void)state;
    const char *text = "__global__ void k(float *x) { x[0] = 1.0f; }\n";
    write_text(at("a/k.cu"), text);
    write_text(at("b/other_name.cu"), text);
    int before = compiles();
    kd_build x, y;
    build(at("a/k.cu"), true, &x);
    build(at("b/other_name.cu"), true, &y);
    assert_int_equal(compiles(), before + 1);
    assert_false(x.from_cache);
    assert_true(y.from_cache);
    assert_string_equal(x.key, y.key);
    assert_string_equal(y.ptx, text);
    kd_build_free(&x);
    kd_build_free(&y);
}

static void edited_in_place_rebuilds(void **state)
{
    (void)state;
    write_text(at("a/e.cu"), "__global__ void k(float *x) { x[0] = 2.0f; }\n");
    kd_build x, y;
    build(at("a/e.cu"), true, &x);
    int before = compiles();
    write_text(at("a/e.cu"), "__global__ void k(float *x) { x[0] = 3.0f; }\n");
    build(at("a/e.cu"), true, &y);
    assert_int_equal(compiles(), before + 1);
    assert_false(y.from_cache);
    assert_string_not_equal(x.key, y.key);
    assert_non_null(strstr(y.ptx, "3.0f"));
    kd_build_free(&x);
    kd_build_free(&y);
}

/* The same text including "h.h", beside each file a header of different text: two builds. */
static void included_text_counts(void **state)
{
    (void)state;
    const char *text = "#include \"h.h\"\n__global__ void k(float *x) { x[0] = V; }\n";
    write_text(at("a/i.cu"), text);
    write_text(at("b/i.cu"), text);
    write_text(at("a/h.h"), "#define V 4.0f\n");
    write_text(at("b/h.h"), "#define V 5.0f\n");
    kd_build x, y;
    build(at("a/i.cu"), true, &x);
    build(at("b/i.cu"), true, &y);
    assert_string_not_equal(x.key, y.key);
    assert_false(y.from_cache);
    /* the same header text beside both: one build */
    write_text(at("b/h.h"), "#define V 4.0f\n");
    kd_build z;
    build(at("b/i.cu"), true, &z);
    assert_string_equal(x.key, z.key);
    assert_true(z.from_cache);
    kd_build_free(&x);
    kd_build_free(&y);
    kd_build_free(&z);
}

static void code_naming_its_path_keeps_it(void **state)
{
    (void)state;
    const char *text = "#include <assert.h>\n__global__ void k(float *x) { assert(x); }\n";
    write_text(at("a/p.cu"), text);
    write_text(at("b/p.cu"), text);
    kd_build x, y;
    build(at("a/p.cu"), true, &x);
    build(at("b/p.cu"), true, &y);
    assert_string_not_equal(x.key, y.key);
    assert_false(y.from_cache);
    kd_build_free(&x);
    kd_build_free(&y);
}

/* Without the cache, each build is made in a folder of its own: the first is still whole
 * after the second (a rank races every candidate's build after all were made). */
static void fresh_builds_have_their_own_folders(void **state)
{
    (void)state;
    write_text(at("c/one.cu"), "__global__ void one(float *x) { x[0] = 1.0f; }\n");
    write_text(at("c/two.cu"), "__global__ void two(float *x) { x[0] = 2.0f; }\n");
    kd_build x, y;
    build(at("c/one.cu"), false, &x);
    build(at("c/two.cu"), false, &y);
    assert_string_not_equal(x.dir, y.dir);
    size_t len;
    char *cubin = kd_read_output(x.cubin_path, &len);
    assert_non_null(cubin);
    assert_non_null(strstr(cubin, "one("));
    free(cubin);
    kd_build_free(&x);
    kd_build_free(&y);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(same_text_builds_once),
        cmocka_unit_test(edited_in_place_rebuilds),
        cmocka_unit_test(included_text_counts),
        cmocka_unit_test(code_naming_its_path_keeps_it),
        cmocka_unit_test(fresh_builds_have_their_own_folders),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
