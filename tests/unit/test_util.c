#include "kd_test.h"

#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <unistd.h>

#include "compile/deps.h"
#include "source/roles.h"
#include "util/fs.h"
#include "util/hash.h"
#include "util/spawn.h"

static void spawn_passes_arguments_verbatim(void **state)
{
    (void)state;
    const char *argv[] = {"printf", "%s|%s", "a b", "$(echo no); `id` > x", NULL};
    kd_spawn_result r;
    assert_int_equal(kd_spawn(argv, NULL, 5000, &r), 0);
    assert_int_equal(r.exit_code, 0);
    assert_string_equal(kd_sb_str(&r.out), "a b|$(echo no); `id` > x");
    kd_spawn_result_free(&r);
}

static void spawn_reports_status_missing_program_and_timeout(void **state)
{
    (void)state;
    kd_spawn_result r;
    const char *fails[] = {"sh", "-c", "echo oops >&2; exit 3", NULL};
    assert_int_equal(kd_spawn(fails, NULL, 5000, &r), 0);
    assert_int_equal(r.exit_code, 3);
    assert_string_equal(kd_sb_str(&r.err), "oops\n");
    kd_spawn_result_free(&r);
    const char *missing[] = {"/nonexistent/program", NULL};
    assert_int_equal(kd_spawn(missing, NULL, 5000, &r), -1);
    const char *slow[] = {"sleep", "10", NULL};
    assert_int_equal(kd_spawn(slow, NULL, 200, &r), 0);
    assert_true(r.timed_out);
    assert_int_not_equal(r.signal, 0);
    kd_spawn_result_free(&r);
}

/* True once `pid` is gone (or a zombie waiting for init), looking for up to 5 s. */
static bool process_ends(long pid)
{
    for (int i = 0; i < 500; i++) {
        char path[64], state = 0;
        snprintf(path, sizeof path, "/proc/%ld/stat", pid);
        FILE *f = fopen(path, "r");
        if (!f)
            return true;
        int fields = fscanf(f, "%*d (%*[^)]) %c", &state);
        fclose(f);
        if (fields == 1 && state == 'Z')
            return true;
        usleep(10000);
    }
    return false;
}

/* A tool that started a child of its own: a timeout ends both (nvcc runs cicc and ptxas). */
static void spawn_timeout_ends_the_whole_process_group(void **state)
{
    (void)state;
    char pid_file[] = "/tmp/kd-spawn-XXXXXX";
    int fd = mkstemp(pid_file);
    assert_true(fd >= 0);
    close(fd);
    setenv("FAKE_NVCC_PIDS", pid_file, 1);
    const char *argv[] = {"tests/fakes/fake_nvcc", "-cubin", NULL};
    kd_spawn_result r;
    assert_int_equal(kd_spawn(argv, NULL, 1500, &r), 0);
    assert_true(r.timed_out);
    kd_spawn_result_free(&r);
    size_t len;
    char *text = kd_read_file(pid_file, &len);
    assert_non_null(text);
    long grandchild = atol(text);
    assert_true(grandchild > 0);
    assert_true(process_ends(grandchild));
    free(text);
    unlink(pid_file);
}

static char scratch[256];

static void write_text(const char *name, const char *text)
{
    char *path = kd_path_join(scratch, name);
    assert_int_equal(kd_write_file(path, text, strlen(text)), 0);
    free(path);
}

static bool listed(const kd_strlist *l, const char *suffix)
{
    for (size_t i = 0; i < l->count; i++) {
        size_t n = strlen(l->items[i]), m = strlen(suffix);
        if (n >= m && strcmp(l->items[i] + n - m, suffix) == 0)
            return true;
    }
    return false;
}

static void includes_resolve_beside_the_file_and_under_dash_i(void **state)
{
    (void)state;
    snprintf(scratch, sizeof scratch, "/tmp/kd-deps-XXXXXX");
    assert_non_null(mkdtemp(scratch));
    char *sub = kd_path_join(scratch, "sub");
    char *extra = kd_path_join(scratch, "extra");
    assert_int_equal(kd_mkdir_p(sub), 0);
    assert_int_equal(kd_mkdir_p(extra), 0);
    write_text("k.cu", "#include \"sub/a.h\"\n  #  include <b.h>\n#include <cuda_fp16.h>\n");
    write_text("sub/a.h", "#include \"a2.h\"\n#include \"sub/a.h\"\n");
    write_text("sub/a2.h", "int a2;\n");
    write_text("extra/b.h", "#include \"a.h\"\n");
    kd_strlist dirs = {.items = (char *[]){extra}, .count = 1};
    kd_strlist out = {0};
    char *k = kd_path_join(scratch, "k.cu");
    assert_int_equal(kd_collect_includes(k, &dirs, &out), 0);
    assert_true(listed(&out, "/k.cu"));
    assert_true(listed(&out, "/sub/a.h"));
    assert_true(listed(&out, "/sub/a2.h"));
    assert_true(listed(&out, "/extra/b.h"));
    assert_false(listed(&out, "cuda_fp16.h"));
    assert_int_equal(out.count, 4);
    for (size_t i = 0; i < out.count; i++)
        free(out.items[i]);
    free(out.items);
    assert_int_equal(kd_remove_tree(scratch), 0);
    free(k);
    free(sub);
    free(extra);
}

/* An include naming a folder beside the file is no match, for the cache key as for git
 * mode (whose `cat-file blob` refuses trees): the search goes on under -I. */
static void includes_skip_folders(void **state)
{
    (void)state;
    snprintf(scratch, sizeof scratch, "/tmp/kd-deps-XXXXXX");
    assert_non_null(mkdtemp(scratch));
    char *folder = kd_path_join(scratch, "c.h"), *extra = kd_path_join(scratch, "extra");
    assert_int_equal(kd_mkdir_p(folder), 0);
    assert_int_equal(kd_mkdir_p(extra), 0);
    write_text("k.cu", "#include \"c.h\"\n");
    write_text("extra/c.h", "int c;\n");
    kd_strlist dirs = {.items = (char *[]){extra}, .count = 1};
    kd_strlist out = {0};
    char *k = kd_path_join(scratch, "k.cu");
    assert_int_equal(kd_collect_includes(k, &dirs, &out), 0);
    assert_int_equal(out.count, 2);
    assert_true(listed(&out, "/extra/c.h"));
    for (size_t i = 0; i < out.count; i++)
        free(out.items[i]);
    free(out.items);
    assert_int_equal(kd_remove_tree(scratch), 0);
    free(k);
    free(folder);
    free(extra);
}

/* An in-memory tree for the shared walk: FOUND files with their text, OUTSIDE ones. */
typedef struct memory_file {
    const char *path, *text;
    kd_include_lookup kind;
} memory_file;

static const memory_file *memory_find(void *ctx, const char *path)
{
    for (const memory_file *f = ctx; f->path; f++)
        if (strcmp(f->path, path) == 0)
            return f;
    return NULL;
}

static char *memory_canonical(void *ctx, const char *path)
{
    (void)ctx;
    return strdup(path);
}

static kd_include_lookup memory_read(void *ctx, const char *path, char **text, size_t *len, kd_strbuf *error)
{
    (void)error;
    const memory_file *f = memory_find(ctx, path);
    if (!f)
        return KD_INCLUDE_MISSING;
    if (f->kind == KD_INCLUDE_FOUND) {
        *text = strdup(f->text);
        *len = strlen(f->text);
    }
    return f->kind;
}

/* The search order and stop rule both the cache key and git mode use. */
static void include_walk_search_order_and_stop_rule(void **state)
{
    (void)state;
    memory_file tree[] = {
        {"src/k.cu", "#include \"a.h\"\n#include <b.h>\n#include \"o.h\"\n#include <gone.h>\n#include \"/abs.h\"\n",
         KD_INCLUDE_FOUND},
        {"src/a.h", "#include \"a.h\"\n#include \"../top.h\"\n", KD_INCLUDE_FOUND}, /* beside: first */
        {"inc1/a.h", "", KD_INCLUDE_FOUND},
        {"inc2/b.h", "", KD_INCLUDE_FOUND},  /* not in inc1: the next -I folder */
        {"inc3/b.h", "", KD_INCLUDE_FOUND},  /* shadowed by inc2 */
        {"inc1/o.h", "", KD_INCLUDE_OUTSIDE},/* stops the search: inc2/o.h is not taken */
        {"inc2/o.h", "", KD_INCLUDE_FOUND},
        {"src/../top.h", "", KD_INCLUDE_FOUND},
        {"/abs.h", "", KD_INCLUDE_FOUND},
        {NULL, NULL, KD_INCLUDE_MISSING},
    };
    const kd_include_reader reader = {tree, memory_canonical, memory_read};
    const char *dirs[] = {"inc1", "inc2", "inc3"};
    kd_include_set set;
    kd_strbuf error = {0};
    assert_int_equal(kd_include_walk(&reader, "src/k.cu", dirs, 3, &set, &error), KD_INCLUDE_FOUND);
    const char *expected[] = {"src/k.cu", "src/a.h", "inc2/b.h", "/abs.h", "src/../top.h"};
    assert_int_equal(set.count, 5);
    for (size_t i = 0; i < set.count; i++)
        assert_string_equal(set.files[i].path, expected[i]);
    kd_include_set_free(&set);
    assert_int_equal(kd_include_walk(&reader, "src/none.cu", dirs, 3, &set, &error), KD_INCLUDE_MISSING);
    assert_int_equal(set.count, 0);
    kd_sb_free(&error);
}

static void hash_separates_fields(void **state)
{
    (void)state;
    kd_hash h;
    char x[65], y[65];
    kd_hash_init(&h);
    kd_hash_str(&h, "ab");
    kd_hash_str(&h, "c");
    kd_hash_hex(&h, x);
    kd_hash_init(&h);
    kd_hash_str(&h, "a");
    kd_hash_str(&h, "bc");
    kd_hash_hex(&h, y);
    assert_int_equal(strlen(x), 64);
    assert_string_not_equal(x, y);
}

static void parameter_roles(void **state)
{
    (void)state;
    kd_param in = {.name = "x", .type = "const float *", .pointee = "float", .is_pointer = true, .is_const = true};
    kd_param out = {.name = "y", .type = "float *", .pointee = "float", .is_pointer = true};
    kd_param n = {.name = "n", .type = "int"};
    kd_param rows = {.name = "num_rows", .type = "unsigned int"};
    kd_param alpha = {.name = "alpha", .type = "float"};
    kd_param flag = {.name = "mode", .type = "int"};
    assert_int_equal(kd_param_role_of(&in), KD_ROLE_INPUT);
    assert_int_equal(kd_param_role_of(&out), KD_ROLE_OUTPUT);
    assert_int_equal(kd_param_role_of(&n), KD_ROLE_LENGTH);
    assert_int_equal(kd_param_role_of(&rows), KD_ROLE_LENGTH);
    assert_int_equal(kd_param_role_of(&alpha), KD_ROLE_SCALAR);
    assert_int_equal(kd_param_role_of(&flag), KD_ROLE_SCALAR);
}

/* A write that fails part-way (here: the file-size limit, as a full disk would) leaves the
 * old file whole; a folder or a missing folder is an error with its errno. */
static void a_failed_write_never_destroys_the_old_file(void **state)
{
    (void)state;
    char dir[] = "/tmp/kd-write-XXXXXX";
    assert_non_null(mkdtemp(dir));
    char *path = kd_path_join(dir, "run.json");
    assert_int_equal(kd_write_file(path, "old", 3), 0);
    struct rlimit saved, small = {.rlim_cur = 8, .rlim_max = RLIM_INFINITY};
    assert_int_equal(getrlimit(RLIMIT_FSIZE, &saved), 0);
    small.rlim_max = saved.rlim_max;
    signal(SIGXFSZ, SIG_IGN);
    assert_int_equal(setrlimit(RLIMIT_FSIZE, &small), 0);
    int rc = kd_write_file(path, "a much longer new text", 22);
    int err = errno;
    assert_int_equal(setrlimit(RLIMIT_FSIZE, &saved), 0);
    assert_int_equal(rc, -1);
    assert_int_equal(err, EFBIG);
    size_t len;
    char *text = kd_read_file(path, &len);
    assert_string_equal(text, "old");
    free(text);
    assert_int_equal(kd_write_file(dir, "x", 1), -1);
    assert_int_equal(errno, EISDIR);
    assert_null(kd_read_file(dir, NULL));
    assert_int_equal(errno, EISDIR);
    char *missing = kd_path_join(dir, "no/such.json");
    assert_int_equal(kd_write_file(missing, "x", 1), -1);
    assert_int_equal(errno, ENOENT);
    assert_int_equal(kd_remove_tree(dir), 0);
    free(missing);
    free(path);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(spawn_passes_arguments_verbatim),
        cmocka_unit_test(spawn_reports_status_missing_program_and_timeout),
        cmocka_unit_test(spawn_timeout_ends_the_whole_process_group),
        cmocka_unit_test(includes_resolve_beside_the_file_and_under_dash_i),
        cmocka_unit_test(includes_skip_folders),
        cmocka_unit_test(include_walk_search_order_and_stop_rule),
        cmocka_unit_test(hash_separates_fields),
        cmocka_unit_test(parameter_roles),
        cmocka_unit_test(a_failed_write_never_destroys_the_old_file),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
