/* The environment variables kerndiff reads (util/env.h). */
#include "util/env.h"

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/strbuf.h"
#include "util/suggest.h"
#include "util/util_msgs.h"

static const kd_env_entry table[KD_ENV_COUNT] = {
    [KD_ENV_NVCC] = {"KERNDIFF_NVCC", "nvcc to use (below --nvcc)"},
    [KD_ENV_PYTHON] = {"KERNDIFF_PYTHON", "the Python with Triton, for .py files (below --python)"},
    [KD_ENV_CUOBJDUMP] = {"KERNDIFF_CUOBJDUMP", "cuobjdump to use"},
    [KD_ENV_NO_GPU] = {"KERNDIFF_NO_GPU", "non-empty and not 0: behave as on a machine without a GPU (static diff only)"},
    [KD_ENV_SIMULATE] = {"KERNDIFF_SIMULATE", "V1SPEC;V2SPEC: use the simulated harness (tests); results say they are synthetic"},
    [KD_ENV_TIMER] = {"KERNDIFF_TIMER", "events: time with CUDA events instead of CUPTI kernel records"},
    [KD_ENV_HARNESS_DIR] = {"KERNDIFF_HARNESS_DIR", "where kerndiff-harness and kerndiff-sim-harness are"},
    [KD_ENV_INCLUDE_DIR] = {"KERNDIFF_INCLUDE_DIR", "where kerndiff/launcher.h is"},
    [KD_ENV_NVML_LIBRARY] = {"KERNDIFF_NVML_LIBRARY", "another NVML library to load"},
    [KD_ENV_CUPTI_LIBRARY] = {"KERNDIFF_CUPTI_LIBRARY", "another CUPTI library to load (unset: a pip-installed CUPTI 13.4+ wheel, where found)"},
    [KD_ENV_TRACE] = {"KERNDIFF_TRACE", "1: print each stage with its time to stderr"},
    [KD_ENV_SASS_CACHE] = {"KERNDIFF_SASS_CACHE", "off: disassemble cached builds again"},
    [KD_ENV_INJECT_LIBRARY] = {"KERNDIFF_INJECT_LIBRARY", "the collector kerndiff app injects"},
    [KD_ENV_NCU_SAVE_DIR] = {"KERNDIFF_NCU_SAVE_DIR", "keep ncu's raw CSV export of each side there"},
    [KD_ENV_COMPUTE_SANITIZER] = {"KERNDIFF_COMPUTE_SANITIZER", "compute-sanitizer to use (below --compute-sanitizer)"},
    [KD_ENV_CUPTI_CACHE_CONTROL] = {"KERNDIFF_CUPTI_CACHE_CONTROL", "all or l2: the in-process counter pass asks CUPTI (13.4 or later) to reset L2 before each pass; none: it does not; unset: all where the loaded CUPTI has it"},
    [KD_ENV_CUPTI_REPLAY] = {"KERNDIFF_CUPTI_REPLAY", "kernel: the in-process counter pass lets CUPTI replay the kernel; user: the harness relaunches it (unset: kernel where CUPTI resets L2 itself, else user); user-range: the launch profiled as one range of its own (an experiment)"},
    [KD_ENV_SIM_COUNTERS] = {"KERNDIFF_SIM_COUNTERS", "unavailable or unknown: the simulated harness refuses `counters` so; cupti-13.0 or cupti-13.5: it answers as that CUPTI's range profiler would; crash-prepare: it dies at `prepare-counters` (tests)"},
    [KD_ENV_SWEEP_FRESH] = {"KERNDIFF_SWEEP_FRESH", "1: a sweep keeps no harness and starts none ahead (the bench's baseline); ahead: none kept, the next point's started ahead; unset or 0: one harness per role serves every point (reset)"},
    [KD_ENV_COUNTER_PREP] = {"KERNDIFF_COUNTER_PREP", "how the in-process counter pass prepares L2 before each pass (an experiment's knob: touch, memset, read, discard, clean, none, pages, limit, reset, inside, icache, tlb)"},
    [KD_ENV_COUNTERS_FRESH] = {"KERNDIFF_COUNTERS_FRESH", "1: the in-process counter pass starts its own harness instead of taking the timing pass's (the bench's baseline)"},
    [KD_ENV_NO_COLOR] = {"NO_COLOR", NULL},
    [KD_ENV_PATH] = {"PATH", NULL},
    [KD_ENV_HOME] = {"HOME", NULL},
    [KD_ENV_TMPDIR] = {"TMPDIR", NULL},
    [KD_ENV_XDG_CACHE_HOME] = {"XDG_CACHE_HOME", NULL},
    [KD_ENV_CUDA_HOME] = {"CUDA_HOME", NULL},
    [KD_ENV_CUDA_PATH] = {"CUDA_PATH", NULL},
    [KD_ENV_CUDA_VISIBLE_DEVICES] = {"CUDA_VISIBLE_DEVICES", NULL},
    [KD_ENV_VIRTUAL_ENV] = {"VIRTUAL_ENV", NULL},
    [KD_ENV_CONDA_PREFIX] = {"CONDA_PREFIX", NULL},
    [KD_ENV_PYENV_ROOT] = {"PYENV_ROOT", NULL},
};

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

const char *kd_env(kd_env_var v)
{
    return v >= 0 && v < KD_ENV_COUNT ? getenv(table[v].name) : NULL;
}

const char *kd_env_nonempty(kd_env_var v)
{
    const char *value = kd_env(v);
    return value && *value ? value : NULL;
}

const kd_env_entry *kd_env_table(void)
{
    return table;
}
