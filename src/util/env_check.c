/* The KERNDIFF_* variables the user set, checked against util/env.c's table (util/env.h:
 * kd_env_check). Apart from env.c, which the injection library is built with alone. */
#include "util/env.h"

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/strbuf.h"
#include "util/suggest.h"
#include "util/util_msgs.h"

/* The values a knob takes, for those that take a word (the others take a path, a number or
 * anything non-empty). An empty value reads as unset everywhere and always passes. */
static const char *const knob_values[KD_ENV_COUNT] = {
    [KD_ENV_TIMER] = "events",
    [KD_ENV_SASS_CACHE] = "on, off",
    [KD_ENV_TRACE] = "0, 1",
    [KD_ENV_CUPTI_CACHE_CONTROL] = "all, l2, none",
    [KD_ENV_CUPTI_REPLAY] = "kernel, user, user-range",
    [KD_ENV_SIM_COUNTERS] = "unavailable, unknown, cupti-13.0, cupti-13.5, crash-prepare",
    [KD_ENV_SWEEP_FRESH] = "0, 1, ahead",
    [KD_ENV_COUNTER_PREP] = "default, touch, memset, read, discard, clean, none, pages, limit, reset, inside, icache, tlb",
    [KD_ENV_COUNTERS_FRESH] = "0, 1",
};

/* Prefixes of the variables kerndiff sets for the programs it runs (app/, capture): a user's
 * shell that inherited one is not a misspelling. */
static const char *const passed_to_children[] = {"KERNDIFF_APP_", "KERNDIFF_CAPTURE_", NULL};

static bool value_listed(const char *value, const char *values)
{
    size_t n = strlen(value);
    for (const char *p = values; *p;) {
        size_t len = strcspn(p, ",");
        if (len == n && strncmp(p, value, n) == 0)
            return true;
        p += len;
        p += strspn(p, ", ");
    }
    return false;
}

extern char **environ;

int kd_env_check(void)
{
    const kd_env_entry *table = kd_env_table();
    const char *names[KD_ENV_COUNT];
    size_t nnames = 0;
    kd_strbuf known = {0};
    for (int v = 0; v < KD_ENV_COUNT; v++)
        if (strncmp(table[v].name, "KERNDIFF_", 9) == 0) {
            names[nnames++] = table[v].name;
            kd_sb_printf(&known, "%s%s", known.len ? ", " : "", table[v].name);
        }
    int bad = 0;
    for (char **e = environ; e && *e; e++) {
        const char *eq = strchr(*e, '=');
        if (strncmp(*e, "KERNDIFF_", 9) != 0 || !eq)
            continue;
        char name[128];
        snprintf(name, sizeof name, "%.*s", (int)(eq - *e), *e);
        bool child = false;
        for (const char *const *p = passed_to_children; *p && !child; p++)
            child = strncmp(name, *p, strlen(*p)) == 0;
        int v = 0;
        while (v < KD_ENV_COUNT && strcmp(table[v].name, name) != 0)
            v++;
        if (v == KD_ENV_COUNT && !child) {
            const char *near = kd_suggest(name, names, nnames);
            if (near)
                kd_say(KD_MSG_UTIL_ENV_UNKNOWN_NEAR, KD_DIAG_NO_SIDE, KD_S(name), KD_S(near), KD_S(kd_sb_str(&known)));
            else
                kd_say(KD_MSG_UTIL_ENV_UNKNOWN, KD_DIAG_NO_SIDE, KD_S(name), KD_S(kd_sb_str(&known)));
        } else if (v < KD_ENV_COUNT && knob_values[v] && eq[1] && !value_listed(eq + 1, knob_values[v])) {
            kd_say(KD_MSG_UTIL_ENV_BAD_VALUE, KD_DIAG_NO_SIDE, KD_S(name), KD_S(eq + 1), KD_S(knob_values[v]));
            bad++;
        }
    }
    kd_sb_free(&known);
    return bad;
}

