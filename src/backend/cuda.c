/* The CUDA C++ backend: .cu (and .cuh, .cpp) files, built by nvcc, run by kerndiff-harness. */
#include "backend/registry.h"

#include <string.h>

static bool claims_cuda(const char *path)
{
    (void)path; /* nvcc decides what it can compile; the CUDA backend is the fallback */
    return true;
}

static int cuda_harness(int side, kd_argv *argv, kd_strbuf *why)
{
    (void)side; /* one program holds one side or both */
    return kd_backend_find_harness("kerndiff-harness", argv, why);
}

const kd_backend kd_backend_cuda = {
    .name = "cuda",
    .needs_gpu = true,
    .claims = claims_cuda,
    .harness = cuda_harness,
};
