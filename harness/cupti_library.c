#include "cupti_library.h"

#include <dlfcn.h>
#include <pthread.h>
#include <stddef.h>

#include "util/env.h"

static void *lib;

static void open_once(void)
{
    const char *candidates[] = {kd_env(KD_ENV_CUPTI_LIBRARY), "libcupti.so.13", "libcupti.so",
                                "/usr/local/cuda/targets/x86_64-linux/lib/libcupti.so",
                                "/usr/local/cuda/extras/CUPTI/lib64/libcupti.so"};
    for (size_t i = 0; !lib && i < sizeof candidates / sizeof *candidates; i++)
        if (candidates[i] && *candidates[i])
            lib = dlopen(candidates[i], RTLD_NOW | RTLD_LOCAL);
}

void *kd_cupti_library(void)
{
    /* Once per process, and safely so: in libkerndiff-inject.so the CUDA driver's
     * InitializeInjection and NVTX's InitializeInjectionNvtx2 may ask from two threads. */
    static pthread_once_t once = PTHREAD_ONCE_INIT;
    pthread_once(&once, open_once);
    return lib;
}
