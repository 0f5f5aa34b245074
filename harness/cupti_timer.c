#include "cupti_timer.h"

#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cupti_activity.h>

enum { BUFFER_BYTES = 1 << 20 };

static struct {
    CUptiResult (*register_callbacks)(CUpti_BuffersCallbackRequestFunc, CUpti_BuffersCallbackCompleteFunc);
    CUptiResult (*enable)(CUpti_ActivityKind);
    CUptiResult (*flush_all)(uint32_t);
    CUptiResult (*next_record)(uint8_t *, size_t, CUpti_Activity **);
} cupti;

static kd_kernel_span pending;

static void CUPTIAPI buffer_requested(uint8_t **buffer, size_t *size, size_t *max_records)
{
    *buffer = aligned_alloc(8, BUFFER_BYTES);
    *size = *buffer ? BUFFER_BYTES : 0;
    *max_records = 0;
}

/* The harness's own spin kernel holds the stream before each sample: not the user's time. */
static void CUPTIAPI buffer_completed(CUcontext ctx, uint32_t stream, uint8_t *buffer, size_t size, size_t valid)
{
    (void)ctx, (void)stream, (void)size;
    CUpti_Activity *record = NULL;
    while (cupti.next_record(buffer, valid, &record) == CUPTI_SUCCESS) {
        if (record->kind != CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL)
            continue;
        const CUpti_ActivityKernel10 *k = (const CUpti_ActivityKernel10 *)record;
        if (k->name && strcmp(k->name, "kd_spin") == 0)
            continue;
        if (pending.kernels == 0 || k->start < pending.first_start)
            pending.first_start = k->start;
        if (pending.kernels == 0 || k->end > pending.last_end)
            pending.last_end = k->end;
        pending.kernels++;
    }
    free(buffer);
}

static void *open_library(void)
{
    const char *env = getenv("KERNDIFF_CUPTI_LIBRARY");
    const char *candidates[] = {env, "libcupti.so.13", "libcupti.so",
                                "/usr/local/cuda/targets/x86_64-linux/lib/libcupti.so",
                                "/usr/local/cuda/extras/CUPTI/lib64/libcupti.so"};
    for (size_t i = 0; i < sizeof candidates / sizeof *candidates; i++) {
        void *lib = candidates[i] && *candidates[i] ? dlopen(candidates[i], RTLD_NOW | RTLD_LOCAL) : NULL;
        if (lib)
            return lib;
    }
    return NULL;
}

#define LOAD(field, symbol) memcpy(&cupti.field, &(void *){dlsym(lib, symbol)}, sizeof(void *))

int kd_cupti_start(char *why, size_t why_len)
{
    void *lib = open_library();
    if (!lib) {
        snprintf(why, why_len, "libcupti not found");
        return -1;
    }
    LOAD(register_callbacks, "cuptiActivityRegisterCallbacks");
    LOAD(enable, "cuptiActivityEnable");
    LOAD(flush_all, "cuptiActivityFlushAll");
    LOAD(next_record, "cuptiActivityGetNextRecord");
    if (!cupti.register_callbacks || !cupti.enable || !cupti.flush_all || !cupti.next_record) {
        snprintf(why, why_len, "libcupti lacks the activity API");
        return -1;
    }
    CUptiResult rc = cupti.register_callbacks(buffer_requested, buffer_completed);
    if (rc == CUPTI_SUCCESS)
        rc = cupti.enable(CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL);
    if (rc != CUPTI_SUCCESS) {
        /* Under a profiler (ncu) the activity API is taken: events will do. */
        snprintf(why, why_len, "CUPTI activity API refused (error %d)", (int)rc);
        return -1;
    }
    return 0;
}

int kd_cupti_collect(kd_kernel_span *span)
{
    if (cupti.flush_all(CUPTI_ACTIVITY_FLAG_FLUSH_FORCED) != CUPTI_SUCCESS)
        return -1;
    *span = pending;
    memset(&pending, 0, sizeof pending);
    return 0;
}
