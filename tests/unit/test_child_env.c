/* util/child_env: a program's environment is ours, less kerndiff's own variables (a stale
 * one from the user's shell), plus the values kerndiff sets. */
#include "kd_test.h"

#include <string.h>

#include "util/child_env.h"
#include "util/xalloc.h"

static size_t count_named(char **env, const char *name)
{
    size_t n = 0, len = strlen(name);
    for (size_t i = 0; env[i]; i++)
        n += strncmp(env[i], name, len) == 0 && env[i][len] == '=';
    return n;
}

static const char *value_of(char **env, const char *name)
{
    size_t len = strlen(name);
    for (size_t i = 0; env[i]; i++)
        if (strncmp(env[i], name, len) == 0 && env[i][len] == '=')
            return env[i] + len + 1;
    return NULL;
}

static void ours_replaced_others_kept(void **state)
{
    (void)state;
    setenv("KD_T_SET", "stale", 1);
    setenv("KD_T_DROPPED", "stale", 1);
    setenv("KD_T_SET_PREFIX", "kept", 1); /* a longer name that starts like one of ours */
    setenv("KD_T_OTHER", "kept", 1);
    static const char *const unset[] = {"KD_T_SET", "KD_T_DROPPED", NULL};
    char *set[] = {kd_xstrdup("KD_T_SET=fresh"), NULL};
    char **env = kd_child_env(unset, set);
    assert_int_equal(count_named(env, "KD_T_SET"), 1);
    assert_string_equal(value_of(env, "KD_T_SET"), "fresh");
    assert_int_equal(count_named(env, "KD_T_DROPPED"), 0);
    assert_string_equal(value_of(env, "KD_T_SET_PREFIX"), "kept");
    assert_string_equal(value_of(env, "KD_T_OTHER"), "kept");
    kd_child_env_free(env);
}

static void nothing_set(void **state)
{
    (void)state;
    setenv("KD_T_GONE", "x", 1);
    setenv("KD_T_OTHER", "kept", 1);
    static const char *const unset[] = {"KD_T_GONE", NULL};
    char *set[] = {NULL};
    char **env = kd_child_env(unset, set);
    assert_null(value_of(env, "KD_T_GONE"));
    assert_non_null(value_of(env, "KD_T_OTHER"));
    kd_child_env_free(env);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(ours_replaced_others_kept),
        cmocka_unit_test(nothing_set),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
