#include "cupti_timer.h"

#include <dlfcn.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cupti_activity.h>

#include "cupti_library.h"

enum { BUFFER_BYTES = 1 << 20 };

static struct {
    CUptiResult (*register_callbacks)(CUpti_BuffersCallbackRequestFunc, CUpti_BuffersCallbackCompleteFunc);
    CUptiResult (*enable)(CUpti_ActivityKind);
    CUptiResult (*disable)(CUpti_ActivityKind);
    CUptiResult (*flush_all)(uint32_t);
    CUptiResult (*next_record)(uint8_t *, size_t, CUpti_Activity **);
} cupti;

static kd_kernel_span pending;
/* Every kernel since the last collect, for kd_cupti_collect_each (a span alone loses them). */
static kd_kernel_record *each;
static size_t neach, each_cap;
static bool each_lost; /* a record that found no room: the list is incomplete */

static void CUPTIAPI buffer_requested(uint8_t **buffer, size_t *size, size_t *max_records)
{
    *buffer = aligned_alloc(8, BUFFER_BYTES);
    *size = *buffer ? BUFFER_BYTES : 0;
    *max_records = 0;
}

static void keep(uint64_t start, uint64_t end)
{
    if (neach == each_cap) {
        size_t cap = each_cap ? 2 * each_cap : 1024;
        kd_kernel_record *grown = realloc(each, cap * sizeof *grown);
        if (!grown) {
            each_lost = true;
            return;
        }
        each = grown;
        each_cap = cap;
    }
    each[neach++] = (kd_kernel_record){start, end};
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
        if (k->name && (strcmp(k->name, "kd_spin") == 0 || strcmp(k->name, "kd_touch") == 0))
            continue;
        if (pending.kernels == 0 || k->start < pending.first_start)
            pending.first_start = k->start;
        if (pending.kernels == 0 || k->end > pending.last_end)
            pending.last_end = k->end;
        pending.kernels++;
        keep(k->start, k->end);
    }
    free(buffer);
}

#define LOAD(field, symbol) memcpy(&cupti.field, &(void *){dlsym(lib, symbol)}, sizeof(void *))

int kd_cupti_start(char *why, size_t why_len)
{
    void *lib = kd_cupti_library();
    if (!lib) {
        snprintf(why, why_len, "libcupti not found");
        return -1;
    }
    LOAD(register_callbacks, "cuptiActivityRegisterCallbacks");
    LOAD(enable, "cuptiActivityEnable");
    LOAD(disable, "cuptiActivityDisable");
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

static void forget(void)
{
    memset(&pending, 0, sizeof pending);
    neach = 0;
    each_lost = false;
}

void kd_cupti_stop(void)
{
    if (!cupti.disable || !cupti.flush_all)
        return;
    cupti.flush_all(CUPTI_ACTIVITY_FLAG_FLUSH_FORCED);
    cupti.disable(CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL);
    forget();
}

int kd_cupti_collect(kd_kernel_span *span)
{
    if (cupti.flush_all(CUPTI_ACTIVITY_FLAG_FLUSH_FORCED) != CUPTI_SUCCESS)
        return -1;
    *span = pending;
    forget();
    return 0;
}

static int by_start(const void *a, const void *b)
{
    const kd_kernel_record *x = a, *y = b;
    return (x->start > y->start) - (x->start < y->start);
}

int kd_cupti_collect_each(kd_kernel_record **records, size_t *n)
{
    *records = NULL;
    *n = 0;
    if (cupti.flush_all(CUPTI_ACTIVITY_FLAG_FLUSH_FORCED) != CUPTI_SUCCESS)
        return -1;
    bool lost = each_lost;
    if (!lost && neach) {
        *records = malloc(neach * sizeof **records);
        lost = !*records;
    }
    if (!lost && neach) {
        memcpy(*records, each, neach * sizeof *each);
        *n = neach;
        qsort(*records, *n, sizeof **records, by_start);
    }
    forget();
    return lost ? -1 : 0;
}
