/* child_env.h — the environment a program kerndiff runs is given (the collector's and the
 * capture's runs, app/): ours, with kerndiff's own variables set to its values and any the
 * user had of them dropped, so a stale one in the user's shell never reaches the program. */
#ifndef KD_UTIL_CHILD_ENV_H
#define KD_UTIL_CHILD_ENV_H

/* A copy of environ without the variables named in `unset` (NULL-terminated names, no '='),
 * followed by `set` (NULL-terminated "NAME=VALUE" strings, malloc'd: taken over, freed with
 * the environment). NULL-terminated; free it with kd_child_env_free. */
char **kd_child_env(const char *const unset[], char *set[]);
void kd_child_env_free(char **env);

#endif
