/* test_ptx.c — PTX entry extraction and opcode histograms, on PTX captured from nvcc 13.0
 * (tests/fixtures/README.md) and on small inline cases for the corners. Expected counts
 * were checked by hand against the fixtures; those marked "grep" also match `grep -c`. */
#include "kd_test.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "static/ptx.h"

typedef struct counted {
    kd_histogram ops, families;
} counted;

/* Histogram of one entry of a PTX text; fails the test if the entry is missing. */
static counted count_entry(const char *ptx, const char *entry)
{
    counted c = {0};
    char *body = kd_ptx_entry_body(ptx, entry);
    if (!body)
        fail_msg("entry %s not found", entry);
    kd_ptx_histogram(body, &c.ops, &c.families);
    free(body);
    return c;
}

static counted count_fixture_entry(const char *fixture, const char *entry)
{
    char *ptx = read_fixture(fixture);
    counted c = count_entry(ptx, entry);
    free(ptx);
    return c;
}

static void counted_free(counted *c)
{
    kd_hist_free(&c->ops);
    kd_hist_free(&c->families);
}

/* Histogram of a bare instruction sequence, as if it were an entry body. */
static kd_histogram count_body(const char *body)
{
    kd_histogram h = {0};
    kd_ptx_histogram(body, &h, NULL);
    return h;
}

/* ---- fixtures ---- */

static void test_multi_entry_names_in_order_without_funcs(void **state)
{
    (void)state;
    char *ptx = read_fixture("ptx/multi.sm_90.ptx");
    char **names;
    size_t count;
    kd_ptx_entry_names(ptx, &names, &count);
    assert_int_equal(count, 5); /* grep -c '\.entry' = 5; the .func helper is not one */
    assert_string_equal(names[0], "k");
    assert_string_equal(names[1], "k2");
    assert_string_equal(names[2], "_Z4axpyIfEvT_PKS0_PS0_i");
    assert_string_equal(names[3], "_Z4axpyIdEvT_PKS0_PS0_i");
    assert_string_equal(names[4], "_Z7atomicsPiPdPKdi");
    kd_ptx_names_free(names, count);
    free(ptx);
}

static void test_shared_reduce_counts(void **state)
{
    (void)state;
    counted c = count_fixture_entry("ptx/shared.sm_90.ptx", "_Z6reducePKfPfPji");
    assert_int_equal(c.ops.total, 86);
    assert_int_equal(kd_hist_get(&c.ops, "bar.sync"), 9);       /* grep */
    assert_int_equal(kd_hist_get(&c.ops, "membar.gl"), 1);      /* grep */
    assert_int_equal(kd_hist_get(&c.ops, "ld.shared.f32"), 17); /* grep */
    assert_int_equal(kd_hist_get(&c.ops, "st.shared.f32"), 9);
    assert_int_equal(kd_hist_get(&c.ops, "atom.global.add.u32"), 1);
    assert_int_equal(kd_hist_get(&c.ops, "bra"), 10); /* every one guarded: grep -c '@%p' */
    assert_int_equal(kd_hist_get(&c.ops, "setp.gt.u32"), 7);
    assert_int_equal(c.families.total, 86);
    assert_int_equal(kd_hist_get(&c.families, "bar"), 9);
    assert_int_equal(kd_hist_get(&c.families, "membar"), 1);
    assert_int_equal(kd_hist_get(&c.families, "ld.shared"), 17);
    assert_int_equal(kd_hist_get(&c.families, "ld.param"), 4);
    assert_int_equal(kd_hist_get(&c.families, "atom.global"), 1);
    assert_int_equal(kd_hist_get(&c.families, "add"), 12);
    counted_free(&c);
}

static void test_vec_scale4_uses_vector_loads(void **state)
{
    (void)state;
    counted c = count_fixture_entry("ptx/vec.sm_90.ptx", "_Z6scale4PK6float4PS_fi");
    assert_int_equal(c.ops.total, 22);
    assert_int_equal(kd_hist_get(&c.ops, "ld.global.nc.v4.f32"), 1); /* grep */
    assert_int_equal(kd_hist_get(&c.ops, "st.global.v4.f32"), 1);
    assert_int_equal(kd_hist_get(&c.ops, "mul.f32"), 4);
    assert_int_equal(kd_hist_get(&c.families, "ld.global"), 1);
    assert_int_equal(kd_hist_get(&c.families, "mul"), 5);
    counted_free(&c);

    c = count_fixture_entry("ptx/vec.sm_90.ptx", "_Z6scale1PKfPffi");
    assert_int_equal(c.ops.total, 19);
    assert_int_equal(kd_hist_get(&c.ops, "ld.global.nc.f32"), 1);
    assert_int_equal(kd_hist_get(&c.ops, "ld.global.nc.v4.f32"), 0);
    counted_free(&c);
}

/* nvcc emits the same PTX for sm_80 and sm_90 here; only `.target` differs. */
static void test_vec_sm80_matches_sm90(void **state)
{
    (void)state;
    counted a = count_fixture_entry("ptx/vec.sm_80.ptx", "_Z6scale4PK6float4PS_fi");
    counted b = count_fixture_entry("ptx/vec.sm_90.ptx", "_Z6scale4PK6float4PS_fi");
    kd_hist_sort(&a.ops);
    kd_hist_sort(&b.ops);
    assert_int_equal(a.ops.count, b.ops.count);
    assert_int_equal(a.ops.total, b.ops.total);
    for (size_t i = 0; i < a.ops.count; i++) {
        assert_string_equal(a.ops.items[i].key, b.ops.items[i].key);
        assert_int_equal(a.ops.items[i].count, b.ops.items[i].count);
    }
    counted_free(&a);
    counted_free(&b);
}

static void test_spill_local_traffic(void **state)
{
    (void)state;
    counted c = count_fixture_entry("ptx/spill.sm_90.ptx", "_Z5spillP6float4i");
    assert_int_equal(c.ops.total, 231);
    assert_int_equal(kd_hist_get(&c.ops, "st.local.v4.f32"), 16); /* grep */
    assert_int_equal(kd_hist_get(&c.ops, "ld.local.f32"), 1);
    assert_int_equal(kd_hist_get(&c.ops, "ld.global.f32"), 64);   /* grep */
    assert_int_equal(kd_hist_get(&c.ops, "st.global.f32"), 64);
    assert_int_equal(kd_hist_get(&c.ops, "fma.rn.f32"), 32);
    assert_int_equal(kd_hist_get(&c.families, "st.local"), 16);
    assert_int_equal(kd_hist_get(&c.families, "ld.local"), 1);
    counted_free(&c);
}

/* k calls a .func through a `call.uni` that spans nine lines; the callee's body is not k's. */
static void test_multi_call_spanning_lines_counts_once(void **state)
{
    (void)state;
    counted c = count_fixture_entry("ptx/multi.sm_90.ptx", "k");
    assert_int_equal(c.ops.total, 19);
    assert_int_equal(kd_hist_get(&c.ops, "call.uni"), 1);
    assert_int_equal(kd_hist_get(&c.ops, "st.param.f32"), 1);
    assert_int_equal(kd_hist_get(&c.ops, "ld.param.f32"), 1);
    assert_int_equal(kd_hist_get(&c.ops, "fma.rn.f32"), 0);
    assert_int_equal(kd_hist_get(&c.families, "st.param"), 2);
    counted_free(&c);
}

/* k2's inline asm sits in a `{ }` scope with its own `.reg`; its instructions count. */
static void test_multi_inline_asm_scope(void **state)
{
    (void)state;
    counted c = count_fixture_entry("ptx/multi.sm_90.ptx", "k2");
    assert_int_equal(c.ops.total, 16);
    assert_int_equal(kd_hist_get(&c.ops, "add.u32"), 1);
    assert_int_equal(kd_hist_get(&c.ops, "mov.u32"), 4);
    assert_int_equal(kd_hist_get(&c.ops, "call.uni"), 0);
    counted_free(&c);
}

static void test_multi_template_and_atomics(void **state)
{
    (void)state;
    char *ptx = read_fixture("ptx/multi.sm_90.ptx");
    counted f = count_entry(ptx, "_Z4axpyIfEvT_PKS0_PS0_i");
    counted d = count_entry(ptx, "_Z4axpyIdEvT_PKS0_PS0_i");
    counted a = count_entry(ptx, "_Z7atomicsPiPdPKdi");
    assert_int_equal(f.ops.total, 25);
    assert_int_equal(kd_hist_get(&f.ops, "fma.rn.f32"), 1);
    assert_int_equal(kd_hist_get(&f.ops, "fma.rn.f64"), 0);
    assert_int_equal(d.ops.total, 25);
    assert_int_equal(kd_hist_get(&d.ops, "fma.rn.f64"), 1);
    assert_int_equal(kd_hist_get(&d.families, "fma"), 1);
    assert_int_equal(a.ops.total, 22);
    assert_int_equal(kd_hist_get(&a.ops, "atom.global.add.u32"), 1);
    assert_int_equal(kd_hist_get(&a.ops, "atom.global.add.f64"), 1);
    assert_int_equal(kd_hist_get(&a.families, "atom.global"), 2);
    counted_free(&f);
    counted_free(&d);
    counted_free(&a);
    free(ptx);
}

static void test_missing_entries_are_null(void **state)
{
    (void)state;
    char *ptx = read_fixture("ptx/multi.sm_90.ptx");
    assert_null(kd_ptx_entry_body(ptx, "_Z6helperfi")); /* a .func, not an entry */
    assert_null(kd_ptx_entry_body(ptx, "_Z4axpy"));     /* a prefix of two entries */
    assert_null(kd_ptx_entry_body(ptx, "k3"));
    assert_null(kd_ptx_entry_body(ptx, ""));
    free(ptx);
}

/* ---- inline edge cases ---- */

static void test_labels_are_not_instructions(void **state)
{
    (void)state;
    kd_histogram h = count_body("$L__BB0_2:\n\tadd.s32 %r1, %r1, 1;\n"
                                "$L__BB0_3: ret;\n");
    assert_int_equal(h.total, 2);
    assert_int_equal(kd_hist_get(&h, "add.s32"), 1);
    assert_int_equal(kd_hist_get(&h, "ret"), 1);
    kd_hist_free(&h);
}

static void test_directives_are_not_instructions(void **state)
{
    (void)state;
    kd_histogram h = count_body("\t.reg .pred \t%p<3>;\n"
                                "\t.loc\t1 41 5\n"
                                "\t.loc\t1 20 38, function_name $L__info_string0, inlined_at 1 35 9\n"
                                "\t.shared .align 4 .b8 buf[1024];\n"
                                "\t.local .align 16 .b8 \t__local_depot0[256];\n"
                                "\t.pragma \"nounroll\";\n"
                                "\t.pragma \"a;b\";\n"
                                ".maxntid 256, 1, 1\n"
                                "\tmov.u32 %r1, %tid.x;\n");
    assert_int_equal(h.total, 1);
    assert_int_equal(kd_hist_get(&h, "mov.u32"), 1);
    kd_hist_free(&h);
}

static void test_braces_are_not_instructions(void **state)
{
    (void)state;
    kd_histogram h = count_body("{\n{ // callseq 0, 0\n\t.reg .b32 t;\n\tadd.u32 t, %r1, %r2;}\n}\n");
    assert_int_equal(h.total, 1);
    assert_int_equal(kd_hist_get(&h, "add.u32"), 1);
    kd_hist_free(&h);
}

static void test_comments_are_not_instructions(void **state)
{
    (void)state;
    kd_histogram h = count_body("// mov.u32 %r1, %r2;\n"
                                "\t/* add.s32 %r1, %r1, 1;\n sub.s32 %r1, %r1, 1; */\n"
                                "\tmul.lo.s32 %r3, %r1, %r2; // shl.b32 %r3, %r3, 1;\n"
                                "\t// begin inline asm\n"
                                "\t/* unterminated mov.u32 %r9, 0;");
    assert_int_equal(h.total, 1);
    assert_int_equal(kd_hist_get(&h, "mul.lo.s32"), 1);
    kd_hist_free(&h);
}

static void test_guard_predicate_is_stripped(void **state)
{
    (void)state;
    kd_histogram h = count_body("\t@%p1 bra \t$L__BB0_6;\n"
                                "\t@!%p2 bra.uni $L__BB0_2;\n"
                                "\t@ ! %p3 st.global.f32 [%rd1], %f1;\n"
                                "\tbra.uni $L__BB0_1;\n");
    assert_int_equal(h.total, 4);
    assert_int_equal(kd_hist_get(&h, "bra"), 1);
    assert_int_equal(kd_hist_get(&h, "bra.uni"), 2);
    assert_int_equal(kd_hist_get(&h, "st.global.f32"), 1);
    kd_hist_free(&h);
}

static void test_qualified_opcode_keeps_its_key(void **state)
{
    (void)state;
    kd_histogram h = {0}, fam = {0};
    kd_ptx_histogram("ld.shared::cta.u32 %r1, [%r2];\n"
                     "cp.async.ca.shared.global [%r1], [%rd1], 16;\n"
                     "cp.async.wait_all;\n",
                     &h, &fam);
    assert_int_equal(kd_hist_get(&h, "ld.shared::cta.u32"), 1);
    assert_int_equal(kd_hist_get(&h, "cp.async.ca.shared.global"), 1);
    assert_int_equal(kd_hist_get(&fam, "ld.shared"), 1);
    assert_int_equal(kd_hist_get(&fam, "cp.async.shared"), 1);
    assert_int_equal(kd_hist_get(&fam, "cp.async"), 1);
    kd_hist_free(&h);
    kd_hist_free(&fam);
}

static const char prefix_module[] =
    "// .entry k(.param .u32 x) { fake }\n"
    ".visible .entry k2(\n\t.param .u32 k2_param_0\n)\n{\n\tadd.s32 %r1, %r1, 1;\n\tret;\n}\n"
    ".func helper()\n{\n\tfma.rn.f32 %f1, %f1, %f2, %f3;\n\tret;\n}\n"
    ".visible .entry k(\n\t.param .u32 k_param_0\n)\n.maxntid 128, 1, 1\n"
    "{\n\t// } not the end\n\tmul.lo.s32 %r1, %r1, 2;\n\tcall.uni helper, ();\n\tret;\n}\n";

static void test_prefix_named_entries_are_told_apart(void **state)
{
    (void)state;
    counted k = count_entry(prefix_module, "k");
    counted k2 = count_entry(prefix_module, "k2");
    assert_int_equal(k.ops.total, 3);
    assert_int_equal(kd_hist_get(&k.ops, "mul.lo.s32"), 1);
    assert_int_equal(kd_hist_get(&k.ops, "add.s32"), 0);
    assert_int_equal(kd_hist_get(&k.ops, "fma.rn.f32"), 0); /* the .func's body is not k's */
    assert_int_equal(k2.ops.total, 2);
    assert_int_equal(kd_hist_get(&k2.ops, "add.s32"), 1);
    counted_free(&k);
    counted_free(&k2);
}

static void test_names_skip_comments_and_funcs(void **state)
{
    (void)state;
    char **names;
    size_t count;
    kd_ptx_entry_names(prefix_module, &names, &count);
    assert_int_equal(count, 2);
    assert_string_equal(names[0], "k2");
    assert_string_equal(names[1], "k");
    kd_ptx_names_free(names, count);
}

static void test_declaration_then_definition(void **state)
{
    (void)state;
    const char *ptx = ".extern .entry k(.param .u32 p);\n"
                      ".entry k(.param .u32 p)\n{\n\tret;\n}\n";
    char **names;
    size_t count;
    kd_ptx_entry_names(ptx, &names, &count);
    assert_int_equal(count, 1);
    kd_ptx_names_free(names, count);
    char *body = kd_ptx_entry_body(ptx, "k");
    assert_non_null(body);
    assert_string_equal(body, "\n\tret;\n");
    free(body);
}

static void test_unterminated_or_empty_modules(void **state)
{
    (void)state;
    char **names;
    size_t count;
    const char *cut = ".entry k(.param .u32 p)\n{\n\tret;\n";
    assert_null(kd_ptx_entry_body(cut, "k"));
    kd_ptx_entry_names(cut, &names, &count);
    assert_int_equal(count, 0);
    assert_null(names);
    kd_ptx_entry_names("", &names, &count);
    assert_int_equal(count, 0);
    assert_null(kd_ptx_entry_body(".entry", "k"));
    assert_null(kd_ptx_entry_body(".entry (", ""));
    char *body = kd_ptx_entry_body(".entry e(){}", "e");
    assert_non_null(body);
    assert_string_equal(body, "");
    free(body);
}

static void test_malformed_bodies_do_not_count_junk(void **state)
{
    (void)state;
    /* Each piece of junk is skipped up to its `;`; the last instruction lacks one. */
    kd_histogram h = count_body("@\n; ; 123 abc; %r1; $x: {}} \"str;\"; :x; add.s32 %r1");
    assert_int_equal(h.total, 1);
    assert_int_equal(kd_hist_get(&h, "add.s32"), 1);
    kd_hist_free(&h);
}

static void test_family_table(void **state)
{
    (void)state;
    static const char *const cases[][2] = {
        {"ld.global.v4.f32", "ld.global"},  {"ld.global.nc.v4.f32", "ld.global"},
        {"atom.shared.add.u32", "atom.shared"}, {"red.global.add.f32", "red.global"},
        {"st.local.v4.f32", "st.local"},    {"ld.param.u64", "ld.param"},
        {"ld.const.f32", "ld.const"},       {"ld.f32", "ld"},
        {"ld.volatile.shared.u32", "ld.shared"}, {"ld.shared::cluster.u32", "ld.shared"},
        {"fma.rn.f32", "fma"},              {"bar.sync", "bar"},
        {"membar.gl", "membar"},            {"cvta.to.global.u64", "cvta"},
        {"cp.async.wait_group", "cp.async"}, {"cp.async.cg.shared.global", "cp.async.shared"},
        {"ret", "ret"},                     {"", ""},
    };
    char buf[64];
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        kd_ptx_family(cases[i][0], buf, sizeof buf);
        assert_string_equal(buf, cases[i][1]);
    }
}

static void test_family_respects_buffer_size(void **state)
{
    (void)state;
    char buf[4] = "xyz";
    kd_ptx_family("ld.global.f32", buf, 0);
    assert_string_equal(buf, "xyz");
    kd_ptx_family("ld.global.f32", buf, sizeof buf);
    assert_string_equal(buf, "ld.");
}

static void test_histogram_basics(void **state)
{
    (void)state;
    kd_histogram h = {0};
    kd_hist_add(&h, "b", 2);
    kd_hist_add(&h, "a", 1);
    kd_hist_add(&h, "b", 3);
    for (int i = 0; i < 40; i++) {
        char key[16];
        snprintf(key, sizeof key, "k%02d", i);
        kd_hist_add(&h, key, 1);
    }
    assert_int_equal(kd_hist_get(&h, "b"), 5);
    assert_int_equal(kd_hist_get(&h, "a"), 1);
    assert_int_equal(kd_hist_get(&h, "zzz"), 0);
    assert_int_equal(h.count, 42);
    assert_int_equal(h.total, 46);
    kd_hist_sort(&h);
    assert_string_equal(h.items[0].key, "a");
    assert_string_equal(h.items[1].key, "b");
    assert_string_equal(h.items[41].key, "k39");
    kd_hist_free(&h);
    assert_null(h.items);
    assert_int_equal(h.count, 0);
    assert_int_equal(h.total, 0);
    kd_hist_sort(&h);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_multi_entry_names_in_order_without_funcs),
        cmocka_unit_test(test_shared_reduce_counts),
        cmocka_unit_test(test_vec_scale4_uses_vector_loads),
        cmocka_unit_test(test_vec_sm80_matches_sm90),
        cmocka_unit_test(test_spill_local_traffic),
        cmocka_unit_test(test_multi_call_spanning_lines_counts_once),
        cmocka_unit_test(test_multi_inline_asm_scope),
        cmocka_unit_test(test_multi_template_and_atomics),
        cmocka_unit_test(test_missing_entries_are_null),
        cmocka_unit_test(test_labels_are_not_instructions),
        cmocka_unit_test(test_directives_are_not_instructions),
        cmocka_unit_test(test_braces_are_not_instructions),
        cmocka_unit_test(test_comments_are_not_instructions),
        cmocka_unit_test(test_guard_predicate_is_stripped),
        cmocka_unit_test(test_qualified_opcode_keeps_its_key),
        cmocka_unit_test(test_prefix_named_entries_are_told_apart),
        cmocka_unit_test(test_names_skip_comments_and_funcs),
        cmocka_unit_test(test_declaration_then_definition),
        cmocka_unit_test(test_unterminated_or_empty_modules),
        cmocka_unit_test(test_malformed_bodies_do_not_count_junk),
        cmocka_unit_test(test_family_table),
        cmocka_unit_test(test_family_respects_buffer_size),
        cmocka_unit_test(test_histogram_basics),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
