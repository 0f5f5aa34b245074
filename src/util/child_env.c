#include "util/child_env.h"

#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "util/xalloc.h"

extern char **environ;

/* Whether `var` ("NAME=VALUE") is one of the names in `unset`. */
static bool is_unset(const char *var, const char *const unset[])
{
    for (size_t j = 0; unset[j]; j++) {
        size_t n = strlen(unset[j]);
        if (strncmp(var, unset[j], n) == 0 && var[n] == '=')
            return true;
    }
    return false;
}

char **kd_child_env(const char *const unset[], char *set[])
{
    size_t n = 0, nset = 0;
    while (environ[n])
        n++;
    while (set[nset])
        nset++;
    char **env = kd_xcalloc(n + nset + 1, sizeof *env);
    size_t k = 0;
    for (size_t i = 0; i < n; i++)
        if (!is_unset(environ[i], unset))
            env[k++] = kd_xstrdup(environ[i]);
    for (size_t i = 0; i < nset; i++)
        env[k++] = set[i];
    return env;
}

void kd_child_env_free(char **env)
{
    for (size_t i = 0; env && env[i]; i++)
        free(env[i]);
    free(env);
}
