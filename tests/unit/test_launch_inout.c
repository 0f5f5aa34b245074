/* In-out buffers (issue 27 item 2): a pointer the compiled code reads and writes is
 * KD_ROLE_INOUT (seeded, never poisoned, compared); `--buf NAME=in|out|inout`, `--call`
 * and `inouts=` declare it; the harness protocol's buffer mode says it. */
#include "kd_test.h"

#include <string.h>

#include "launch/spec.h"
#include "wire/protocol.h"

static const char src[] = "__global__ void acc(const float *x, float *y, float *z, int n) {\n"
                          "  int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
                          "  if (i < n) { y[i] += x[i]; z[i] = x[i]; }\n}\n";

typedef struct fixture {
    kd_kernel_list kernels;
    kd_kernel k;
    kd_launch_request req;
    kd_launch_spec spec;
    kd_strbuf error;
    kd_strlist buffers;
    kd_call_settings call;
} fixture;

static void load(fixture *f)
{
    memset(f, 0, sizeof *f);
    kd_scan_source(src, strlen(src), &f->kernels);
    assert_int_equal(f->kernels.count, 1);
    kd_kernel_copy(&f->kernels.items[0], &f->k);
    f->k.params[1].access = KD_ACCESS_READ_WRITE; /* as static/ptxflow reads y += x */
    f->k.params[2].access = KD_ACCESS_WRITE;
    f->req.kernel = &f->k;
    f->req.buffers = &f->buffers;
}

static void unload(fixture *f)
{
    kd_launch_spec_free(&f->spec);
    kd_kernel_free(&f->k);
    kd_kernel_list_free(&f->kernels);
    free(f->buffers.items);
    kd_sb_free(&f->error);
}

static void build_ok(fixture *f)
{
    if (kd_launch_spec_build(&f->req, &f->spec, &f->error) != 0)
        fail_msg("build failed: %s", kd_sb_str(&f->error));
}

static void read_and_written_is_in_out(void **state)
{
    (void)state;
    fixture f;
    load(&f);
    const char *why;
    assert_int_equal(kd_param_buffer_use(&f.k.params[1], &why), KD_USE_INOUT);
    assert_string_equal(why, "read and written in the compiled code");
    assert_int_equal(kd_param_role_of(&f.k.params[1]), KD_ROLE_INOUT);
    assert_string_equal(kd_param_role_name(KD_ROLE_INOUT), "in-out buffer");
    build_ok(&f);
    assert_int_equal(f.spec.args[0].role, KD_ROLE_INPUT);
    assert_int_equal(f.spec.args[1].role, KD_ROLE_INOUT);
    assert_int_equal(f.spec.args[2].role, KD_ROLE_OUTPUT);
    assert_true(f.spec.args[1].count == f.spec.n); /* a buffer like any other */
    assert_true(kd_launch_spec_bytes(&f.spec) == 3 * f.spec.n * sizeof(float));
    unload(&f);
}

static void roles_are_buffers_with_a_direction(void **state)
{
    (void)state;
    assert_true(kd_param_role_is_buffer(KD_ROLE_INOUT));
    assert_true(kd_param_role_is_buffer(KD_ROLE_INPUT));
    assert_true(kd_param_role_is_buffer(KD_ROLE_OUTPUT));
    assert_false(kd_param_role_is_buffer(KD_ROLE_SCRATCH));
    assert_false(kd_param_role_is_buffer(KD_ROLE_LENGTH));
    assert_string_equal(kd_param_role_direction(KD_ROLE_INOUT), "in-out");
    assert_string_equal(kd_param_role_direction(KD_ROLE_INPUT), "in");
    assert_string_equal(kd_param_role_direction(KD_ROLE_OUTPUT), "out");
    assert_string_equal(kd_param_role_direction(KD_ROLE_SCALAR), "");
    assert_int_equal(kd_param_role_of_use(KD_USE_INOUT), KD_ROLE_INOUT);
    assert_int_equal(kd_param_role_of_use(KD_USE_IN), KD_ROLE_INPUT);
}

/* --buf NAME=in|out|inout overrides the compiled code; a count for the same buffer still
 * applies; --call vN:NAME=... beats --buf. */
static void buf_flag_declares_the_role(void **state)
{
    (void)state;
    fixture f;
    load(&f);
    kd_strlist_push(&f.buffers, "y=in");
    kd_strlist_push(&f.buffers, "z=inout");
    kd_strlist_push(&f.buffers, "z=4096");
    kd_strlist_push(&f.buffers, "x=output");
    build_ok(&f);
    assert_int_equal(f.spec.args[0].role, KD_ROLE_OUTPUT);
    assert_int_equal(f.spec.args[1].role, KD_ROLE_INPUT);
    assert_int_equal(f.spec.args[2].role, KD_ROLE_INOUT);
    assert_true(f.spec.args[2].count == 4096);
    assert_string_equal(f.spec.args[2].origin, "--buf");
    assert_string_equal(f.spec.args[1].origin, "n"); /* a role word is no count */
    kd_launch_spec_free(&f.spec);
    kd_strlist_push(&f.call.params, "y=inout");
    f.req.call = &f.call;
    f.req.call_origin = "--call v2";
    build_ok(&f);
    assert_int_equal(f.spec.args[1].role, KD_ROLE_INOUT);
    free(f.call.params.items);
    unload(&f);
}

static void inouts_annotation_is_in_out(void **state)
{
    (void)state;
    fixture f;
    load(&f);
    kd_annotations notes = {0};
    const char text[] = "// kerndiff: inouts=z inputs=y\n";
    kd_annotations_parse(text, strlen(text), &notes);
    f.req.annotations = &notes;
    build_ok(&f);
    assert_int_equal(f.spec.args[1].role, KD_ROLE_INPUT);
    assert_int_equal(f.spec.args[2].role, KD_ROLE_INOUT);
    kd_annotations_free(&notes);
    unload(&f);
}

static void protocol_buffer_modes(void **state)
{
    (void)state;
    bool compared = true, inout = true;
    assert_true(kd_proto_buffer_mode("in", &compared, &inout));
    assert_false(compared);
    assert_false(inout);
    assert_true(kd_proto_buffer_mode("out", &compared, &inout));
    assert_true(compared);
    assert_false(inout);
    assert_true(kd_proto_buffer_mode("inout", &compared, &inout));
    assert_true(compared);
    assert_true(inout);
    assert_false(kd_proto_buffer_mode("in-out", &compared, &inout));
    assert_false(kd_proto_buffer_mode("", &compared, &inout));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(read_and_written_is_in_out),
        cmocka_unit_test(roles_are_buffers_with_a_direction),
        cmocka_unit_test(buf_flag_declares_the_role),
        cmocka_unit_test(inouts_annotation_is_in_out),
        cmocka_unit_test(protocol_buffer_modes),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
