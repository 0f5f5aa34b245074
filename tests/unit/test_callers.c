/* source/callers: the helper's candidates read and ranked (best first whatever the JSON's
 * order), their commands quoted so that --from's splitter gives every word back, hostile
 * names included (issue 45 item 1). */
#include "kd_test.h"

#include "app/command.h"
#include "source/callers.h"

static const char LIST[] =
    "{\"root\": \"/p\", \"wrappers\": [\"rms_norm\"], \"found\": 5, \"scanned\": 9, \"capped\": null,"
    " \"candidates\": ["
    "  {\"file\": \"benchmarks/b.py\", \"test\": null, \"line\": 1, \"rank\": 3, \"kind\": \"benchmark\","
    "   \"via\": [], \"argv\": [\"py\", \"-m\", \"benchmarks.b\"]},"
    "  {\"file\": \"tests/t.py\", \"test\": \"test_indirect\", \"line\": 17, \"rank\": 2, \"kind\": \"test\","
    "   \"via\": [\"helper\", \"rms_norm\"], \"argv\": [\"py\", \"-m\", \"pytest\", \"-x\", \"-q\", \"tests/t.py::test_indirect\"]},"
    "  {\"file\": \"mypkg/rms.py\", \"test\": null, \"line\": 30, \"rank\": 1, \"kind\": \"self\","
    "   \"via\": [\"rms_norm\"], \"argv\": [\"py\", \"-m\", \"mypkg.rms\"]},"
    "  {\"file\": \"tests/t.py\", \"test\": \"test_rms\", \"line\": 11, \"rank\": 1, \"kind\": \"test\","
    "   \"via\": [\"rms_norm\"], \"argv\": [\"py\", \"-m\", \"pytest\", \"-x\", \"-q\", \"tests/t.py::test_rms\"]},"
    "  {\"file\": \"tests/a.py\", \"test\": \"test_z\", \"line\": 40, \"rank\": 1, \"kind\": \"test\","
    "   \"via\": [\"rms_norm\"], \"argv\": [\"py\", \"-m\", \"pytest\", \"tests/a.py::test_z\"]}"
    "]}";

static void ranked_best_first(void **state)
{
    (void)state;
    kd_callers c;
    kd_strbuf why = {0};
    assert_int_equal(kd_callers_parse(LIST, &c, &why), 0);
    assert_int_equal(c.count, 5);
    /* rank 1 tests (by path, line), then rank 1 __main__, rank 2, rank 3 */
    assert_string_equal(c.items[0].name, "tests/a.py::test_z");
    assert_string_equal(c.items[1].name, "tests/t.py::test_rms");
    assert_string_equal(c.items[2].name, "mypkg/rms.py");
    assert_string_equal(c.items[3].name, "tests/t.py::test_indirect");
    assert_string_equal(c.items[3].via, "helper() -> rms_norm()");
    assert_string_equal(c.items[4].name, "benchmarks/b.py");
    assert_string_equal(c.items[1].command, "py -m pytest -x -q tests/t.py::test_rms");
    assert_null(c.items[1].argv.items[6]);
    assert_string_equal(c.wrappers, "rms_norm");
    assert_string_equal(c.root, "/p");
    assert_int_equal(c.found, 5);
    assert_null(c.capped);
    kd_callers_free(&c);
    kd_sb_free(&why);
}

static void malformed_refused(void **state)
{
    (void)state;
    static const char *const bad[] = {
        "", "[]", "{\"root\": \"/p\"}", "{\"root\": 1, \"candidates\": []}",
        "{\"root\": \"/p\", \"candidates\": [{\"file\": \"a.py\", \"rank\": 1, \"argv\": []}]}",
        "{\"root\": \"/p\", \"candidates\": [{\"file\": \"a.py\", \"rank\": 7, \"argv\": [\"py\"]}]}",
        "{\"root\": \"/p\", \"candidates\": [{\"rank\": 1, \"argv\": [\"py\"]}]}",
    };
    for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
        kd_callers c;
        kd_strbuf why = {0};
        assert_int_equal(kd_callers_parse(bad[i], &c, &why), -1);
        assert_true(why.len > 0);
        kd_callers_free(&c);
        kd_sb_free(&why);
    }
    kd_callers c;
    kd_strbuf why = {0};
    assert_int_equal(kd_callers_parse("{\"root\": \"/p\", \"candidates\": []}", &c, &why), 0);
    assert_int_equal(c.count, 0);
    assert_string_equal(c.elsewhere, "");
    kd_callers_free(&c);
    /* none found, the ops that reach the kernel registered for other devices only: kept to say */
    assert_int_equal(kd_callers_parse("{\"root\": \"/p\", \"candidates\": [], \"elsewhere\": "
                                      "[\"bnb::quantize_4bit for xpu\", \"bnb::gemv_4bit for xpu, hpu\"]}",
                                      &c, &why),
                     0);
    assert_string_equal(c.elsewhere, "bnb::quantize_4bit for xpu, bnb::gemv_4bit for xpu, hpu");
    kd_callers_free(&c);
}

/* Within a rank the nearer caller first (the depth: calls between it and the launch, issue 45:
 * a test of the alias l2_norm before one of a model three calls away), and each candidate's
 * kernels kept (a file of several kernels takes the launch of the one its best caller reaches). */
static const char DEEP[] =
    "{\"root\": \"/p\", \"wrappers\": [\"pkg.layer.NormAutoGrad\"], \"found\": 3, \"scanned\": 4,"
    " \"candidates\": ["
    "  {\"file\": \"tests/a_model.py\", \"test\": \"test_model\", \"line\": 5, \"rank\": 2, \"kind\": \"test\","
    "   \"depth\": 4, \"kernels\": [\"bwd\", \"fwd\"], \"via\": [\"Model\"], \"argv\": [\"py\", \"a\"]},"
    "  {\"file\": \"tests/z_norm.py\", \"test\": \"test_norm\", \"line\": 9, \"rank\": 2, \"kind\": \"test\","
    "   \"depth\": 1, \"kernels\": [\"fwd\"], \"via\": [\"pkg.Norm\"], \"argv\": [\"py\", \"z\"]},"
    "  {\"file\": \"tests/b.py\", \"test\": null, \"line\": 1, \"rank\": 1, \"kind\": \"test\","
    "   \"depth\": 0, \"via\": [\"fwd\"], \"argv\": [\"py\", \"b\"]},"
    "  {\"file\": \"tests/z_test_norm_kernels.py\", \"test\": \"test_own\", \"line\": 3, \"rank\": 2,"
    "   \"kind\": \"test\", \"depth\": 4, \"affinity\": 0, \"via\": [\"Model\"], \"argv\": [\"py\", \"o\"]}"
    "]}";

static void nearer_first_kernels_kept(void **state)
{
    (void)state;
    kd_callers c;
    kd_strbuf why = {0};
    assert_int_equal(kd_callers_parse(DEEP, &c, &why), 0);
    assert_int_equal(c.count, 4);
    assert_string_equal(c.items[0].name, "tests/b.py");
    assert_int_equal(c.items[0].kernels.count, 0); /* an older helper's answer: no kernels */
    assert_string_equal(c.items[1].name, "tests/z_norm.py::test_norm");
    assert_int_equal(c.items[1].depth, 1);
    assert_int_equal(c.items[1].kernels.count, 1);
    assert_string_equal(c.items[1].kernels.items[0], "fwd");
    /* at one depth, the module's own test (affinity 0) before one whose path sorts first */
    assert_string_equal(c.items[2].name, "tests/z_test_norm_kernels.py::test_own");
    assert_string_equal(c.items[3].name, "tests/a_model.py::test_model");
    assert_int_equal(c.items[3].kernels.count, 2);
    assert_string_equal(c.items[3].kernels.items[1], "fwd");
    assert_string_equal(c.wrappers, "pkg.layer.NormAutoGrad");
    kd_callers_free(&c);
    kd_sb_free(&why);
}

/* Each hostile word quoted, then split as --from splits its command: the same words back. */
static void quoted_words_split_back(void **state)
{
    (void)state;
    static const char *const words[] = {
        "python3", "-m", "pytest", "tests/test_a b.py::test_x", "it's", "$(touch /tmp/kd-pwned)",
        "`id`", "a\"b", "back\\slash", "\x1b[31mred", "", "tab\there", "new\nline", "semi;colon|pipe&", "*?[glob]~",
        "-k", "x and not 'y'", NULL};
    kd_strbuf cmd = {0};
    size_t n = 0;
    for (; words[n]; n++) {
        if (n)
            kd_sb_puts(&cmd, " ");
        kd_caller_quote(words[n], &cmd);
    }
    char *storage = NULL;
    kd_strlist got = {0};
    kd_strbuf err = {0};
    assert_int_equal(kd_app_split_words(kd_sb_str(&cmd), &storage, &got, &err), 0);
    assert_int_equal(got.count, n);
    for (size_t i = 0; i < n; i++)
        assert_string_equal(got.items[i], words[i]);
    kd_strbuf plain = {0};
    kd_caller_quote("tests/test_rms.py::test_rms_norm", &plain);
    assert_string_equal(kd_sb_str(&plain), "tests/test_rms.py::test_rms_norm");
    free(got.items);
    free(storage);
    kd_sb_free(&cmd);
    kd_sb_free(&err);
    kd_sb_free(&plain);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(ranked_best_first),
        cmocka_unit_test(malformed_refused),
        cmocka_unit_test(nearer_first_kernels_kept),
        cmocka_unit_test(quoted_words_split_back),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
