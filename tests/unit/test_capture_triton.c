/* capture/file.h, format 2's Triton section (issue 30, docs/CAPTURE.md): the packer keeps the
 * raw folder's triton.jsonl record of the captured kernel (the last one of that name), writes
 * format 2 only then (format 1 otherwise, so a CUDA capture stays readable by older readers),
 * drops a record whose scratch pointers outnumber the parameters; the reader refuses a section
 * that is not such a JSON object, a `triton` line in a format-1 manifest, and a header whose
 * version disagrees with the manifest's first line; launch/replay.h maps a Triton kernel's
 * parameters onto the captured ones by name (scratch pointers counted, a changed signature
 * refused with the parameter named). */
#include "kd_test.h"
#include "kd_test_dir.h"

#include <stdio.h>
#include <string.h>
#include <zlib.h>

#include "capture/capture_msgs.h"
#include "capture/file.h"
#include "launch/launch_msgs.h"
#include "launch/replay.h"
#include "util/strbuf.h"
#include "util/xalloc.h"

KD_TEST_DIR("h30-capture-triton")

static const char *const RAW_FILES[] = {"manifest", "params.bin", "alloc-0.before", "alloc-0.after", "alloc-1.before",
                                        "alloc-1.after"};

/* tests/e2e/capture/raw-copy (copy(const float*, float*, int): 3 parameters) copied to
 * dir/NAME, with `jsonl` as its triton.jsonl (NULL: none). */
static char *raw_folder(const char *name, const char *jsonl)
{
    char *raw = kd_path_join(dir, name);
    assert_int_equal(kd_mkdir_p(raw), 0);
    for (size_t i = 0; i < sizeof RAW_FILES / sizeof *RAW_FILES; i++) {
        char *from = kd_xasprintf("tests/e2e/capture/raw-copy/%s", RAW_FILES[i]), *to = kd_path_join(raw, RAW_FILES[i]);
        size_t len = 0;
        char *data = kd_read_file(from, &len);
        assert_non_null(data);
        assert_int_equal(kd_write_file(to, data, len), 0);
        free(data);
        free(from);
        free(to);
    }
    if (jsonl) {
        char *to = kd_path_join(raw, "triton.jsonl");
        assert_int_equal(kd_write_file(to, jsonl, strlen(jsonl)), 0);
        free(to);
    }
    return raw;
}

#define RECORD(kernel, scratch, warps)                                                                                 \
    "{\"section\": 1, \"kernel\": \"" kernel "\", \"specialization\": \"{}\", \"num_warps\": " warps                   \
    ", \"constexprs\": {}, \"params\": [{\"name\": \"x\", \"type\": \"*fp32\", \"constexpr\": false}, "                 \
    "{\"name\": \"y\", \"type\": \"*fp32\", \"constexpr\": false}], \"scratch_pointers\": " scratch "}\n"

static int pack_open(const char *name, const char *jsonl, kd_capture *cap)
{
    char *raw = raw_folder(name, jsonl);
    char *out = kd_xasprintf("%s.kdcap", raw);
    kd_diag err = {0};
    assert_int_equal(kd_capture_pack(raw, out, &err), 0);
    int rc = kd_capture_open(out, cap, &err);
    kd_diag_free(&err);
    free(raw);
    free(out);
    return rc;
}

static void section_kept_for_the_captured_kernel(void **state)
{
    (void)state;
    kd_capture cap;
    /* two records of the kernel (a recompile): the last one; a record of another kernel: passed over */
    assert_int_equal(pack_open("keep", RECORD("_Z4copyPKfPfi", "1", "4") "not json\n" RECORD("other", "1", "2")
                                            RECORD("_Z4copyPKfPfi", "1", "8"), &cap), 0);
    assert_int_equal(cap.version, 2);
    assert_non_null(cap.triton);
    assert_non_null(strstr(cap.triton, "\"num_warps\":8"));
    kd_capture_free(&cap);
}

static void no_section_is_format_1(void **state)
{
    (void)state;
    kd_capture cap;
    assert_int_equal(pack_open("none", NULL, &cap), 0);
    assert_int_equal(cap.version, 1);
    assert_null(cap.triton);
    kd_capture_free(&cap);
    assert_int_equal(pack_open("other", RECORD("other", "1", "4"), &cap), 0);
    assert_int_equal(cap.version, 1);
    assert_null(cap.triton);
    kd_capture_free(&cap);
    /* 4 scratch pointers for a 3-parameter kernel: not this launch's compiled kernel */
    assert_int_equal(pack_open("scratch", RECORD("_Z4copyPKfPfi", "4", "4"), &cap), 0);
    assert_null(cap.triton);
    kd_capture_free(&cap);
}

/* The manifest of a capture of copy() with `extra` as its line before "end" and `first` its
 * first line. */
static int parse_with(const char *first, const char *extra, kd_capture *cap, kd_diag *err)
{
    kd_strbuf m = {0};
    kd_sb_printf(&m, "%s\nargc 1\narg ./copyprog\nkernel copy\ndemangled copy\napi cuLaunchKernel\nnth 1\ntime 0\n"
                     "gpu G\nsm 90\ngrid 1 1 1\nblock 64 1 1\ncluster 0 0 0\nsmem 0\nparams 3 20\nparam 0 8\nparam 8 8\n"
                     "param 16 4\nparamdata 0000000000000000000000000000000040000000\nallocs 0\npointers 0\n%send\n",
                 first, extra);
    int rc = kd_capture_parse_manifest(m.data, m.len, 64, "t.kdcap", cap, err);
    kd_sb_free(&m);
    return rc;
}

static void section_checked_on_read(void **state)
{
    (void)state;
    kd_capture cap;
    kd_diag err = {0};
    const char *good = "triton {\"section\": 1, \"kernel\": \"copy\", \"specialization\": \"{}\", \"scratch_pointers\": 1}\n";
    assert_int_equal(parse_with("kerndiff-capture 2", good, &cap, &err), 0);
    assert_non_null(cap.triton);
    kd_capture_free(&cap);
    /* a format-2 file without the section */
    assert_int_equal(parse_with("kerndiff-capture 2", "", &cap, &err), 0);
    assert_null(cap.triton);
    kd_capture_free(&cap);
    const char *bad[] = {
        "triton {not json\n",
        "triton {\"section\": 2, \"kernel\": \"copy\", \"specialization\": \"{}\", \"scratch_pointers\": 1}\n",
        "triton {\"section\": 1, \"specialization\": \"{}\", \"scratch_pointers\": 1}\n",
        "triton {\"section\": 1, \"kernel\": \"copy\", \"specialization\": \"{}\", \"scratch_pointers\": 4}\n",
        "triton [1]\n",
    };
    for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
        assert_int_equal(parse_with("kerndiff-capture 2", bad[i], &cap, &err), -1);
        assert_int_equal(err.id, KD_MSG_CAPTURE_BAD_LINE);
        kd_diag_free(&err);
    }
    /* format 1 has no such line */
    assert_int_equal(parse_with("kerndiff-capture 1", good, &cap, &err), -1);
    assert_int_equal(err.id, KD_MSG_CAPTURE_EXPECTED);
    kd_diag_free(&err);
}

static void header_and_manifest_versions_agree(void **state)
{
    (void)state;
    kd_capture cap;
    assert_int_equal(pack_open("ver", RECORD("_Z4copyPKfPfi", "1", "4"), &cap), 0);
    char *path = kd_xstrdup(cap.path);
    kd_capture_free(&cap);
    size_t len = 0;
    unsigned char *b = (unsigned char *)kd_read_file(path, &len);
    assert_non_null(b);
    b[8] = 1; /* the header says format 1, the manifest 2 */
    uint32_t crc = (uint32_t)crc32(0, b, 60);
    for (int i = 0; i < 4; i++)
        b[60 + i] = (unsigned char)(crc >> (8 * i));
    char *changed = kd_path_join(dir, "ver-changed.kdcap");
    assert_int_equal(kd_write_file(changed, (char *)b, len), 0);
    kd_diag err = {0};
    assert_int_equal(kd_capture_open(changed, &cap, &err), -1);
    assert_int_equal(err.id, KD_MSG_CAPTURE_BAD_LINE);
    kd_diag_free(&err);
    free(b);
    free(path);
    free(changed);
}

static kd_param pointer_param(const char *name)
{
    return (kd_param){.name = (char *)name, .type = (char *)"float*", .pointee = (char *)"float", .is_pointer = true};
}

static void triton_layout_by_name(void **state)
{
    (void)state;
    /* copy's 3 parameters as a Triton kernel's: x, y and one scratch pointer */
    char *raw = raw_folder("layout", "{\"section\": 1, \"kernel\": \"_Z4copyPKfPfi\", \"specialization\": \"{}\", "
                                     "\"params\": [{\"name\": \"x\", \"type\": \"*fp32\", \"constexpr\": false}, "
                                     "{\"name\": \"one\", \"type\": \"constexpr\", \"constexpr\": false}, "
                                     "{\"name\": \"BLOCK\", \"type\": \"constexpr\", \"constexpr\": true}, "
                                     "{\"name\": \"y\", \"type\": \"*fp32\", \"constexpr\": false}], "
                                     "\"scratch_pointers\": 1}\n");
    char *out = kd_xasprintf("%s.kdcap", raw);
    kd_diag err = {0};
    assert_int_equal(kd_capture_pack(raw, out, &err), 0);
    kd_replay r;
    assert_int_equal(kd_replay_open(out, dir, &r, &err), 0);
    kd_launch_spec spec;
    /* the source's parameters, the specialised `one` among them: taken */
    kd_param ok_params[] = {pointer_param("x"), {.name = (char *)"one", .type = (char *)"int"}, pointer_param("y")};
    /* a Triton side: its kernel described by the helper (the section applies to .py sides only) */
    kd_kernel k = {.name = (char *)"copy", .params = ok_params, .nparams = 3, .frontend_info = (char *)"{}"};
    assert_int_equal(kd_replay_spec(&r, &k, 1, &spec, &err), 0);
    kd_launch_spec_free(&spec);
    /* the compiled kernel (`one` folded): taken */
    kd_param compiled[] = {pointer_param("x"), pointer_param("y")};
    k.params = compiled;
    k.nparams = 2;
    assert_int_equal(kd_replay_spec(&r, &k, 1, &spec, &err), 0);
    kd_launch_spec_free(&spec);
    /* a renamed parameter: refused, named */
    kd_param renamed[] = {pointer_param("x"), pointer_param("z")};
    k.params = renamed;
    assert_int_equal(kd_replay_spec(&r, &k, 2, &spec, &err), -1);
    assert_int_equal(err.id, KD_MSG_CAPTURE_TRITON_SIGNATURE);
    kd_diag_free(&err);
    /* one parameter more: refused */
    kd_param more[] = {pointer_param("x"), pointer_param("y"), pointer_param("w")};
    k.params = more;
    k.nparams = 3;
    assert_int_equal(kd_replay_spec(&r, &k, 2, &spec, &err), -1);
    assert_int_equal(err.id, KD_MSG_CAPTURE_TRITON_SIGNATURE);
    kd_diag_free(&err);
    /* the compiled kernel needs 512 B of global scratch a program: a workspace argument after
       the buffers, sized for the grid's programs (1 here), named as the launch line says it */
    char info[] = "{\"compiled_scratch\": [512, 0], \"compiled_shared\": 2048}";
    k.params = compiled;
    k.nparams = 2;
    k.frontend_info = info;
    assert_int_equal(kd_replay_spec(&r, &k, 1, &spec, &err), 0);
    assert_int_equal(spec.nargs, r.nbuffers + 1);
    assert_int_equal(spec.args[spec.nargs - 1].role, KD_ROLE_SCRATCH);
    assert_int_equal(spec.args[spec.nargs - 1].count, 512);
    assert_string_equal(spec.args[spec.nargs - 1].name, "(global scratch)");
    assert_int_equal(kd_capture_triton_scratch(&r.cap), 1);
    /* the side's own shared memory, as Triton's launcher passes it (the capture's was 0) */
    assert_int_equal(spec.dynamic_smem, 2048);
    assert_string_equal(spec.smem_origin, "compiler");
    kd_launch_spec_free(&spec);
    kd_replay_free(&r);
    free(raw);
    free(out);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(section_kept_for_the_captured_kernel),
        cmocka_unit_test(no_section_is_format_1),
        cmocka_unit_test(section_checked_on_read),
        cmocka_unit_test(header_and_manifest_versions_agree),
        cmocka_unit_test(triton_layout_by_name),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
