#include "app/activity.h"

#include <stdlib.h>
#include <string.h>

#include "util/xalloc.h"

/* Grows an array of `size`-byte items to hold one more. */
static void reserve(void **items, size_t n, size_t *cap, size_t size)
{
    if (n < *cap)
        return;
    size_t want = *cap ? *cap * 2 : 32;
    *items = kd_xreallocarray(*items, want, size);
    *cap = want;
}

void kd_app_add_kernel(kd_app_activity *a, const char *name, const kd_app_config *cfg, const kd_app_kernel_launches *l)
{
    kd_app_kernel *k = NULL;
    for (size_t i = 0; i < a->nkernels && !k; i++)
        if (!strcmp(a->kernels[i].name, name) && !memcmp(&a->kernels[i].config, cfg, sizeof *cfg))
            k = &a->kernels[i];
    if (!k) {
        reserve((void **)&a->kernels, a->nkernels, &a->kernels_cap, sizeof *a->kernels);
        k = &a->kernels[a->nkernels++];
        *k = (kd_app_kernel){.name = kd_xstrdup(name), .config = *cfg, .min_ns = l->min_ns};
    }
    k->count += l->count;
    k->total_ns += l->total_ns;
    if (l->min_ns < k->min_ns)
        k->min_ns = l->min_ns;
    if (l->max_ns > k->max_ns)
        k->max_ns = l->max_ns;
}

void kd_app_add_api(kd_app_activity *a, const char *name, bool driver, uint64_t count, uint64_t ns)
{
    for (size_t i = 0; i < a->napis; i++)
        if (a->apis[i].driver == driver && !strcmp(a->apis[i].name, name)) {
            a->apis[i].count += count;
            a->apis[i].ns += ns;
            return;
        }
    reserve((void **)&a->apis, a->napis, &a->apis_cap, sizeof *a->apis);
    a->apis[a->napis++] = (kd_app_api){.name = kd_xstrdup(name), .driver = driver, .count = count, .ns = ns};
}

void kd_app_activity_free(kd_app_activity *a)
{
    for (size_t i = 0; i < a->nkernels; i++)
        free(a->kernels[i].name);
    for (size_t i = 0; i < a->napis; i++)
        free(a->apis[i].name);
    free(a->kernels);
    free(a->apis);
    memset(a, 0, sizeof *a);
}

const char *kd_app_copy_kind_name(int kind)
{
    static const char *const names[KD_COPY_KINDS] = {"unknown", "HtoD", "DtoH", "HtoA", "AtoH", "AtoA",
                                                     "AtoD", "DtoA", "DtoD", "HtoH", "PtoP"};
    return kind >= 0 && kind < KD_COPY_KINDS ? names[kind] : "other";
}

static uint64_t count_calls(const kd_app_activity *a, const char *const *patterns)
{
    uint64_t by_domain[2] = {0, 0};
    for (size_t i = 0; i < a->napis; i++)
        for (const char *const *p = patterns; *p; p++)
            if (strstr(a->apis[i].name, *p)) {
                by_domain[a->apis[i].driver] += a->apis[i].count;
                break;
            }
    return by_domain[0] > by_domain[1] ? by_domain[0] : by_domain[1];
}

uint64_t kd_app_allocations(const kd_app_activity *a)
{
    static const char *const patterns[] = {"Malloc", "MemAlloc", NULL};
    return count_calls(a, patterns);
}

uint64_t kd_app_synchronisations(const kd_app_activity *a)
{
    static const char *const patterns[] = {"Synchronize", NULL};
    return count_calls(a, patterns);
}

uint64_t kd_app_kernel_ns(const kd_app_activity *a)
{
    uint64_t ns = 0;
    for (size_t i = 0; i < a->nkernels; i++)
        ns += a->kernels[i].total_ns;
    return ns;
}

uint64_t kd_app_launches(const kd_app_activity *a)
{
    uint64_t n = 0;
    for (size_t i = 0; i < a->nkernels; i++)
        n += a->kernels[i].count;
    return n;
}
