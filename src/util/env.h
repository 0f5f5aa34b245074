/* Every environment variable kerndiff reads, in one table (issue 29): its name, and what it
 * does (docs/OPTIONS.md's "Environment" section lists the same; tests/unit/test_env.c keeps
 * them in step). Code asks kd_env(KD_ENV_X) instead of calling getenv. */
#ifndef KD_UTIL_ENV_H
#define KD_UTIL_ENV_H

typedef enum kd_env_var {
    KD_ENV_NVCC,
    KD_ENV_PYTHON,
    KD_ENV_CUOBJDUMP,
    KD_ENV_NO_GPU,
    KD_ENV_SIMULATE,
    KD_ENV_TIMER,
    KD_ENV_HARNESS_DIR,
    KD_ENV_INCLUDE_DIR,
    KD_ENV_NVML_LIBRARY,
    KD_ENV_CUPTI_LIBRARY,
    KD_ENV_TRACE,
    KD_ENV_SASS_CACHE,
    KD_ENV_INJECT_LIBRARY,
    KD_ENV_NCU_SAVE_DIR,
    KD_ENV_COMPUTE_SANITIZER,
    KD_ENV_CUPTI_REPLAY,
    KD_ENV_CUPTI_CACHE_CONTROL,
    KD_ENV_SIM_COUNTERS,
    KD_ENV_SWEEP_FRESH,
    KD_ENV_COUNTER_PREP,
    KD_ENV_COUNTERS_FRESH,
    KD_ENV_WIDTH,
    KD_ENV_CALIBRATION,
    /* Not kerndiff's own: where things are on this machine. */
    KD_ENV_NO_COLOR,
    KD_ENV_COLUMNS,
    KD_ENV_PATH,
    KD_ENV_HOME,
    KD_ENV_TMPDIR,
    KD_ENV_XDG_CACHE_HOME,
    KD_ENV_CUDA_HOME,
    KD_ENV_CUDA_PATH,
    KD_ENV_CUDA_VISIBLE_DEVICES,
    KD_ENV_VIRTUAL_ENV,
    KD_ENV_CONDA_PREFIX,
    KD_ENV_PYENV_ROOT,
    KD_ENV_COUNT
} kd_env_var;

typedef struct kd_env_entry {
    const char *name;
    const char *doc; /* one line; NULL for the machine's own variables */
} kd_env_entry;

/* The variable's value, or NULL when unset. */
const char *kd_env(kd_env_var v);
/* Its value when set and non-empty, else NULL. */
const char *kd_env_nonempty(kd_env_var v);
/* The table, for --help, docs and tests. */
const kd_env_entry *kd_env_table(void);

/* Looks at every KERNDIFF_* variable set: says each unknown name (a warning: the closest
 * known name and the list; KD_MSG_UTIL_ENV_UNKNOWN) and each knob whose value is not one it
 * takes (KD_MSG_UTIL_ENV_BAD_VALUE), which a harness or pass would otherwise read as unset
 * (KERNDIFF_TIMER=evnts timed with CUPTI, silently). Returns the number of bad values: the
 * caller refuses to run when it is not 0. Variables kerndiff sets for the programs it runs
 * (KERNDIFF_APP_*, KERNDIFF_CAPTURE_*) are not the user's knobs and pass. */
int kd_env_check(void);

#endif
