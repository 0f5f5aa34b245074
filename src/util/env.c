/* The environment variables kerndiff reads (util/env.h). */
#include "util/env.h"

#include <stdlib.h>

/* Nothing else of util/ here: the injection library (harness/inject.c) is built with this
 * file alone. The check of what the user set is util/env_check.c. */

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
    [KD_ENV_WIDTH] = {"KERNDIFF_WIDTH", "N: the terminal report fitted to N columns wherever stdout goes; 0: not fitted (tests)"},
    [KD_ENV_CALIBRATION] = {"KERNDIFF_CALIBRATION", "the A/A calibration record to read instead of kerndiff-calibration.txt beside the harness programs"},
    [KD_ENV_NO_COLOR] = {"NO_COLOR", NULL},
    [KD_ENV_COLUMNS] = {"COLUMNS", NULL},
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
