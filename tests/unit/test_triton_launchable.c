/* test_triton_launchable.c — `kerndiff list` says a Triton launch is not launchable exactly
 * when a timed diff refuses it (issue 41 item 6: list asks the diff's own resolution,
 * diff/pipeline.h kd_list_launch, which prepares a side as the diff does) (issue 26: tests/realfiles/triton_add.py was listed launchable
 * and refused on the GPU): a tl.constexpr nothing gives (no flag, annotation, default, file's
 * call, autotune config, element count or heuristic) in a kernel the file does not launch,
 * worded as the diff's refusal (report/words_triton.c, one sentence for both). */
#include "kd_test.h"

#include <string.h>

#include "backend/triton_msgs.h"
#include "report/diag_text.h"
#include "diff/pipeline.h"
#include "util/diag.h"

/* triton_add.py as the helper describes it, with `extra` spliced into BLOCK_SIZE's param and
 * `launches` as the file's launch lines. */
static char *info(const char *extra, const char *launches, const char *more)
{
    kd_strbuf sb = {0};
    kd_sb_printf(&sb, "{\"params\": [{\"name\": \"x_ptr\", \"kind\": \"pointer\"}, {\"name\": \"n_elements\", \"kind\": "
                      "\"scalar\"}, {\"name\": \"BLOCK_SIZE\", \"kind\": \"constexpr\"%s}], \"launches\": %s%s}",
                 extra, launches, more);
    return kd_sb_take(&sb);
}

/* Whether list calls kernel k (of the file at path) not launchable, with its reason into why. */
static bool list_refuses(const kd_kernel *k, const kd_annotations *notes, const kd_launch_options *given,
                         const char *path, kd_strbuf *why)
{
    kd_diff_options opts = {0};
    if (given)
        opts.launch = *given;
    kd_listed_launch l;
    kd_list_launch(&opts, path, k, notes, &l);
    bool no = l.refused.id != 0;
    if (no) {
        kd_strbuf text = {0};
        kd_diag_text(&l.refused, &text);
        kd_sb_puts(why, kd_sb_str(&text));
        kd_sb_free(&text);
    }
    kd_listed_launch_free(&l);
    return no;
}

static bool refused(const char *frontend_info, const kd_annotations *notes, const kd_launch_options *given, kd_strbuf *why)
{
    kd_param params[] = {{.name = (char *)"x_ptr", .type = (char *)"float *", .pointee = (char *)"float", .is_pointer = true},
                         {.name = (char *)"n_elements", .type = (char *)"int"}};
    kd_kernel k = {.name = (char *)"add_kernel", .qualified = (char *)"add_kernel", .frontend_info = (char *)frontend_info, .params = params, .nparams = 2};
    kd_sb_free(why);
    return list_refuses(&k, notes, given, "tests/realfiles/triton_add.py", why);
}

static void refused_in_the_diffs_words(void **state)
{
    (void)state;
    char *fi = info("", "[]", "");
    kd_strbuf why = {0}, diff = {0};
    assert_true(refused(fi, NULL, NULL, &why));
    /* the diff's own refusal, less its "kerndiff: v1: " */
    kd_diag d = {0};
    kd_diag_set(&d, KD_MSG_TRITON_CONSTEXPR_NEEDS_VALUE, 1, KD_S("v1"), KD_S("BLOCK_SIZE"), KD_S("add_kernel"),
                KD_S("tests/realfiles/triton_add.py"));
    kd_diag_text(&d, &diff);
    kd_diag_free(&d);
    const char *clause = kd_sb_str(&diff) + strlen("kerndiff: v1: ");
    assert_memory_equal(kd_sb_str(&why), clause, strlen(clause));
    assert_string_equal(kd_sb_str(&why) + strlen(clause), " (a diff that times nothing, with no GPU, assumes 1024)");
    kd_sb_free(&why);
    kd_sb_free(&diff);
    free(fi);
}

static void launchable_when_something_gives_it(void **state)
{
    (void)state;
    kd_strbuf why = {0};
    char *with_default = info(", \"default\": \"256\"", "[]", "");
    char *with_call = info(", \"call_value\": \"1024\"", "[]", "");
    char *launched = info("", "[14]", "");
    char *tuned = info("", "[]", ", \"configs\": [{\"meta\": {\"BLOCK_SIZE\": 128}}]");
    char *computed = info("", "[]", ", \"heuristics\": [{\"name\": \"BLOCK_SIZE\"}]");
    char *bare = info("", "[]", "");
    assert_false(refused(with_default, NULL, NULL, &why));
    assert_false(refused(with_call, NULL, NULL, &why));
    assert_false(refused(launched, NULL, NULL, &why)); /* taken from the file's own call */
    assert_false(refused(tuned, NULL, NULL, &why));
    assert_false(refused(computed, NULL, NULL, &why));
    const char *one[] = {"BLOCK_SIZE=512"}, *other[] = {"BLOCK_SIZE_M=512"};
    kd_launch_options given = {.scalars = {.items = (char **)one, .count = 1}};
    assert_false(refused(bare, NULL, &given, &why));
    given.scalars.items = (char **)other; /* another name */
    assert_true(refused(bare, NULL, &given, &why));
    kd_annotations notes = {0};
    const char *src = "# kerndiff: BLOCK_SIZE=2048\n";
    kd_annotations_parse(src, strlen(src), &notes);
    assert_false(refused(bare, &notes, NULL, &why));
    kd_annotations_free(&notes);
    /* not a Triton kernel: a .cu's, launched as described */
    kd_param cu_params[] = {{.name = (char *)"x", .type = (char *)"float *", .pointee = (char *)"float", .is_pointer = true},
                            {.name = (char *)"n", .type = (char *)"int"}};
    kd_kernel cu = {.name = (char *)"k", .params = cu_params, .nparams = 2};
    assert_false(list_refuses(&cu, NULL, NULL, "k.cu", &why));
    kd_sb_free(&why);
    free(with_default);
    free(with_call);
    free(launched);
    free(tuned);
    free(computed);
    free(bare);
}

static void another_constexpr_is_said_without_a_block(void **state)
{
    (void)state;
    kd_kernel k = {.name = (char *)"k",
                   .frontend_info = (char *)"{\"params\": [{\"name\": \"casting_mode\", \"kind\": \"constexpr\"}], \"launches\": []}"};
    kd_strbuf why = {0};
    assert_true(list_refuses(&k, NULL, NULL, "f.py", &why));
    assert_string_equal(kd_sb_str(&why), "tl.constexpr 'casting_mode' of kernel 'k' needs a value: --arg casting_mode=VALUE, "
                                         "`# kerndiff: casting_mode=VALUE` in f.py, or a default in the signature");
    kd_sb_free(&why);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(refused_in_the_diffs_words),
        cmocka_unit_test(launchable_when_something_gives_it),
        cmocka_unit_test(another_constexpr_is_said_without_a_block),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
