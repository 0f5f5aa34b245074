/* util/env.h: every variable kerndiff reads is a row of one table, and every one of
 * kerndiff's own (KERNDIFF_*) is documented in docs/OPTIONS.md's Environment section. */
#include "kd_test.h"

#include <stdlib.h>
#include <string.h>

#include "util/env.h"
#include "util/fs.h"

static void every_row_is_named(void **state)
{
    (void)state;
    const kd_env_entry *t = kd_env_table();
    for (int v = 0; v < KD_ENV_COUNT; v++) {
        assert_non_null(t[v].name);
        /* kerndiff's own variables say what they do; the machine's own have no doc */
        assert_int_equal(strncmp(t[v].name, "KERNDIFF_", 9) == 0, t[v].doc != NULL);
        for (int w = 0; w < v; w++)
            assert_string_not_equal(t[v].name, t[w].name);
    }
}

static void reads_the_environment(void **state)
{
    (void)state;
    setenv("KERNDIFF_TRACE", "", 1);
    assert_non_null(kd_env(KD_ENV_TRACE));
    assert_null(kd_env_nonempty(KD_ENV_TRACE)); /* set but empty reads as unset */
    setenv("KERNDIFF_TRACE", "1", 1);
    assert_string_equal(kd_env_nonempty(KD_ENV_TRACE), "1");
    unsetenv("KERNDIFF_TRACE");
    assert_null(kd_env(KD_ENV_TRACE));
    assert_null(kd_env((kd_env_var)KD_ENV_COUNT));
}

/* The docs list each KERNDIFF_* variable (run from the repository root, as make does). */
static void documented_in_options_md(void **state)
{
    (void)state;
    size_t len;
    char *doc = kd_read_file("docs/OPTIONS.md", &len);
    if (!doc)
        skip();
    const char *env = strstr(doc, "## Environment");
    assert_non_null(env);
    const kd_env_entry *t = kd_env_table();
    for (int v = 0; v < KD_ENV_COUNT; v++) {
        if (!t[v].doc)
            continue;
        char quoted[64];
        snprintf(quoted, sizeof quoted, "`%s`", t[v].name);
        if (!strstr(env, quoted))
            fail_msg("%s is read (util/env.h) but not in docs/OPTIONS.md's Environment section", t[v].name);
    }
    free(doc);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(every_row_is_named),
        cmocka_unit_test(reads_the_environment),
        cmocka_unit_test(documented_in_options_md),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
