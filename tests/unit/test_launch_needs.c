/* Issue 27: one rule for what a launch still needs. A refused launch keeps the scalars it
 * wanted (launch/spec.h needs_value), which the several-kernels line (report/kernels_text.h)
 * and list's parameter table (report/launch_text.h) read instead of guessing; and a PTX
 * entry's parameter that bounds the global thread index is the element count
 * (source/ptxcount.h). */
#include "kd_test.h"

#include <string.h>

#include "launch/spec.h"
#include "report/launch_text.h"
#include "source/ptxcount.h"
#include "source/ptxentry.h"
#include "source/roles.h"
#include "util/xalloc.h"

typedef struct launch {
    kd_kernel_list kernels;
    kd_annotations notes;
    kd_launch_request req;
    kd_launch_spec spec;
    kd_strbuf error;
} launch;

static int load_and_build(launch *l, const char *src, const char *kernel, const kd_strlist *scalars)
{
    memset(l, 0, sizeof *l);
    kd_scan_source(src, strlen(src), &l->kernels);
    kd_annotations_parse(src, strlen(src), &l->notes);
    l->req.kernel = kd_kernel_find(&l->kernels, kernel);
    assert_non_null(l->req.kernel);
    l->req.annotations = &l->notes;
    l->req.scalars = scalars;
    return kd_launch_spec_build(&l->req, &l->spec, &l->error);
}

static void unload(launch *l)
{
    kd_launch_spec_free(&l->spec);
    kd_kernel_list_free(&l->kernels);
    kd_annotations_free(&l->notes);
    kd_sb_free(&l->error);
}

static const char axpy[] = "__global__ void k(float *y, const float *x, float a, int stride_b, int n, double c = 1.0) {\n"
                           "  int i = blockIdx.x * blockDim.x + threadIdx.x;\n  if (i < n) y[i] = a * x[i] + c;\n}\n";

static void a_refusal_keeps_the_scalars_it_wanted(void **state)
{
    (void)state;
    launch l;
    assert_int_equal(load_and_build(&l, axpy, "k", NULL), -1);
    assert_string_equal(l.spec.needs_value, "a, stride_b"); /* c has its default, n is the count */
    assert_true(kd_launch_spec_needs(&l.spec, "a"));
    assert_true(kd_launch_spec_needs(&l.spec, "stride_b"));
    assert_false(kd_launch_spec_needs(&l.spec, "c"));
    assert_false(kd_launch_spec_needs(&l.spec, "stride"));
    assert_false(kd_launch_spec_needs(&l.spec, ""));
    /* list's note for them: the refusal's names only */
    kd_strbuf note = {0};
    kd_launch_param_note(&l.spec, false, 2, "a", &note);
    assert_string_equal(kd_sb_str(&note), " (needs --arg a=VALUE)");
    kd_sb_free(&note);
    kd_launch_param_note(&l.spec, false, 5, "c", &note);
    assert_string_equal(kd_sb_str(&note), "");
    kd_sb_free(&note);
    unload(&l);
}

static void another_refusal_needs_nothing(void **state)
{
    (void)state;
    launch l;
    kd_strlist given = {0};
    kd_strlist_push(&given, "nosuch=1");
    assert_int_equal(load_and_build(&l, axpy, "k", &given), -1);
    assert_string_equal(l.spec.needs_value, "");
    assert_non_null(strstr(kd_sb_str(&l.error), "nosuch"));
    free(given.items);
    unload(&l);
    /* and a build that succeeds needs nothing either */
    kd_strlist all = {0};
    kd_strlist_push(&all, "a=2");
    kd_strlist_push(&all, "stride_b=1");
    assert_int_equal(load_and_build(&l, axpy, "k", &all), 0);
    assert_string_equal(l.spec.needs_value, "");
    free(all.items);
    unload(&l);
}

static void several_launches_name_each_scalar_once(void **state)
{
    (void)state;
    kd_launch_spec one = {0}, two = {0};
    snprintf(one.needs_value, sizeof one.needs_value, "alpha, beta");
    snprintf(two.needs_value, sizeof two.needs_value, "beta, alpha2");
    kd_strbuf names = {0}, flags = {0};
    kd_launch_needs_collect(&one, &names);
    kd_launch_needs_collect(&two, &names);
    kd_launch_needs_collect(&one, &names);
    assert_string_equal(kd_sb_str(&names), "alpha, beta, alpha2");
    kd_launch_needs_flags(kd_sb_str(&names), &flags);
    assert_string_equal(kd_sb_str(&flags), "--arg alpha=VALUE --arg beta=VALUE --arg alpha2=VALUE");
    kd_sb_free(&names);
    kd_sb_free(&flags);
    kd_launch_needs_flags("", &flags);
    assert_string_equal(kd_sb_str(&flags), "");
    kd_sb_free(&flags);
    /* kernels that need the same: one set of flags; others: each kernel's own */
    kd_launch_spec none = {0};
    kd_launch_needs_line same = {0}, differ = {0};
    kd_launch_needs_add(&same, "k<float>", &one, &one);
    kd_launch_needs_add(&same, "k<double>", &none, &one); /* one side's refusal is the kernel's */
    assert_false(same.differ);
    assert_string_equal(kd_sb_str(&same.flags), "--arg alpha=VALUE --arg beta=VALUE");
    kd_launch_needs_line_free(&same);
    kd_launch_needs_add(&differ, "ka", &one, &none);
    kd_launch_needs_add(&differ, "kb", &none, &none);
    kd_launch_needs_add(&differ, "kc", &two, &two);
    assert_true(differ.differ);
    assert_string_equal(kd_sb_str(&differ.names), "alpha, beta, alpha2");
    assert_string_equal(kd_sb_str(&differ.each), "ka: --arg alpha=VALUE --arg beta=VALUE; kc: --arg beta=VALUE --arg alpha2=VALUE");
    kd_launch_needs_line_free(&differ);
}

static const char tile16[] = "__global__ void t(float *out, const float *in, int ld) {\n"
                             "  int r = blockIdx.y * 16 + threadIdx.y, c = blockIdx.x * 16 + threadIdx.x;\n"
                             "  out[r * ld + c] = in[r * ld + c] * 2.0f;\n}\n";

static void an_assumed_scalar_says_its_value_and_why(void **state)
{
    (void)state;
    launch l;
    assert_int_equal(load_and_build(&l, tile16, "t", NULL), 0);
    kd_strbuf note = {0};
    kd_launch_param_note(&l.spec, true, 2, "ld", &note);
    assert_non_null(strstr(kd_sb_str(&note), " (assumed 1024: sqrt(n), "));
    assert_null(strstr(kd_sb_str(&note), "--arg"));
    assert_int_equal(kd_sb_str(&note)[note.len - 1], ')');
    kd_sb_free(&note);
    kd_launch_param_note(&l.spec, true, 0, "out", &note); /* a buffer: nothing */
    assert_string_equal(kd_sb_str(&note), "");
    kd_sb_free(&note);
    /* a length-named integer the launch took as n keeps its word; one it assumed is a scalar */
    assert_string_equal(kd_launch_param_role_word(&l.spec, true, 2, KD_ROLE_SCALAR), "scalar");
    l.spec.args[2].origin = "n";
    assert_string_equal(kd_launch_param_role_word(&l.spec, true, 2, KD_ROLE_LENGTH), "element count");
    l.spec.args[2].origin = "assumed";
    assert_string_equal(kd_launch_param_role_word(&l.spec, true, 2, KD_ROLE_LENGTH), "scalar");
    assert_string_equal(kd_launch_param_role_word(&l.spec, false, 2, KD_ROLE_LENGTH), "element count");
    unload(&l);
}

#define PTX_HEAD ".version 8.0\n.target sm_90\n.address_size 64\n"
static const char ptx_1d[] = PTX_HEAD
    ".visible .entry s(\n\t.param .u64 s_param_0,\n\t.param .u32 s_param_1,\n\t.param .u32 s_param_2\n)\n{\n"
    "\tld.param.u64 %rd1, [s_param_0];\n\tld.param.u32 %r9, [s_param_1];\n\tld.param.u32 %r8, [s_param_2];\n"
    "\tmov.u32 %r1, %ntid.x;\n\tmov.u32 %r2, %ctaid.x;\n\tmov.u32 %r3, %tid.x;\n"
    "\tmul.lo.s32 %r6, %r2, %r1;\n\tadd.s32 %r4, %r6, %r3;\n\tcvt.s64.s32 %rd4, %r4;\n\tcvt.u64.u32 %rd5, %r9;\n"
    "\tsetp.le.u64 %p1, %rd5, %rd4;\n\tsetp.ge.u32 %p2, %r3, %r8;\n\t@%p1 bra $L__BB0_2;\n"
    "\tcvta.to.global.u64 %rd3, %rd1;\n\tst.global.u32 [%rd3], %r4;\n$L__BB0_2:\n\tret;\n}\n";

static void a_ptx_bound_of_the_global_index_is_the_count(void **state)
{
    (void)state;
    kd_kernel_list ks;
    kd_ptx_kernels(ptx_1d, &ks);
    assert_int_equal(ks.count, 1);
    assert_int_equal(ks.items[0].nparams, 3);
    /* mul.lo + add, widened by cvt on both sides, the operands either way round */
    assert_true(ks.items[0].params[1].bounds_index);
    assert_int_equal(kd_param_role_of(&ks.items[0].params[1]), KD_ROLE_LENGTH);
    assert_true(kd_param_length_from_code(&ks.items[0].params[1]));
    /* compared with threadIdx alone: a stride, not the count */
    assert_false(ks.items[0].params[2].bounds_index);
    assert_int_equal(kd_param_role_of(&ks.items[0].params[2]), KD_ROLE_SCALAR);
    assert_false(ks.items[0].params[0].bounds_index);
    kd_kernel_list_free(&ks);
    /* the same entry with a y index: its x bound is a row length */
    char *two_d = kd_xstrdup(ptx_1d);
    char *at = strstr(two_d, "%tid.x;\n\tmul");
    memcpy(at, "%tid.y", 6);
    kd_ptx_kernels(two_d, &ks);
    assert_false(ks.items[0].params[1].bounds_index);
    kd_kernel_list_free(&ks);
    free(two_d);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(a_refusal_keeps_the_scalars_it_wanted),
        cmocka_unit_test(another_refusal_needs_nothing),
        cmocka_unit_test(several_launches_name_each_scalar_once),
        cmocka_unit_test(an_assumed_scalar_says_its_value_and_why),
        cmocka_unit_test(a_ptx_bound_of_the_global_index_is_the_count),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
