/* locate.h — where kerndiff's parts are. The harness programs: $KERNDIFF_HARNESS_DIR, else
 * beside the kerndiff binary (the build folder), else ../libexec/kerndiff from it (an
 * installation). The CUDA tools: see kd_cuda_tool_path. */
#ifndef KD_HARNESS_LOCATE_H
#define KD_HARNESS_LOCATE_H

#include <stddef.h>

/* The path of harness program `name` ("kerndiff-harness"), malloc'd; NULL if not found. */
char *kd_harness_path(const char *name);
/* A data file (the calibration record) beside the harness programs: $KERNDIFF_HARNESS_DIR,
 * else the tool's folder, else ../libexec/kerndiff; NULL when none is readable. */
char *kd_share_path(const char *name);

/* The folder holding kerndiff's public headers (<kerndiff/launcher.h>):
 * $KERNDIFF_INCLUDE_DIR, else ../include from the binary (build tree and installation). */
char *kd_include_dir(void);

/* A CUDA tool (cuobjdump, nvdisasm, nvcc, ptxas, compute-sanitizer, ncu), malloc'd, or
 * NULL. Found without the PATH that make sets, so that the installed binary and the one in
 * the build folder find the same tools:
 *   1. PATH;
 *   2. $CUDA_HOME/bin, $CUDA_PATH/bin, /usr/local/cuda/bin;
 *   3. the folder remembered at build time (KD_CUDA_TOOLS_DIR, from
 *      scripts/cuda-tools-path.py, when the Makefile defines it);
 *   4. the PyPI wheels' folders (nvidia-cuda-cuobjdump, nvidia-cuda-nvdisasm: what
 *      scripts/install-deps.sh installs), nvidia/cuNN/bin under the site-packages of the
 *      Pythons pip installs into: $VIRTUAL_ENV, the project's .venv beside the build folder
 *      (kd_python_path), $CONDA_PREFIX, ~/.local, pyenv's versions, /usr/local, /usr,
 *      /opt/conda. The newest (last in name order) wins.
 * No Python is run: `env -i` leaves a python3 that may not be the one pip used. */
char *kd_cuda_tool_path(const char *name);

/* The Python that has Triton (.py inputs), malloc'd: $KERNDIFF_PYTHON; else the project's
 * virtual environment beside the build folder (BUILD/../.venv/bin/python3: where the system
 * Python is externally managed, PEP 668, scripts/install-deps.sh installs Triton there);
 * else "python3", looked up on PATH when it runs. --python overrides all of them. */
char *kd_python_path(void);

/* The libcupti of the newest nvidia-cuda-cupti wheel (PyPI) whose version is at least `floor`
 * (major*10000 + minor*100 + patch: 130400 for 13.4), malloc'd, or NULL: found from the
 * .dist-info folders in the site-packages of the same prefixes as step 4 above. The harness
 * loads it in place of the toolkit's when kerndiff starts one (wire/child.c): CUPTI 13.4 added
 * the range profiler's cache control, which makes its counters agree with ncu's
 * (docs/COUNTERS.md), and a 13.5 wheel runs on a CUDA 13.0 driver. */
enum { KD_CUPTI_CACHE_CONTROL_VERSION = 130400 };
char *kd_cupti_wheel_library(unsigned floor);

/* One of kerndiff's parts and where it was found (path NULL: not found). */
typedef struct kd_part {
    const char *name;  /* "cuobjdump", "kerndiff-harness", ... */
    const char *needed_for; /* what goes without it: "SASS", "timing on a GPU" ... */
    char *path;
} kd_part;

#define KD_PARTS_MAX 12
/* Looks every part up (the CUDA tools, the harnesses, the Triton helper, the public
 * headers); returns how many entries parts[] holds. kd_parts_free frees their paths. */
size_t kd_find_parts(kd_part parts[KD_PARTS_MAX]);
void kd_parts_free(kd_part *parts, size_t n);

#endif
