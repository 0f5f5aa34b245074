#include "source/kinds.h"

#include <stddef.h>
#include <string.h>
#include <strings.h>

static const struct {
    const char *suffix;
    kd_source_kind kind;
} suffixes[] = {
    {".cu", KD_SOURCE_CUDA},
    {".cuh", KD_SOURCE_CUDA_HEADER},
    {".h", KD_SOURCE_CUDA_HEADER},
    {".hpp", KD_SOURCE_CUDA_HEADER},
    {".hh", KD_SOURCE_CUDA_HEADER},
    {".hxx", KD_SOURCE_CUDA_HEADER},
    {".py", KD_SOURCE_TRITON},
    {".ptx", KD_SOURCE_PTX},
    {".cubin", KD_SOURCE_CUBIN},
    {".c", KD_SOURCE_HOST},
    {".cc", KD_SOURCE_HOST},
    {".cpp", KD_SOURCE_HOST},
    {".cxx", KD_SOURCE_HOST},
};
enum { N_SUFFIXES = sizeof suffixes / sizeof *suffixes };

/* The row of path's suffix, or -1; `fold`: compared without case. */
static int row_of(const char *path, bool fold)
{
    if (!path)
        return -1;
    const char *slash = strrchr(path, '/');
    const char *dot = strrchr(slash ? slash + 1 : path, '.');
    if (!dot)
        return -1;
    for (int i = 0; i < N_SUFFIXES; i++)
        if ((fold ? strcasecmp(dot, suffixes[i].suffix) : strcmp(dot, suffixes[i].suffix)) == 0)
            return i;
    return -1;
}

kd_source_kind kd_source_kind_of(const char *path)
{
    int i = row_of(path, false);
    return i < 0 ? KD_SOURCE_UNKNOWN : suffixes[i].kind;
}

bool kd_source_is_kernel(const char *path)
{
    switch (kd_source_kind_of(path)) {
    case KD_SOURCE_CUDA:
    case KD_SOURCE_TRITON:
    case KD_SOURCE_PTX:
    case KD_SOURCE_CUBIN:
        return true;
    case KD_SOURCE_UNKNOWN:
    case KD_SOURCE_CUDA_HEADER:
    case KD_SOURCE_HOST:
        break;
    }
    return false;
}

const char *kd_source_guarded_suffix(const char *path)
{
    int i = row_of(path, true);
    return i < 0 ? NULL : suffixes[i].suffix;
}
