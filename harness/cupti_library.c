#include "cupti_library.h"

#include <dlfcn.h>
#include <pthread.h>
#include <stddef.h>
#include <string.h>

#include <cupti_result.h>

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

const char *kd_cupti_resolve(void *table, const kd_cupti_symbol *symbols, size_t n)
{
    void *handle = kd_cupti_library();
    for (size_t i = 0; i < n; i++) {
        void *f = handle ? dlsym(handle, symbols[i].name) : NULL;
        if (!f)
            return symbols[i].name;
        memcpy((char *)table + symbols[i].offset, &f, sizeof f);
    }
    return NULL;
}

const char *kd_cupti_result_text(int rc)
{
    void *handle = kd_cupti_library();
    void *f = handle ? dlsym(handle, "cuptiGetResultString") : NULL;
    CUptiResult (*result_string)(CUptiResult, const char **) = NULL;
    memcpy(&result_string, &f, sizeof f);
    const char *s = NULL;
    return result_string && result_string((CUptiResult)rc, &s) == CUPTI_SUCCESS && s ? s : "unknown CUPTI error";
}
