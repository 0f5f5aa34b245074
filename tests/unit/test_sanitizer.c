/* The compute-sanitizer log reader and the explanation of a finding in the user's terms,
 * on output recorded on an H100 (tests/fixtures/sanitizer, commands in commands.txt). */
#include "kd_test.h"

#include <string.h>

#include "sanitizer/report.h"

static void parse_fixture(const char *name, kd_san_report *r)
{
    char path[128];
    snprintf(path, sizeof path, "sanitizer/%s.log", name);
    char *log = read_fixture(path);
    kd_san_parse(log, r);
    free(log);
}

/* scale-like launch: x (input, f32, 1024), out (output, f32, 1024), n. */
static kd_launch_arg args[3];
static kd_launch_spec spec = {.n = 1024, .args = args, .nargs = 3};

static int set_up_spec(void **state)
{
    (void)state;
    args[0] = (kd_launch_arg){.name = "x", .role = KD_ROLE_INPUT, .type = {.base = KD_DT_F32, .lanes = 1}, .count = 1024};
    args[1] = (kd_launch_arg){.name = "out", .role = KD_ROLE_OUTPUT, .type = {.base = KD_DT_F32, .lanes = 1}, .count = 1024};
    args[2] = (kd_launch_arg){.name = "n", .role = KD_ROLE_LENGTH, .type = {.base = KD_DT_I32, .lanes = 1}};
    return 0;
}

/* The `buffers` reply recorded with the log. */
static size_t buffers_of(const char *name, kd_san_buffer *b)
{
    char path[128];
    snprintf(path, sizeof path, "sanitizer/%s.replies", name);
    char *replies = read_fixture(path);
    const char *list = strstr(replies, "list=");
    assert_non_null(list);
    size_t n = kd_san_buffers(list + 5, &spec, 0, b, 8);
    free(replies);
    return n;
}

static void explained(const char *name, size_t finding, const char *want)
{
    kd_san_report r;
    parse_fixture(name, &r);
    assert_true(finding < r.count);
    kd_san_buffer b[8];
    size_t n = buffers_of(name, b);
    kd_strbuf text = {0};
    kd_san_explain(&r.findings[finding], b, n, &text);
    assert_string_equal(kd_sb_str(&text), want);
    kd_sb_free(&text);
    kd_san_report_free(&r);
}

static void out_of_bounds_write_names_buffer_and_element(void **state)
{
    (void)state;
    kd_san_report r;
    parse_fixture("memcheck_oob_write", &r);
    assert_int_equal(r.count, 1);
    assert_true(r.summary_seen);
    assert_int_equal(r.errors, 1);
    const kd_san_finding *f = &r.findings[0];
    assert_int_equal(f->kind, KD_SAN_INVALID_ACCESS);
    assert_string_equal(f->space, "global");
    assert_string_equal(f->access, "write");
    assert_int_equal(f->size, 4);
    assert_string_equal(f->function, "oob_write");
    assert_string_equal(f->file, "planted.cu");
    assert_int_equal(f->line, 12);
    assert_true(f->has_nearest && f->offset == 1 && f->nearest_size == 4096);
    kd_san_report_free(&r);
    explained("memcheck_oob_write", 0,
              "thread (255,0,0) of block (3,0,0) wrote 4 bytes at out[1024], one past its end (1024 elements) at "
              "planted.cu:12 (in oob_write); the launch probably needs --n, --buf out=... or --grid");
}

static void out_of_bounds_read_groups_threads(void **state)
{
    (void)state;
    kd_san_report r;
    parse_fixture("memcheck_oob_read", &r);
    assert_int_equal(r.count, 1);
    assert_int_equal(r.findings[0].count, 2); /* threads 254 and 255 */
    kd_san_report_free(&r);
    explained("memcheck_oob_read", 0,
              "thread (254,0,0) of block (3,0,0) read 4 bytes at x[1024], one past its end (1024 elements) at "
              "planted.cu:20 (in oob_read); the launch probably needs --n, --buf x=... or --grid (2 such reports)");
}

static void race_names_both_accesses(void **state)
{
    (void)state;
    kd_san_report r;
    parse_fixture("racecheck_smem", &r);
    assert_int_equal(r.count, 1);
    assert_int_equal(r.errors, 1);
    assert_int_equal(r.findings[0].kind, KD_SAN_RACE);
    kd_san_report_free(&r);
    explained("racecheck_smem", 0,
              "a data race: Write access at planted.cu:28 (in smem_race) against Read access at smem_race+0x150 in "
              "planted.cu:29 (4096 hazards): a missing __syncthreads() between them?");
}

static void shared_overflow_suggests_block(void **state)
{
    (void)state;
    explained("memcheck_smem_overflow", 0,
              "thread (128,0,0) of block (2,0,0) wrote 4 bytes of shared memory at offset 0x600, outside the block's "
              "shared memory at planted.cu:60 (in smem_overflow); a --block larger than the kernel's shared arrays "
              "assume? (20 such reports)");
}

static void uninitialized_read_and_barrier(void **state)
{
    (void)state;
    kd_san_report r;
    parse_fixture("initcheck_uninit", &r);
    assert_int_equal(r.count, 1);
    assert_int_equal(r.findings[0].kind, KD_SAN_UNINITIALIZED);
    assert_int_equal(r.errors, 1024);
    kd_san_report_free(&r);
    parse_fixture("synccheck_mask", &r);
    assert_int_equal(r.count, 1);
    assert_int_equal(r.findings[0].kind, KD_SAN_BARRIER);
    assert_string_equal(r.findings[0].function, "warp_sync_bad_mask"); /* the caller, not __syncwarp */
    assert_int_equal(r.findings[0].line, 91);
    kd_san_report_free(&r);
}

/* An access far past every allocation: the sanitizer names no nearest allocation, and the
 * buffer just below the address is the one overrun (a too-small --n). */
static void far_overrun_names_the_buffer_below(void **state)
{
    (void)state;
    kd_san_finding f = {.kind = KD_SAN_INVALID_ACCESS, .space = "global", .access = "write", .size = 4,
                        .has_address = true, .address = 0x7f0000110000ull + 4096 + 4 * 1000, .count = 1};
    kd_san_buffer b[2] = {{&args[0], 0x7f0000000000ull, 4096}, {&args[1], 0x7f0000110000ull, 4096}};
    kd_strbuf text = {0};
    kd_san_explain(&f, b, 2, &text);
    assert_string_equal(kd_sb_str(&text), "wrote 4 bytes at out[2024], past its end (1024 elements); the launch "
                                           "probably needs --n, --buf out=... or --grid");
    kd_sb_free(&text);
    f.address = 0x100; /* below every buffer: not theirs */
    kd_san_explain(&f, b, 2, &text);
    assert_string_equal(kd_sb_str(&text), "wrote 4 bytes at 0x100, in no buffer of the launch");
    kd_sb_free(&text);
}

static void clean_log_has_no_findings(void **state)
{
    (void)state;
    kd_san_report r;
    parse_fixture("memcheck_clean", &r);
    assert_int_equal(r.count, 0);
    assert_true(r.summary_seen);
    assert_int_equal(r.errors, 0);
    kd_san_report_free(&r);
    kd_san_parse("", &r);
    assert_false(r.summary_seen);
    kd_san_parse("========= Invalid __global__ write of size", &r); /* cut short */
    kd_san_report_free(&r);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup(out_of_bounds_write_names_buffer_and_element, set_up_spec),
        cmocka_unit_test_setup(out_of_bounds_read_groups_threads, set_up_spec),
        cmocka_unit_test_setup(race_names_both_accesses, set_up_spec),
        cmocka_unit_test_setup(shared_overflow_suggests_block, set_up_spec),
        cmocka_unit_test_setup(uninitialized_read_and_barrier, set_up_spec),
        cmocka_unit_test_setup(clean_log_has_no_findings, set_up_spec),
        cmocka_unit_test_setup(far_overrun_names_the_buffer_below, set_up_spec),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
