/* The Triton backend: .py files. Kernels are found by the helper `kerndiff-triton.py list`
 * (Python's ast, no import), compiled ahead of time by `kerndiff-triton.py build` (Triton's
 * own compiler, no GPU, no torch) into PTX + cubin, and the cubin runs in kerndiff-harness
 * like any other: the same timer, L2 flush, placement moves and seeded inputs as CUDA.
 *
 * The compiled signature must match the launch, so the build specialises as Triton's JIT
 * does on the values the launch passes (triton_build.c). Hence the order prepare →
 * describe the launch → build → describe it again (diff/pipeline.c).
 *
 * This file is the backend's row and its scan; each other job has a file of its own beside it
 * (backend/triton.h lists them). */
#include "backend/registry.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "backend/backend_msgs.h"
#include "backend/triton.h"
#include "backend/triton_msgs.h"
#include "source/annotation.h"
#include "source/pykernels.h"
#include "util/fs.h"
#include "util/outcome.h"

static bool claims_python(const char *path) { return kd_source_kind_of(path) == KD_SOURCE_TRITON; }

static int triton_harness(int side, kd_argv *argv, kd_strbuf *why)
{
    (void)side; /* the CUDA harness runs the cubin, alone or beside the other side */
    return kd_backend_find_harness("kerndiff-harness", argv, why);
}

static int triton_scan(const kd_frontend_options *opts, const char *path, const char *side, kd_kernel_list *kernels,
                       kd_annotations *annotations)
{
    size_t len;
    char *text = kd_read_file(path, &len);
    if (!text) {
        kd_say_sided(KD_MSG_TRITON_CANNOT_READ, side, KD_S(path), KD_S(strerror(errno)));
        return KD_FAIL_INPUT;
    }
    if (annotations)
        kd_annotations_parse(text, len, annotations);
    free(text);
    kd_spawn_result r;
    int rc = kd_triton_run_helper(opts, side, (const char *const[5]){"list", path}, KD_TRITON_LIST_TIMEOUT_MS, &r);
    if (rc == KD_OK) {
        kd_strbuf why = {0};
        if (r.exit_code != 0 || r.signal)
            rc = kd_triton_helper_failed(&r, side, "listing the Triton kernels", opts);
        else if (kd_pykernels_parse(kd_sb_str(&r.out), kernels, &why) != 0) {
            kd_say(KD_MSG_TRITON_LIST_UNREADABLE, kd_triton_side_no(side), KD_S(kd_sb_str(&why)));
            rc = KD_FAIL_TOOL;
        }
        kd_sb_free(&why);
        kd_spawn_result_free(&r);
    }
    return rc;
}

const kd_backend kd_backend_triton = {
    .name = "triton",
    .needs_gpu = true,
    .claims = claims_python,
    .harness = triton_harness,
    .scan = triton_scan,
    .configs = kd_triton_configs,
    .prefetch = kd_triton_prefetch,
    .prepare = kd_triton_prepare,
    .build = kd_triton_build,
    .build_instrumented = kd_triton_build_instrumented,
};
