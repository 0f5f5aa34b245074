#include "cupti_library.h"

#include <dlfcn.h>
#include <stdbool.h>
#include <stddef.h>

#include "util/env.h"

void *kd_cupti_library(void)
{
    static void *lib;
    static bool tried;
    if (tried)
        return lib;
    tried = true;
    const char *candidates[] = {kd_env(KD_ENV_CUPTI_LIBRARY), "libcupti.so.13", "libcupti.so",
                                "/usr/local/cuda/targets/x86_64-linux/lib/libcupti.so",
                                "/usr/local/cuda/extras/CUPTI/lib64/libcupti.so"};
    for (size_t i = 0; !lib && i < sizeof candidates / sizeof *candidates; i++)
        if (candidates[i] && *candidates[i])
            lib = dlopen(candidates[i], RTLD_NOW | RTLD_LOCAL);
    return lib;
}
